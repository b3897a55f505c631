// How a search is priced: each GPU's price per hour from the scenario's `prices:` or the price
// catalog, and the first price a configuration would otherwise take as zero.
#pragma once

#include <string>

#include "sim/catalogs/price_catalog.h"
#include "sim/scenario/search_space.h"

namespace scalecast::recommend {

// A GPU-hour's price and where it comes from.
struct GpuPrice {
  double per_hour = 0;
  const PriceEntry* entry = nullptr;  // the catalog entry; nullptr: the scenario's prices.gpu_hour
  std::string missing;                // not empty: no price, and the error naming the key to set
};

// The scenario's prices.gpu_hour for the GPU (or its '*'), else the catalog's price by
// prices.provider and prices.pricing (catalog_price) when the scenario's currency is USD.
// `path`: the scenario file, which `missing` names.
GpuPrice gpu_price(const std::string& path, const Prices& prices, const std::string& gpu);

// "1.79 USD per GPU-hour: price catalog, Lambda per-GPU listing (instance not named), on-demand,
// price date 2024-09-05, source cloud-gpus-json" or "1.03 USD per GPU-hour: the scenario's
// prices.gpu_hour".
std::string describe(const GpuPrice& price, const std::string& currency);

}  // namespace scalecast::recommend
