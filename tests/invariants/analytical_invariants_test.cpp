// The analytical backend over generated scenarios (10,000 by default, seeded): every prediction
// valid, no faster than one GPU computing alone, BSP not slowed by a faster network, no schedule
// sped up by a slower GPU, one NCCL channel no more sockets or SMs than NCCL's own, and the
// steady state of one iteration and a forward pass that of five.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/backends/analytical/analytical_backend.h"
#include "sim/network/link_capacities.h"
#include "sim/scenario/run_setup.h"
#include "sim/scenario/scenario.h"
#include "sim/scheduling/compute_slowdown.h"
#include "sim/backends/steady_state.h"
#include "sim/scenario/workload_builder.h"
#include "tests/invariants/generated_scenario.h"

namespace scalecast::invariants {
namespace {

// Reports a failing case with the scenario file that reproduces it.
std::string report(const GeneratedCase& c, int index, const std::string& what) {
  const std::string path = save_case(c, "invariant-" + std::to_string(index));
  return "case " + std::to_string(index) + " (seed " + std::to_string(seed()) + "): " + what + "\n  reproduce: " +
         c.command() + " with case.yaml = " + path + "\n" + c.yaml;
}

TEST(AnalyticalInvariants, HoldForEveryGeneratedScenario) {
  std::mt19937_64 rng(seed());
  const int cases = case_count(10000);
  const AnalyticalBackend backend;
  int checked = 0, failures = 0;
  for (int i = 0; i < cases && failures < 5; ++i) {
    const GeneratedCase c = generate_case(rng, i, {});
    try {
      const Scenario s = parse_scenario(c.yaml, "invariant-" + std::to_string(i) + ".yaml");
      const Workload w = build_workload(s).workload;
      const PredictionRun run = predict(s, w, c.method, c.gpus, backend);
      std::vector<std::string> found = violations(run, w);
      // Parameter-server transfers share links max-min fairly, as concurrent TCP or RDMA flows do,
      // and BytePS's take turns on one connection per server, where a pull's request waits for
      // the pushes queued before it. All at once, every pull waits for the last push; spread out,
      // pushes and pulls overlap better. So a faster NIC or a slower GPU can shorten a PS schedule
      // (BytePS's node-local stages also share each GPU's fabric link with other partitions'
      // network shards). Measured over 30,000 generated cases (10,000 each of seeds 20261123, 7
      // and 11) with pull requests and key hashes modelled: twice the NIC bandwidth slows bsp-ps
      // by 1.1% at most (12 cases); a GPU twice as slow shortens wfbp-ps by 7.0% at most,
      // bytescheduler-ps by 9.5%, bytescheduler-mxnet-ps (credit and priority) by 11.1% (157
      // cases). All-reduce schedules show neither, and are held to none.
      const Strategy& strategy = run.schedule.strategy;
      const bool ps = strategy.aggregation == Aggregation::parameter_server;
      constexpr double kPsBandwidthAnomaly = 0.02;
      constexpr double kPsComputeAnomaly = 0.12;
      // More bandwidth never slows a BSP schedule (one message after backward).
      // NCCL's channel search gives a faster NIC fewer, faster channels (search.cc), and over
      // kernel TCP host cores copy each channel's data (library_sockets), so there a faster NIC
      // can get fewer cores: held to the slower NIC's cores, it must not be slower.
      if (c.method == "bsp-allreduce" || c.method == "bsp-ps") {
        Scenario faster =
            parse_scenario(c.yaml, "faster.yaml",
                           {"cluster.network.bandwidth=" + std::to_string(2 * s.cluster.nic_bandwidth.bytes_per_s() * 8 / 1e9) + "Gbps"});
        const double sockets = library_sockets(run.schedule.cluster, strategy);
        const double faster_sockets = library_sockets(sized_for(faster.cluster, c.gpus), strategy);
        if (faster_sockets < sockets)
          faster.cluster.net.stream_bandwidth = faster.cluster.net.stream_bandwidth * (sockets / faster_sockets);
        const double t = predict(faster, w, c.method, c.gpus, backend).row.iteration_s;
        if (t > run.row.iteration_s * (1 + (ps ? kPsBandwidthAnomaly : 0)))
          found.push_back("twice the NIC bandwidth slows it from " + std::to_string(run.row.iteration_s) + " to " +
                          std::to_string(t) + " s");
      }
      // A GPU twice as slow never shortens an iteration where what is sent does not depend on when
      // it is ready (Horovod's fusion cycles and MG-WFBP's merges do: slower compute sends fewer,
      // larger messages). BSP overlaps nothing, so there it adds the compute time, up to rounding
      // (3.2e-12 of the iteration at most over the 30,000 cases).
      if (strategy.grouping != Grouping::fusion && strategy.grouping != Grouping::mgwfbp) {
        Workload slower = w;
        for (Layer& layer : slower.layers) {
          layer.forward_s *= 2;
          layer.backward_s *= 2;
        }
        slower.optimizer_s *= 2;
        const double t = predict(s, slower, c.method, c.gpus, backend).row.iteration_s;
        const double before = run.row.iteration_s;
        if (t < before * (1 - (ps ? kPsComputeAnomaly : 0)))
          found.push_back("a GPU twice as slow shortens it from " + std::to_string(before) + " to " +
                          std::to_string(t) + " s");
        if (strategy.timing == Timing::after_backward && std::abs(t - before - w.compute_s()) > 1e-9 * t)
          found.push_back("a GPU twice as slow adds " + std::to_string(t - before) + " s to a schedule that " +
                          "overlaps nothing, not its compute time " + std::to_string(w.compute_s()) + " s");
      }
      // NCCL held to one channel (NCCL_MAX_NCHANNELS=1) never gets more sockets to copy a
      // transfer over TCP, nor holds more SMs, than NCCL's own channel count.
      {
        Strategy one_channel = strategy;
        one_channel.nccl.max_channels = 1;
        const Cluster& sized = run.schedule.cluster;
        if (library_sockets(sized, one_channel) > library_sockets(sized, strategy))
          found.push_back("one NCCL channel gets more sockets than NCCL's own channels");
        if (scheduling::slowdown_from_held_sms(sized, one_channel) > scheduling::slowdown_from_held_sms(sized, strategy))
          found.push_back("one NCCL channel holds more SMs than NCCL's own channels");
      }
      // The steady state is exact from one iteration and the next forward pass (steady_state.h):
      // a run of five iterations gives the same row, and their iteration ends are spaced by it,
      // up to rounding (a fluid flow integrated over more instants rounds differently, and a tie
      // can then break the other way).
      if (i % 10 == 0) {
        const PredictionRun whole = predict(s, w, c.method, c.gpus, backend, {}, 5);
        if (whole.row.iteration_s != run.row.iteration_s)
          found.push_back("5 simulated iterations give the row " + std::to_string(whole.row.iteration_s) +
                          " s, one and a forward pass " + std::to_string(run.row.iteration_s) + " s");
        const double mean = steady_state(whole.schedule, whole.timeline).iteration_s;
        if (std::abs(mean / run.row.iteration_s - 1) > 1e-3)
          found.push_back("iterations 2-5 take " + std::to_string(mean) + " s on average, the row says " +
                          std::to_string(run.row.iteration_s) + " s");
      }
      for (const std::string& v : found) {
        ADD_FAILURE() << report(c, i, v);
        ++failures;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << report(c, i, std::string("threw: ") + e.what());
      ++failures;
    }
    ++checked;
  }
  std::printf("analytical invariants: %d generated scenarios checked (seed %llu)\n", checked,
              static_cast<unsigned long long>(seed()));
  EXPECT_EQ(checked, cases);
}

}  // namespace
}  // namespace scalecast::invariants
