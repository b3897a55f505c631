// The memory estimate against published training configurations that ran
// (validation/data/memory-fit/configurations.csv): every expressible row (whole model on each GPU,
// a zoo model, a modelled precision and optimizer) should be predicted to fit, and where the source
// measured a peak, the estimate of that same measure is compared with it. Rows that cannot be
// expressed are listed with the reason, never dropped.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/memory/memory_fit.h"

namespace scalecast::validation {

struct MemoryCase {
  int line = 0;                // in configurations.csv
  std::string source;
  std::string gpu;
  std::string model;
  std::string precision;       // as published
  int batch = 0;
  int seq_len = 0;
  bool expressible = false;
  std::string reason;          // why not, when not expressible
  std::string settings;        // how the row was expressed (precision mode, attention, ...)
  MemoryFit fit;
  double measured_gib = -1;    // the source's measured peak, -1 when none
  std::string peak_measure;
  double predicted_gib = -1;   // the estimate of the same measure
  double error() const { return measured_gib > 0 ? (predicted_gib - measured_gib) / measured_gib : 0; }
  bool central_fits() const { return fit.needed_bytes() <= fit.available_bytes; }
};

struct MemoryValidation {
  std::vector<MemoryCase> cases;
  int expressible() const;
  int central_fit() const;     // central estimate within the GPU's memory
  int not_refused() const;     // MemoryFit::fits(): the interval's low end within it
  int measured() const;
  double max_abs_error() const;
  double mean_abs_error() const;
};

// Reads configurations.csv under `folder` (validation/data/memory-fit).
MemoryValidation validate_memory(const std::string& folder);

// A few lines for `scalecast validate`'s summary: counts, reasons left out, each measured row's error.
void write_memory_summary(std::ostream& out, const MemoryValidation& v);

// A markdown section: the summary, every expressible row, every row left out with its reason.
std::string memory_markdown(const MemoryValidation& v);

}  // namespace scalecast::validation
