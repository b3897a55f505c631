// Single-GPU rows as scenarios of one GPU: the zoo model (or a `gpt:`/`llama:` shape) at the
// published batch, sequence length and precision on the catalog GPU, timed by the roofline with no
// measured throughput to scale it; published tokens/s become sequences/s by the sequence length.
#include "validation/single_gpu.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

#include "sim/csv.h"
#include "sim/gpu_catalog.h"
#include "sim/report/text_table.h"
#include "sim/scenario.h"
#include "sim/workload_builder.h"
#include "sim/zoo/zoo.h"

namespace scalecast::validation {
namespace {

std::vector<int> numbers(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, '/');) out.push_back(std::stoi(part));
  return out;
}

// The GPU's generation, as the report groups rows.
std::string generation(const std::string& gpu) {
  if (gpu.starts_with("v100")) return "V100";
  if (gpu.starts_with("a100")) return "A100";
  if (gpu.starts_with("h100")) return "H100";
  if (gpu.starts_with("h200")) return "H200";
  if (gpu.starts_with("b200") || gpu.starts_with("gb200")) return "B200";
  return gpu;
}

void express(SingleGpuCase& c) {
  if (c.gpus != 1) {
    c.reason = std::to_string(c.gpus) + " GPUs (their communication is not modelled for this table)";
    return;
  }
  if (!has_gpu(c.gpu)) {
    c.reason = "GPU " + c.gpu + " not in the catalog";
    return;
  }
  Scenario s;
  s.compute.gpu = c.gpu;
  ModelSettings& m = s.model;
  m.batch_per_gpu = c.batch;
  m.precision = parse_precision(c.precision);
  if (!find_gpu(c.gpu).supports(m.precision)) {
    c.reason = c.precision + " on " + c.gpu;
    return;
  }
  if (half_width(m.precision)) m.options.bytes_per_element = 2;
  if (c.seq_len > 0) m.options.seq_len = c.seq_len;
  m.optimizer = c.model.starts_with("resnet") ? "sgd" : "adam";
  if (c.model.starts_with("gpt:") || c.model.starts_with("llama:")) {
    const bool llama = c.model.starts_with("llama:");
    const auto n = numbers(c.model.substr(c.model.find(':') + 1));
    if (n.size() < 4) {
      c.reason = "shape " + c.model + " incomplete";
      return;
    }
    m.name = llama ? "llama" : "gpt";
    m.options.shape.layers = n[0];
    m.options.shape.hidden = n[1];
    m.options.shape.heads = n[2];
    m.options.shape.intermediate = n[3];
    if (llama && n.size() > 4) m.options.shape.kv_heads = n[4];
  } else if (zoo::has_model(c.model)) {
    m.name = c.model;
  } else {
    c.reason = "model " + c.model + " not in the zoo";
    return;
  }
  const Workload w = build_workload(s).workload;
  c.predicted = c.batch / w.compute_s();
  c.expressible = true;
}

}  // namespace

std::map<std::string, std::pair<double, int>> SingleGpuValidation::by(const std::string& what) const {
  std::map<std::string, std::pair<double, int>> out;
  for (const auto& c : cases) {
    if (!c.expressible) continue;
    auto& [sum, n] = out[what == "generation" ? generation(c.gpu) : c.precision];
    sum += std::abs(c.error()) * 100;
    ++n;
  }
  for (auto& [key, v] : out) v.first /= v.second;
  return out;
}

SingleGpuValidation validate_single_gpu(const std::string& folder) {
  SingleGpuValidation v;
  const CsvFile csv(folder + "/throughput.csv");
  for (const CsvRecord& r : csv.records()) {
    SingleGpuCase c;
    c.line = r.line();
    c.source = r.non_empty("source");
    c.gpu = r.non_empty("gpu");
    c.model = r.non_empty("model");
    c.precision = r.non_empty("precision");
    c.unit = r.non_empty("unit");
    c.gpus = r.integer("gpus", 1, 1 << 20);
    c.batch = r.integer("batch_per_gpu", 1, 1 << 20);
    if (!r.text("seq_len").empty()) c.seq_len = r.integer("seq_len", 1, 1 << 24);
    const double published = r.number("throughput", Bound::between(1e-6, 1e12));
    const bool per_token = c.unit.starts_with("tokens/s");
    const bool per_gpu = c.unit.ends_with("/GPU");
    if (!(c.unit.starts_with("images/s") || c.unit.starts_with("sequences/s") || per_token)) {
      c.reason = "unit " + c.unit;
    } else if (per_token && c.seq_len == 0) {
      c.reason = "tokens/s without a sequence length";
    } else {
      c.published = (per_token ? published / c.seq_len : published) / (per_gpu ? 1 : c.gpus);
      try {
        express(c);
      } catch (const std::invalid_argument& e) {
        c.reason = e.what();
      }
    }
    v.cases.push_back(std::move(c));
  }
  return v;
}

void write_single_gpu_summary(std::ostream& out, const SingleGpuValidation& v) {
  int expressible = 0;
  for (const auto& c : v.cases) expressible += c.expressible;
  out << "\ncompute (validation/data/single-gpu): published single-GPU training throughput against the zoo's "
         "roofline, zero-shot\n";
  TextTable t({"group", "rows", "MAPE"}, {"", "", "%"});
  for (const char* what : {"generation", "precision"})
    for (const auto& [key, v2] : v.by(what)) t.add_row({key, std::to_string(v2.second), fmt::format("{:.1f}", v2.first)});
  t.write(out);
  out << fmt::format("{} of {} rows expressible (the others: more than one GPU, a GPU or model outside the catalog, "
                     "or a precision the GPU lacks; report.md lists each)\n",
                     expressible, v.cases.size());
}

std::string single_gpu_markdown(const SingleGpuValidation& v) {
  std::ostringstream out;
  out << "## Compute on one GPU (validation/data/single-gpu)\n\nEach published single-GPU throughput predicted "
         "from the zoo's roofline with no measured throughput; error = (predicted - published) / published.\n\n"
         "| line | source | gpu | model | precision | batch | seq | published | predicted | error |\n"
         "| --: | :-- | :-- | :-- | :-- | --: | --: | --: | --: | --: |\n";
  for (const auto& c : v.cases)
    if (c.expressible)
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {:.1f} | {:.1f} | {:+.1f}% |\n", c.line, c.source, c.gpu,
                         c.model, c.precision, c.batch, c.seq_len, c.published, c.predicted, 100 * c.error());
  out << "\nNot expressible:\n\n";
  for (const auto& c : v.cases)
    if (!c.expressible) out << "- line " << c.line << " (" << c.source << ", " << c.gpu << ", " << c.model << "): " << c.reason << "\n";
  return out.str();
}

}  // namespace scalecast::validation
