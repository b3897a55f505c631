// The product-time model (sim/compute/kernel_times.h) against OpenXLA's measured GEMM table
// (validation/data/matmul-shapes): each shape's kernel time on the H100 and B200, per dtype.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace scalecast::validation {

struct MatmulShapeCase {
  int line = 0;                 // in xla-default-matmul-table.csv
  std::string arch, dtype;      // XLA's keys: "sm_90", "bf16xbf16->bf16"
  std::string gpu, precision;   // what they stand for: "h100", "bf16" (empty when not scored)
  int b = 0, m = 0, n = 0, k = 0;
  double measured_s = 0;        // 2 b m n k over the table's FLOP/s
  double predicted_s = 0;
  std::string reason;           // why the row is not scored; empty when it is
  bool scored() const { return reason.empty(); }
  double error() const { return (predicted_s - measured_s) / measured_s; }
};

// One arch and dtype's scored rows: their count, mean |error| and mean error, in percent.
struct MatmulShapeGroup {
  int rows = 0;
  double mape = 0, mean_error = 0;
};

struct MatmulShapeValidation {
  std::vector<MatmulShapeCase> cases;
  // Keyed "sm_90 bf16" (the arch, then the precision the dtype runs at).
  std::map<std::string, MatmulShapeGroup> groups() const;
};

// Reads `folder`/xla-default-matmul-table.csv. Throws an InputError naming the file and line of a
// malformed row.
MatmulShapeValidation validate_matmul_shapes(const std::string& folder);

void write_matmul_shapes_summary(std::ostream& out, const MatmulShapeValidation& v);
// Per arch and dtype with its worst rows, for report.md.
std::string matmul_shapes_markdown(const MatmulShapeValidation& v);
// Every row, measured and predicted, for the report folder's matmul-shapes.csv.
void write_matmul_shapes_rows(std::ostream& out, const MatmulShapeValidation& v);

}  // namespace scalecast::validation
