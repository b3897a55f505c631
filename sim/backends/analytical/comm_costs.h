// Durations the analytical backend gives communication tasks: collectives from the closed-form
// costs, parameter-server transfers as per-link byte counts for the fair-shared links.
#pragma once

#include "sim/network/link_capacities.h"
#include "sim/types/schedule.h"

namespace scalecast {

// Time of a collective task (all-reduce, all-gather, reduce-scatter, reduce or broadcast) running
// alone, per-call overheads included.
double collective_task_s(const LinkCapacities& links, const Strategy& strategy, const Task& task);

// How each push or pull loads the links of the parameter-server path, in multiples of the
// partition's bytes, so that concurrent transfers share those links fairly; and its node-local
// stage (BytePS: reduce-scatter before a push, all-gather after a pull, on the node's stream).
struct PsPath {
  double fabric_weight = 0;   // a node's GPU link (each GPU's share of the partition crosses its own)
  double worker_weight = 0;   // the worker node's NIC (up for push, down for pull)
  double server_weight = 0;   // the server's NIC (down for push, up for pull); colocated: the
                              // representative node's NIC, which every node's server shares
  double server_own_weight = 0;  // the serving machine's own NIC and cores: every remote worker's
                                 // copy (colocated: on top of the representative share)
  double overhead_s = 0;      // software cost of the request before any byte moves
  double latency_s = 0;       // after the last byte leaves, until it has arrived
  bool colocated = false;     // the server's NIC is a worker node's NIC
  bool node_stage = false;    // a node-local stage runs on the node's NCCL stream
  int shards = 1;             // transfers a partition's network part is made of (one per GPU of
                              // the node with a node-local reduce), each capped as one transfer
  bool network() const { return worker_weight > 0 || server_weight > 0; }
};
PsPath ps_path(const Schedule& schedule, const LinkCapacities& links);

// Bytes/s of the links on that path, and the most a partition's transfers between a node and a
// server carry on their own (streams, host staging, each shard's GPU fabric link).
struct PsCapacities {
  double fabric = 0;
  double worker_nic = 0;
  double server_nic = 0;
  double transfer_cap = 0;
  double worker_io = 0;   // the worker node's ps-lite I/O threads, both ways (0: no such limit)
  double server_io = 0;   // a server's, likewise
};
PsCapacities ps_capacities(const LinkCapacities& links, const PsPath& path);

}  // namespace scalecast
