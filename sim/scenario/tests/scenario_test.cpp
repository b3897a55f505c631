// Tests of scenario files: a full scenario parsed field by field, one-line errors for bad input
// (file:line, key path, expectation) and --set overrides.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/fixtures.h"
#include "sim/io/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/io/units.h"

namespace scalecast {
namespace {

const std::string kFull = R"(name: ddl-resnet50-10gbe
description: "ResNet-50 on V100 nodes over 10GbE"
assumptions: ["PCIe gen3 host bridge", "no GPUDirect"]
model:
  name: resnet50
  batch_per_gpu: 64
  seq_len: 64
  vocab_size: 30000
  image_size: 192
  precision: fp16
  optimizer: adam
gpu:
  type: v100-pcie
  single_gpu_throughput: 253.1
  compute_efficiency: 0.6
  memory_efficiency: 0.7
cluster:
  gpus_per_node: 4
  fabric: {kind: pcie3, bandwidth: 8GB/s, latency: 6us, bridge_bandwidth: 12GB/s}
  network:
    bandwidth: 10Gbps
    transport: tcp
    latency: 30us
    efficiency: 0.9
    stream_bandwidth: 20Gbps
    streams: 3
    gpudirect: false
    call_overhead: 15us
  topology: {kind: leaf-spine, nodes_per_leaf: 4, oversubscription: 2}
  parameter_server:
    placement: colocated
    gpus_per_server: 4
    servers: 2
    bandwidth: 25Gbps
strategy:
  allreduce: hierarchical
  bucket_size: 20MB
  first_bucket_size: 1MiB
  fusion_cycle: 3ms
  partition_size: 4MB
  credit: 16MB
  call_overhead: 50us
methods: [bsp-allreduce, ddp, bsp-ps]
gpus: [2, 4, 8, 16]
iterations: 7
)";

// Bad cases edit one line of the minimal scenario, so the line numbers below hold.
const std::string& kBase = testing::kBaseScenario;

std::string replaced(const std::string& from, const std::string& to) {
  if (from.empty()) return to;
  std::string text = kBase;
  const auto at = text.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "base scenario has no '" << from << "'";
    return text;
  }
  return text.replace(at, from.size(), to);
}

// The message of the InputError that parsing throws (empty if it does not throw).
std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    parse_scenario(text, "scen.yaml", sets);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Scenario, FullScenarioParsesEveryField) {
  const Scenario s = parse_scenario(kFull, "dir/full.yaml");
  EXPECT_EQ(s.path, "dir/full.yaml");
  EXPECT_EQ(s.name, "ddl-resnet50-10gbe");
  EXPECT_EQ(s.description, "ResNet-50 on V100 nodes over 10GbE");
  EXPECT_EQ(s.assumptions, (std::vector<std::string>{"PCIe gen3 host bridge", "no GPUDirect"}));

  EXPECT_EQ(s.model.name, "resnet50");
  EXPECT_EQ(s.model.profile, "");
  EXPECT_EQ(s.model.batch_per_gpu, 64);
  EXPECT_EQ(s.model.options.seq_len, 64);
  EXPECT_EQ(s.model.options.vocab_size, 30000);
  EXPECT_EQ(s.model.options.image_size, 192);
  EXPECT_EQ(s.model.options.bytes_per_element, 2);
  EXPECT_EQ(s.model.precision, Precision::fp16);
  EXPECT_EQ(s.model.optimizer, "adam");

  EXPECT_EQ(s.compute.gpu, "v100-pcie");
  EXPECT_DOUBLE_EQ(s.compute.single_gpu_throughput, 253.1);
  EXPECT_DOUBLE_EQ(s.compute.compute_efficiency, 0.6);
  EXPECT_DOUBLE_EQ(s.compute.memory_efficiency, 0.7);

  const Cluster& c = s.cluster;
  EXPECT_EQ(c.gpu, "v100-pcie");
  EXPECT_EQ(c.nodes, 1);
  EXPECT_EQ(c.gpus_per_node, 4);
  EXPECT_EQ(c.fabric.kind, "pcie3");
  EXPECT_DOUBLE_EQ(c.fabric.link_bandwidth.bytes_per_s(), 8e9);
  EXPECT_DOUBLE_EQ(c.fabric.latency.s(), 6e-6);
  EXPECT_DOUBLE_EQ(c.fabric.bridge_bandwidth.bytes_per_s(), 12e9);
  EXPECT_DOUBLE_EQ(c.nic_bandwidth.bytes_per_s(), 10 * units::kGbps);
  EXPECT_EQ(c.transport, Transport::tcp);
  EXPECT_DOUBLE_EQ(c.net.latency.s(), 30e-6);
  EXPECT_DOUBLE_EQ(c.net.efficiency, 0.9);
  EXPECT_DOUBLE_EQ(c.net.stream_bandwidth.bytes_per_s(), 20 * units::kGbps);
  EXPECT_EQ(c.net.streams, 3);
  // gpudirect: false -> the GPU's PCIe (gen3 x16), used at most at the fabric's 8 GB/s
  EXPECT_DOUBLE_EQ(c.net.host_staging_bandwidth.bytes_per_s(), 12e9);
  EXPECT_DOUBLE_EQ(staging_bandwidth(c).bytes_per_s(), 8e9);
  EXPECT_DOUBLE_EQ(c.net.call_overhead.s(), 15e-6);
  EXPECT_EQ(c.topology.kind, TopologyKind::leaf_spine);
  EXPECT_EQ(c.topology.nodes_per_leaf, 4);
  EXPECT_DOUBLE_EQ(c.topology.oversubscription, 2);
  EXPECT_EQ(c.ps.placement, Placement::colocated);
  EXPECT_EQ(c.ps.gpus_per_server, 4);
  EXPECT_EQ(c.ps.servers, 2);
  EXPECT_DOUBLE_EQ(c.ps.nic_bandwidth.bytes_per_s(), 25 * units::kGbps);

  EXPECT_EQ(s.strategy.allreduce, "hierarchical");
  EXPECT_DOUBLE_EQ(s.strategy.bucket_bytes, 20e6);
  EXPECT_DOUBLE_EQ(s.strategy.first_bucket_bytes, units::kMiB);
  EXPECT_DOUBLE_EQ(s.strategy.cycle_s, 3e-3);
  EXPECT_DOUBLE_EQ(s.strategy.partition_bytes, 4e6);
  EXPECT_DOUBLE_EQ(s.strategy.credit_bytes, 16e6);
  EXPECT_DOUBLE_EQ(s.strategy.call_overhead_s, 50e-6);

  EXPECT_EQ(s.methods, (std::vector<std::string>{"bsp-allreduce", "ddp", "bsp-ps"}));
  EXPECT_EQ(s.gpus, (std::vector<int>{2, 4, 8, 16}));
  EXPECT_EQ(s.iterations, 7);
}

TEST(Scenario, AutocastKeepsFp32Gradients) {
  // torch.autocast and TensorFlow's AMP keep fp32 weights: their gradients are fp32; a model held
  // in fp16 (apex O2, model.half()) has fp16 gradients.
  const Scenario half = parse_scenario(kBase, "scen.yaml", {"model.precision=fp16"});
  EXPECT_EQ(half.model.options.bytes_per_element, 2);
  const Scenario autocast =
      parse_scenario(kBase, "scen.yaml", {"model.precision=fp16", "model.mixed_precision=autocast"});
  EXPECT_EQ(autocast.model.options.bytes_per_element, 4);
  EXPECT_EQ(gradient_bytes(Precision::bf16, "half", ""), 2);
  EXPECT_EQ(gradient_bytes(Precision::bf16, "autocast", ""), 4);
  EXPECT_EQ(gradient_bytes(Precision::fp32, "half", ""), 4);
  EXPECT_EQ(gradient_bytes(Precision::bf16, "half", "fp32"), 4);
}

TEST(Scenario, MinimalScenarioTakesDefaults) {
  const Scenario s = parse_scenario(kBase, "scen.yaml");
  const TransportParams tcp = default_transport_params(Transport::tcp);
  EXPECT_EQ(s.description, "");
  EXPECT_TRUE(s.assumptions.empty());
  EXPECT_EQ(s.model.precision, Precision::fp32);
  EXPECT_EQ(s.model.options.bytes_per_element, 4);
  EXPECT_EQ(s.model.optimizer, "sgd");
  EXPECT_EQ(s.compute.single_gpu_throughput, 0);
  EXPECT_DOUBLE_EQ(s.cluster.fabric.link_bandwidth.bytes_per_s(), default_fabric("pcie3").link_bandwidth.bytes_per_s());
  EXPECT_DOUBLE_EQ(s.cluster.net.latency.s(), tcp.latency.s());
  EXPECT_DOUBLE_EQ(s.cluster.net.host_staging_bandwidth.bytes_per_s(), tcp.host_staging_bandwidth.bytes_per_s());
  EXPECT_EQ(s.cluster.topology.kind, TopologyKind::single_switch);
  EXPECT_EQ(s.cluster.ps.placement, Placement::dedicated);
  EXPECT_EQ(s.strategy.allreduce, "");
  EXPECT_EQ(s.strategy.call_overhead_s, -1);
  EXPECT_EQ(s.iterations, 5);
}

TEST(Scenario, ParameterServersWithoutAPlacementAreDedicated) {
  // As without the block: a --set of the server count or a calibrated server NIC rate alone.
  const Scenario s = parse_scenario(kBase, "scen.yaml",
                                    {"cluster.parameter_server.servers=2", "cluster.parameter_server.bandwidth=25Gbps"});
  EXPECT_EQ(s.cluster.ps.placement, Placement::dedicated);
  EXPECT_EQ(s.cluster.ps.servers, 2);
  EXPECT_DOUBLE_EQ(s.cluster.ps.nic_bandwidth.bytes_per_s(), 25e9 / 8);
}

TEST(Scenario, TransportValuesOnABuiltClusterMatchThoseInTheScenario) {
  // A calibrated cluster file applied to a built schedule's cluster (compare --cluster) gives the
  // cluster that loading the scenario under the same values gives.
  const std::vector<std::string> sets = {"cluster.network.latency=95us", "cluster.network.efficiency=0.7",
                                         "cluster.network.call_overhead=40us", "cluster.fabric.bandwidth=5GB/s",
                                         "cluster.network.bandwidth_by_size={4KiB: 0.3, 1MiB: 0.8}",
                                         "cluster.parameter_server.bandwidth=25Gbps",
                                         "cluster.parameter_server.stage_overhead=79us"};
  ScenarioOverrides overrides;
  for (const auto& s : sets) overrides.sets.push_back({s, "cal.yaml"});
  const Cluster want = parse_scenario(kBase, "scen.yaml", overrides).cluster;
  const Cluster got = with_transport_values(parse_scenario(kBase, "scen.yaml").cluster, overrides, "cal.yaml");
  EXPECT_DOUBLE_EQ(got.net.latency.s(), 95e-6);
  EXPECT_DOUBLE_EQ(got.net.latency.s(), want.net.latency.s());
  EXPECT_DOUBLE_EQ(got.net.efficiency, want.net.efficiency);
  EXPECT_DOUBLE_EQ(got.net.call_overhead.s(), want.net.call_overhead.s());
  EXPECT_DOUBLE_EQ(got.fabric.link_bandwidth.bytes_per_s(), want.fabric.link_bandwidth.bytes_per_s());
  EXPECT_DOUBLE_EQ(got.ps.nic_bandwidth.bytes_per_s(), want.ps.nic_bandwidth.bytes_per_s());
  EXPECT_DOUBLE_EQ(got.ps.stage_overhead.s(), 79e-6);
  EXPECT_DOUBLE_EQ(got.ps.stage_overhead.s(), want.ps.stage_overhead.s());
  EXPECT_EQ(got.net.size_curve.anchors(), want.net.size_curve.anchors());
  EXPECT_DOUBLE_EQ(got.net.size_curve.at(4096), 0.3);
}

TEST(Scenario, TransportValuesRefuseWhatABuiltClusterCannotTake) {
  const Cluster base = parse_scenario(kBase, "scen.yaml").cluster;
  for (const std::string set : {"cluster.network.transport=rdma", "cluster.gpus_per_node=8", "cluster.network.nic=cx7"}) {
    ScenarioOverrides o;
    o.sets.push_back({set, "cal.yaml"});
    const std::string key = set.substr(0, set.find('='));
    EXPECT_THROW(
        {
          try {
            with_transport_values(base, o, "cal.yaml");
          } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("cal.yaml " + key + ": expected one of the keys"), std::string::npos)
                << e.what();
            throw;
          }
        },
        InputError);
  }
  ScenarioOverrides bad;
  bad.sets.push_back({"cluster.network.latency=5xs", "cal.yaml"});
  EXPECT_THROW(with_transport_values(base, bad, "cal.yaml"), InputError);
}

TEST(Scenario, SharedCoresAndMessageOverhead) {
  const Scenario s = parse_scenario(kBase, "scen.yaml", {"cluster.shared_cores=2", "cluster.network.message_overhead=30us"});
  EXPECT_EQ(s.cluster.shared_cores, 2);
  EXPECT_DOUBLE_EQ(s.cluster.net.message_overhead.s(), 30e-6);
  const Scenario plain = parse_scenario(kBase, "scen.yaml");
  EXPECT_EQ(plain.cluster.shared_cores, 0);
  EXPECT_EQ(plain.cluster.net.message_overhead.s(), 0);
  EXPECT_THROW(parse_scenario(kBase, "scen.yaml", {"cluster.shared_cores=0"}), InputError);
  EXPECT_THROW(parse_scenario(kBase, "scen.yaml", {"cluster.network.message_overhead=30"}), InputError);
}

TEST(Scenario, GpuDirectAndHostStaging) {
  const std::string rdma = replaced("    transport: tcp", "    transport: rdma");
  EXPECT_EQ(parse_scenario(rdma, "s.yaml").cluster.net.host_staging_bandwidth.bytes_per_s(), 0);
  const Scenario staged = parse_scenario(
      rdma, "s.yaml",
      {"cluster.network.gpudirect=false", "cluster.network.host_staging_bandwidth=6GB/s"});
  EXPECT_DOUBLE_EQ(staged.cluster.net.host_staging_bandwidth.bytes_per_s(), 6e9);
  const Scenario direct =
      parse_scenario(kBase, "s.yaml", {"cluster.network.gpudirect=true"});
  EXPECT_EQ(direct.cluster.net.host_staging_bandwidth.bytes_per_s(), 0);
}

TEST(Scenario, SocketThreadsAndHostCopiedEfa) {
  // NCCL's socket helper threads: the NIC's auto-detected count (AWS ENA: 2), none for a NIC it
  // does not recognise, and what the scenario states (a pod's virtual interface: 0).
  const std::string ena = replaced("    transport: tcp", "    nic: ena");
  EXPECT_EQ(parse_scenario(ena, "s.yaml").cluster.net.socket_threads, 2);
  EXPECT_EQ(parse_scenario(kBase, "s.yaml").cluster.net.socket_threads, 0);
  const Scenario pod = parse_scenario(ena, "s.yaml", {"cluster.network.socket_threads=0"});
  EXPECT_EQ(pod.cluster.net.socket_threads, 0);
  EXPECT_EQ(pod.cluster.net.streams, 0);  // as NCCL opens them (library_sockets)
  const std::string rdma = replaced("    transport: tcp", "    transport: rdma");
  EXPECT_THROW(parse_scenario(rdma, "s.yaml", {"cluster.network.socket_threads=2"}), InputError);
  EXPECT_THROW(parse_scenario(kBase, "s.yaml", {"cluster.network.socket_threads=17"}), InputError);
  // EFA without device RDMA: one core copies each received packet out of libfabric's buffers.
  const std::string efa = replaced("    transport: tcp", "    transport: efa");
  EXPECT_EQ(parse_scenario(efa, "s.yaml").cluster.net.stream_bandwidth.bytes_per_s(), 0);
  EXPECT_DOUBLE_EQ(parse_scenario(efa, "s.yaml", {"cluster.network.gpudirect=false"}).cluster.net.stream_bandwidth.bytes_per_s(),
                   core_copy_bandwidth().bytes_per_s());
  EXPECT_DOUBLE_EQ(parse_scenario(efa, "s.yaml", {"cluster.network.gpudirect=false", "cluster.network.stream_bandwidth=40Gbps"})
                       .cluster.net.stream_bandwidth.bytes_per_s(),
                   40 * units::kGbps);
}

TEST(Scenario, TransformersByShape) {
  const Scenario gpt = parse_scenario(
      replaced("  name: resnet50", "  name: gpt\n  layers: 6\n  hidden: 512\n  heads: 8\n"
                                   "  tied_embeddings: false\n  seq_len: 256"),
      "scen.yaml");
  EXPECT_EQ(gpt.model.options.shape.layers, 6);
  EXPECT_EQ(gpt.model.options.shape.hidden, 512);
  EXPECT_EQ(gpt.model.options.shape.heads, 8);
  EXPECT_EQ(gpt.model.options.shape.intermediate, 0);
  EXPECT_EQ(gpt.model.options.shape.tied_embeddings, std::optional<bool>(false));
  EXPECT_EQ(gpt.model.options.seq_len, 256);
  const Scenario llama = parse_scenario(
      replaced("  name: resnet50", "  name: llama\n  layers: 2\n  hidden: 256\n"
                                   "  intermediate: 688\n  heads: 8\n  kv_heads: 2"),
      "scen.yaml", {"model.layers=4"});
  EXPECT_EQ(llama.model.options.shape.layers, 4);
  EXPECT_EQ(llama.model.options.shape.kv_heads, 2);
  EXPECT_EQ(llama.model.options.shape.intermediate, 688);
  EXPECT_FALSE(llama.model.options.shape.tied_embeddings.has_value());
  EXPECT_EQ(llama.model.attention_kernel, "flash2");
  const Scenario mpt = parse_scenario(
      replaced("  name: resnet50", "  name: gpt\n  layers: 2\n  hidden: 256\n  heads: 4\n"
                                   "  attention: fused\n  attention_kernel: flash1"),
      "scen.yaml");
  EXPECT_EQ(mpt.model.attention_kernel, "flash1");
}

TEST(Scenario, ProfileResolvedAgainstScenarioFolder) {
  testing::TempFolder dir;
  dir.write("profiles/x.csv", "layer,forward_s,backward_s\n");
  dir.write("scen.yaml", replaced("  name: resnet50\n", "  profile: profiles/x.csv\n"));
  const std::string path = (dir.path() / "scen.yaml").string();
  const Scenario s = load_scenario(path);
  EXPECT_EQ(s.path, path);
  EXPECT_EQ(s.model.profile, (dir.path() / "profiles/x.csv").string());
  EXPECT_EQ(s.model.name, "");
}

TEST(Scenario, MissingFileNamesThePath) {
  testing::TempFolder dir;
  const std::string path = (dir.path() / "nope.yaml").string();
  try {
    load_scenario(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
}

TEST(Scenario, LoadedFileErrorsNameTheFile) {
  testing::TempFolder dir;
  dir.write("bad.yaml", replaced("    bandwidth: 10Gbps", "    bandwidth: 10Gbs"));
  const std::string path = (dir.path() / "bad.yaml").string();
  try {
    load_scenario(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":11: cluster.network.bandwidth: ", 0), 0u)
        << e.what();
  }
}

TEST(Scenario, OverridesReplaceValues) {
  const Scenario s = parse_scenario(
      kBase, "scen.yaml",
      {"cluster.network.bandwidth=25Gbps", "gpus=[8,16]", "methods=[bsp-ps]",
       "model.batch_per_gpu=32", "gpus=[2, 8]"});
  EXPECT_DOUBLE_EQ(s.cluster.nic_bandwidth.bytes_per_s(), 25 * units::kGbps);
  EXPECT_EQ(s.gpus, (std::vector<int>{2, 8}));  // the later --set wins
  EXPECT_EQ(s.methods, (std::vector<std::string>{"bsp-ps"}));
  EXPECT_EQ(s.model.batch_per_gpu, 32);
}

TEST(Scenario, OverridesCreateIntermediateMaps) {
  const Scenario s = parse_scenario(
      kBase, "scen.yaml",
      {"strategy.bucket_size=4MB", "cluster.topology={kind: leaf-spine, nodes_per_leaf: 2}",
       "iterations=3"});
  EXPECT_DOUBLE_EQ(s.strategy.bucket_bytes, 4e6);
  EXPECT_EQ(s.cluster.topology.kind, TopologyKind::leaf_spine);
  EXPECT_EQ(s.cluster.topology.nodes_per_leaf, 2);
  EXPECT_DOUBLE_EQ(s.cluster.topology.oversubscription, 1);
  EXPECT_EQ(s.iterations, 3);
}

struct BadCase {
  std::string label;
  std::string from;  // line text of kBase to replace ("" : `to` is the whole file)
  std::string to;
  std::vector<std::string> sets;
  std::string prefix;    // the message starts with this: "scen.yaml:LINE: KEY.PATH: "
  std::string fragment;  // and contains this
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.label; }

class BadScenario : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadScenario, OneLineErrorNamesLineKeyAndExpectation) {
  const BadCase& c = GetParam();
  const std::string message = error_of(replaced(c.from, c.to), c.sets);
  ASSERT_FALSE(message.empty()) << "no error";
  EXPECT_EQ(message.rfind(c.prefix, 0), 0u) << message;
  EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

const std::string kNet = "    transport: tcp";
const std::string kGpus = "gpus: [4, 8, 16]";

INSTANTIATE_TEST_SUITE_P(
    Errors, BadScenario,
    ::testing::Values(
        BadCase{"unknown_top_level_key", kGpus, kGpus + "\ncolour: red", {},
                "scen.yaml:15: colour: ", "expected one of the keys name, description,"},
        BadCase{"unknown_nested_key", kNet, kNet + "\n    bandwith: 25Gbps", {},
                "scen.yaml:13: cluster.network.bandwith: ",
                "expected one of the keys nic, nics, bandwidth, transport, latency"},
        BadCase{"duplicate_key", "  batch_per_gpu: 64", "  batch_per_gpu: 64\n  batch_per_gpu: 8",
                {}, "scen.yaml:5: model.batch_per_gpu: ", "expected each key once"},
        BadCase{"string_for_int", "  batch_per_gpu: 64", "  batch_per_gpu: abc", {},
                "scen.yaml:4: model.batch_per_gpu: ", "expected an integer in [1, 1048576], got 'abc'"},
        BadCase{"map_for_scalar", "  type: v100-pcie", "  type: {name: v100}", {},
                "scen.yaml:6: gpu.type: ", "got a map"},
        BadCase{"list_for_map", "gpu:\n  type: v100-pcie", "gpu: [v100-pcie]", {},
                "scen.yaml:5: gpu: ", "expected a map with the keys type,"},
        BadCase{"map_for_rate", "    bandwidth: 10Gbps", "    bandwidth: {value: 10}", {},
                "scen.yaml:11: cluster.network.bandwidth: ", "expected a data rate, got a map"},
        BadCase{"null_value", "  batch_per_gpu: 64", "  batch_per_gpu:", {},
                "scen.yaml:4: model.batch_per_gpu: ", "got nothing"},
        BadCase{"bad_unit", "    bandwidth: 10Gbps", "    bandwidth: 10Gbs", {},
                "scen.yaml:11: cluster.network.bandwidth: ",
                "expected a data rate with a unit such as 10Gbps, 100Gbit/s, 12GB/s, got '10Gbs'"},
        BadCase{"bare_number_rate", "    bandwidth: 10Gbps", "    bandwidth: 10", {},
                "scen.yaml:11: cluster.network.bandwidth: ",
                "expected a data rate with a unit such as 10Gbps"},
        BadCase{"negative_latency", kNet, kNet + "\n    latency: -5us", {},
                "scen.yaml:13: cluster.network.latency: ", "expected a duration in [0, 10 s], got '-5us'"},
        BadCase{"zero_batch", "  batch_per_gpu: 64", "  batch_per_gpu: 0", {},
                "scen.yaml:4: model.batch_per_gpu: ", "expected an integer in [1, 1048576], got '0'"},
        BadCase{"zero_gpus_per_node", "  gpus_per_node: 4", "  gpus_per_node: 0", {},
                "scen.yaml:8: cluster.gpus_per_node: ", "expected an integer in [1, 1024]"},
        BadCase{"float_for_int", "  gpus_per_node: 4", "  gpus_per_node: 4.5", {},
                "scen.yaml:8: cluster.gpus_per_node: ", "expected an integer in [1, 1024], got '4.5'"},
        BadCase{"efficiency_above_one", kNet, kNet + "\n    efficiency: 1.5", {},
                "scen.yaml:13: cluster.network.efficiency: ",
                "expected a number in [0.01, 1], got '1.5'"},
        BadCase{"gpus_not_multiple_of_node", kGpus, "gpus: [4, 6]", {}, "scen.yaml:14: gpus[1]: ",
                "expected a multiple of gpus_per_node (4)"},
        BadCase{"unknown_model", "  name: resnet50", "  name: resnet51", {},
                "scen.yaml:3: model.name: ", "expected a zoo model (one of"},
        BadCase{"unknown_model_names_profile", "  name: resnet50", "  name: my-net", {},
                "scen.yaml:3: model.name: ", "or for any other model a profile CSV as model.profile"},
        BadCase{"shape_key_for_fixed_model", "  name: resnet50", "  name: gpt2\n  layers: 6", {},
                "scen.yaml:4: model.layers: ", "expected no layers for gpt2 (a fixed shape"},
        BadCase{"shape_key_model_does_not_take", "  name: resnet50",
                "  name: gpt\n  layers: 2\n  hidden: 96\n  heads: 12\n  kv_heads: 4", {},
                "scen.yaml:7: model.kv_heads: ", "expected no kv_heads for gpt (it takes layers,"},
        BadCase{"mlm_positions_beyond_sequence", "  name: resnet50",
                "  name: bert-large\n  seq_len: 128\n  mlm_positions: 200", {}, "scen.yaml:5: model.mlm_positions: ",
                "expected at most model.seq_len (128), got '200'"},
        BadCase{"mlm_positions_without_masked_lm_head", "  name: resnet50",
                "  name: bert-base\n  head: question-answering\n  mlm_positions: 20", {},
                "scen.yaml:5: model.mlm_positions: ", "expected no mlm_positions with head question-answering"},
        BadCase{"bert_key_for_a_decoder", "  name: resnet50", "  name: gpt\n  layers: 2\n  hidden: 96\n  heads: 12\n"
                "  mlm_positions: 20", {}, "scen.yaml:7: model.mlm_positions: ", "expected no mlm_positions for gpt"},
        BadCase{"fp32_reduce_of_fp32_gradients", "  name: resnet50", "  name: resnet50\n  reduce_precision: fp32",
                {}, "scen.yaml:4: model.reduce_precision: ", "expected no reduce_precision unless the model holds "
                "half-width parameters"},
        BadCase{"unknown_reduce_precision", "  name: resnet50", "  name: resnet50\n  precision: bf16\n"
                "  reduce_precision: fp16", {}, "scen.yaml:5: model.reduce_precision: ",
                "expected a gradient reduction width (one of fp32), got 'fp16'"},
        BadCase{"unknown_bert_head", "  name: resnet50", "  name: bert-base\n  head: ner", {},
                "scen.yaml:4: model.head: ", "expected a BERT head (one of pretraining, question-answering), got 'ner'"},
        BadCase{"shape_without_required_key", "  name: resnet50", "  name: gpt\n  hidden: 96\n  heads: 12",
                {}, "scen.yaml:3: model.layers: ", "required key"},
        BadCase{"heads_not_dividing_hidden", "  name: resnet50",
                "  name: gpt\n  layers: 2\n  hidden: 100\n  heads: 12", {},
                "scen.yaml:6: model.heads: ", "expected a divisor of hidden (100), got '12'"},
        BadCase{"kv_heads_not_dividing_heads", "  name: resnet50",
                "  name: llama\n  layers: 2\n  hidden: 96\n  intermediate: 256\n  heads: 12\n"
                "  kv_heads: 5", {}, "scen.yaml:8: model.kv_heads: ", "expected a divisor of heads (12)"},
        BadCase{"unknown_gpu", "  type: v100-pcie", "  type: v200", {}, "scen.yaml:6: gpu.type: ",
                "expected a GPU (one of k80, p100, v100-pcie"},
        BadCase{"unknown_method", "methods: [bsp-allreduce, wfbp-allreduce]",
                "methods: [bsp-allreduce, magic]", {}, "scen.yaml:13: methods[1]: ",
                "expected a method (one of"},
        BadCase{"unknown_fabric", "  fabric: pcie3", "  fabric: pcie9", {},
                "scen.yaml:9: cluster.fabric: ", "expected a fabric (one of pcie3, pcie3-host, pcie4"},
        BadCase{"fabric_as_list", "  fabric: pcie3", "  fabric: [pcie3]", {},
                "scen.yaml:9: cluster.fabric: ", "expected a fabric kind, or a map {kind,"},
        BadCase{"unknown_transport", kNet, "    transport: udp", {},
                "scen.yaml:12: cluster.network.transport: ",
                "expected a transport (one of tcp, rdma, efa), got 'udp'"},
        BadCase{"unknown_allreduce", kGpus, kGpus + "\nstrategy:\n  allreduce: butterfly", {},
                "scen.yaml:16: strategy.allreduce: ",
                "expected an all-reduce algorithm (one of ring, tree, halving-doubling"},
        BadCase{"unknown_attention_kernel", "  batch_per_gpu: 64",
                "  batch_per_gpu: 64\n  attention: fused\n  attention_kernel: flash9", {},
                "scen.yaml:6: model.attention_kernel: ", "expected a fused attention kernel (one of flash2, flash1, flash3)"},
        BadCase{"attention_kernel_without_fused_attention", "  batch_per_gpu: 64",
                "  batch_per_gpu: 64\n  attention_kernel: flash1", {}, "scen.yaml:5: model.attention_kernel: ",
                "expected no attention kernel unless model.attention is fused (it is eager), got 'flash1'"},
        BadCase{"unknown_sequence_lengths", "  name: resnet50", "  name: bert-large\n  seq_len: 512\n"
                "  sequence_lengths: wikipedia", {}, "scen.yaml:5: model.sequence_lengths: ",
                "expected a sequence-length histogram (one of wikipedia-bert-512, squad-1.1-384)"},
        BadCase{"sequence_lengths_at_another_seq_len", "  name: resnet50", "  name: bert-large\n  seq_len: 128\n"
                "  sequence_lengths: wikipedia-bert-512", {}, "scen.yaml:5: model.sequence_lengths: ",
                "expected a histogram cut to model.seq_len (128 tokens; this one was cut to 512: set seq_len: 512)"},
        BadCase{"sequence_lengths_for_images", "  batch_per_gpu: 64",
                "  batch_per_gpu: 64\n  sequence_lengths: squad-1.1-384", {}, "scen.yaml:5: model.sequence_lengths: ",
                "expected no sequence-length histogram for resnet50 (it takes no sequences)"},
        BadCase{"sequence_bin_without_lengths", "  batch_per_gpu: 64", "  batch_per_gpu: 64\n  sequence_bin: 64", {},
                "scen.yaml:5: model.sequence_bin: ",
                "expected model.sequence_lengths beside it (a bin of lengths draws from a histogram)"},
        BadCase{"sequence_bin_longer_than_the_data", "  name: resnet50", "  name: bert-large\n  seq_len: 384\n"
                "  sequence_lengths: squad-1.1-384\n  sequence_bin: 500", {}, "scen.yaml:6: model.sequence_bin: ",
                "expected an integer in [1, 384], got '500'"},
        BadCase{"unknown_precision", "  batch_per_gpu: 64", "  batch_per_gpu: 64\n  precision: fp4",
                {}, "scen.yaml:5: model.precision: ", "expected a precision (one of fp32"},
        BadCase{"empty_file", "", "", {}, "scen.yaml:1: ", "got an empty file"},
        BadCase{"comments_only", "", "# nothing here\n", {}, "scen.yaml:1: ", "empty file"},
        BadCase{"not_yaml", "", "a: [1, 2", {}, "scen.yaml:1: ", "expected valid YAML"},
        BadCase{"top_level_list", "", "- name: x\n- gpus: [1]", {}, "scen.yaml:1: ",
                "expected a map of scenario keys, got a list"},
        BadCase{"missing_required_key", "    bandwidth: 10Gbps\n", "", {},
                "scen.yaml:11: cluster.network.bandwidth: ", "required key, got nothing"},
        BadCase{"missing_section", "name: base\n", "", {}, "scen.yaml:1: name: ", "required key"},
        BadCase{"duplicate_gpu_counts", kGpus, "gpus: [4, 8, 8]", {}, "scen.yaml:14: gpus[2]: ",
                "expected each entry once, got '8'"},
        BadCase{"duplicate_methods", "methods: [bsp-allreduce, wfbp-allreduce]",
                "methods: [bsp-ps, bsp-ps]", {}, "scen.yaml:13: methods[1]: ", "each entry once"},
        BadCase{"empty_methods", "methods: [bsp-allreduce, wfbp-allreduce]", "methods: []", {},
                "scen.yaml:13: methods: ", "expected a non-empty list"},
        BadCase{"non_integer_gpus_entry", kGpus, "gpus: [4, 8.5]", {}, "scen.yaml:14: gpus[1]: ",
                "expected an integer in [1, 1048576], got '8.5'"},
        BadCase{"iterations_one", kGpus, kGpus + "\niterations: 1", {},
                "scen.yaml:15: iterations: ", "expected an integer in [2, 100000], got '1'"},
        BadCase{"profile_missing", "  name: resnet50", "  profile: profiles/nope.csv", {},
                "scen.yaml:3: model.profile: ", "expected an existing profile file"},
        BadCase{"leaf_spine_as_string", "  fabric: pcie3",
                "  fabric: pcie3\n  topology: leaf-spine", {}, "scen.yaml:10: cluster.topology: ",
                "expected single-switch, or a map"},
        BadCase{"leaf_spine_without_nodes_per_leaf", "  fabric: pcie3",
                "  fabric: pcie3\n  topology: {kind: leaf-spine}", {},
                "scen.yaml:10: cluster.topology.nodes_per_leaf: ", "required key"},
        BadCase{"gpudirect_with_staging", kNet,
                kNet + "\n    gpudirect: true\n    host_staging_bandwidth: 10GB/s", {},
                "scen.yaml:14: cluster.network.host_staging_bandwidth: ",
                "expected no host staging bandwidth when gpudirect is true"},
        BadCase{"set_without_equals", "", kBase, {"cluster.network.bandwidth"}, "--set: ",
                "expected key.path=value, got 'cluster.network.bandwidth'"},
        BadCase{"set_empty_key", "", kBase, {"cluster..bandwidth=1Gbps"}, "--set: ",
                "expected key.path=value"},
        BadCase{"set_bad_unit", "", kBase, {"cluster.network.bandwidth=10Gbs"},
                "--set cluster.network.bandwidth: ",
                "expected a data rate with a unit such as 10Gbps, 100Gbit/s, 12GB/s, got '10Gbs'"},
        BadCase{"set_not_yaml", "", kBase, {"gpus=[8, 16"}, "--set gpus: ",
                "expected a YAML value"},
        BadCase{"set_below_scalar", "", kBase, {"model.name.size=1"}, "--set model.name: ",
                "expected a map to hold 'size', got 'resnet50'"},
        BadCase{"set_unknown_key", "", kBase, {"cluster.colour=red"}, "--set cluster.colour: ",
                "expected one of the keys gpus_per_node"},
        BadCase{"set_gpus_not_multiple", "", kBase, {"gpus=[6]"}, "--set gpus[0]: ",
                "expected a multiple of gpus_per_node (4)"}),
    [](const ::testing::TestParamInfo<BadCase>& param) { return param.param.label; });

}  // namespace
}  // namespace scalecast
