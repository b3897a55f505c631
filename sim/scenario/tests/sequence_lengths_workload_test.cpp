// A scenario whose sequences come from a length histogram: each layer is timed over the lengths
// its batches are padded to, while parameters and the memory estimate stay at seq_len.
#include <gtest/gtest.h>

#include <string>

#include "sim/memory/memory_fit.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_builder.h"

namespace scalecast {
namespace {

const std::string kPhaseTwo = R"(name: bert-phase-2
model: {name: bert-large, batch_per_gpu: 32, seq_len: 512, precision: fp16}
gpu: {type: a100}
cluster: {gpus_per_node: 1, fabric: nvlink3, network: {bandwidth: 100Gbps, transport: rdma}}
methods: [ddp]
gpus: [1]
)";

TEST(SequenceLengthsWorkload, PaddedBatchesTakeTheirLengthsTime) {
  const BuiltWorkload full = build_workload(parse_scenario(kPhaseTwo, "scen.yaml"));
  const Scenario binned_scenario =
      parse_scenario(kPhaseTwo, "scen.yaml", {"model.sequence_lengths=wikipedia-bert-512", "model.sequence_bin=64"});
  const BuiltWorkload binned = build_workload(binned_scenario);
  const BuiltWorkload one_bin =
      build_workload(parse_scenario(kPhaseTwo, "scen.yaml", {"model.sequence_lengths=wikipedia-bert-512"}));
  EXPECT_EQ(binned.workload.parameters(), full.workload.parameters());
  EXPECT_EQ(binned.workload.layers.size(), full.workload.layers.size());
  EXPECT_DOUBLE_EQ(binned.workload.optimizer_s, full.workload.optimizer_s);
  // Some batches are 512 long: the memory they need is the estimate.
  EXPECT_DOUBLE_EQ(memory_fit(binned_scenario, binned.workload).needed_bytes(),
                   memory_fit(parse_scenario(kPhaseTwo, "scen.yaml"), full.workload).needed_bytes());
  // Half the tokens are padding (linear in length), attention's scores quadratic: between 1.6x
  // and 2.2x faster with LDDL's bins; without bins nearly every batch of 32 is 512 long.
  const double speedup = full.workload.compute_s() / binned.workload.compute_s();
  EXPECT_GT(speedup, 1.6);
  EXPECT_LT(speedup, 2.2);
  EXPECT_NEAR(one_bin.workload.compute_s() / full.workload.compute_s(), 1, 0.01);
  EXPECT_NE(binned.source.find("wikipedia-bert-512 padded to each batch's longest in bins of 64"), std::string::npos)
      << binned.source;
}

}  // namespace
}  // namespace scalecast
