// Point-to-point transfers, step by step: what a collective, a push or a pull expands into, the
// form the SimGrid backend replays and the executor runs.
#pragma once

#include <cstddef>
#include <vector>

namespace scalecast::collectives {

// Endpoints: GPU ranks 0..gpus-1 (rank = node * gpus_per_node + local index), then dedicated
// parameter servers gpus..gpus+servers-1.
struct Transfer {
  int src = 0;
  int dst = 0;
  double bytes = 0;
  int piece = 0;  // which piece of the message it carries (pipelined chunks); 0 where one is enough
};

// Transfers of one step run concurrently; a transfer of a later step waits for what its source
// received of the same piece in the latest earlier step it received any (data dependencies).
struct Expansion {
  std::vector<std::vector<Transfer>> steps;
  // Transfers between the same two endpoints also wait for each other, first step first: one
  // connection moving chunks through its buffer in order (NCCL's pipelined chain), so a source
  // that receives nothing still sends one chunk after another.
  bool in_order = false;
  double total_bytes() const;
  std::size_t transfer_count() const;
};

}  // namespace scalecast::collectives
