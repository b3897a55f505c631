// Collectives over generated clusters, as NCCL's model times them (scalecast collective,
// validate's nccl-tests section) and as training schedules do (the registered algorithms): every
// time finite, positive and deterministic, never faster than the links allow, never faster for
// more bytes under one algorithm, and the algorithm NCCL_ALGO or strategy.allreduce asks for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/io/input_error.h"
#include "sim/types/cluster.h"
#include "sim/collectives/algorithm_choice.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/collectives/collective_ops.h"
#include "sim/collectives/nccl_model.h"
#include "sim/catalogs/gpu_catalog.h"
#include "sim/network/link_capacities.h"
#include "sim/catalogs/nic_catalog.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/io/units.h"
#include "tests/invariants/generated_scenario.h"

namespace scalecast::invariants {
namespace {

using collectives::CollectiveOp;

struct ClusterCase {
  std::string yaml;
  int gpus = 1;
  std::string forced_algo;  // NCCL_ALGO as the scenario sets it ("" for NCCL's choice)
  std::string allreduce;    // strategy.allreduce: a registered algorithm or "auto"
};

// A cluster as a buyer writes it: any catalog GPU and fabric, a catalog NIC with 1-8 rails or a
// rate and transport (over EFA, libfabric's read threshold), GPUDirect on or off, a fixed node
// count, NCCL's algorithm and protocol masks now and then, and the registered all-reduce training
// schedules would run.
ClusterCase generate_cluster(std::mt19937_64& rng, int index) {
  std::vector<std::string> gpus, nics;
  for (const auto& g : gpu_catalog()) gpus.push_back(g.name);
  nics = nic_names();
  ClusterCase c;
  const int per_node = pick(rng, std::vector<int>{1, 2, 4, 8});
  const int nodes = pick(rng, std::vector<int>{1, 1, 2, 2, 3, 4, 8, 16, 64});
  c.gpus = nodes == 1 ? std::uniform_int_distribution<int>(2, std::max(2, per_node))(rng) : nodes * per_node;
  std::ostringstream y;
  y << "name: collective-invariant-" << index << "\n"
    << "gpu: {type: " << pick(rng, gpus) << "}\n"
    << "cluster:\n  gpus_per_node: " << std::max(per_node, nodes == 1 ? c.gpus : per_node) << "\n"
    << "  fabric: " << pick(rng, fabric_kinds()) << "\n";
  if (nodes > 1 && chance(rng, 0.5)) y << "  nodes: " << nodes << "\n";
  if (chance(rng, 0.3)) y << "  cpu: amd\n";
  y << "  network:\n";
  bool efa = false;
  if (chance(rng, 0.6)) {
    const std::string nic = pick(rng, nics);
    efa = nic.starts_with("efa");
    y << "    nic: " << nic << "\n    nics: " << pick(rng, std::vector<int>{1, 1, 2, 4, 8}) << "\n";
  } else {
    const std::string transport = pick(rng, std::vector<std::string>{"tcp", "rdma", "efa"});
    efa = transport == "efa";
    y << "    bandwidth: " << pick(rng, std::vector<int>{1, 10, 25, 100, 200, 400}) << "Gbps\n"
      << "    transport: " << transport << "\n";
  }
  // libfabric's read threshold: none, today's (one packet), or before 1.18's (1 MiB).
  if (efa && chance(rng, 0.5)) y << "    read_threshold: " << pick(rng, std::vector<std::string>{"0B", "8KiB", "1MiB"}) << "\n";
  if (chance(rng, 0.2)) y << "    gpudirect: false\n";
  std::vector<std::string> allreduce = {"auto"};
  for (const auto* a : collectives::allreduce_algorithms()) allreduce.emplace_back(a->name);
  c.allreduce = pick(rng, allreduce);
  y << "strategy:\n  allreduce: " << c.allreduce << "\n";
  if (chance(rng, 0.3)) {
    c.forced_algo = pick(rng, std::vector<std::string>{"ring", "tree", "nvls", "nvlstree", "pat"});
    y << "  nccl_algo: " << c.forced_algo << "\n";
    if (chance(rng, 0.5)) y << "  nccl_proto: " << pick(rng, std::vector<std::string>{"ll", "ll128", "simple"}) << "\n";
  }
  y << "gpus: [" << c.gpus << "]\n";
  c.yaml = y.str();
  return c;
}

// Bytes per second a GPU's own links can carry at most, each direction: its NVLinks at 50 GB/s
// each (NVLink 5's rate, above every earlier generation's), the fabric's line rate, and a PCIe
// gen5 x16 link to its NIC.
double gpu_link_ceiling(const Cluster& c) {
  const double nvlink = find_gpu(c.gpu).nvlinks * 50 * units::kGBps;
  return std::max(nvlink, fabric_line_rate(c.fabric).bytes_per_s()) + 64 * units::kGBps;
}

// The least time the links allow, whatever the algorithm: what one GPU must send or receive over
// its links, and across nodes what one node must send or receive over all its NICs at line rate
// (all-reduce: 2(n-1)/n of the vector per node, Patarasuk and Yuan, JPDC 2009; no in-network
// reduction across nodes is modelled).
double link_bound_s(const Cluster& c, CollectiveOp op, double bytes) {
  const double p = c.gpus(), n = c.nodes, ppn = c.gpus_per_node;
  double per_gpu = bytes * (p - 1) / p, per_node = 0;
  switch (op) {
    case CollectiveOp::all_reduce: per_node = bytes * 2 * (n - 1) / n; break;
    case CollectiveOp::all_gather:
    case CollectiveOp::reduce_scatter: per_node = bytes * (n - 1) / n; break;
    case CollectiveOp::broadcast:
    case CollectiveOp::reduce:
    case CollectiveOp::sendrecv:
      per_gpu = bytes;
      per_node = bytes;
      break;
    case CollectiveOp::alltoall: per_node = ppn * bytes * (p - ppn) / p; break;
  }
  double bound = per_gpu / gpu_link_ceiling(c);
  if (c.nodes > 1) bound = std::max(bound, per_node / (c.nics_per_node * c.nic_bandwidth.bytes_per_s()));
  return bound;
}

TEST(CollectiveInvariants, HoldForEveryGeneratedCluster) {
  std::mt19937_64 rng(seed());
  const int cases = case_count(3000);
  const std::vector<CollectiveOp> ops = {CollectiveOp::all_reduce, CollectiveOp::all_gather,
                                         CollectiveOp::reduce_scatter, CollectiveOp::broadcast,
                                         CollectiveOp::reduce, CollectiveOp::sendrecv, CollectiveOp::alltoall};
  int checked = 0, refused = 0, failures = 0;
  for (int i = 0; i < cases && failures < 5; ++i) {
    const ClusterCase cc = generate_cluster(rng, i);
    const std::string file = "collective-invariant-" + std::to_string(i) + ".yaml";
    auto fail = [&](const std::string& what) {
      ADD_FAILURE() << "case " << i << " (seed " << seed() << "), " << cc.gpus << " GPUs: " << what << "\n" << cc.yaml;
      ++failures;
    };
    try {
      const Scenario s = parse_scenario(cc.yaml, file);
      const Cluster sized = sized_for(s.cluster, cc.gpus);
      for (const CollectiveOp op : ops) {
        double last_s = 0;
        std::string last_algorithm;
        for (double bytes = 8; bytes <= 16.0 * (1 << 30); bytes *= 2) {
          collectives::nccl::CollectiveTime t;
          try {
            t = collectives::nccl::nccl_model(sized, s.strategy.nccl).time(op, bytes);
          } catch (const InputError&) {
            ++refused;  // the masks leave nothing for this operation on this cluster: refused, by name
            break;
          }
          const std::string at = to_string(op) + " of " + std::to_string(bytes) + " B";
          if (!(std::isfinite(t.seconds) && t.seconds > 0)) fail(at + ": " + std::to_string(t.seconds) + " s");
          const double bound = link_bound_s(sized, op, bytes);
          if (t.seconds < bound * (1 - 1e-9))
            fail(at + " takes " + std::to_string(t.seconds) + " s, below the " + std::to_string(bound) +
                 " s its links allow");
          const bool p2p = op == CollectiveOp::sendrecv || op == CollectiveOp::alltoall;
          if (!cc.forced_algo.empty() && !p2p && !t.algorithm.starts_with(cc.forced_algo == "nvlstree" ? "nvls_tree" : cc.forced_algo))
            fail(at + " runs " + t.algorithm + " where NCCL_ALGO=" + cc.forced_algo);
          // Under one algorithm and protocol more bytes never take less time (NCCL's choice may
          // switch to a faster pair, as it does between LL and Simple).
          if (t.algorithm == last_algorithm && t.seconds < last_s * (1 - 1e-9))
            fail(at + " takes " + std::to_string(t.seconds) + " s with " + t.algorithm + ", half of it " +
                 std::to_string(last_s) + " s");
          const auto again = collectives::nccl::nccl_model(sized, s.strategy.nccl).time(op, bytes);
          if (again.seconds != t.seconds || again.algorithm != t.algorithm) fail(at + ": not deterministic");
          last_s = t.seconds;
          last_algorithm = t.algorithm;
        }
        // The training path: where NCCL chooses (auto or nccl on a run with NCCL's model) it is the
        // very time above; else the registered algorithm the scenario names.
        const LinkCapacities links = link_capacities(sized, strategy_for(s, "bsp-allreduce"));
        const bool library_choice = collectives::nccl_chooses(links, cc.allreduce);
        last_s = 0;
        for (double bytes = 8; bytes <= 16.0 * (1 << 30); bytes *= 2) {
          double t = 0;
          try {
            t = collectives::collective_op_s(links, op, bytes, cc.allreduce);
          } catch (const InputError&) {
            if (!library_choice) throw;
            break;  // refused, as above
          }
          const std::string at = "training's " + to_string(op) + " of " + std::to_string(bytes) + " B";
          if (library_choice && t != collectives::nccl::nccl_model(sized, s.strategy.nccl).time(op, bytes).seconds)
            fail(at + " takes " + std::to_string(t) + " s, not the time `collective` gives it");
          if (!(std::isfinite(t) && t > 0)) fail(at + ": " + std::to_string(t) + " s");
          const double bound = link_bound_s(sized, op, bytes);
          if (t < bound * (1 - 1e-9))
            fail(at + " takes " + std::to_string(t) + " s, below the " + std::to_string(bound) + " s its links allow");
          if (!library_choice && cc.allreduce != "auto" && t < last_s * (1 - 1e-9))
            fail(at + " takes " + std::to_string(t) + " s, half of it " + std::to_string(last_s) + " s");
          last_s = t;
        }
        if (failures >= 5) break;
      }
    } catch (const std::exception& e) {
      fail(std::string("threw: ") + e.what());
    }
    ++checked;
  }
  std::printf("collective invariants: %d generated clusters checked, %d operations refused by their masks (seed %llu)\n",
              checked, refused, static_cast<unsigned long long>(seed()));
  EXPECT_EQ(checked, cases);
}

}  // namespace
}  // namespace scalecast::invariants
