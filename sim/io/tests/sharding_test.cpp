// Sharded runs: --shard I/N read strictly, shards that partition the work items round-robin,
// part files and prediction rows that read back to the same doubles, and every refusal of merge.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/io/input_error.h"
#include "sim/report/prediction_row_json.h"
#include "sim/io/shard_part.h"
#include "sim/io/work_share.h"
#include "tests/fixtures.h"

namespace scalecast {
namespace {

TEST(Sharding, ReadsIndexAndCount) {
  const WorkShare s = parse_shard("2/4");
  EXPECT_EQ(s.index(), 2);
  EXPECT_EQ(s.count(), 4);
  EXPECT_EQ(s.name(), "2/4");
  for (const char* bad : {"4/4", "-1/4", "1/0", "1", "/4", "1/", "a/4", "1/4x", " 1/4", "0/100001"})
    EXPECT_THROW(parse_shard(bad), InputError) << bad;
}

TEST(Sharding, ShardsPartitionTheItemsRoundRobin) {
  for (int n : {1, 2, 3, 4, 7, 100}) {
    std::multiset<std::size_t> seen;
    for (int i = 0; i < n; ++i) {
      const WorkShare s(i, n);
      for (std::size_t item : s.items(64)) {
        EXPECT_EQ(item % static_cast<std::size_t>(n), static_cast<std::size_t>(i));
        seen.insert(item);
      }
    }
    ASSERT_EQ(seen.size(), 64u) << n << " shards";
    for (std::size_t j = 0; j < 64; ++j) EXPECT_EQ(seen.count(j), 1u) << "item " << j << " of " << n << " shards";
  }
  EXPECT_EQ(WorkShare().items(5).size(), 5u);
  EXPECT_TRUE(WorkShare::merged({}, {}).items(5).empty());
}

TEST(Sharding, SameShardSameItemsEveryTime) {
  EXPECT_EQ(WorkShare(1, 3).items(10), (std::vector<std::size_t>{1, 4, 7}));
  EXPECT_EQ(parse_shard("1/3").items(10), WorkShare(1, 3).items(10));
}

PredictionRow awkward_row() {
  PredictionRow r;
  r.scenario = "a \"quoted\", name";
  r.model = "resnet50";
  r.method = "wfbp-allreduce";
  r.backend = "simgrid";
  r.sample_unit = "images";
  r.gpu = "v100-pcie";
  r.fabric = "pcie3";
  r.transport = "tcp";
  r.gpus = 8;
  r.nodes = 2;
  r.batch_per_gpu = 64;
  r.network_bandwidth = 1.25e9;
  r.iteration_s = 0.1 + 0.2;  // not the double nearest 0.3
  r.throughput = 8 * 64 / r.iteration_s;
  r.speedup = std::nextafter(7.3, 8.0);
  r.efficiency = r.speedup / 8;
  r.compute_s = 1.0 / 3;
  r.exposed_comm_s = 5e-324;  // the smallest subnormal
  return r;
}

TEST(Sharding, RowsReadBackToTheSameDoubles) {
  const PredictionRow r = awkward_row();
  const nlohmann::json text = nlohmann::json::parse(predicted_row_json(r).dump());
  const PredictionRow back = read_predicted_row(JsonReader(text, "part.json"));
  EXPECT_EQ(back.scenario, r.scenario);
  EXPECT_EQ(back.gpus, r.gpus);
  EXPECT_EQ(back.iteration_s, r.iteration_s);
  EXPECT_EQ(back.throughput, r.throughput);
  EXPECT_EQ(back.speedup, r.speedup);
  EXPECT_EQ(back.efficiency, r.efficiency);
  EXPECT_EQ(back.compute_s, r.compute_s);
  EXPECT_EQ(back.exposed_comm_s, r.exposed_comm_s);
  EXPECT_EQ(back.network_bandwidth, r.network_bandwidth);
}

TEST(Sharding, RowWithAMissingFigureIsRefusedNamingIt) {
  nlohmann::json text = predicted_row_json(awkward_row());
  text.erase("throughput");
  try {
    read_predicted_row(JsonReader(text, "p.json: item 3"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.json: item 3: /throughput"), std::string::npos) << e.what();
  }
}

// Writes part I of N of a run of `items` items to FOLDER/part-I.json; returns it as read back.
Part written(const testing::TempFolder& folder, int shard, int shards, std::size_t items,
             const std::string& input, const std::vector<std::string>& arguments = {"scenario.yaml", "--format", "csv"}) {
  Part p;
  p.command = "predict";
  p.arguments = arguments;
  p.build = "b1";
  p.inputs = {{input, content_hash(input)}};
  p.items = items;
  p.shard = shard;
  p.shards = shards;
  for (std::size_t j = static_cast<std::size_t>(shard); j < items; j += static_cast<std::size_t>(shards))
    p.results[j] = {{"value", 0.1 * static_cast<double>(j)}};
  const std::string path = (folder.path() / ("part-" + std::to_string(shard) + ".json")).string();
  std::ofstream out(path);
  write_part(out, p);
  out.close();
  return read_part(path);
}

std::string refusal(const std::vector<Part>& parts, const std::string& build = "b1") {
  try {
    check_parts(parts, build, content_hash);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

class ShardParts : public ::testing::Test {
 protected:
  testing::TempFolder folder;
  std::string input = (folder.path() / "scenario.yaml").string();
  void SetUp() override { std::ofstream(input) << "name: x\n"; }
};

TEST_F(ShardParts, ReadBackAsWritten) {
  const Part p = written(folder, 1, 3, 10, input);
  EXPECT_EQ(p.command, "predict");
  EXPECT_EQ(p.shard, 1);
  EXPECT_EQ(p.shards, 3);
  EXPECT_EQ(p.items, 10u);
  ASSERT_EQ(p.results.size(), 3u);
  EXPECT_EQ(p.results.at(7)["value"].get<double>(), 0.1 * 7);
}

TEST_F(ShardParts, EveryShardOfOneRunIsAccepted) {
  EXPECT_EQ(refusal({written(folder, 2, 3, 10, input), written(folder, 0, 3, 10, input), written(folder, 1, 3, 10, input)}),
            "");
}

TEST_F(ShardParts, MissingShardIsNamed) {
  const std::string e = refusal({written(folder, 0, 4, 10, input), written(folder, 3, 4, 10, input)});
  EXPECT_NE(e.find("1/4, 2/4"), std::string::npos) << e;
}

TEST_F(ShardParts, DuplicateShardIsNamed) {
  const Part a = written(folder, 0, 2, 10, input);
  Part b = a;
  b.file = "copy.json";
  const std::string e = refusal({a, b, written(folder, 1, 2, 10, input)});
  EXPECT_NE(e.find("copy.json: shard 0/2 again"), std::string::npos) << e;
}

TEST_F(ShardParts, PartsOfAnotherRunAreRefused) {
  const Part a = written(folder, 0, 2, 10, input);
  const Part other_line = written(folder, 1, 2, 10, input, {"scenario.yaml", "--format", "json"});
  EXPECT_NE(refusal({a, other_line}).find("part-1.json: from another run than"), std::string::npos);
  Part other_count = written(folder, 1, 3, 10, input);
  EXPECT_NE(refusal({a, other_count}).find("one of 3 shards, not 2"), std::string::npos);
  Part other_build = written(folder, 1, 2, 10, input);
  other_build.build = "b2";
  EXPECT_NE(refusal({a, other_build}).find("another scalecast build"), std::string::npos);
  Part other_input = written(folder, 1, 2, 10, input);
  other_input.inputs[0].hash = "0";
  EXPECT_NE(refusal({a, other_input}).find("was another file's content"), std::string::npos);
}

TEST_F(ShardParts, AnotherBuildOrAChangedInputIsRefused) {
  const std::vector<Part> parts = {written(folder, 0, 2, 10, input), written(folder, 1, 2, 10, input)};
  EXPECT_NE(refusal(parts, "b2").find("made by another scalecast build than this merge"), std::string::npos);
  std::ofstream(input) << "name: y\n";
  EXPECT_NE(refusal(parts).find(input + ": changed since the shards read it"), std::string::npos);
}

TEST_F(ShardParts, IncompleteOrForeignPartsAreRefusedNamingTheFile) {
  const Part p = written(folder, 1, 2, 10, input);
  const std::string path = (folder.path() / "part-1.json").string();
  nlohmann::json j = nlohmann::json::parse(std::ifstream(path));
  nlohmann::json incomplete = j;
  incomplete["results"].erase(incomplete["results"].begin());
  std::ofstream(path) << incomplete.dump();
  try {
    read_part(path);
    FAIL() << "incomplete part read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": shard 1/2 is incomplete: no result for work item 1"), std::string::npos)
        << e.what();
  }
  nlohmann::json foreign = j;
  foreign["results"].push_back({{"item", 2}, {"result", 0}});
  std::ofstream(path) << foreign.dump();
  EXPECT_THROW(read_part(path), InputError);
  std::ofstream(path) << "{\"throughput\": 1}";
  EXPECT_THROW(read_part(path), InputError);
}

TEST_F(ShardParts, FolderHashCoversNamesAndContents) {
  const std::string before = content_hash(folder.path().string());
  std::ofstream((folder.path() / "other.csv").string()) << "x\n";
  const std::string added = content_hash(folder.path().string());
  EXPECT_NE(before, added);
  std::filesystem::rename(folder.path() / "other.csv", folder.path() / "renamed.csv");
  EXPECT_NE(content_hash(folder.path().string()), added);
  EXPECT_EQ(content_hash(input), content_hash(input));
}

}  // namespace
}  // namespace scalecast
