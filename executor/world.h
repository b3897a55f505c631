// The control plane of a run: the rendezvous store (hosted by rank 0), arrival of every rank,
// agreement on the inputs, barriers, gathering results, and stopping every rank at once when
// one fails or dies, with a message that names it.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "executor/launch_env.h"
#include "executor/rank_runner.h"
#include "executor/store.h"
#include "sim/io/input_error.h"

namespace scalecast::executor {

class World {
 public:
  // Rank 0 starts the store; every rank connects within timeout, announces itself and from then
  // on stops when any rank aborts. `label` prefixes messages.
  World(const LaunchEnv& env, std::chrono::milliseconds timeout, std::string label);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const { return env_.rank; }
  int size() const { return env_.world_size; }
  const LaunchEnv& env() const { return env_; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  StoreClient& store() { return *store_; }  // the calling (main) thread's connection

  // Waits until every rank has announced itself; throws naming the ranks that never arrived.
  void arrive();
  // Throws an InputError where this rank's value differs from rank 0's.
  void agree(const std::string& what, const std::string& value);
  void barrier(const std::string& name);
  // Rank 0 gets every rank's value, in rank order; the others get nothing.
  std::vector<std::string> gather(const std::string& name, const std::string& value);
  // Tells every rank to stop, prints the message and exits with code (1 failure, 2 bad input).
  [[noreturn]] void abort(const std::string& message, int code);
  // This rank is done; rank 0 waits until every rank is, since the store goes with it.
  void finish();

  // Rank 0's order of collectives, through the store.
  ChannelOrder& channel_order() { return order_; }

 private:
  class StoreOrder : public ChannelOrder {
   public:
    explicit StoreOrder(World& world) : world_(world) {}
    void publish(int sequence, int task) override;
    int await(int sequence) override;
   private:
    World& world_;
    std::unique_ptr<StoreClient> reader_;
  };

  std::unique_ptr<StoreClient> connect();
  // Starts the thread that stops this rank when any rank aborts or rank 0's store goes away.
  void watch();
  std::vector<std::string> keys(const std::string& prefix) const;
  std::string missing_ranks(const std::vector<std::string>& missing, const std::string& prefix) const;
  [[noreturn]] void exit_now(const std::string& message, int code);

  LaunchEnv env_;
  std::chrono::milliseconds timeout_;
  std::string label_;
  std::unique_ptr<StoreServer> server_;
  std::unique_ptr<StoreClient> store_;
  std::unique_ptr<StoreClient> watcher_store_;
  std::atomic<int> own_connections_{0};
  std::atomic<bool> finished_{false};
  std::atomic<bool> exiting_{false};
  std::thread watcher_;
  StoreOrder order_{*this};
};

// A short digest of text (FNV-1a, 64 bits, hex), for comparing inputs across ranks.
std::string digest(const std::string& text);

}  // namespace scalecast::executor
