// The mechanisms a prediction models that can be switched off one at a time (a scenario's
// `switched_off:` list), so that an ablation shows what each one buys and whose it is.
#pragma once

#include <string>
#include <vector>

#include "sim/types/cluster.h"
#include "sim/types/nccl_settings.h"
#include "sim/types/strategy.h"

namespace scalecast {

enum class Mechanism {
  framework_overhead,    // a framework's software cost per message (Horovod, DistML, FTlib)
  fusion_cycle,          // Horovod's fused buffers leave on its background loop's cycle ticks
  mgwfbp_small_merge,    // MG-WFBP merges a message under its minimum size into the next
  credit,                // ByteScheduler's credit bounds the bytes in flight
  priority,              // ByteScheduler's priority order and per-layer next forward
  call_overhead,         // the library's software cost of starting a collective or PS request
  ps_stage_overhead,     // BytePS's host cost per partition in each node-local stage
  core_copy,             // a host core's copy rate bounds a socket or libfabric stream
  library_sockets,       // each library opens its own sockets per connection (NCCL, Gloo, ps-lite)
  host_staging,          // data crosses host memory where the NIC cannot read GPU memory
  in_order_connections,  // transfers between two machines take turns on one connection
  pull_requests,         // ps-lite sends each pull's request behind the pushes on its one socket
  key_hash,              // BytePS picks each partition's server by a hash of its key
  shared_cores,          // a namespace testbed's nodes share the machine's cores
  compute_slowdown,      // computation slows while its GPU communicates
  nccl_protocols,        // NCCL's LL and LL128 protocols next to Simple
  nccl_algorithms,       // NCCL's tree, NVLS and CollNet algorithms next to the ring
  nccl_pipeline_fill,    // NCCL's pipelines fill step by step (the tree's, NVLink SHARP's)
  fsdp_flat_parameters,  // FSDP's passes over each unit's gradient; its gathers at the model's width
};

struct MechanismInfo {
  Mechanism id;
  std::string name;    // as a scenario's switched_off list names it
  std::string what;    // what it models
  std::string source;  // where its default comes from
  std::string off;     // what the prediction does with it switched off
};

// Every switchable mechanism, in the order an ablation reports them.
const std::vector<MechanismInfo>& mechanisms();
std::vector<std::string> mechanism_names();
const MechanismInfo& mechanism_info(Mechanism m);
// Throws an InputError naming the known mechanisms.
Mechanism parse_mechanism(const std::string& name);

// Switching off changes only what the mechanism owns: the cluster's transport figures and
// NCCL's settings when a scenario is read, a method's knobs when its strategy is made.
void switch_off(const std::vector<Mechanism>& off, Cluster& cluster, collectives::nccl::NcclSettings& nccl);
void switch_off(const std::vector<Mechanism>& off, Strategy& strategy);

}  // namespace scalecast
