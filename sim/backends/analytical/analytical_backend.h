// The analytical backend: every communication task costs its closed-form alpha-beta time, and a
// list scheduler plays the DAG on a compute stream and communication channels.
#pragma once

#include "sim/backends/backend.h"

namespace scalecast {

class AnalyticalBackend : public Backend {
 public:
  std::string name() const override { return "analytical"; }
  Timeline run(const Schedule& schedule) const override;
  // Each task is a few events; each push or pull starts and ends a flow, and either refills the
  // rates of every link (two per parameter server).
  RunCost cost(const Schedule& schedule) const override;
};

}  // namespace scalecast
