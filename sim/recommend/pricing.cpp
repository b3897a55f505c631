// A GPU's price for recommend: the scenario's own, else the price catalog's by the scenario's
// provider and pricing, else an error that names the key to set.
#include "sim/recommend/pricing.h"

#include <fmt/format.h>

namespace scalecast::recommend {

GpuPrice gpu_price(const std::string& path, const Prices& prices, const std::string& gpu) {
  GpuPrice out;
  for (const std::string& key : {gpu, std::string("*")}) {
    if (auto it = prices.gpu_hour.find(key); it != prices.gpu_hour.end()) {
      out.per_hour = it->second;
      return out;
    }
  }
  const std::string key = path + ": prices.gpu_hour." + gpu + ": expected a price per GPU-hour";
  if (prices.currency != "USD") {
    out.missing = key + " in " + prices.currency + " (the price catalog's are in USD), got none";
    return out;
  }
  out.entry = catalog_price(gpu, prices.pricing, prices.provider);
  if (!out.entry) {
    out.missing = key + " (the price catalog has no " + to_string(prices.pricing) + " price" +
                  (prices.provider.empty() ? "" : " from " + prices.provider) + " for " + gpu +
                  "; scalecast prices lists it), got none";
    return out;
  }
  out.per_hour = out.entry->usd_per_gpu_hour;
  return out;
}

std::string describe(const GpuPrice& price, const std::string& currency) {
  const std::string figure = fmt::format("{:g} {} per GPU-hour: ", price.per_hour, currency);
  return figure + (price.entry ? "price catalog, " + scalecast::describe(*price.entry) : "the scenario's prices.gpu_hour");
}

}  // namespace scalecast::recommend
