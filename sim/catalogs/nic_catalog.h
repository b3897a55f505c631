// The NIC catalog: the network adapters GPU nodes ship with, their line rate, transport, latency
// and what the collective library learns of them, each from its data sheet or its plugin's source.
#pragma once

#include <string>
#include <vector>

#include "sim/types/cluster.h"

namespace scalecast {

struct NicSpec {
  std::string name;              // catalog key, e.g. "connectx-7"
  std::string description;
  double line_rate = 0;          // bytes/s of one device (one port) as the library uses it
  Transport transport = Transport::rdma;
  double latency_s = 0;          // one-way latency of a small message between two nodes
  // What NCCL's net plugin reports as the device's latency: its tuning adds it to every network
  // step when it picks an algorithm (IB verbs and sockets report 0).
  double reported_latency_s = 0;
  // Delivers 128-byte-aligned writes in order, so NCCL's LL and LL128 protocols may cross it;
  // false: the plugin sets NCCL_PROTO=simple.
  bool ordered_writes = true;
  // NCCL's socket transport: helper threads per connection and sockets each
  // (NCCL_SOCKET_NTHREADS, NCCL_NSOCKS_PERTHREAD auto-detected from the NIC's PCI vendor).
  int socket_threads = 0;
  int sockets_per_thread = 0;
  std::string source;
};

const std::vector<NicSpec>& nic_catalog();
// Throws an InputError naming the known NICs.
const NicSpec& find_nic(const std::string& name);
std::vector<std::string> nic_names();

}  // namespace scalecast
