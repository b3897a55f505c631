// A rank hands its parameter-server transfers to the transport in the order the scheduling policy
// dispatched them (ps-lite sends over one socket in the order BytePS issues), whatever order
// their threads wake in.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "executor/rank_plan.h"
#include "executor/rank_runner.h"
#include "sim/prediction/prediction.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_builder.h"

namespace scalecast::executor {
namespace {

// Records the tag of each exchange's first op when it is handed over, after a random pause that
// stands for a thread waking late; completes at once. Compute takes no time.
class HandOverLog : public Transport {
 public:
  std::string name() const override { return "hand-over log"; }
  void start_clock() override {}
  bool concurrent_exchanges() const override { return true; }
  Interval exchange(const std::vector<PeerOp>& ops, const std::function<void()>& posted) override {
    std::this_thread::sleep_for(std::chrono::microseconds(pause()));
    {
      std::lock_guard<std::mutex> lock(m_);
      handed_over.push_back(ops.front().tag);
    }
    if (posted) posted();
    return {};
  }
  Interval collective(CommOp, const collectives::AllreduceAlgorithm*, std::size_t) override { return {}; }
  Interval compute(double) override { return {}; }

  std::vector<std::uint64_t> handed_over;

 private:
  int pause() {
    std::lock_guard<std::mutex> lock(m_);
    return std::uniform_int_distribution<int>(0, 300)(random_);
  }
  std::mutex m_;
  std::mt19937 random_{7};
};

class NoCollectives : public ChannelOrder {
 public:
  void publish(int, int) override {}
  int await(int) override { throw std::logic_error("a parameter-server schedule has no collectives"); }
};

TEST(TransferOrder, TransfersAreHandedOverInDispatchOrder) {
  // BSP over a parameter server: when the backward pass ends, every partition of ResNet-50
  // (25 of them) is dispatched at once, and 25 threads start together.
  const Scenario scenario = load_scenario(SCALECAST_SOURCE_DIR "/scenarios/testbed-4x1gbps.yaml");
  const Schedule s = schedule_for(scenario, build_workload(scenario).workload, "bsp-ps", 2, {}, 1);
  const RankPlan plan = plan_rank(s, 0);
  HandOverLog transport;
  NoCollectives order;
  RankRunner runner(s, plan, transport, order, {});
  runner.run();
  // The policy dispatches the pushes in partition order (ids ascending); the tickets fix that
  // order before any thread runs, so the log holds it exactly.
  std::vector<std::uint64_t> pushes;
  for (std::uint64_t tag : transport.handed_over) {
    const int task = static_cast<int>((tag >> 24) & 0xFFFFFFFF);
    if (s.tasks.at(task).op == CommOp::push) pushes.push_back(tag);
  }
  ASSERT_EQ(pushes.size(), 25u);
  EXPECT_TRUE(std::is_sorted(pushes.begin(), pushes.end()));
}

}  // namespace
}  // namespace scalecast::executor
