// The named methods as presets of the strategy knobs, and the knobs' names for files and output.
// Each preset cites the system whose behaviour it reproduces.
#include "sim/types/strategy.h"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

#include "sim/io/input_error.h"

namespace scalecast {
namespace {

struct PresetEntry {
  std::string description;
  std::function<void(Strategy&)> configure;
};

Strategy allreduce_base() {
  Strategy s;
  s.aggregation = Aggregation::allreduce;
  s.algorithm = "auto";
  return s;
}

// A blocking collective called from Python once per tensor (DistML's cupy NCCL, FTlib's
// torch.distributed): the interpreter's call, the hand-off to the library's thread and back, and
// the wait on the result. An estimate, not a measurement: a few tens of microseconds for each of
// those steps; a scenario sets its own with strategy.call_overhead, calibration does not fit it.
constexpr double kPythonBlockingCall_s = 150e-6;

// One blocking all-reduce per tensor after the whole backward pass, called from Python.
Strategy blocking_per_tensor_base() {
  Strategy s = allreduce_base();
  s.timing = Timing::after_backward;
  s.grouping = Grouping::per_tensor;
  s.call_overhead_s = kPythonBlockingCall_s;
  return s;
}

// Horovod (Sergeev and Del Balso, 2018) handles each tensor in its background thread: it
// negotiates readiness with the other ranks (an MPI exchange), launches NCCL and polls the
// completion event. An estimate of that cost per message, within the 0.1-0.5 ms per tensor that
// the ddl-benchmarks WFBP rows imply; a scenario can set it (strategy.call_overhead).
constexpr double kHorovodPerMessage_s = 250e-6;

Strategy horovod_base() {
  Strategy s = allreduce_base();
  s.call_overhead_s = kHorovodPerMessage_s;
  return s;
}

// BytePS (Jiang et al., OSDI'20): partitions of 4,096,000 bytes, one worker process per node
// that sums its GPUs' gradients before pushing.
Strategy byteps_base() {
  Strategy s;
  s.aggregation = Aggregation::parameter_server;
  s.partition_bytes = 4096000;
  s.node_local_reduce = true;
  s.pull_requests = true;
  s.key_hash = true;
  return s;
}

// BytePS workers pushing each tensor's partitions as soon as it is ready, first come first served.
Strategy byteps_per_tensor() {
  Strategy s = byteps_base();
  s.timing = Timing::as_ready;
  s.grouping = Grouping::per_tensor;
  return s;
}

// DeepSpeed's ZeRO (deepspeed/runtime/zero/config.py): gradients reduced and parameters gathered
// in buckets of 5e8 parameters (reduce_bucket_size, allgather_bucket_size), on a stream of their
// own overlapping the backward (overlap_comm).
constexpr double kDeepSpeedBucketParameters = 5e8;

Strategy deepspeed_base(Sharding sharding) {
  Strategy s = allreduce_base();
  s.sharding = sharding;
  s.grouping = Grouping::bucket;
  s.bucket_parameters = kDeepSpeedBucketParameters;
  return s;
}

// PyTorch FSDP with its defaults (torch/distributed/fsdp): one unit per transformer block
// (transformer_auto_wrap_policy), its gradients reduce-scattered as its backward ends,
// BACKWARD_PRE prefetch (the next unit's all-gather issued as a unit's backward starts) and
// limit_all_gathers (at most two units' all-gathers ahead of the compute: _limiter_utils.py).
Strategy fsdp_base() {
  Strategy s = allreduce_base();
  s.sharding = Sharding::parameters;
  s.grouping = Grouping::unit;
  s.flat_parameters = true;
  return s;
}

const std::map<std::string, PresetEntry>& presets() {
  static const std::map<std::string, PresetEntry> table = {
      {"bsp-allreduce",
       {"one all-reduce of all gradients after the whole backward pass",
        [](Strategy& s) {
          s = allreduce_base();
          s.timing = Timing::after_backward;
          s.grouping = Grouping::single;
        }}},
      {"wfbp-allreduce",
       {"wait-free backprop: one all-reduce per gradient tensor as soon as it is ready "
        "(Horovod, fusion threshold 0)",
        [](Strategy& s) {
          s = horovod_base();
          s.timing = Timing::as_ready;
          s.grouping = Grouping::per_tensor;
        }}},
      {"mgwfbp",
       {"merged-gradient WFBP (Shi et al., INFOCOM'19): tensors merged by the optimal rule "
        "under t = a + b*bytes",
        [](Strategy& s) {
          s = allreduce_base();
          s.grouping = Grouping::mgwfbp;
          // The released code merges any message under 8192 parameters into the next
          // (ddl-benchmarks mgwfbp/hv_distributed_optimizer.py, _generate_groups_mgwfbp).
          s.mgwfbp_min_elements = 8192;
        }}},
      {"ddp",
       {"PyTorch DistributedDataParallel: 25 MB buckets in backward order, first bucket 1 MB",
        [](Strategy& s) {
          s = allreduce_base();
          s.grouping = Grouping::bucket;
          s.bucket_bytes = 25 * 1024 * 1024;
          s.first_bucket_bytes = 1024 * 1024;
        }}},
      {"horovod",
       {"Horovod tensor fusion: a 64 MB fusion buffer flushed every 5 ms cycle",
        [](Strategy& s) {
          s = horovod_base();
          s.grouping = Grouping::fusion;
          s.bucket_bytes = 64 * 1024 * 1024;
          s.cycle_s = 5e-3;
        }}},
      {"bytescheduler-allreduce",
       {"ByteScheduler over Horovod (Peng et al., SOSP'19): partitions of 4M parameters, credit of "
        "16M parameters (16 MB and 64 MB in fp32), priority to the next forward pass's first layers",
        [](Strategy& s) {
          s = horovod_base();
          // BYTESCHEDULER_PARTITION=4000000 and BYTESCHEDULER_CREDIT=16000000 as ddl-benchmarks
          // ran it (bytescheduler/horovod_mpi_cj.sh); both count parameters, not bytes
          // (bytescheduler/docs/scheduling.md, BytePS repository, bytescheduler branch).
          s.partition_parameters = 4000000;
          s.credit_parameters = 16000000;
          s.priority = true;
          s.overlap_next_forward = true;
        }}},
      {"bsp-ps",
       {"BytePS parameter server after the whole backward pass, everything fused",
        [](Strategy& s) {
          s = byteps_base();
          s.timing = Timing::after_backward;
          s.grouping = Grouping::single;
        }}},
      {"wfbp-ps",
       {"BytePS parameter server, each tensor pushed as soon as it is ready",
        [](Strategy& s) { s = byteps_per_tensor(); }}},
      {"bytescheduler-ps",
       {"BytePS with server-side scheduling only, as ddl-benchmarks ran ByteScheduler-PS: workers "
        "push each tensor as soon as it is ready, first come first served",
        [](Strategy& s) {
          // ddl-benchmarks benchmarks.py sets bytescheduler=1 and threshold 0 for this method, and
          // byteps/launch.sh turns that into BYTEPS_SERVER_ENABLE_SCHEDULE=1 alone. Without
          // BYTEPS_SCHEDULING_CREDIT the worker queues stay FIFO with no credit
          // (byteps/common/scheduled_queue.cc: "disable scheduling by default"); BytePS's
          // maintainers: the server flag orders the server's summation engine, the credit is the
          // worker side (bytedance/byteps issue 348). The model does not cost that engine, so
          // this predicts as wfbp-ps.
          s = byteps_per_tensor();
        }}},
      {"bytescheduler-mxnet-ps",
       {"ByteScheduler over MXNet's parameter-server kvstore (Peng et al., SOSP'19): partitions of "
        "1M parameters, a credit of 4M parameters, priority to the next forward's first layers",
        [](Strategy& s) {
          // ByteScheduler's defaults for a parameter server, in parameters
          // (BYTESCHEDULER_PARTITION 1000000, BYTESCHEDULER_CREDIT 4000000:
          // bytescheduler/docs/scheduling.md, BytePS repository, bytescheduler branch). MXNet's
          // dependency engine lets each layer's next forward wait only for its own pull, and the
          // kvstore reduces a node's GPUs before one push per node.
          s = byteps_base();
          s.partition_parameters = 1000000;
          s.credit_parameters = 4000000;
          s.priority = true;
          s.overlap_next_forward = true;
        }}},
      {"fsdp",
       {"PyTorch FSDP FULL_SHARD: each transformer block's parameters all-gathered before its forward "
        "and again before its backward, its gradients reduce-scattered after it",
        [](Strategy& s) { s = fsdp_base(); }}},
      {"fsdp-grad-op",
       {"PyTorch FSDP SHARD_GRAD_OP: a block's parameters gathered before its forward and kept "
        "through its backward, gradients reduce-scattered per block",
        [](Strategy& s) {
          s = fsdp_base();
          s.reshard_after_forward = false;
        }}},
      {"fsdp-hybrid",
       {"PyTorch FSDP HYBRID_SHARD: FULL_SHARD inside each node, each GPU's gradient shard "
        "all-reduced with its peers on the other nodes",
        [](Strategy& s) {
          s = fsdp_base();
          s.shard_in_node = true;
        }}},
      {"zero1",
       {"DeepSpeed ZeRO-1: optimizer state sharded; gradients all-reduced in 5e8-parameter buckets, "
        "updated parameters all-gathered after the step",
        [](Strategy& s) { s = deepspeed_base(Sharding::optimizer); }}},
      {"zero2",
       {"DeepSpeed ZeRO-2: gradients and optimizer state sharded; gradients reduce-scattered in "
        "5e8-parameter buckets during the backward, parameters all-gathered after the step",
        [](Strategy& s) { s = deepspeed_base(Sharding::gradients); }}},
      {"zero3",
       {"DeepSpeed ZeRO-3: everything sharded; each block's parameters gathered before its forward "
        "and backward, gradients reduce-scattered in 5e8-parameter buckets",
        [](Strategy& s) { s = deepspeed_base(Sharding::parameters); }}},
      {"dataparallel",
       {"single-node torch.nn.DataParallel: broadcast from and reduce to GPU 0 every iteration",
        [](Strategy& s) {
          s = Strategy{};
          s.aggregation = Aggregation::root_reduce;
          s.timing = Timing::after_backward;
          s.grouping = Grouping::single;
        }}},
      {"distml-allreduce",
       {"Ray DistML: one blocking all-reduce per tensor after the whole backward pass, "
        "150 us per call from Python",
        [](Strategy& s) { s = blocking_per_tensor_base(); }}},
      {"ftlib-allreduce",
       {"ElasticDL FTlib over torch.distributed's Gloo: one blocking all-reduce per tensor after "
        "the whole backward pass, each staged through pinned host memory and reduced on CPUs",
        [](Strategy& s) {
          // ftlib/commlib/pytorch/impl.py (grad_sync_done): for each parameter in turn,
          // dist.all_reduce(grad) then grad /= world size. ProcessGroupGloo runs an all-reduce of
          // CUDA tensors as AsyncAllreduceCUDAWork: copy to a pinned host tensor, wait, Gloo's
          // ring on the host copies, copy back.
          s = blocking_per_tensor_base();
          s.host_staged = true;
          s.library = CollectiveLibrary::gloo;
        }}},
  };
  return table;
}

}  // namespace

std::vector<PresetInfo> list_presets() {
  std::vector<PresetInfo> out;
  for (const auto& [name, entry] : presets()) out.push_back({name, entry.description});
  return out;
}

bool has_preset(const std::string& name) { return presets().count(name) > 0; }

void size_by_precision(Strategy& s, int element_bytes) {
  if (s.partition_parameters > 0) s.partition_bytes = s.partition_parameters * element_bytes;
  if (s.credit_parameters > 0) s.credit_bytes = s.credit_parameters * element_bytes;
  if (s.bucket_parameters > 0) s.bucket_bytes = s.first_bucket_bytes = s.bucket_parameters * element_bytes;
}

Strategy make_preset(const std::string& name) {
  auto it = presets().find(name);
  if (it == presets().end()) {
    std::string known;
    for (const auto& [n, e] : presets()) known += (known.empty() ? "" : ", ") + n;
    throw InputError("unknown method '" + name + "' (known: " + known + ")");
  }
  Strategy s;
  it->second.configure(s);
  s.method = name;
  size_by_precision(s, 4);
  return s;
}

std::string to_string(Grouping g) {
  switch (g) {
    case Grouping::per_tensor: return "per-tensor";
    case Grouping::bucket: return "bucket";
    case Grouping::fusion: return "fusion";
    case Grouping::mgwfbp: return "mgwfbp";
    case Grouping::single: return "single";
    case Grouping::unit: return "unit";
  }
  return "per-tensor";
}

std::string to_string(Timing t) { return t == Timing::as_ready ? "as-ready" : "after-backward"; }

std::string to_string(Aggregation a) {
  switch (a) {
    case Aggregation::allreduce: return "allreduce";
    case Aggregation::parameter_server: return "parameter-server";
    case Aggregation::root_reduce: return "root-reduce";
  }
  return "allreduce";
}

std::string to_string(Sharding s) {
  switch (s) {
    case Sharding::none: return "none";
    case Sharding::optimizer: return "optimizer";
    case Sharding::gradients: return "gradients";
    case Sharding::parameters: return "parameters";
  }
  return "none";
}

Sharding parse_sharding(const std::string& name) {
  for (Sharding s : {Sharding::none, Sharding::optimizer, Sharding::gradients, Sharding::parameters})
    if (to_string(s) == name) return s;
  throw InputError("unknown sharding '" + name + "' (known: none, optimizer, gradients, parameters)");
}

int shard_group_gpus(const Strategy& s, int gpus, int gpus_per_node) {
  return s.shard_in_node ? std::min(gpus, gpus_per_node) : gpus;
}

std::string to_string(CollectiveLibrary l) { return l == CollectiveLibrary::gloo ? "gloo" : "nccl"; }

CollectiveLibrary parse_collective_library(const std::string& name) {
  if (name == "nccl") return CollectiveLibrary::nccl;
  if (name == "gloo") return CollectiveLibrary::gloo;
  throw InputError("unknown collective library '" + name + "' (known: nccl, gloo)");
}

}  // namespace scalecast
