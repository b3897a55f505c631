// `scalecast models`, `gpus`, `nics`, `prices`, `datasets`, `methods`, `mechanisms` and `backends`:
// what the zoo, the catalogs, the presets, the switchable mechanisms and the backends hold.
#include <algorithm>
#include <fmt/format.h>
#include <iostream>

#include "cli/command.h"
#include "cli/common.h"
#include "sim/backends/backend_registry.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/catalogs/mechanisms.h"
#include "sim/catalogs/nic_catalog.h"
#include "sim/catalogs/price_catalog.h"
#include "sim/catalogs/sequence_lengths.h"
#include "sim/report/text_table.h"
#include "sim/types/strategy.h"
#include "sim/io/units.h"
#include "sim/zoo/zoo.h"

namespace scalecast::cli {
namespace {

int no_options(const std::string& name, const std::vector<std::string>& args,
               const std::function<void()>& body) {
  return guarded(name, [&] {
    po::options_description opts("options");
    po::positional_options_description pos;
    po::variables_map vm;
    if (parse_options(name, "", opts, pos, args, vm)) return 0;
    body();
    return 0;
  });
}

// "layers, hidden, heads [, intermediate, tied_embeddings]": the keys a model built by shape
// needs, then those it may take.
std::string shape_keys(const zoo::ModelInfo& info) {
  std::string required, optional;
  for (const auto& key : info.shape_keys) {
    const bool needed = std::find(info.required_shape_keys.begin(), info.required_shape_keys.end(),
                                  key) != info.required_shape_keys.end();
    std::string& list = needed ? required : optional;
    list += (list.empty() ? "" : ", ") + key;
  }
  if (required.empty()) return optional;
  return required + (optional.empty() ? "" : " [, " + optional + "]");
}

int models(const std::vector<std::string>& args) {
  return no_options("models", args, [] {
    TextTable t({"model", "parameters", "grad_tensors", "grad_bytes", "forward_flops", "unit",
                 "description"},
                {"", "", "", "MB (fp32)", "GFLOP/sample", "", ""});
    std::string by_shape;
    for (const auto& info : zoo::list_models()) {
      if (!info.required_shape_keys.empty()) {
        t.add_row({info.name, "by shape", "", "", "", info.sample_unit, info.description});
        by_shape += " " + info.name + " takes the model keys " + shape_keys(info) + ".\n";
        continue;
      }
      if (!info.shape_keys.empty()) by_shape += " " + info.name + " also takes the model keys " + shape_keys(info) + ".\n";
      const Workload w = zoo::build_model(info.name, zoo::ModelOptions{});
      double flops = 0;
      for (const auto& l : w.layers) flops += l.forward_flops;
      t.add_row({info.name, std::to_string(w.parameters()), std::to_string(w.grad_tensor_count()),
                 fmt::format("{:.1f}", static_cast<double>(w.grad_bytes()) / 1e6), fmt::format("{:.2f}", flops / 1e9),
                 info.sample_unit, info.description});
    }
    t.write(std::cout);
    std::cout << "Transformers at sequence length 128 and their own vocabulary (BERT 30528, GPT-2 "
                 "50257, LLaMA 32000);\na scenario sets model.seq_len and model.vocab_size.\n"
              << by_shape
              << "Any other model: a profile CSV as model.profile (scalecast import-trace, "
                 "scalecast profile).\n";
  });
}

int gpus(const std::vector<std::string>& args) {
  return no_options("gpus", args, [] {
    TextTable t({"gpu", "name", "fp32", "tf32", "fp16", "bf16", "fp8", "memory_bw", "memory", "sm", "sms", "nvlinks",
                 "pcie", "source"},
                {"", "", "TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s", "GB/s", "GiB", "", "", "", "gen", ""});
    for (const auto& g : gpu_catalog())
      t.add_row({g.name, g.full_name, fmt::format("{:.2f}", g.fp32_flops / 1e12),
                 fmt::format("{:.1f}", g.tf32_flops / 1e12), fmt::format("{:.1f}", g.fp16_flops / 1e12),
                 fmt::format("{:.1f}", g.bf16_flops / 1e12), fmt::format("{:.1f}", g.fp8_flops / 1e12),
                 fmt::format("{:.0f}", g.memory_bandwidth / 1e9),
                 fmt::format("{:.0f}", g.memory_bytes / units::kGiB),
                 fmt::format("{}.{}", g.compute_capability / 10, g.compute_capability % 10), std::to_string(g.sms),
                 std::to_string(g.nvlinks),
                 std::to_string(g.pcie_gen), g.source});
    t.write(std::cout);
  });
}

int nics(const std::vector<std::string>& args) {
  return no_options("nics", args, [] {
    TextTable t({"nic", "rate", "transport", "latency", "reported_latency", "LL/LL128", "description", "source"},
                {"", "Gb/s", "", "us", "us", "", "", ""});
    for (const auto& n : nic_catalog())
      t.add_row({n.name, fmt::format("{:g}", n.line_rate * 8 / 1e9), to_string(n.transport),
                 fmt::format("{:g}", n.latency_s * 1e6), fmt::format("{:g}", n.reported_latency_s * 1e6),
                 n.ordered_writes ? "yes" : "no", n.description, n.source});
    t.write(std::cout);
    std::cout << "A scenario names one as cluster.network.nic, with cluster.network.nics per node (rails);\n"
                 "bandwidth, transport and latency given there replace the catalog's.\n";
  });
}

int prices(const std::vector<std::string>& args) {
  return no_options("prices", args, [] {
    TextTable t({"provider", "instance", "gpu", "gpus", "pricing", "price", "price_date", "region", "nic", "source",
                 "network"},
                {"", "", "", "per instance", "", "USD/GPU-hour", "", "", "", "", ""});
    for (const auto& e : price_catalog())
      t.add_row({e.provider, e.instance, e.gpu, std::to_string(e.gpus), to_string(e.pricing),
                 fmt::format("{:.4f}", e.usd_per_gpu_hour), e.price_date, e.region, e.nic.empty() ? "-" : e.nic,
                 e.source, e.network.empty() ? "-" : e.network});
    t.write(std::cout);
    std::cout << "Each price holds on its price_date (undated: SkyPilot's AWS catalog snapshot); copied from\n"
                 "validation/data/prices/prices.csv, whose README.md names each source.\n"
                 "recommend prices a GPU the scenario's prices.gpu_hour leaves out by each provider's newest\n"
                 "price of prices.pricing (default on-demand; prices.provider keeps one), then the cheapest.\n";
  });
}

int datasets(const std::vector<std::string>& args) {
  return no_options("datasets", args, [] {
    TextTable t({"dataset", "seq_len", "samples", "mean_length", "padding", "at_seq_len", "description", "source"},
                {"", "tokens", "", "tokens", "%", "%", "", ""});
    for (const auto& h : length_histograms()) {
      const int64_t samples = h.total();
      t.add_row({h.name, std::to_string(h.max_length), std::to_string(samples), fmt::format("{:.1f}", h.mean_length()),
                 fmt::format("{:.1f}", 100 * h.padding()),
                 fmt::format("{:.1f}", 100 * static_cast<double>(h.samples.back()) / static_cast<double>(samples)),
                 h.description, h.source});
    }
    t.write(std::cout);
    std::cout << "A scenario names one as model.sequence_lengths (its seq_len must be the dataset's): each batch is\n"
                 "padded to its longest sequence, drawn from one bin of model.sequence_bin tokens when given.\n";
  });
}

int methods(const std::vector<std::string>& args) {
  return no_options("methods", args, [] {
    for (const auto& p : list_presets()) std::cout << p.name << "\n    " << p.description << '\n';
  });
}

int mechanisms(const std::vector<std::string>& args) {
  return no_options("mechanisms", args, [] {
    for (const auto& m : scalecast::mechanisms())
      std::cout << m.name << "\n    models: " << m.what << "\n    source: " << m.source
                << "\n    switched off: " << m.off << '\n';
    std::cout << "A scenario switches them off with switched_off: [NAME, ...] (or --set switched_off=[NAME]);\n"
                 "scalecast validate --ablation reports the error with each one off in turn.\n";
  });
}

int backends(const std::vector<std::string>& args) {
  return no_options("backends", args, [] {
    for (const auto& b : list_backends()) std::cout << b.name << "\n    " << b.description << '\n';
  });
}

const Registration reg_models{"models", "list the model zoo", models};
const Registration reg_gpus{"gpus", "list the GPU catalog", gpus};
const Registration reg_nics{"nics", "list the NIC catalog", nics};
const Registration reg_prices{"prices", "list the price catalog (USD per GPU-hour, dated)", prices};
const Registration reg_datasets{"datasets", "list the sequence-length histograms of training sets", datasets};
const Registration reg_methods{"methods", "list the communication strategy presets", methods};
const Registration reg_mechanisms{"mechanisms", "list the mechanisms a scenario can switch off", mechanisms};
const Registration reg_backends{"backends", "list the prediction backends", backends};

}  // namespace
}  // namespace scalecast::cli
