// Each expressible row's scenario predicted by the analytical backend: throughput (sequences/s over all GPUs) times
// the sequence length over the GPUs is tokens/s per GPU; errors grouped, every row listed for report.md.
#include "validation/sharded_training.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "sim/backends/backend_registry.h"
#include "sim/io/input_error.h"
#include "sim/memory/memory_fit.h"
#include "sim/prediction/prediction.h"
#include "sim/prediction/prediction_interval.h"
#include "sim/report/text_table.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/io/units.h"

namespace scalecast::validation {
namespace {

void predict_row(ShardedCase& c, const Backend& backend, const std::string& file) {
  const ShardedRow& r = c.row;
  const std::string where = file + ":" + std::to_string(r.line);
  try {
    const Scenario s = parse_scenario(r.scenario, where + " as a scenario");
    const BuiltWorkload w = build_workload(s);
    const PredictionRow p = predict(s, w.workload, s.methods.front(), s.gpus.front(), backend).row;
    c.predicted = p.throughput * r.seq_len / r.gpus;
    c.compute_share = p.compute_s / p.iteration_s;
    const Strategy strategy = strategy_for(s, s.methods.front());
    const MemoryFit fit = memory_fit(s, w.workload, state_sharding(strategy, sized_for(s.cluster, s.gpus.front())));
    c.memory_gib = fit.needed_bytes() / units::kGiB;
    c.refused = !fit.fits();
  } catch (const InputError& e) {
    if (e.names_its_source()) throw;  // the scenario's own errors name the row already
    throw InputError(InputKind::file, where + " (" + r.source + ", " + r.model + "): " + e.what());
  } catch (const std::exception& e) {
    throw std::runtime_error(where + " (" + r.source + ", " + r.model + "): " + e.what());
  }
}

std::string group_key(const ShardedRow& r, const std::string& what) {
  if (what == "source") return r.source;
  if (what == "gpu") return r.catalog_gpu;
  if (what == "gpus") return std::to_string(r.gpus) + " GPUs";
  if (what == "seq") return std::to_string(r.seq_len) + " tokens";
  if (what == "sharding") return r.method;
  if (what == "checkpointing") return r.recompute;
  throw std::logic_error("unknown grouping '" + what + "'");
}

ShardedGroup summarize(const std::string& key, const std::vector<const ShardedCase*>& cases) {
  ShardedGroup g{key, static_cast<int>(cases.size()), 0, 0};
  for (const ShardedCase* c : cases) {
    g.mape_pct += 100 * std::abs(c->error());
    g.bias_pct += 100 * c->error();
  }
  if (g.rows > 0) {
    g.mape_pct /= g.rows;
    g.bias_pct /= g.rows;
  }
  return g;
}

std::string percent(double value) { return fmt::format("{:+.1f}%", value); }

}  // namespace

int ShardedTrainingValidation::expressible() const {
  return static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const ShardedCase& c) { return c.row.expressible; }));
}

int ShardedTrainingValidation::sources() const {
  std::set<std::string> names;
  for (const auto& c : cases)
    if (c.row.expressible) names.insert(c.row.source);
  return static_cast<int>(names.size());
}

int ShardedTrainingValidation::refused() const {
  return static_cast<int>(
      std::count_if(cases.begin(), cases.end(), [](const ShardedCase& c) { return c.row.expressible && c.refused; }));
}

ShardedGroup ShardedTrainingValidation::overall() const {
  std::vector<const ShardedCase*> all;
  for (const auto& c : cases)
    if (c.row.expressible) all.push_back(&c);
  return summarize("all", all);
}

std::vector<ShardedGroup> ShardedTrainingValidation::by(const std::string& what) const {
  // GPU counts and sequence lengths in numeric order, the other keys alphabetically.
  std::map<std::pair<int, std::string>, std::vector<const ShardedCase*>> groups;
  for (const auto& c : cases) {
    if (!c.row.expressible) continue;
    const int order = what == "gpus" ? c.row.gpus : what == "seq" ? c.row.seq_len : 0;
    groups[{order, group_key(c.row, what)}].push_back(&c);
  }
  std::vector<ShardedGroup> out;
  for (const auto& [key, members] : groups) out.push_back(summarize(key.second, members));
  return out;
}

std::vector<const ShardedCase*> ShardedTrainingValidation::worst() const {
  std::vector<const ShardedCase*> out;
  for (const auto& c : cases)
    if (c.row.expressible) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(),
                   [](const ShardedCase* a, const ShardedCase* b) { return std::abs(a->error()) > std::abs(b->error()); });
  return out;
}

double ShardedTrainingValidation::coverage(double level_pct) const {
  int inside = 0, n = 0;
  for (const auto& c : cases) {
    if (!c.row.expressible) continue;
    const IntervalFactors f = interval_factors(with_compute_model(default_uncertainty(), c.compute_share), level_pct);
    inside += f.holds_throughput(c.predicted, c.row.published);
    ++n;
  }
  return n > 0 ? static_cast<double>(inside) / n : 0;
}

ShardedTrainingValidation validate_sharded_training(const std::string& folder) {
  ShardedTrainingValidation v;
  const auto backend = make_backend("analytical");
  for (ShardedRow& row : read_sharded_rows(folder)) {
    ShardedCase c{std::move(row)};
    if (c.row.expressible) predict_row(c, *backend, folder + "/throughput.csv");
    v.cases.push_back(std::move(c));
  }
  return v;
}

void write_sharded_training_summary(std::ostream& out, const ShardedTrainingValidation& v) {
  out << "\nsharded training (validation/data/sharded-training): published tokens/s per GPU of FSDP and ZeRO-3 runs "
         "against the analytical backend, zero-shot\n";
  TextTable t({"grouped by", "group", "rows", "MAPE", "mean error"}, {"", "", "", "%", "%"});
  const ShardedGroup all = v.overall();
  t.add_row({"-", all.key, std::to_string(all.rows), fmt::format("{:.1f}", all.mape_pct), percent(all.bias_pct)});
  for (const char* what : {"source", "gpu", "gpus", "sharding", "checkpointing", "seq"})
    for (const auto& g : v.by(what))
      t.add_row({what, g.key, std::to_string(g.rows), fmt::format("{:.1f}", g.mape_pct), percent(g.bias_pct)});
  t.write(out);
  out << fmt::format("predict's 90% interval holds {:.0f}% of the rows\n", 100 * v.coverage(90));
  const auto worst = v.worst();
  out << "worst rows:\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(worst.size(), 5); ++i) {
    const ShardedCase& c = *worst[i];
    out << fmt::format("  line {} ({}, {} on {} x {}, {}, {} checkpointing): published {:.0f}, predicted {:.0f} "
                       "tokens/s/GPU ({})\n",
                       c.row.line, c.row.source, c.row.model, c.row.gpus, c.row.catalog_gpu, c.row.method,
                       c.row.recompute, c.row.published, c.predicted, percent(100 * c.error()));
  }
  out << fmt::format("{} of {} rows expressible, from {} sources (the others: tensor, pipeline or context "
                     "parallelism, CPU offload, a GPU outside the catalog, selective checkpointing of a kind not stated, "
                     "Megatron's FSDP; "
                     "report.md lists each); the memory estimate refuses {} of them, though each ran\n",
                     v.expressible(), v.cases.size(), v.sources(), v.refused());
}

std::string sharded_training_markdown(const ShardedTrainingValidation& v) {
  std::ostringstream out;
  out << "## Sharded data-parallel training (validation/data/sharded-training)\n\nEach published run of FSDP or "
         "ZeRO-3 that scalecast can express, predicted zero-shot by the analytical backend from its shape, "
         "sequence length, micro-batch, accumulation, precision, checkpointing, sharding and cluster (nothing fitted "
         "to these rows); tokens/s per GPU; error = (predicted - published) / published. *compute*: compute's share "
         "of the predicted iteration, the rest exposed communication; *memory*: the memory estimate per GPU (central; "
         "REFUSED where its interval lies wholly above the GPU's memory, though the run fit).\n\n"
         "| grouped by | group | rows | MAPE | mean error |\n| :-- | :-- | --: | --: | --: |\n";
  const ShardedGroup all = v.overall();
  out << fmt::format("| - | all | {} | {:.1f}% | {} |\n", all.rows, all.mape_pct, percent(all.bias_pct));
  for (const char* what : {"source", "gpu", "gpus", "sharding", "checkpointing", "seq"})
    for (const auto& g : v.by(what))
      out << fmt::format("| {} | {} | {} | {:.1f}% | {} |\n", what, g.key, g.rows, g.mape_pct, percent(g.bias_pct));
  out << fmt::format("\npredict's 90% interval (`predict --interval 90`: the zero-shot spreads widened by the compute "
                     "model's over each row's compute share) holds {:.0f}% of the rows.\n",
                     100 * v.coverage(90));
  out << "\nNetworks, per source (stated: the source's words; assumed: not stated, and why the assumption):\n\n"
         "| source | GPU | as published | NICs per node | basis |\n| :-- | :-- | :-- | :-- | :-- |\n";
  for (const SourceNetwork& n : source_networks())
    out << fmt::format("| {} | {} | {} | {} x {} Gb/s {} | {}: {} |\n", n.source, n.gpu_family,
                       n.as_published.empty() ? "-" : n.as_published, n.nics, n.rate_gbps, n.nic,
                       n.stated ? "stated" : "assumed", n.basis);
  out << "\n| line | source | model | shape | seq | micro-batch x accumulation | GPUs | GPU | method | precision | "
         "checkpointing | published | predicted | compute | memory | error |\n"
         "| --: | :-- | :-- | :-- | --: | --: | --: | :-- | :-- | :-- | :-- | --: | --: | --: | --: | --: |\n";
  for (const auto& c : v.cases) {
    const ShardedRow& r = c.row;
    if (!r.expressible) continue;
    out << fmt::format(
        "| {} | {} | {} | {} | {} | {} x {} | {} | {} | {} | {} | {} | {:.0f} | {:.0f} | {:.0f}% | {:.1f} GiB{} | {} |\n",
        r.line, r.source, r.model, r.shape, r.seq_len, r.micro_batch, r.accumulation, r.gpus, r.catalog_gpu, r.method,
        r.run_precision, r.recompute, r.published, c.predicted, 100 * c.compute_share, c.memory_gib,
        c.refused ? " REFUSED" : "", percent(100 * c.error()));
  }
  out << "\nNot expressible:\n\n";
  for (const auto& c : v.cases)
    if (!c.row.expressible)
      out << "- line " << c.row.line << " (" << c.row.source << ", " << c.row.model << ", " << c.row.gpus << " x "
          << c.row.gpu << "): " << c.row.reason << "\n";
  return out.str();
}

}  // namespace scalecast::validation
