// recommend's search: the space expands to every network x method x knob value x GPU count,
// what does not fit in memory is left out, prices follow the stated formula (the scenario's, else
// the price catalog's; nothing priced at zero unsaid), the ranking and the Pareto front are as
// defined, and the result is the same on one thread or several.
#include <gtest/gtest.h>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"
#include "sim/catalogs/price_catalog.h"
#include "sim/recommend/search.h"
#include "tests/fixtures.h"

namespace scalecast::recommend {
namespace {

const char* kScenario = R"(name: search-test
model: {name: resnet50, batch_per_gpu: 32}
gpu: {type: v100-pcie}
cluster:
  gpus_per_node: 4
  fabric: pcie3
  network: {bandwidth: 10Gbps, transport: tcp}
  parameter_server: {placement: dedicated}
methods: [bsp-allreduce]
gpus: [4]
prices:
  currency: EUR
  gpu_hour: {v100-pcie: 2.0, "*": 9.0}
  server_hour: 0.5
search:
  objective: cost
  samples: 1e6
  gpus: [4, 8, 16]
  methods: [bsp-allreduce, ddp, bsp-ps]
  networks:
    - name: slow
      set: {cluster.network.bandwidth: 10Gbps}
      node_hour: 0.1
    - name: fast
      set: {cluster.network.bandwidth: 100Gbps, cluster.network.transport: rdma}
      node_hour: 0.3
  knobs:
    ddp: {strategy.bucket_size: [5MB, 25MB]}
)";

struct Fixture {
  testing::TempFolder dir;
  std::string path;
  explicit Fixture(const std::string& text = kScenario) {
    dir.write("s.yaml", text);
    path = (dir.path() / "s.yaml").string();
  }
};

TEST(Recommend, ExpandsNetworksMethodsKnobsAndGpuCounts) {
  Fixture f;
  const Search s = plan_search(f.path, {});
  // 2 networks x (bsp-allreduce 1 + ddp 2 + bsp-ps 1) scenarios x 3 GPU counts.
  EXPECT_EQ(s.variants.size(), 8u);
  EXPECT_EQ(s.configurations.size(), 24u);
  EXPECT_EQ(s.workloads.size(), 1u);  // no model or GPU key varies: one workload for all
  EXPECT_EQ(s.objective, Objective::cost);
  EXPECT_EQ(s.variants[1].method, "ddp");
  ASSERT_EQ(s.variants[1].settings.size(), 1u);
  EXPECT_EQ(s.variants[1].settings[0], (std::pair<std::string, std::string>{"strategy.bucket_size", "5MB"}));
  EXPECT_EQ(s.variants[4].network, "fast");
  EXPECT_EQ(s.variants[4].scenario.cluster.transport, Transport::rdma);
}

TEST(Recommend, PricesFollowTheFormula) {
  Fixture f;
  SearchRequest r;
  r.gpus = {8};
  r.methods = {"bsp-ps"};
  const Search s = plan_search(f.path, r);
  const auto ranked = run_search(s, 1);
  ASSERT_EQ(ranked.size(), 2u);
  for (const Outcome& o : ranked) {
    const Variant& v = s.variants[o.variant];
    // Dedicated servers, one per node by default: 2 of them for 2 nodes.
    EXPECT_EQ(o.servers, 2);
    EXPECT_DOUBLE_EQ(o.price_per_hour, 8 * 2.0 + 2 * v.node_hour + 2 * (0.5 + v.node_hour));
    EXPECT_NEAR(o.cost_per_million, o.price_per_hour / (o.row.throughput * 3600) * 1e6, 1e-12);
    EXPECT_NEAR(o.train_s, 1e6 / o.row.throughput, 1e-9);
    EXPECT_NEAR(o.train_cost, o.price_per_hour * o.train_s / 3600, 1e-9);
    // The row is the prediction of that scenario.
    const BuiltWorkload w = build_workload(v.scenario);
    EXPECT_EQ(o.row.iteration_s, predict(v.scenario, w.workload, "bsp-ps", 8, AnalyticalBackend()).row.iteration_s);
  }
  // Ranked by cost per sample, cheapest first.
  EXPECT_LE(ranked[0].cost_per_million, ranked[1].cost_per_million);
}

TEST(Recommend, SameRankingOnOneThreadOrSeveral) {
  Fixture f;
  const Search s = plan_search(f.path, {});
  const auto one = run_search(s, 1), four = run_search(s, 4);
  ASSERT_EQ(one.size(), four.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].variant, four[i].variant);
    EXPECT_EQ(one[i].row.gpus, four[i].row.gpus);
    EXPECT_EQ(one[i].row.iteration_s, four[i].row.iteration_s);
    EXPECT_EQ(one[i].pareto, four[i].pareto);
  }
}

TEST(Recommend, LeavesOutWhatDoesNotFitInMemory) {
  Fixture f;
  SearchRequest r;
  r.sweep = {parse_sweep_axis("model.batch_per_gpu=32,100000")};
  const Search s = plan_search(f.path, r);
  EXPECT_EQ(s.variants.size(), 8u);           // the 100,000-sample batches do not fit in 32 GiB
  EXPECT_EQ(s.skipped_memory, 8u * 3);
  EXPECT_EQ(s.workloads.size(), 2u);          // one per batch size
  EXPECT_NE(s.largest_skipped.find("GiB"), std::string::npos);
}

TEST(Recommend, AGlobalBatchKeepsTheConfigurationsThatStepOnIt) {
  std::string text = kScenario;
  const std::string counts = "  gpus: [4, 8, 16]";
  text.replace(text.find(counts), counts.size(), counts + "\n  global_batch: 256");
  Fixture f(text);
  SearchRequest r;
  r.sweep = {parse_sweep_axis("model.batch_per_gpu=16,32"), parse_sweep_axis("model.accumulation_steps=1,2,4")};
  const Search s = plan_search(f.path, r);
  // batch x accumulation x GPUs = 256: 16x4x4, 32x2x4, 16x2x8, 32x1x8, 16x1x16; each for 8 variants.
  EXPECT_EQ(s.configurations.size(), 5u * 8);
  for (const auto& [v, gpus] : s.configurations) {
    const ModelSettings& m = s.variants[v].scenario.model;
    EXPECT_EQ(m.batch_per_gpu * m.accumulation_steps * gpus, 256);
  }
  EXPECT_EQ(s.skipped_batch, 6u * 8 * 3 - 5u * 8);
  const std::string batch = "global_batch: 256";
  text.replace(text.find(batch), batch.size(), "global_batch: 100");
  Fixture none(text);
  EXPECT_THROW(plan_search(none.path, r), InputError);
}

TEST(Recommend, ParetoFrontIsTheNonDominatedSet) {
  auto outcome = [](double throughput, double cost) {
    Outcome o;
    o.row.throughput = throughput;
    o.cost_per_million = cost;
    return o;
  };
  std::vector<Outcome> v = {outcome(100, 1.0), outcome(200, 1.5), outcome(150, 2.0), outcome(200, 1.2),
                            outcome(50, 1.0), outcome(300, 3.0)};
  mark_pareto_front(v);
  const std::vector<bool> want = {true, false, false, true, false, true};
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].pareto, want[i]) << i;
}

TEST(Recommend, RefusesABadSpaceNamingItsLine) {
  std::string text = kScenario;
  text.replace(text.find("[5MB, 25MB]"), 11, "[5MB, 25MBs]");
  Fixture f(text);
  try {
    plan_search(f.path, {});
    FAIL() << "a bad knob value was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("s.yaml:28: strategy.bucket_size: expected a size"),
              std::string::npos)
        << e.what();
  }
}

TEST(Recommend, CostNeedsPricesAndTimeNeedsSamples) {
  std::string text = kScenario;
  text.erase(text.find("prices:"), text.find("search:") - text.find("prices:"));
  Fixture f(text);
  EXPECT_THROW(plan_search(f.path, {}), InputError);
  SearchRequest r;
  r.objective_set = true;
  r.objective = Objective::throughput;
  EXPECT_NO_THROW(plan_search(f.path, r));
  std::string no_samples = kScenario;
  no_samples.erase(no_samples.find("  samples: 1e6\n"), 15);
  Fixture g(no_samples);
  r.objective = Objective::time;
  EXPECT_THROW(plan_search(g.path, r), InputError);
}

// kScenario with `from` replaced by `to` (each must occur).
std::string edited(std::string text, const std::vector<std::pair<std::string, std::string>>& edits) {
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return text;
}

// The search on A100s, colocated servers, with the prices: section given.
std::string on_a100(const std::string& prices) {
  return edited(kScenario, {{"{type: v100-pcie}", "{type: a100}"},
                            {"{placement: dedicated}", "{placement: colocated}"},
                            {"prices:\n  currency: EUR\n  gpu_hour: {v100-pcie: 2.0, \"*\": 9.0}\n  server_hour: 0.5\n",
                             prices}});
}

std::string message_of(const std::string& path, const SearchRequest& r = {}) {
  try {
    plan_search(path, r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Recommend, AKnownGpuIsPricedFromTheCatalogWithItsSourceAndDate) {
  Fixture f(on_a100(""));
  SearchRequest r;
  r.gpus = {8};
  r.methods = {"bsp-allreduce"};
  const Search s = plan_search(f.path, r);
  ASSERT_TRUE(s.priced) << s.unpriced;
  const GpuPrice& price = s.gpu_prices.at("a100");
  ASSERT_EQ(price.entry, catalog_price("a100", Pricing::on_demand));
  EXPECT_EQ(price.per_hour, price.entry->usd_per_gpu_hour);
  const std::string said = describe(price, "USD");
  EXPECT_NE(said.find("price date " + price.entry->price_date), std::string::npos) << said;
  EXPECT_NE(said.find("source " + price.entry->source), std::string::npos) << said;
  for (const Outcome& o : run_search(s, 1))
    EXPECT_DOUBLE_EQ(o.price_per_hour, 8 * price.per_hour + 2 * s.variants[o.variant].node_hour);
}

TEST(Recommend, TheScenarioProviderAndPricingChooseTheCatalogEntry) {
  Fixture f(on_a100("prices: {provider: Google Cloud, pricing: spot}\n"));
  const Search s = plan_search(f.path, {});
  ASSERT_TRUE(s.priced) << s.unpriced;
  const PriceEntry* entry = s.gpu_prices.at("a100").entry;
  ASSERT_EQ(entry, catalog_price("a100", Pricing::spot, "Google Cloud"));
  EXPECT_EQ(entry->instance, "a2-ultragpu-8g");
}

TEST(Recommend, AScenarioPriceOverridesTheCatalog) {
  Fixture f(on_a100("prices: {gpu_hour: {a100: 0.25}}\n"));
  const Search s = plan_search(f.path, {});
  ASSERT_TRUE(s.priced) << s.unpriced;
  EXPECT_EQ(s.gpu_prices.at("a100").per_hour, 0.25);
  EXPECT_EQ(s.gpu_prices.at("a100").entry, nullptr);
  EXPECT_NE(describe(s.gpu_prices.at("a100"), "USD").find("the scenario's prices.gpu_hour"), std::string::npos);
}

TEST(Recommend, ADedicatedServerWithoutAPriceIsRefusedNamingTheKey) {
  Fixture f(edited(kScenario, {{"  server_hour: 0.5\n", ""}}));
  const std::string said = message_of(f.path);
  EXPECT_NE(said.find("s.yaml: prices.server_hour: expected the price per hour of a dedicated parameter-server"),
            std::string::npos)
      << said;
  // Without a prices: section and not ranked by cost, the search runs unpriced and says why.
  Fixture g(edited(on_a100(""), {{"{placement: colocated}", "{placement: dedicated}"}, {"objective: cost", "objective: throughput"}}));
  const Search s = plan_search(g.path, {});
  EXPECT_FALSE(s.priced);
  EXPECT_NE(s.unpriced.find("prices.server_hour"), std::string::npos) << s.unpriced;
  for (const Outcome& o : run_search(s, 1)) EXPECT_EQ(o.price_per_hour, 0);
  SearchRequest plot;
  plot.needs_prices = true;
  EXPECT_NE(message_of(g.path, plot).find("prices.server_hour"), std::string::npos);
}

TEST(Recommend, ANetworkWithoutANodePriceIsRefusedNamingItsLine) {
  Fixture f(edited(kScenario, {{"      node_hour: 0.3\n", ""}}));
  const std::string said = message_of(f.path);
  EXPECT_NE(said.find("s.yaml:24: search.networks[1].node_hour: expected the price per node-hour of network 'fast'"),
            std::string::npos)
      << said;
}

TEST(Recommend, ACatalogPriceNeedsTheCatalogsCurrency) {
  Fixture f(on_a100("prices: {currency: EUR, gpu_hour: {h100: 2}}\n"));
  const std::string said = message_of(f.path);
  EXPECT_NE(said.find("s.yaml: prices.gpu_hour.a100: expected a price per GPU-hour in EUR (the price catalog's are in USD)"),
            std::string::npos)
      << said;
}

}  // namespace
}  // namespace scalecast::recommend
