// The price catalog: dated, sourced hourly prices of cloud instances that carry GPUs of the GPU
// catalog (on-demand, spot, reserved), per GPU, copied from validation/data/prices/prices.csv.
#pragma once

#include <string>
#include <vector>

namespace scalecast {

// How an instance is bought: on demand, on the spot market, or committed for one or three years.
enum class Pricing { on_demand, spot, reserved_1y, reserved_3y };
Pricing parse_pricing(const std::string& text);  // "on-demand", "spot", "reserved-1y", "reserved-3y"
std::string to_string(Pricing p);
std::vector<std::string> pricing_names();

struct PriceEntry {
  std::string provider;         // "AWS", "Google Cloud", "Azure", "Lambda", "CoreWeave", "Oracle OCI"
  std::string instance;         // the provider's instance type, or how the source names the listing
  std::string gpu;              // GPU catalog key
  int gpus = 0;                 // GPUs per instance
  std::string nic = "";         // NIC catalog key of its inter-node NICs ("" when none names one)
  std::string network = "";     // its inter-node network as the source states it ("" when not stated)
  std::string region;
  Pricing pricing = Pricing::on_demand;
  double usd_per_gpu_hour = 0;  // the instance's hourly price per GPU, in USD
  std::string price_date;       // YYYY-MM-DD the price applies to, or "undated"
  std::string source;           // source id of validation/data/prices/README.md
};

// The catalog in prices.csv's row order.
const std::vector<PriceEntry>& price_catalog();
std::vector<std::string> price_providers();  // in catalog order, each once

// The price of a GPU-hour by the catalog's rule: among entries of that GPU and pricing (and
// provider, when not empty), each provider's newest (an undated price is older than any dated
// one), then the cheapest of those; ties go to the earlier entry. nullptr when none.
const PriceEntry* catalog_price(const std::string& gpu, Pricing pricing, const std::string& provider = "");

// "Lambda per-GPU listing (instance not named), on-demand, price date 2024-09-05, source
// cloud-gpus-json": what a price came from, for people.
std::string describe(const PriceEntry& e);

}  // namespace scalecast
