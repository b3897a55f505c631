// Runs one rank's share of a schedule for real: a compute lane, an ordered collective channel
// and one thread per parameter-server transfer (handed to the transport in dispatch order), as the
// shared scheduling policy dispatches them, and returns when each task ran on this rank.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "executor/rank_plan.h"
#include "executor/transport.h"
#include "sim/types/schedule.h"
#include "sim/scheduling/scheduling_policy.h"
#include "sim/types/timeline.h"

namespace scalecast::executor {

// The order collectives take on every GPU rank. Rank 0 picks the next one from what is ready
// there (as Horovod's coordinator does) and publishes it; the others wait for its pick, so all
// ranks issue collectives in one order whatever their timing.
class ChannelOrder {
 public:
  virtual ~ChannelOrder() = default;
  virtual void publish(int sequence, int task) = 0;  // rank 0
  virtual int await(int sequence) = 0;               // other GPU ranks; blocks, or throws
};

struct RunOptions {
  bool reference = false;    // collectives through the library's own implementation
  double compute_scale = 1;  // compute tasks run for duration_s * compute_scale
};

class RankRunner {
 public:
  RankRunner(const Schedule& schedule, const RankPlan& plan, Transport& transport, ChannelOrder& order,
             RunOptions options);
  ~RankRunner();
  RankRunner(const RankRunner&) = delete;
  RankRunner& operator=(const RankRunner&) = delete;

  // This rank's events (rank = plan.rank); throws the first failure of any task.
  std::vector<TimelineEvent> run();
  // What this rank's scheduling policy committed, in order (rank 0: the order every rank ran).
  const std::vector<int>& commits() const { return policy_.commit_log(); }

 private:
  struct Message {
    int task = -1;
    Interval span;
    bool ran = false;       // this rank moved data or computed for the task
    int decision = -1;      // >= 0: rank 0's next collective
    std::exception_ptr error;
  };
  // A worker thread that runs one task at a time for the loop.
  class Lane {
   public:
    explicit Lane(RankRunner& runner, void (RankRunner::*body)(int));
    ~Lane();
    void start(int task);
   private:
    std::mutex m_;
    std::condition_variable cv_;
    int next_ = -1;
    bool stop_ = false;
    std::thread thread_;
  };

  double now() const;
  bool coordinator() const { return plan_.rank == 0 && plan_.channel_tasks > 0; }
  void post(Message m);
  void make_ready(int task);
  void release(const scheduling::Releases& released);
  void start_dispatched();
  void on_message(const Message& m);
  void run_compute(int task);
  void run_comm(int task);
  void run_transfer(int task, std::uint64_t ticket);
  Interval run_steps(int task, const std::function<void()>& posted);
  std::exception_ptr task_error(int task, const std::exception& e) const;
  void await_decisions();

  const Schedule& s_;
  const RankPlan& plan_;
  Transport& transport_;
  ChannelOrder& order_;
  RunOptions options_;
  std::chrono::steady_clock::time_point epoch_;
  scheduling::SchedulingPolicy policy_;

  std::vector<TimelineEvent> events_;
  int running_ = 0;  // tasks started on this rank and not yet ended
  std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>> delayed_;
  int published_ = 0;
  std::map<int, std::thread> ps_threads_;
  // A connection carries what a parameter-server client hands it in the order handed over (ps-lite
  // sends over one ZeroMQ socket in the order BytePS issues): each transfer takes a ticket when
  // dispatched, and its thread hands its data over on that ticket's turn, not when it wakes.
  std::mutex turn_m_;
  std::condition_variable turn_cv_;
  std::uint64_t tickets_ = 0;  // handed out, in dispatch order
  std::uint64_t turn_ = 0;     // the ticket whose transfer hands over next
  std::thread decisions_;
  bool awaiting_decisions_ = false;

  std::mutex m_;
  std::condition_variable cv_;
  std::vector<Message> inbox_;

  Lane compute_lane_, channel_lane_;
};

}  // namespace scalecast::executor
