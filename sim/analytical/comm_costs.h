// Durations the analytical backend gives communication tasks: collectives from the closed-form
// costs, parameter-server transfers as per-link byte counts for the link pipes.
#pragma once

#include "sim/schedule.h"

namespace scalecast {

// Time of an all-reduce, reduce or broadcast task running alone, framework overhead included.
double collective_task_s(const Schedule& schedule, const Task& task);

// What one push or pull puts on each link of the parameter-server path, in seconds of that
// link's time, so that overlapping transfers queue on the links they share.
struct PsLinkTimes {
  double worker_fabric_s = 0;   // node-local reduce or broadcast over the fabric
  double worker_nic_s = 0;      // the worker node's NIC (up for push, down for pull)
  double server_nic_s = 0;      // the server's NIC (down for push, up for pull)
  double fixed_s = 0;           // latency and per-request overheads
  bool colocated = false;       // server NIC is a worker node's NIC
};
PsLinkTimes ps_link_times(const Schedule& schedule, const Task& task);

}  // namespace scalecast
