// Durations the analytical backend gives communication tasks: collectives from the closed-form
// costs, parameter-server transfers as per-link byte counts for the link pipes.
#pragma once

#include "sim/schedule.h"

namespace scalecast {

// Time of an all-reduce, reduce or broadcast task running alone, framework overhead included.
double collective_task_s(const Schedule& schedule, const Task& task);

// How each push or pull loads the links of the parameter-server path, in multiples of the
// partition's bytes, so that concurrent transfers share those links fairly.
struct PsPath {
  double fabric_weight = 0;   // the node's root GPU link: node-local reduce and copy to host
                              // (push), copy back and broadcast (pull)
  double worker_weight = 0;   // the worker node's NIC (up for push, down for pull)
  double server_weight = 0;   // the server's NIC (down for push, up for pull)
  double fixed_s = 0;         // latency and per-request overheads
  bool colocated = false;     // the server's NIC is a worker node's NIC
};
PsPath ps_path(const Schedule& schedule);

// Bytes/s of the links on that path.
struct PsCapacities {
  double fabric = 0;
  double worker_nic = 0;
  double server_nic = 0;
};
PsCapacities ps_capacities(const Schedule& schedule);

}  // namespace scalecast
