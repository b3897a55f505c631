// Calibration of the GPU spin kernel that emulates compute: a least-squares line through timed
// runs, seconds = overhead + cycles / clock rate, so a task of d seconds spins the right cycles.
#pragma once

#include <vector>

namespace scalecast::executor {

struct SpinSample {
  double cycles = 0;   // clock64() ticks the kernel spun
  double seconds = 0;  // its time between CUDA events
};

struct SpinCalibration {
  double cycles_per_s = 0;  // the SM clock the kernel saw
  double overhead_s = 0;    // launch and event cost a zero-cycle spin still takes
  // Cycles that make a kernel last `seconds` between its events (0 below the overhead).
  long long cycles_for(double seconds) const;
};

// Throws std::logic_error for fewer than two distinct cycle counts, std::runtime_error for a clock
// that does not tick forward.
SpinCalibration fit_spin(const std::vector<SpinSample>& samples);

}  // namespace scalecast::executor
