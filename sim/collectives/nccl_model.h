// NCCL's model of one sized cluster with the link capacities a run of NCCL there has, for
// one-off questions (scalecast collective, its comparison with nccl-tests, tests).
#pragma once

#include "sim/types/cluster.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/types/nccl_settings.h"

namespace scalecast::collectives::nccl {

// The model of `sized` under `settings`; a run builds its own once (LinkCapacities::nccl).
NcclModel nccl_model(const Cluster& sized, const NcclSettings& settings);

}  // namespace scalecast::collectives::nccl
