// Tests of the schedule file: a round trip keeps every field, and corrupt or mismatched files
// are refused with an error naming the field.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/fixtures.h"
#include "sim/io/input_error.h"
#include "sim/network/link_capacities.h"
#include "sim/schedules/schedule_builder.h"
#include "sim/formats/schedule_json.h"

namespace scalecast {
namespace {

Schedule sample() {
  return build_schedule(testing::uniform_workload(4, 2e6), testing::simple_cluster(2, 2),
                        make_preset("wfbp-ps"), 2, "sample");
}

TEST(ScheduleJson, RoundTripKeepsEveryTask) {
  const Schedule s = sample();
  const auto j = schedule_to_json(s);
  const Schedule back = schedule_from_json(nlohmann::json::parse(j.dump()), "mem");
  EXPECT_EQ(schedule_to_json(back).dump(), j.dump());
  ASSERT_EQ(back.tasks.size(), s.tasks.size());
  EXPECT_EQ(back.gpus(), 4);
  EXPECT_EQ(back.strategy.method, "wfbp-ps");
}

TEST(ScheduleJson, KeepsSharedCoresAndMessageWorkAndReadsFilesWithout) {
  Schedule s = sample();
  s.cluster.shared_cores = 2;
  s.cluster.net.message_overhead = Seconds(30e-6);
  const Schedule back = schedule_from_json(nlohmann::json::parse(schedule_to_json(s).dump()), "mem");
  EXPECT_EQ(back.cluster.shared_cores, 2);
  EXPECT_DOUBLE_EQ(back.cluster.net.message_overhead.s(), 30e-6);
  // A schedule written before these existed: a real cluster, no message work apart.
  nlohmann::json older = schedule_to_json(sample());
  older["cluster"].erase("shared_cores");
  older["cluster"]["net"].erase("message_overhead_s");
  const Schedule old = schedule_from_json(older, "old.json");
  EXPECT_EQ(old.cluster.shared_cores, 0);
  EXPECT_EQ(old.cluster.net.message_overhead.s(), 0);
}

TEST(ScheduleJson, KeepsHostStagingAndReadsFilesWithout) {
  const Schedule staged = build_schedule(testing::uniform_workload(4, 2e6), testing::simple_cluster(2, 1),
                                         make_preset("ftlib-allreduce"), 2, "ftlib");
  nlohmann::json j = schedule_to_json(staged);
  EXPECT_TRUE(schedule_from_json(j, "mem").strategy.host_staged);
  j["strategy"].erase("host_staged");  // written before FTlib: nothing was staged
  EXPECT_FALSE(schedule_from_json(j, "old.json").strategy.host_staged);
}

// The library (Gloo for FTlib) and NCCL's socket threads decide a transfer's sockets over TCP;
// files written before them ran NCCL with the count of streams they state.
TEST(ScheduleJson, KeepsLibraryAndSocketThreadsAndReadsFilesWithout) {
  Cluster c = testing::simple_cluster(2, 1, 100);
  c.net.socket_threads = 2;
  nlohmann::json j = schedule_to_json(build_schedule(testing::uniform_workload(4, 2e6), c,
                                                     make_preset("ftlib-allreduce"), 2, "gloo"));
  const Schedule back = schedule_from_json(j, "mem");
  EXPECT_EQ(back.strategy.library, CollectiveLibrary::gloo);
  EXPECT_EQ(back.cluster.net.socket_threads, 2);
  EXPECT_EQ(back.cluster.net.streams, 0);
  j["strategy"].erase("library");
  j["cluster"]["net"].erase("socket_threads");
  j["cluster"]["net"]["streams"] = 2;
  const Schedule old = schedule_from_json(j, "old.json");
  EXPECT_EQ(old.strategy.library, CollectiveLibrary::nccl);
  EXPECT_EQ(old.cluster.net.socket_threads, 0);
  EXPECT_EQ(library_sockets(old.cluster, old.strategy), 2);
}

TEST(ScheduleJson, KeepsComputeSlowdownAndReadsFilesWithout) {
  Cluster c = testing::simple_cluster(2, 1);
  c.compute_slowdown = 0.3;
  nlohmann::json j = schedule_to_json(build_schedule(testing::uniform_workload(4, 2e6), c,
                                                     make_preset("wfbp-allreduce"), 2, "slowed"));
  EXPECT_DOUBLE_EQ(schedule_from_json(j, "mem").cluster.compute_slowdown, 0.3);
  j["cluster"].erase("compute_slowdown");  // written before the slowdown: computation ran alone
  EXPECT_EQ(schedule_from_json(j, "old.json").cluster.compute_slowdown, 0);
  j["cluster"]["compute_slowdown"] = -1;
  EXPECT_THROW(schedule_from_json(j, "bad.json"), std::exception);
}

// The run's NCCL settings decide its channels (SMs held, sockets over TCP); files written before
// runs took them ran NCCL's defaults.
TEST(ScheduleJson, KeepsNcclSettingsAndReadsFilesWithout) {
  Strategy st = make_preset("wfbp-allreduce");
  st.nccl.algo = "ring";
  st.nccl.proto = "^LL128";
  st.nccl.max_channels = 4;
  st.nccl.buffsize = 8 * 1048576.0;
  st.nccl.pipeline_fill = false;  // switched off for an ablation
  const auto written = schedule_to_json(
      build_schedule(testing::uniform_workload(4, 2e6), testing::simple_cluster(2, 1, 100), st, 2, "nccl"));
  nlohmann::json j = nlohmann::json::parse(written.dump());
  const Schedule back = schedule_from_json(j, "mem");
  EXPECT_EQ(back.strategy.nccl.algo, "ring");
  EXPECT_EQ(back.strategy.nccl.proto, "^LL128");
  EXPECT_EQ(back.strategy.nccl.max_channels, 4);
  EXPECT_EQ(back.strategy.nccl.min_channels, 0);
  EXPECT_DOUBLE_EQ(back.strategy.nccl.buffsize, 8 * 1048576.0);
  EXPECT_FALSE(back.strategy.nccl.pipeline_fill);
  EXPECT_EQ(schedule_to_json(back).dump(), written.dump());
  nlohmann::json before_fill = j;  // written before the fill could be switched off
  before_fill["strategy"]["nccl"].erase("pipeline_fill");
  EXPECT_TRUE(schedule_from_json(before_fill, "before.json").strategy.nccl.pipeline_fill);
  j["strategy"]["nccl"]["proto"] = "LL129";
  EXPECT_THROW(schedule_from_json(j, "bad.json"), InputError);
  j["strategy"].erase("nccl");
  const collectives::nccl::NcclSettings defaults;
  const Schedule old = schedule_from_json(j, "old.json");
  EXPECT_EQ(old.strategy.nccl.max_channels, 0);
  EXPECT_DOUBLE_EQ(old.strategy.nccl.buffsize, defaults.buffsize);
  EXPECT_TRUE(old.strategy.nccl.pipeline_fill);
}

void expect_refused(const std::function<void(nlohmann::json&)>& corrupt, const std::string& fragment) {
  nlohmann::json j = nlohmann::json::parse(schedule_to_json(sample()).dump());
  corrupt(j);
  try {
    schedule_from_json(j, "bad.json");
    FAIL() << "accepted a schedule that should be refused (" << fragment << ")";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.json: ", 0), 0u) << e.what();
  }
}

TEST(ScheduleJson, RefusesCorruptFiles) {
  expect_refused([](auto& j) { j["version"] = 99; }, "version");
  expect_refused([](auto& j) { j["format"] = "other"; }, "format");
  expect_refused([](auto& j) { j["gpus"] = 8; }, "gpus");
  expect_refused([](auto& j) { j["tasks"][3]["deps"] = {7}; }, "/tasks/3/deps/0: expected an integer in [0, 2]");
  expect_refused([](auto& j) { j["tasks"][2]["id"] = 5; }, "/tasks/2/id: expected 2");
  expect_refused([](auto& j) { j["tasks"][1].erase("duration_s"); }, "/tasks/1/duration_s: expected a value");
  expect_refused([](auto& j) { j["tasks"][0]["kind"] = "dance"; }, "/tasks/0/kind: expected a task kind");
  expect_refused([](auto& j) { j["cluster"]["net"]["efficiency"] = "high"; }, "/cluster/net/efficiency");
  expect_refused([](auto& j) { j["strategy"]["aggregation"] = "gossip"; }, "/strategy/aggregation");
  expect_refused([](auto& j) { j["strategy"]["nccl"]["max_channels"] = 65; }, "/strategy/nccl/max_channels");
}

// The index of the first task with this op in the sample's JSON.
std::size_t first(const nlohmann::json& j, const std::string& op) {
  for (std::size_t i = 0; i < j["tasks"].size(); ++i)
    if (j["tasks"][i].value("op", "") == op) return i;
  return 0;
}

TEST(ScheduleJson, RefusesWhatNoBackendCanRun) {
  auto push = [](nlohmann::json& j) -> nlohmann::json& { return j["tasks"][first(j, "push")]; };
  auto pull = [](nlohmann::json& j) -> nlohmann::json& { return j["tasks"][first(j, "pull")]; };
  expect_refused([&](auto& j) { push(j)["server"] = -1; }, "/server: expected an integer in [0, 1], got '-1'");
  expect_refused([&](auto& j) { push(j)["server"] = 99; }, "/server: expected an integer in [0, 1], got '99'");
  expect_refused([&](nlohmann::json& j) { pull(j)["server"] = 1 - pull(j)["server"].get<int>(); },
                 "/deps: expected one push of the same server and bytes");
  expect_refused([&](auto& j) { push(j)["last_layer"] = 40; }, "/last_layer: expected a layer that compute tasks have (< 4), got '40'");
  expect_refused([&](auto& j) { push(j)["first_layer"] = 3; push(j)["last_layer"] = 2; },
                 "/last_layer: expected a layer no lower than first_layer (3), got '2'");
  expect_refused([&](auto& j) { push(j)["op"] = "allreduce"; }, "/op: expected an operation of parameter-server");
  expect_refused([&](auto& j) { push(j)["bytes"] = 1e300; }, "/bytes: expected a number in [0, 1 PB]");
  expect_refused([](auto& j) { j["tasks"][0]["id"] = 0.5; }, "/tasks/0/id: expected an integer");
  expect_refused([](auto& j) { j["tasks"][0]["layer"] = -1; }, "/tasks/0/layer: expected an integer in [0,");
  expect_refused([](auto& j) { j["tasks"][0]["duration_s"] = -1; }, "/tasks/0/duration_s: expected a number in [0, 1 h]");
  expect_refused([](auto& j) { j["tasks"][0]["colour"] = "red"; }, "/tasks/0/colour: expected one of the keys");
  expect_refused([](auto& j) { j["cluster"]["net"]["efficiency"] = 0; }, "/cluster/net/efficiency: expected a number in [0.01, 1]");
  expect_refused([](auto& j) { j["cluster"]["nic_bandwidth_Bps"] = 0; }, "/cluster/nic_bandwidth_Bps: expected a number in [1 kbit/s, 100 Tbit/s]");
  expect_refused([](auto& j) { j["cluster"]["fabric"]["link_bandwidth_Bps"] = 0; }, "/cluster/fabric/link_bandwidth_Bps");
  expect_refused([](auto& j) { j["cluster"]["net"]["latency_s"] = 1e300; }, "/cluster/net/latency_s: expected a number in [0, 10 s]");
  expect_refused([](auto& j) { j["cluster"]["net"]["streams"] = -1; }, "/cluster/net/streams: expected an integer in [0, 1024]");
  expect_refused([](auto& j) { j["cluster"]["net"]["socket_threads"] = 17; },
                 "/cluster/net/socket_threads: expected an integer in [0, 16]");
  expect_refused([](auto& j) { j["strategy"]["library"] = "mpi"; }, "/strategy/library: expected a collective library");
  expect_refused([](auto& j) { j["cluster"]["gpu"] = "v200"; }, "/cluster/gpu: expected a GPU (one of");
  expect_refused([](auto& j) { j["cluster"]["fabric"]["kind"] = "pcie9"; }, "/cluster/fabric/kind: expected a fabric");
  expect_refused([](auto& j) { j["cluster"]["parameter_server"]["placement"] = "nearby"; }, "/placement: expected a placement");
  expect_refused([](auto& j) { j["cluster"]["parameter_server"]["servers"] = -2; }, "/servers: expected an integer in [0,");
  expect_refused([](auto& j) { j["cluster"]["nodes"] = 1048576; }, "/cluster/nodes: expected at most 524288 nodes");
  expect_refused([](auto& j) { j["batch_per_gpu"] = 0; }, "/batch_per_gpu: expected an integer in [1, 1048576]");
  expect_refused([](auto& j) { j["iterations"] = 2000000000; }, "/iterations: expected an integer in [1, 100000]");
  expect_refused([](auto& j) { j["iterations"] = 3; }, "/iterations: expected as many iterations as the tasks have");
  expect_refused([](auto& j) { j["tasks"] = nlohmann::json::array(); }, "/iterations: expected as many iterations");
  expect_refused([](auto& j) { j["strategy"]["algorithm"] = "butterfly"; }, "/strategy/algorithm: expected an all-reduce");
}

TEST(ScheduleJson, NumbersTooLargeForADoubleNameTheFile) {
  const std::string path = ::testing::TempDir() + "overflow.json";
  std::ofstream(path) << "{\"format\": \"scalecast-schedule\", \"version\": 1e999}";
  try {
    read_schedule_file(path);
    FAIL() << "accepted 1e999";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": expected valid JSON, got number overflow parsing '1e999'");
  }
}

TEST(ScheduleJson, UnreadableFileIsAnError) {
  EXPECT_THROW(read_schedule_file("/nonexistent/schedule.json"), InputError);
}

}  // namespace
}  // namespace scalecast
