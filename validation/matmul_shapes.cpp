// Rows as products: XLA's architecture key names a catalog GPU and its dtype a precision; the
// product [b, m, k] x [b, k, n] is timed by compute::product_s with the rates the compute model
// gives that GPU, less the host's launch gap, which a CUPTI kernel duration does not hold.
#include "validation/matmul_shapes.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

#include "sim/catalogs/gpu_catalog.h"
#include "sim/compute/compute_model.h"
#include "sim/compute/kernel_times.h"
#include "sim/io/csv.h"
#include "sim/report/text_table.h"

namespace scalecast::validation {
namespace {

// The catalog GPU an XLA device key stands for (data/matmul-shapes/README.md says why).
std::string gpu_for_arch(const std::string& arch) {
  if (arch == "sm_90") return "h100";
  if (arch == "sm_100_B200") return "b200";
  return "";
}

// The precision an XLA dtype key runs at: f32 dots as TF32 (README.md, "What is assumed").
std::string precision_for_dtype(const std::string& dtype) {
  if (dtype == "bf16xbf16->bf16") return "bf16";
  if (dtype == "f32xf32->f32") return "tf32";
  return "";
}

void predict(MatmulShapeCase& c) {
  c.gpu = gpu_for_arch(c.arch);
  if (c.gpu.empty()) {
    c.reason = "arch " + c.arch + " stands for no catalog GPU";
    return;
  }
  if (c.dtype.starts_with("f8")) {
    c.reason = "fp8 rows are not one GEMM's duration (README.md)";
    return;
  }
  c.precision = precision_for_dtype(c.dtype);
  if (c.precision.empty()) {
    c.reason = "dtype " + c.dtype + " has no modelled precision";
    return;
  }
  const Precision p = parse_precision(c.precision);
  const compute::Product product{.m = double(c.m), .n = double(c.n), .k = double(c.k), .count = double(c.b)};
  // No launch gap: the table times the kernel on the GPU, not the host's issue of it.
  const ComputeModelParams kernel_only{.kernel_overhead_s = 0};
  c.predicted_s = compute::product_s(product, element_bytes(p), kernel_rates(find_gpu(c.gpu), kernel_only, p));
}

std::string group_key(const MatmulShapeCase& c) { return c.arch + " " + c.precision; }

std::string shape_text(const MatmulShapeCase& c) { return fmt::format("{} x {}x{}x{}", c.b, c.m, c.n, c.k); }

}  // namespace

std::map<std::string, MatmulShapeGroup> MatmulShapeValidation::groups() const {
  std::map<std::string, MatmulShapeGroup> out;
  for (const auto& c : cases) {
    if (!c.scored()) continue;
    MatmulShapeGroup& g = out[group_key(c)];
    ++g.rows;
    g.mape += std::abs(c.error()) * 100;
    g.mean_error += c.error() * 100;
  }
  for (auto& [key, g] : out) {
    g.mape /= g.rows;
    g.mean_error /= g.rows;
  }
  return out;
}

MatmulShapeValidation validate_matmul_shapes(const std::string& folder) {
  MatmulShapeValidation v;
  const CsvFile csv(folder + "/xla-default-matmul-table.csv");
  for (const CsvRecord& r : csv.records()) {
    MatmulShapeCase c;
    c.line = r.line();
    c.arch = r.non_empty("arch");
    c.dtype = r.non_empty("dtype");
    c.b = r.integer("b", 1, 1 << 20);
    c.m = r.integer("m", 1, 1 << 24);
    c.n = r.integer("n", 1, 1 << 24);
    c.k = r.integer("k", 1, 1 << 24);
    const double flops_per_s = r.number("flops_per_s", Bound::between(1e6, 1e17));
    c.measured_s = 2.0 * c.b * c.m * c.n * c.k / flops_per_s;
    predict(c);
    v.cases.push_back(std::move(c));
  }
  return v;
}

void write_matmul_shapes_summary(std::ostream& out, const MatmulShapeValidation& v) {
  out << "\nmatrix products by shape (validation/data/matmul-shapes): OpenXLA's measured GEMM kernel times "
         "against the product model, zero-shot\n";
  TextTable t({"arch", "precision", "rows", "MAPE", "mean error"}, {"", "", "", "%", "%"});
  for (const auto& [key, g] : v.groups()) {
    const auto space = key.find(' ');
    t.add_row({key.substr(0, space), key.substr(space + 1), std::to_string(g.rows), fmt::format("{:.1f}", g.mape),
               fmt::format("{:+.1f}", g.mean_error)});
  }
  t.write(out);
  const auto unscored = std::count_if(v.cases.begin(), v.cases.end(), [](const auto& c) { return !c.scored(); });
  out << fmt::format("{} of {} rows scored (the fp8 rows are not one GEMM's duration; report.md says why)\n",
                     v.cases.size() - unscored, v.cases.size());
}

std::string matmul_shapes_markdown(const MatmulShapeValidation& v) {
  std::ostringstream out;
  out << "## Matrix products by shape (validation/data/matmul-shapes)\n\nOpenXLA's default GEMM performance table "
         "(CUPTI kernel durations of [b, m, k] x [b, k, n] products, XLA's autotuned kernels) against "
         "compute::product_s with the compute model's rates for the GPU and no launch gap; error = (predicted - "
         "measured) / measured. sm_90 is taken as the H100 SXM, sm_100_B200 as the B200, f32 dots as TF32. Every "
         "row, with its prediction, is in matmul-shapes.csv.\n\n"
         "| arch | precision | rows | MAPE | mean error |\n| :-- | :-- | --: | --: | --: |\n";
  const auto groups = v.groups();
  for (const auto& [key, g] : groups) {
    const auto space = key.find(' ');
    out << fmt::format("| {} | {} | {} | {:.1f}% | {:+.1f}% |\n", key.substr(0, space), key.substr(space + 1), g.rows,
                       g.mape, g.mean_error);
  }
  constexpr std::size_t kWorst = 5;
  for (const auto& [key, g] : groups) {
    std::vector<const MatmulShapeCase*> rows;
    for (const auto& c : v.cases)
      if (c.scored() && group_key(c) == key) rows.push_back(&c);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto* a, const auto* b) { return std::abs(a->error()) > std::abs(b->error()); });
    rows.resize(std::min(rows.size(), kWorst));
    out << fmt::format("\nWorst rows, {}:\n\n| line | b x m x n x k | measured µs | predicted µs | error |\n"
                       "| --: | :-- | --: | --: | --: |\n",
                       key);
    for (const auto* c : rows)
      out << fmt::format("| {} | {} | {:.1f} | {:.1f} | {:+.1f}% |\n", c->line, shape_text(*c), c->measured_s * 1e6,
                         c->predicted_s * 1e6, 100 * c->error());
  }
  const auto unscored = std::count_if(v.cases.begin(), v.cases.end(), [](const auto& c) { return !c.scored(); });
  out << fmt::format("\n{} rows not scored: the fp8 dtypes, whose sm_90 rates exceed the H100's dense fp8 peak, so "
                     "that the median kernel XLA records cannot be the GEMM (data/matmul-shapes/README.md).\n",
                     unscored);
  return out.str();
}

void write_matmul_shapes_rows(std::ostream& out, const MatmulShapeValidation& v) {
  out << "line,arch,dtype,b,m,n,k,gpu,precision,measured_us,predicted_us,error_pct,not_scored\n";
  for (const auto& c : v.cases) {
    out << fmt::format("{},{},{},{},{},{},{},{},{},{:.3f},", c.line, c.arch, c.dtype, c.b, c.m, c.n, c.k, c.gpu,
                       c.precision, c.measured_s * 1e6);
    if (c.scored())
      out << fmt::format("{:.3f},{:.2f},\n", c.predicted_s * 1e6, 100 * c.error());
    else
      out << ",,\"" << c.reason << "\"\n";
  }
}

}  // namespace scalecast::validation
