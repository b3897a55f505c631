// Hourly GPU instance prices from validation/data/prices/prices.csv (its README.md names each
// source and how its date was found), each row whose GPU is in the GPU catalog, per GPU.
#include "sim/catalogs/price_catalog.h"
#include "sim/io/input_error.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace scalecast {
namespace {

// Source ids of validation/data/prices/README.md.
constexpr const char* kGcpBilling = "cyclenerd-gcp-pricing-2026-07-30";
constexpr const char* kSkyPilotAws = "skypilot-catalog-aws-v8";
constexpr const char* kDstack4110 = "dstack-pr-4110";
constexpr const char* kSkyPilot4019 = "skypilot-issue-4019";
constexpr const char* kFsdl = "fsdl-cloud-gpus-csv";
constexpr const char* kCloudGpus = "cloud-gpus-json";

// Inter-node networks as prices.csv states them (stas00/ml-engineering's network table; the
// DeepSpeed Azure post for NDm A100 v4).
constexpr const char* kA3HighNet =
    "4 x 200 Gbps GPUDirect-TCPX (ml-engineering network table; Google headline 1000 Gbps incl. VPC NIC)";
constexpr const char* kA3MegaNet =
    "8 x 200 Gbps GPUDirect-TCPXO (ml-engineering network table; Google headline 1800 Gbps incl. VPC NIC)";
constexpr const char* kP4dNet = "4 x 100 Gbps EFA v1 (ml-engineering network table)";
constexpr const char* kP5Net = "32 x 100 Gbps EFA v2 (ml-engineering network table: P5/P5e)";
constexpr const char* kP5enNet = "16 x 200 Gbps EFA v3 (ml-engineering network table)";
constexpr const char* kP6Net = "8 x 400 Gbps EFA v4 (ml-engineering network table)";
constexpr const char* kNdmNet =
    "8 x 200 Gb/s HDR InfiniBand, one per GPU (DeepSpeed Azure post 2022-07-26, NDm A100 v4)";

// Regions as the hand-maintained tables and show-gpus print them.
constexpr const char* kFsdlRegion = "not stated (page: US west/central where possible)";
constexpr const char* kCheapestRegion = "cheapest region (not printed)";
constexpr const char* kNotStated = "not stated";

}  // namespace

const std::vector<PriceEntry>& price_catalog() {
  // The GPU text maps to the GPU catalog by model and memory: "A100 40GB" and the 40 GiB "A100"
  // of p4d to a100-sxm4-40gb, A100 80 GB to a100, H100 80 GB (and GCP's Mega) to h100, H200,
  // B200 and T4 to theirs. Left out, 19 rows: A10G (g5, 12 rows; not in the GPU catalog); H100
  // of Lambda, CoreWeave and Nebius (4 rows; the README: SXM or PCIe not stated, the catalog's
  // h100 is SXM); Azure NC96ads A100 v4 (2 rows; Azure builds the NC A100 v4 series on A100 PCIe)
  // and Azure's per-GPU A100 80GB listing (its 3.67 is NC96ads A100 v4's per-GPU price).
  // Where the source prints no per-GPU figure, the code divides the instance price by its GPUs
  // (FSDL's spot column) or Google's monthly commitment by 730 hours (the source tool's month)
  // and the GPUs. cloud-gpus.com labels no pricing: its figures are taken as on-demand, as the
  // README does. SkyPilot's AWS catalog snapshot is undated.
  static const std::vector<PriceEntry> catalog = {
      // cyclenerd-gcp-pricing-2026-07-30
      {.provider = "Google Cloud", .instance = "a2-highgpu-8g", .gpu = "a100-sxm4-40gb", .gpus = 8,
       .region = "us-central1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.673385,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-highgpu-8g", .gpu = "a100-sxm4-40gb", .gpus = 8,
       .region = "us-central1", .pricing = Pricing::spot, .usd_per_gpu_hour = 1.92802, .price_date = "2026-07-30",
       .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-highgpu-8g", .gpu = "a100-sxm4-40gb", .gpus = 8,
       .region = "us-central1", .pricing = Pricing::reserved_1y, .usd_per_gpu_hour = 13514.9691136 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-highgpu-8g", .gpu = "a100-sxm4-40gb", .gpus = 8,
       .region = "us-central1", .pricing = Pricing::reserved_3y, .usd_per_gpu_hour = 7508.53662384 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-megagpu-16g", .gpu = "a100-sxm4-40gb", .gpus = 16,
       .region = "us-central1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.483719,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-megagpu-16g", .gpu = "a100-sxm4-40gb", .gpus = 16,
       .region = "us-central1", .pricing = Pricing::spot, .usd_per_gpu_hour = 1.82848, .price_date = "2026-07-30",
       .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-megagpu-16g", .gpu = "a100-sxm4-40gb", .gpus = 16,
       .region = "us-central1", .pricing = Pricing::reserved_1y, .usd_per_gpu_hour = 25634.2950272 / 730 / 16,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-megagpu-16g", .gpu = "a100-sxm4-40gb", .gpus = 16,
       .region = "us-central1", .pricing = Pricing::reserved_3y, .usd_per_gpu_hour = 14241.71597664 / 730 / 16,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-ultragpu-8g", .gpu = "a100", .gpus = 8, .region = "us-central1",
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 5.0687978904109625, .price_date = "2026-07-30",
       .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a2-ultragpu-8g", .gpu = "a100", .gpus = 8, .region = "us-central1",
       .pricing = Pricing::spot, .usd_per_gpu_hour = 2.7595463013698625, .price_date = "2026-07-30",
       .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-central1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 11.0612499878219125,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-central1", .pricing = Pricing::spot, .usd_per_gpu_hour = 6.326192602739725,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-central1", .pricing = Pricing::reserved_1y, .usd_per_gpu_hour = 44810.08066464 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-central1", .pricing = Pricing::reserved_3y, .usd_per_gpu_hour = 28370.99821392 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-east4", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 11.0694695189041125,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-east4", .pricing = Pricing::spot, .usd_per_gpu_hour = 4.5401045753424625,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-east4", .pricing = Pricing::reserved_1y, .usd_per_gpu_hour = 44840.32514976 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-highgpu-8g", .gpu = "h100", .gpus = 8, .network = kA3HighNet,
       .region = "us-east4", .pricing = Pricing::reserved_3y, .usd_per_gpu_hour = 28392.60150768 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east4", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 11.6171985189041125,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east4", .pricing = Pricing::spot, .usd_per_gpu_hour = 2.9094045753424625,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east4", .pricing = Pricing::reserved_1y, .usd_per_gpu_hour = 46678.66370976 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east4", .pricing = Pricing::reserved_3y, .usd_per_gpu_hour = 29555.25790768 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east5", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 11.7583301268219125,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east5", .pricing = Pricing::spot, .usd_per_gpu_hour = 4.40036306849315,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east5", .pricing = Pricing::reserved_1y, .usd_per_gpu_hour = 47254.99672304 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      {.provider = "Google Cloud", .instance = "a3-megagpu-8g", .gpu = "h100", .gpus = 8, .network = kA3MegaNet,
       .region = "us-east5", .pricing = Pricing::reserved_3y, .usd_per_gpu_hour = 29918.06318816 / 730 / 8,
       .price_date = "2026-07-30", .source = kGcpBilling},
      // skypilot-catalog-aws-v8
      {.provider = "AWS", .instance = "p4d.24xlarge", .gpu = "a100-sxm4-40gb", .gpus = 8, .nic = "efa-v1",
       .network = kP4dNet, .region = "us-east-1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 2.74470525,
       .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p4d.24xlarge", .gpu = "a100-sxm4-40gb", .gpus = 8, .nic = "efa-v1",
       .network = kP4dNet, .region = "us-east-1 (use1-az1)", .pricing = Pricing::spot, .usd_per_gpu_hour = 0.3081875,
       .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p4de.24xlarge", .gpu = "a100", .gpus = 8, .region = "us-east-1",
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.43088125, .price_date = "undated",
       .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p4de.24xlarge", .gpu = "a100", .gpus = 8, .region = "us-east-1 (use1-az6)",
       .pricing = Pricing::spot, .usd_per_gpu_hour = 1.0813125, .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p5.48xlarge", .gpu = "h100", .gpus = 8, .nic = "efa-v2", .network = kP5Net,
       .region = "us-east-1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 6.88, .price_date = "undated",
       .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p5.48xlarge", .gpu = "h100", .gpus = 8, .nic = "efa-v2", .network = kP5Net,
       .region = "us-east-1 (use1-az6)", .pricing = Pricing::spot, .usd_per_gpu_hour = 2.2036125,
       .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p5e.48xlarge", .gpu = "h200", .gpus = 8, .region = "us-east-2 (use2-az3)",
       .pricing = Pricing::spot, .usd_per_gpu_hour = 2.3419875, .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p5en.48xlarge", .gpu = "h200", .gpus = 8, .nic = "efa-v3", .network = kP5enNet,
       .region = "us-east-1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 7.912, .price_date = "undated",
       .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p5en.48xlarge", .gpu = "h200", .gpus = 8, .nic = "efa-v3", .network = kP5enNet,
       .region = "us-east-1 (use1-az6)", .pricing = Pricing::spot, .usd_per_gpu_hour = 2.0693875,
       .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p6-b200.48xlarge", .gpu = "b200", .gpus = 8, .network = kP6Net,
       .region = "us-east-1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 14.2416, .price_date = "undated",
       .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "p6-b200.48xlarge", .gpu = "b200", .gpus = 8, .network = kP6Net,
       .region = "us-east-1 (use1-az6)", .pricing = Pricing::spot, .usd_per_gpu_hour = 2.62685,
       .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "g4dn.12xlarge", .gpu = "t4", .gpus = 4, .region = "us-east-1",
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 0.978, .price_date = "undated", .source = kSkyPilotAws},
      {.provider = "AWS", .instance = "g4dn.12xlarge", .gpu = "t4", .gpus = 4, .region = "us-east-1 (use1-az5)",
       .pricing = Pricing::spot, .usd_per_gpu_hour = 0.321875, .price_date = "undated", .source = kSkyPilotAws},
      // dstack-pr-4110
      {.provider = "AWS", .instance = "p5en.48xlarge", .gpu = "h200", .gpus = 8, .nic = "efa-v3", .network = kP5enNet,
       .region = "us-east-1", .pricing = Pricing::on_demand, .usd_per_gpu_hour = 7.912, .price_date = "2026-08-06",
       .source = kDstack4110},
      {.provider = "AWS", .instance = "p5en.48xlarge", .gpu = "h200", .gpus = 8, .nic = "efa-v3", .network = kP5enNet,
       .region = "us-east-1", .pricing = Pricing::spot, .usd_per_gpu_hour = 3.39985, .price_date = "2026-08-06",
       .source = kDstack4110},
      // skypilot-issue-4019
      {.provider = "AWS", .instance = "p4d.24xlarge", .gpu = "a100-sxm4-40gb", .gpus = 8, .nic = "efa-v1",
       .network = kP4dNet, .region = kCheapestRegion, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 4.096625,
       .price_date = "2024-09-28", .source = kSkyPilot4019},
      {.provider = "AWS", .instance = "p4d.24xlarge", .gpu = "a100-sxm4-40gb", .gpus = 8, .nic = "efa-v1",
       .network = kP4dNet, .region = kCheapestRegion, .pricing = Pricing::spot, .usd_per_gpu_hour = 1.159875,
       .price_date = "2024-09-28", .source = kSkyPilot4019},
      {.provider = "AWS", .instance = "p4de.24xlarge", .gpu = "a100", .gpus = 8, .region = kCheapestRegion,
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 5.12075, .price_date = "2024-09-28",
       .source = kSkyPilot4019},
      // fsdl-cloud-gpus-csv
      {.provider = "AWS", .instance = "p4d.24xlarge", .gpu = "a100-sxm4-40gb", .gpus = 8, .nic = "efa-v1",
       .network = kP4dNet, .region = kFsdlRegion, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 4.10,
       .price_date = "2022-08-05", .source = kFsdl},
      {.provider = "AWS", .instance = "p4d.24xlarge", .gpu = "a100-sxm4-40gb", .gpus = 8, .nic = "efa-v1",
       .network = kP4dNet, .region = kFsdlRegion, .pricing = Pricing::spot, .usd_per_gpu_hour = 9.83 / 8,
       .price_date = "2022-08-05", .source = kFsdl},
      {.provider = "AWS", .instance = "p4de.24xlarge", .gpu = "a100", .gpus = 8, .region = kFsdlRegion,
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 5.12, .price_date = "2022-08-05", .source = kFsdl},
      {.provider = "AWS", .instance = "g4dn.12xlarge", .gpu = "t4", .gpus = 4, .region = kFsdlRegion,
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 0.98, .price_date = "2023-05-24", .source = kFsdl},
      {.provider = "AWS", .instance = "g4dn.12xlarge", .gpu = "t4", .gpus = 4, .region = kFsdlRegion,
       .pricing = Pricing::spot, .usd_per_gpu_hour = 1.31 / 4, .price_date = "2023-05-24", .source = kFsdl},
      {.provider = "AWS", .instance = "g4dn.metal", .gpu = "t4", .gpus = 8, .region = kFsdlRegion,
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 0.98, .price_date = "2023-05-24", .source = kFsdl},
      {.provider = "AWS", .instance = "g4dn.metal", .gpu = "t4", .gpus = 8, .region = kFsdlRegion,
       .pricing = Pricing::spot, .usd_per_gpu_hour = 2.35 / 8, .price_date = "2023-05-24", .source = kFsdl},
      {.provider = "Azure", .instance = "ND96amsr A100 v4", .gpu = "a100", .gpus = 8, .nic = "connectx-6",
       .network = kNdmNet, .region = kFsdlRegion, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 4.64,
       .price_date = "2022-08-08", .source = kFsdl},
      {.provider = "Google Cloud", .instance = "a2-highgpu-8g", .gpu = "a100-sxm4-40gb", .gpus = 8,
       .region = kFsdlRegion, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.67, .price_date = "2022-08-05",
       .source = kFsdl},
      {.provider = "Google Cloud", .instance = "a2-highgpu-8g", .gpu = "a100-sxm4-40gb", .gpus = 8,
       .region = kFsdlRegion, .pricing = Pricing::spot, .usd_per_gpu_hour = 8.81 / 8, .price_date = "2022-08-05",
       .source = kFsdl},
      {.provider = "Google Cloud", .instance = "a2-megagpu-16g", .gpu = "a100-sxm4-40gb", .gpus = 16,
       .region = kFsdlRegion, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.48, .price_date = "2022-08-05",
       .source = kFsdl},
      {.provider = "Google Cloud", .instance = "a2-megagpu-16g", .gpu = "a100-sxm4-40gb", .gpus = 16,
       .region = kFsdlRegion, .pricing = Pricing::spot, .usd_per_gpu_hour = 16.72 / 16, .price_date = "2022-08-05",
       .source = kFsdl},
      {.provider = "Lambda", .instance = "8x A100 80GB (name not given)", .gpu = "a100", .gpus = 8,
       .region = kFsdlRegion, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 1.50, .price_date = "2023-02-01",
       .source = kFsdl},
      {.provider = "Lambda", .instance = "8x A100 40GB (name not given)", .gpu = "a100-sxm4-40gb", .gpus = 8,
       .region = kFsdlRegion, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 1.10, .price_date = "2023-01-10",
       .source = kFsdl},
      {.provider = "Oracle OCI", .instance = "BM.GPU.H100.8", .gpu = "h100", .gpus = 8, .region = kFsdlRegion,
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 10.00, .price_date = "2023-10-23", .source = kFsdl},
      {.provider = "Oracle OCI", .instance = "BM.GPU.A100-v2.8", .gpu = "a100", .gpus = 8, .region = kFsdlRegion,
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 4.00, .price_date = "2023-10-23", .source = kFsdl},
      {.provider = "Oracle OCI", .instance = "BM.GPU.A4.8", .gpu = "a100-sxm4-40gb", .gpus = 8, .region = kFsdlRegion,
       .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.05, .price_date = "2023-10-23", .source = kFsdl},
      // cloud-gpus-json
      {.provider = "Lambda", .instance = "per-GPU listing (instance not named)", .gpu = "a100-sxm4-40gb", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 1.29, .price_date = "2024-09-05",
       .source = kCloudGpus},
      {.provider = "Lambda", .instance = "per-GPU listing (instance not named)", .gpu = "a100", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 1.79, .price_date = "2024-09-05",
       .source = kCloudGpus},
      {.provider = "CoreWeave", .instance = "per-GPU listing (instance not named)", .gpu = "a100", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 2.70, .price_date = "2025-05-29",
       .source = kCloudGpus},
      {.provider = "Oracle OCI", .instance = "per-GPU listing (instance not named)", .gpu = "h100", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 10.00, .price_date = "2024-07-03",
       .source = kCloudGpus},
      {.provider = "Oracle OCI", .instance = "per-GPU listing (instance not named)", .gpu = "a100-sxm4-40gb",
       .gpus = 1, .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.05,
       .price_date = "2024-07-03", .source = kCloudGpus},
      {.provider = "Oracle OCI", .instance = "per-GPU listing (instance not named)", .gpu = "a100", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 4.00, .price_date = "2024-07-03",
       .source = kCloudGpus},
      {.provider = "AWS", .instance = "per-GPU listing (instance not named)", .gpu = "a100-sxm4-40gb", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 4.096, .price_date = "2023-06-10",
       .source = kCloudGpus},
      {.provider = "AWS", .instance = "per-GPU listing (instance not named)", .gpu = "a100", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 5.12, .price_date = "2023-06-10",
       .source = kCloudGpus},
      {.provider = "Google Cloud", .instance = "per-GPU listing (instance not named)", .gpu = "a100-sxm4-40gb",
       .gpus = 1, .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 3.67,
       .price_date = "2023-10-05", .source = kCloudGpus},
      {.provider = "Google Cloud", .instance = "per-GPU listing (instance not named)", .gpu = "a100", .gpus = 1,
       .region = kNotStated, .pricing = Pricing::on_demand, .usd_per_gpu_hour = 5.07, .price_date = "2023-10-05",
       .source = kCloudGpus},
  };
  return catalog;
}

Pricing parse_pricing(const std::string& text) {
  for (Pricing p : {Pricing::on_demand, Pricing::spot, Pricing::reserved_1y, Pricing::reserved_3y})
    if (to_string(p) == text) return p;
  throw InputError("unknown pricing '" + text + "' (known: on-demand, spot, reserved-1y, reserved-3y)");
}

std::string to_string(Pricing p) {
  switch (p) {
    case Pricing::on_demand: return "on-demand";
    case Pricing::spot: return "spot";
    case Pricing::reserved_1y: return "reserved-1y";
    case Pricing::reserved_3y: return "reserved-3y";
  }
  return "?";
}

std::vector<std::string> pricing_names() { return {"on-demand", "spot", "reserved-1y", "reserved-3y"}; }

std::vector<std::string> price_providers() {
  std::vector<std::string> out;
  for (const auto& e : price_catalog())
    if (std::find(out.begin(), out.end(), e.provider) == out.end()) out.push_back(e.provider);
  return out;
}

const PriceEntry* catalog_price(const std::string& gpu, Pricing pricing, const std::string& provider) {
  auto matches = [&](const PriceEntry& e) {
    return e.gpu == gpu && e.pricing == pricing && (provider.empty() || e.provider == provider);
  };
  // Dates compare as text; an undated price ("") is older than any dated one.
  auto date = [](const PriceEntry& e) { return e.price_date == "undated" ? std::string() : e.price_date; };
  std::map<std::string, std::string> newest;  // provider -> the date of its newest matching price
  for (const auto& e : price_catalog())
    if (matches(e)) newest[e.provider] = std::max(newest[e.provider], date(e));
  const PriceEntry* best = nullptr;
  for (const auto& e : price_catalog())
    if (matches(e) && date(e) == newest[e.provider] && (!best || e.usd_per_gpu_hour < best->usd_per_gpu_hour))
      best = &e;
  return best;
}

std::string describe(const PriceEntry& e) {
  return e.provider + " " + e.instance + ", " + to_string(e.pricing) + ", price date " + e.price_date + ", source " +
         e.source;
}

}  // namespace scalecast
