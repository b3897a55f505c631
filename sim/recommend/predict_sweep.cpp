// predict's sweep: the methods and GPU counts a scenario runs, and each swept scenario's workload
// and memory checked (refused or warned) before any prediction runs.
#include "sim/recommend/predict_sweep.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "sim/io/input_error.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/workload_builder.h"
#include "sim/types/strategy.h"

namespace scalecast {

void select_runs(Scenario& s, const std::vector<std::string>& methods, const std::vector<int>& gpus) {
  for (std::size_t i = 0; i < methods.size(); ++i)
    if (std::find(methods.begin(), methods.begin() + static_cast<long>(i), methods[i]) != methods.begin() + static_cast<long>(i))
      throw InputError("--method: " + methods[i] + " is given twice");
  for (std::size_t i = 0; i < gpus.size(); ++i)
    if (std::find(gpus.begin(), gpus.begin() + static_cast<long>(i), gpus[i]) != gpus.begin() + static_cast<long>(i))
      throw InputError("--gpus: " + std::to_string(gpus[i]) + " is given twice");
  if (!methods.empty()) s.methods = methods;
  if (s.methods.empty())
    throw InputError(InputKind::file, s.path + ": methods: expected the methods to predict (or --method), got none");
  if (!gpus.empty()) s.gpus = gpus;
  for (const auto& m : s.methods) make_preset(m);
  for (int g : s.gpus) nodes_for(s.cluster, g);
}

PlannedRuns plan_runs(const Scenario& s, const std::string& swept_as, bool allow_oom, std::ostream& warnings) {
  PlannedRuns r;
  r.workload = build_workload(s);
  std::set<std::string> warned;
  const MemoryFit whole = memory_fit(s, r.workload.workload);
  for (const auto& m : s.methods)
    for (int g : s.gpus) {
      const StateSharding sharding = state_sharding(strategy_for(s, m), sized_for(s.cluster, g));
      const MemoryFit& fit = r.memory.emplace_back(sharded_fit(whole, r.workload.workload, sharding));
      // A sharded method's memory depends on the method and the GPU count: say which.
      const bool several = s.methods.size() * s.gpus.size() > 1;
      const std::string which = (several ? " with " + m + " on " + std::to_string(g) + " GPUs" : "") +
                                (swept_as.empty() ? "" : " with " + swept_as);
      // Refused only where the estimate's interval lies wholly over the GPU's memory; within it,
      // predicted with a warning that names the margin.
      if (!fit.fits() && !allow_oom)
        throw InputError(InputKind::file, s.path + ": model.batch_per_gpu: expected a configuration that fits in a " + fit.gpu +
                          ", got one that needs " + memory_summary(fit) + which + "; it would fit with " +
                          memory_knobs(s, r.workload.workload, sharding) + "; or pass --allow-oom");
      const std::string warning = memory_warning(fit);
      if (!warning.empty() && fit.fits() && warned.insert(warning).second)
        warnings << "warning: " << s.path << ": memory" << which << ": " << warning << "\n";
    }
  return r;
}

}  // namespace scalecast
