// The catalog of switchable mechanisms with their sources, and what switching each off sets.
// Defaults and their sources live where the mechanism does (strategy.cpp, cluster.cpp, nccl/).
#include "sim/catalogs/mechanisms.h"
#include "sim/io/input_error.h"

#include <algorithm>
#include <stdexcept>

namespace scalecast {

const std::vector<MechanismInfo>& mechanisms() {
  static const std::vector<MechanismInfo> catalog = {
      {Mechanism::framework_overhead, "framework-overhead",
       "a framework's software cost per message: Horovod negotiates, launches and polls each tensor; "
       "DistML and FTlib call each all-reduce from Python",
       "Horovod 250 us, DistML and FTlib 150 us per message (sim/types/strategy.cpp)", "no cost per message"},
      {Mechanism::fusion_cycle, "fusion-cycle",
       "Horovod's background loop wakes every cycle and fuses the tensors ready by then",
       "HOROVOD_CYCLE_TIME, 5 ms (Horovod's default)", "a buffer leaves as soon as its tensors are ready"},
      {Mechanism::mgwfbp_small_merge, "mgwfbp-small-merge",
       "MG-WFBP merges a message under 8192 parameters into the next, whatever its cost model says",
       "ddl-benchmarks mgwfbp/hv_distributed_optimizer.py", "only the t = a + b*bytes rule merges"},
      {Mechanism::credit, "credit", "ByteScheduler's credit: bytes committed and not yet done, at most",
       "BYTESCHEDULER_CREDIT (bytescheduler/docs/scheduling.md); 16M parameters over Horovod, four "
       "partitions over BytePS",
       "no bound on the bytes in flight"},
      {Mechanism::priority, "priority",
       "ByteScheduler sends the layers the next forward needs first, and each layer's forward waits "
       "only for its own gradients",
       "Peng et al., SOSP'19; ByteScheduler's forward hooks", "readiness order, the next forward after every update"},
      {Mechanism::call_overhead, "call-overhead",
       "the collective library's or PS client's software cost of starting one collective or request",
       "20 us kernel TCP, 10 us RDMA and EFA (sim/types/cluster.cpp)", "no cost per call"},
      {Mechanism::ps_stage_overhead, "ps-stage-overhead",
       "BytePS hands each partition between its loop threads and waits for its CUDA work in each "
       "node-local stage (reduce, device-to-host copy; host-to-device copy, broadcast), one "
       "partition at a time",
       "30 us per partition and stage: an idle loop's 1 us sleep lengthened by Linux's 50 us timer "
       "slack, and a stream synchronization (sim/types/cluster.h, kPsStageOverhead)",
       "node-local stages cost only their transfers"},
      {Mechanism::core_copy, "core-copy",
       "one host core copies a stream's data into and out of sockets or libfabric's buffers",
       "25 Gbit/s per core (sim/types/cluster.cpp, core_copy_bandwidth); NCCL_SOCKET_NTHREADS per stack",
       "streams bound by the NIC alone"},
      {Mechanism::library_sockets, "library-sockets",
       "over kernel TCP each library opens its own sockets per connection, each copied by one core: "
       "NCCL its socket helper threads on each ring channel, or its proxy threads, half a core "
       "each way; a Gloo pair one socket; BytePS one ps-lite connection per worker node and server, "
       "which the node's shards of a partition share",
       "NCCL net_socket.cc and proxy (v2.5.6-v2.27.7); gloo/transport/tcp/pair.cc (5b14351); "
       "ps-lite src/zmq_van.h (2f40b17) and BytePS communicator.cc (v0.2.5)",
       "every connection spreads over 2 sockets, whatever the library (the earlier generic default)"},
      {Mechanism::host_staging, "host-staging",
       "without GPUDirect RDMA (and always with kernel TCP) data crosses host memory over PCIe; "
       "FTlib copies each tensor to the host and back around Gloo's all-reduce",
       "PCIe of the GPU's generation (sim/types/cluster.cpp; network.gpudirect; PyTorch's "
       "ProcessGroupGloo, AsyncAllreduceCUDAWork)",
       "the NIC reads GPU memory directly, and collectives run on the GPU's own memory"},
      {Mechanism::in_order_connections, "in-order-connections",
       "a Gloo pair or a ZeroMQ socket sends one message after another (network.connections: in-order)",
       "Gloo's pairs, ps-lite's ZMQ van", "transfers between two machines share the links fairly"},
      {Mechanism::pull_requests, "pull-requests",
       "ps-lite keeps one ZeroMQ socket per server: a worker's pushes and pull requests leave over "
       "it in order, so each pull waits for the pushes queued before its request",
       "ps-lite src/zmq_van.h and kv_app.h (2f40b17, the commit BytePS v0.2.3-v0.2.5 pins)",
       "a BytePS transfer shares the links with every other in flight (network.connections)"},
      {Mechanism::key_hash, "key-hash",
       "BytePS sends each partition to the server its key hashes to: keys follow the sorted "
       "parameter names, so servers carry uneven loads",
       "byteps/common/global.cc EncodeDefaultKey (djb2, BYTEPS_KEY_HASH_FN's default), "
       "operations.cc and torch/__init__.py (BytePS v0.2.3-v0.2.5)",
       "partitions dealt round robin over the servers in the order they are sent"},
      {Mechanism::shared_cores, "shared-cores",
       "a namespace testbed's nodes share the machine's cores, so host software costs grow with them",
       "cluster.shared_cores (testbed/README.md)", "every node has cores of its own"},
      {Mechanism::compute_slowdown, "compute-slowdown",
       "a GPU's computation runs slower while a collective or transfer of that GPU is in flight "
       "(SMs held by the communication's kernels)",
       "1.6 x the share of the GPU's SMs that NCCL's channels hold, measured on an H200 "
       "(validation/data/h200-gpu-check); cluster.compute_slowdown",
       "computation runs at full speed whatever overlaps it"},
      {Mechanism::nccl_protocols, "nccl-protocols",
       "NCCL's LL and LL128 protocols, picked by size as NCCL's tuner does",
       "NCCL 2.27 src/graph/tuning.cc (sim/network/nccl/)", "Simple only, as NCCL_PROTO=Simple"},
      {Mechanism::nccl_algorithms, "nccl-algorithms",
       "NCCL's tree, NVLS, NVLS-tree and CollNet next to the ring, picked by size as NCCL's tuner does",
       "NCCL 2.27 src/graph/tuning.cc (sim/network/nccl/)", "the ring only, as NCCL_ALGO=Ring"},
      {Mechanism::nccl_pipeline_fill, "nccl-pipeline-fill",
       "a hop forwards a step of NCCL's pipeline only when all of it is in (every hop on Simple, "
       "the network's proxy on any protocol): the tree's first chunk crosses those hops up and "
       "down, NVLink SHARP's stages fill NCCL_STEPS chunks, before data flows at the full rate",
       "NCCL 2.27 src/graph/connect.cc (tree depth), src/enqueue.cc (chunk sizes), "
       "src/device/all_reduce.h (runTreeSplit), src/transport/net.cc (sendProxyProgress), "
       "device.h NCCL_STEPS",
       "latency + bytes / bandwidth, as NCCL's tuning model times it"},
      {Mechanism::fsdp_flat_parameters, "fsdp-flat-parameters",
       "PyTorch FSDP assembles each unit's gradient into its flat parameter's, casts it to the reduce "
       "width and pre-divides it on the GPU before its reduce-scatter, and gathers parameters at the "
       "width the model holds them",
       "torch/distributed/fsdp/_runtime_utils.py, _post_backward_hook (PyTorch 2.0)",
       "gradients reduce-scattered as the backward leaves them; parameters gathered at the gradients' width"},
  };
  return catalog;
}

std::vector<std::string> mechanism_names() {
  std::vector<std::string> names;
  for (const auto& m : mechanisms()) names.push_back(m.name);
  return names;
}

const MechanismInfo& mechanism_info(Mechanism m) {
  for (const auto& info : mechanisms())
    if (info.id == m) return info;
  throw std::logic_error("mechanism missing from the catalog");
}

Mechanism parse_mechanism(const std::string& name) {
  for (const auto& info : mechanisms())
    if (info.name == name) return info.id;
  std::string known;
  for (const auto& n : mechanism_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown mechanism '" + name + "' (known: " + known + ")");
}

namespace {

bool has(const std::vector<Mechanism>& off, Mechanism m) {
  return std::find(off.begin(), off.end(), m) != off.end();
}

}  // namespace

void switch_off(const std::vector<Mechanism>& off, Cluster& c, collectives::nccl::NcclSettings& nccl) {
  if (has(off, Mechanism::call_overhead)) c.net.call_overhead = Seconds();
  if (has(off, Mechanism::ps_stage_overhead)) c.ps.stage_overhead = Seconds();
  if (has(off, Mechanism::core_copy)) c.net.stream_bandwidth = Rate();
  if (has(off, Mechanism::library_sockets) && c.net.streams == 0) c.net.streams = 2;
  if (has(off, Mechanism::host_staging)) c.net.host_staging_bandwidth = Rate();
  if (has(off, Mechanism::in_order_connections)) c.net.in_order_connections = false;
  if (has(off, Mechanism::shared_cores)) c.shared_cores = 0;
  if (has(off, Mechanism::compute_slowdown)) {
    c.compute_slowdown = 0;
    c.compute_slowdown_given = true;
  }
  if (has(off, Mechanism::nccl_protocols)) nccl.proto = "simple";
  if (has(off, Mechanism::nccl_algorithms)) nccl.algo = "ring";
  if (has(off, Mechanism::nccl_pipeline_fill)) nccl.pipeline_fill = false;
}

void switch_off(const std::vector<Mechanism>& off, Strategy& s) {
  if (has(off, Mechanism::framework_overhead)) s.call_overhead_s = 0;
  if (has(off, Mechanism::fusion_cycle)) s.cycle_s = 0;
  if (has(off, Mechanism::mgwfbp_small_merge)) s.mgwfbp_min_elements = 0;
  if (has(off, Mechanism::credit)) s.credit_bytes = s.credit_parameters = 0;
  if (has(off, Mechanism::priority)) s.priority = s.overlap_next_forward = false;
  if (has(off, Mechanism::host_staging)) s.host_staged = false;
  if (has(off, Mechanism::pull_requests)) s.pull_requests = false;
  if (has(off, Mechanism::key_hash)) s.key_hash = false;
  if (has(off, Mechanism::fsdp_flat_parameters)) s.flat_parameters = false;
}

}  // namespace scalecast
