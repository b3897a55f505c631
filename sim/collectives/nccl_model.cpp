// NCCL's model of one sized cluster built from the link capacities of a run of NCCL there: the
// strategy's library and aggregation as a plain NCCL all-reduce run has them.
#include "sim/collectives/nccl_model.h"

#include "sim/network/link_capacities.h"
#include "sim/types/strategy.h"

namespace scalecast::collectives::nccl {

NcclModel nccl_model(const Cluster& sized, const NcclSettings& settings) {
  Strategy nccl;
  nccl.nccl = settings;
  return NcclModel(sized, network_rates(link_capacities(sized, nccl)), settings);
}

}  // namespace scalecast::collectives::nccl
