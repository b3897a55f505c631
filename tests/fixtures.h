// Small hand-made workloads and clusters for unit tests, with round numbers so that expected
// times can be worked out by hand; a temporary folder for tests that read files.
#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>

#include "sim/types/cluster.h"
#include "sim/types/schedule.h"
#include "sim/io/units.h"
#include "sim/types/workload.h"

namespace scalecast::testing {

// A fresh folder under the system's temporary directory, removed with its files at the end.
class TempFolder {
 public:
  TempFolder() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("scalecast_test_" + std::to_string(std::random_device{}()) + "_" +
             std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  void write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((path_ / name).parent_path());
    std::ofstream(path_ / name) << text;
  }

 private:
  std::filesystem::path path_;
};

// A minimal valid scenario (14 lines: tests name lines of it and of what they append).
inline const std::string kBaseScenario = R"(name: base
model:
  name: resnet50
  batch_per_gpu: 64
gpu:
  type: v100-pcie
cluster:
  gpus_per_node: 4
  fabric: pcie3
  network:
    bandwidth: 10Gbps
    transport: tcp
methods: [bsp-allreduce, wfbp-allreduce]
gpus: [4, 8, 16]
)";;

// `layers` layers, each 1 ms forward, 2 ms backward and one gradient tensor of `bytes`.
inline Workload uniform_workload(int layers, double bytes, double forward_s = 1e-3,
                                 double backward_s = 2e-3) {
  Workload w;
  w.model = "uniform";
  w.batch_per_gpu = 32;
  for (int l = 0; l < layers; ++l) {
    Layer layer;
    layer.name = "layer" + std::to_string(l);
    layer.kind = "linear";
    layer.forward_s = forward_s;
    layer.backward_s = backward_s;
    layer.grads.push_back({layer.name + ".weight", static_cast<int64_t>(bytes / 4),
                           static_cast<int64_t>(bytes)});
    w.layers.push_back(layer);
  }
  return w;
}

// nodes x gpus_per_node GPUs over PCIe gen3 and a NIC of `gbps` with the transport's defaults.
inline Cluster simple_cluster(int nodes, int gpus_per_node, double gbps = 10,
                              Transport t = Transport::tcp) {
  Cluster c;
  c.gpu = "v100-pcie";
  c.nodes = nodes;
  c.gpus_per_node = gpus_per_node;
  c.fabric = default_fabric("pcie3");
  c.nic_bandwidth = Rate(gbps * units::kGbps);
  c.transport = t;
  c.net = default_transport_params(t);
  c.ps.placement = Placement::dedicated;
  c.ps.gpus_per_server = gpus_per_node;
  return c;
}

// A push or pull of `bytes` to parameter server 0, after the tasks `deps`.
inline Task ps_transfer(int id, CommOp op, double bytes, TaskDeps deps = {}) {
  Task t;
  t.id = id;
  t.kind = TaskKind::comm;
  t.op = op;
  t.bytes = bytes;
  t.server = 0;
  t.deps = std::move(deps);
  return t;
}

}  // namespace scalecast::testing
