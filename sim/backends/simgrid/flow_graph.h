// The transfers of one expansion as a dependency graph (a transfer starts once its source holds
// what it forwards), in full, as a symmetry block with ghosts, or for one node's PS traffic.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/collectives/expansion.h"

namespace scalecast::simgrid_backend {

struct Flow {
  int src = 0;
  int dst = 0;
  double bytes = 0;
  int piece = 0;             // the chunk of a pipelined expansion it carries (Transfer::piece)
  int deps = 0;              // flows that must finish before this one starts
  std::vector<int> next;     // flows that wait for this one
  std::vector<int> mirrors;  // block form: ghosts that start and finish with this flow
  bool ghost = false;        // block form: loads links; its finish is its image's
};

struct FlowGraph {
  std::vector<Flow> flows;
  size_t expanded = 0;             // transfers of the whole expansion
  size_t representatives() const;  // flows whose finish counts (not ghosts)
};

// Data dependencies, as NCCL and MPI pipelines run a collective: a transfer of step k waits
// for the transfers into its source of the latest earlier step that has any (what its source
// forwards or sums), not for the whole previous step, so latencies along a ring add up hop by
// hop and a fast hop does not wait for a slow one elsewhere. In an in-order expansion it also
// waits for the previous transfer between the same two endpoints.
FlowGraph full_graph(const collectives::Expansion& expansion);

// For an expansion whose every step is invariant under the shift r -> (r + block) mod ranks,
// replayed on a platform with the same symmetry (identical nodes under one switch, or whole
// leaves), every transfer starts and ends exactly when its image in ranks [0, block) does.
// Keeps those representatives, and as ghosts the transfers from outside into the block: a
// ghost starts with its image so the block's links carry their full load, and counts as
// finished when its image does. Exact while links outside the block that representatives
// cross carry only images of ghosts (no shared host bridge).
FlowGraph block_graph(const collectives::Expansion& expansion, int block, int ranks);

// For parameter-server traffic when every node pushes and pulls every partition alike: the
// transfers whose GPU ends all lie among ranks [0, node_ranks) (GPU ranks end at `gpus`, servers
// follow). Replayed on a platform whose links shared by all nodes (server NICs, leaf uplinks)
// keep the share one node has of them, each transfer ends as in the full replay.
FlowGraph node_graph(const collectives::Expansion& expansion, int node_ranks, int gpus);

}  // namespace scalecast::simgrid_backend
