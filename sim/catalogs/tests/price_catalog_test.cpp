// The price catalog: every entry names a catalog GPU, a source and a date, and is the figure of
// one row of validation/data/prices/prices.csv; the rule that picks a GPU's price.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>

#include "sim/io/csv.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/catalogs/nic_catalog.h"
#include "sim/catalogs/price_catalog.h"
#include "sim/io/input_error.h"
#include "sim/io/units.h"

namespace scalecast {
namespace {

const std::string kPricesCsv = std::string(SCALECAST_SOURCE_DIR) + "/validation/data/prices/prices.csv";

TEST(PriceCatalog, EveryEntryNamesACatalogGpuASourceAndADate) {
  const std::regex date(R"(20[0-9]{2}-[01][0-9]-[0-3][0-9])");
  for (const PriceEntry& e : price_catalog()) {
    SCOPED_TRACE(e.provider + " " + e.instance + " " + to_string(e.pricing));
    EXPECT_TRUE(has_gpu(e.gpu)) << e.gpu;
    if (!e.nic.empty()) {
      EXPECT_NO_THROW(find_nic(e.nic));
    }
    EXPECT_GE(e.gpus, 1);
    EXPECT_GT(e.usd_per_gpu_hour, 0);
    EXPECT_FALSE(e.source.empty());
    // Only SkyPilot's catalog snapshot carries no date (validation/data/prices/README.md).
    if (e.source == "skypilot-catalog-aws-v8") {
      EXPECT_EQ(e.price_date, "undated");
    } else {
      EXPECT_TRUE(std::regex_match(e.price_date, date)) << e.price_date;
    }
  }
}

// The figure prices.csv gives per GPU-hour: printed, or the instance's divided by its GPUs, or
// Google's monthly commitment over 730 hours and the GPUs.
double csv_price(const CsvRecord& r) {
  const double gpus = r.integer("gpus", 1, 64);
  if (!r.text("usd_per_gpu_hour").empty()) return std::stod(r.text("usd_per_gpu_hour"));
  if (!r.text("usd_per_instance_hour").empty()) return std::stod(r.text("usd_per_instance_hour")) / gpus;
  std::smatch m;
  const std::string& note = r.text("note");
  if (!std::regex_search(note, m, std::regex(R"(month_[13]y ([0-9.]+) USD per month)"))) return -1;
  return std::stod(m[1].str()) / 730 / gpus;
}

// The row's GPU is the entry's: its model ("A100", "H100", ...) begins the catalog key and its
// memory, where stated, is the catalog GPU's.
bool same_gpu(const CsvRecord& r, const PriceEntry& e) {
  std::smatch m;
  const std::string& text = r.text("gpu");
  if (!std::regex_search(text, m, std::regex(R"(^([A-Z][0-9]+))"))) return false;
  std::string model = m[1].str();
  for (char& c : model) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string& memory = r.text("gpu_memory_gib");
  return e.gpu.starts_with(model) &&
         (memory.empty() || std::stod(memory) == std::round(find_gpu(e.gpu).memory_bytes / units::kGiB));
}

TEST(PriceCatalog, EveryEntryIsTheFigureOfOneRowOfPricesCsv) {
  const CsvFile csv(kPricesCsv);
  ASSERT_EQ(csv.records().size(), 90u);
  std::set<int> used;
  for (const PriceEntry& e : price_catalog()) {
    SCOPED_TRACE(e.provider + " " + e.instance + " " + e.region + " " + to_string(e.pricing) + " " + e.source);
    int found = 0;
    for (const CsvRecord& r : csv.records()) {
      if (r.text("provider") != e.provider || r.text("instance") != e.instance || r.text("region") != e.region ||
          r.text("source") != e.source || !r.text("pricing").starts_with(to_string(e.pricing)) ||
          !r.text("price_date").starts_with(e.price_date) || r.text("network") != e.network || !same_gpu(r, e))
        continue;
      ++found;
      EXPECT_TRUE(used.insert(r.line()).second) << "line " << r.line() << " priced twice";
      EXPECT_EQ(r.integer("gpus", 1, 64), e.gpus);
      EXPECT_NEAR(e.usd_per_gpu_hour, csv_price(r), 1e-12 * e.usd_per_gpu_hour);
    }
    EXPECT_EQ(found, 1);
  }
  // 19 rows are left out (price_catalog.cpp says which and why).
  EXPECT_EQ(price_catalog().size(), 71u);
}

TEST(PriceCatalog, AKnownGpuGetsTheCheapestOfEachProvidersNewestPrice) {
  // A100 80 GB on demand: Lambda's per-GPU listing of 2024-09-05 (1.79), not its older 8x
  // instance of 2023-02-01 (1.50), and below CoreWeave, OCI, Azure, AWS and Google.
  const PriceEntry* a100 = catalog_price("a100", Pricing::on_demand);
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ(a100->provider, "Lambda");
  EXPECT_EQ(a100->price_date, "2024-09-05");
  EXPECT_EQ(a100->usd_per_gpu_hour, 1.79);
  // H200: the same p5en figure dated by dstack wins over SkyPilot's undated snapshot.
  const PriceEntry* h200 = catalog_price("h200", Pricing::on_demand);
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->source, "dstack-pr-4110");
  EXPECT_EQ(h200->usd_per_gpu_hour, 7.912);
  // One provider: Google's cheaper region of a3-highgpu-8g.
  const PriceEntry* gcp = catalog_price("h100", Pricing::on_demand, "Google Cloud");
  ASSERT_NE(gcp, nullptr);
  EXPECT_EQ(gcp->instance, "a3-highgpu-8g");
  EXPECT_EQ(gcp->region, "us-central1");
  const PriceEntry* reserved = catalog_price("h100", Pricing::reserved_3y);
  ASSERT_NE(reserved, nullptr);
  EXPECT_DOUBLE_EQ(reserved->usd_per_gpu_hour, 28370.99821392 / 730 / 8);
  EXPECT_EQ(catalog_price("v100-pcie", Pricing::on_demand), nullptr);
  EXPECT_EQ(catalog_price("h100", Pricing::reserved_1y, "AWS"), nullptr);
}

TEST(PriceCatalog, PricingNamesRoundTrip) {
  for (const std::string& name : pricing_names()) EXPECT_EQ(to_string(parse_pricing(name)), name);
  EXPECT_THROW(parse_pricing("monthly"), InputError);
  EXPECT_EQ(price_providers().size(), 6u);  // Nebius's one row (an H100 of unstated variant) is left out
}

}  // namespace
}  // namespace scalecast
