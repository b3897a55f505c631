// Sharded data-parallel training against published throughput (validation/data/sharded-training): each expressible
// row predicted zero-shot by the analytical backend, in tokens/s per GPU, with the error by source, GPU and setting.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "validation/sharded_training_rows.h"

namespace scalecast::validation {

struct ShardedCase {
  ShardedRow row;
  double predicted = 0;        // tokens/s per GPU (expressible rows)
  double compute_share = 0;    // of the predicted iteration, compute's share (the rest: exposed communication)
  double memory_gib = 0;       // the memory estimate per GPU, central (the run fit in the GPU's)
  bool refused = false;        // the estimate's interval lies wholly above the GPU's memory
  double error() const { return (predicted - row.published) / row.published; }
};

// Mean |error| and mean error of a group of expressible rows.
struct ShardedGroup {
  std::string key;
  int rows = 0;
  double mape_pct = 0, bias_pct = 0;
};

struct ShardedTrainingValidation {
  std::vector<ShardedCase> cases;
  int expressible() const;
  int sources() const;  // of the expressible rows
  int refused() const;  // expressible rows the memory estimate would refuse, though they ran
  ShardedGroup overall() const;
  // The expressible rows grouped by "source", "gpu" (catalog GPU), "gpus" (GPU count), "sharding"
  // (the preset), "checkpointing" or "seq" (sequence length); counts and lengths in numeric order.
  std::vector<ShardedGroup> by(const std::string& what) const;
  // The expressible rows, largest |error| first (ties in file order).
  std::vector<const ShardedCase*> worst() const;
  // Share of the expressible rows whose published throughput lies inside the interval `predict
  // --interval level_pct` gives them: zero-shot spreads widened by the compute model's over the
  // row's compute share, as for any prediction whose compute comes from the model alone.
  double coverage(double level_pct) const;
};

// Reads `folder`/throughput.csv and predicts every expressible row with the analytical backend.
// Throws an InputError for a malformed field, or naming the row for a scenario the model
// refuses.
ShardedTrainingValidation validate_sharded_training(const std::string& folder);

void write_sharded_training_summary(std::ostream& out, const ShardedTrainingValidation& v);
// The same, every row and each source's network, for report.md.
std::string sharded_training_markdown(const ShardedTrainingValidation& v);

}  // namespace scalecast::validation
