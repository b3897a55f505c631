// The run's control plane over the store. Each rank leaves a last will in the store, so a rank
// that dies makes the store post an abort naming it, which every other rank's watcher acts on.
#include "executor/world.h"
#include "sim/io/input_error.h"

#include <fmt/format.h>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace scalecast::executor {
namespace {

const std::string kAbort = "abort";

std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) out += i + 1 == ranks.size() ? " and " : ", ";
    out += std::to_string(ranks[i]);
  }
  return out;
}

}  // namespace

std::string digest(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

World::World(const LaunchEnv& env, std::chrono::milliseconds timeout, std::string label)
    : env_(env), timeout_(timeout), label_(std::move(label)) {
  if (env_.rank == 0) {
    try {
      server_ = std::make_unique<StoreServer>(env_.master_port);
    } catch (const StoreError& e) {
      throw StoreError(std::string(e.what()) + " (rank 0 hosts the store at MASTER_PORT)");
    }
  }
  try {
    store_ = connect();
  } catch (const StoreTimeout& e) {
    throw StoreError(std::string(e.what()) + " within " + std::to_string(timeout_.count() / 1000) +
                     " s: rank 0, which hosts it, never arrived");
  }
  store_->set_will(kAbort, "1rank " + std::to_string(rank()) +
                               " disconnected from the store before finishing (it exited or was killed)");
  store_->set("arrive/" + std::to_string(rank()), std::to_string(::getpid()));
  watch();
}

World::~World() {
  finished_ = true;
  if (watcher_.joinable()) {
    watcher_store_->interrupt();
    watcher_.join();
  }
  store_.reset();
  server_.reset();
}

std::unique_ptr<StoreClient> World::connect() {
  ++own_connections_;
  return std::make_unique<StoreClient>(env_.master_addr, env_.master_port, timeout_);
}

std::vector<std::string> World::keys(const std::string& prefix) const {
  std::vector<std::string> out;
  for (int r = 0; r < size(); ++r) out.push_back(prefix + std::to_string(r));
  return out;
}

std::string World::missing_ranks(const std::vector<std::string>& missing, const std::string& prefix) const {
  std::vector<int> ranks;
  for (const auto& key : missing) ranks.push_back(std::stoi(key.substr(prefix.size())));
  return (ranks.size() == 1 ? "rank " : "ranks ") + rank_list(ranks);
}

void World::arrive() {
  const std::string prefix = "arrive/";
  try {
    store_->wait(keys(prefix), timeout_);
  } catch (const StoreTimeout& e) {
    throw std::runtime_error(missing_ranks(e.keys, prefix) + " never arrived within " +
                             std::to_string(timeout_.count() / 1000) + " s (WORLD_SIZE " +
                             std::to_string(size()) + ", store at " + store_->address() + ")");
  }
}

void World::agree(const std::string& what, const std::string& value) {
  const std::string prefix = "agree/" + what + "/";
  store_->set(prefix + std::to_string(rank()), value);
  const std::string first = store_->get(prefix + "0", timeout_);
  if (first != value)
    throw InputError(InputKind::refused, "rank " + std::to_string(rank()) + "'s " + what + " (" + value + ") differs from rank 0's (" +
                       first + ")");
}

void World::barrier(const std::string& name) {
  const std::string prefix = "barrier/" + name + "/";
  store_->set(prefix + std::to_string(rank()), "");
  try {
    store_->wait(keys(prefix), timeout_);
  } catch (const StoreTimeout& e) {
    throw std::runtime_error(missing_ranks(e.keys, prefix) + " did not reach the '" + name + "' barrier within " +
                             std::to_string(timeout_.count() / 1000) + " s");
  }
}

std::vector<std::string> World::gather(const std::string& name, const std::string& value) {
  const std::string prefix = "gather/" + name + "/";
  store_->set(prefix + std::to_string(rank()), value);
  std::vector<std::string> values;
  if (rank() != 0) return values;
  for (const auto& key : keys(prefix)) {
    try {
      values.push_back(store_->get(key, timeout_));
    } catch (const StoreTimeout& e) {
      throw std::runtime_error(missing_ranks(e.keys, prefix) + " did not report its " + name + " within " +
                               std::to_string(timeout_.count() / 1000) + " s");
    }
  }
  return values;
}

void World::watch() {
  watcher_store_ = connect();
  watcher_ = std::thread([this] {
    std::string message;
    try {
      message = watcher_store_->get(kAbort, kForever);
    } catch (const StoreError&) {
      if (finished_) return;
      message = "1rank 0 is gone: lost the store it hosted at " + watcher_store_->address();
    }
    if (exiting_.exchange(true)) return;  // this rank is stopping already
    const int code = message.empty() ? 1 : message[0] - '0';
    exit_now("rank " + std::to_string(rank()) + ": stopped: " + message.substr(1), code);
  });
}

void World::abort(const std::string& message, int code) {
  // The first thread to stop the process speaks for it; a second one waits to be ended with it.
  if (exiting_.exchange(true))
    for (;;) ::pause();
  const std::string full = "rank " + std::to_string(rank()) + ": " + message;
  try {
    if (!store_->check(kAbort)) store_->set(kAbort, std::to_string(code) + full);
  } catch (const StoreError&) {
    // The store is gone with rank 0; the others learn it from their own connections.
  }
  exit_now(full, code);
}

void World::exit_now(const std::string& message, int code) {
  // The store lives in rank 0: keep it up until every other rank has connected and read the
  // abort (it then exits, closing its connections), for at most min(timeout, 5 s).
  if (server_) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::min<std::chrono::milliseconds>(timeout_, std::chrono::seconds(5));
    // Asked of the server directly: another thread may be blocked on this rank's connections.
    auto everyone_gone = [&] {
      if (server_->clients() > static_cast<std::size_t>(own_connections_)) return false;
      for (const auto& key : keys("arrive/"))
        if (!server_->has(key)) return false;
      return true;
    };
    while (!everyone_gone() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::cout.flush();
  std::cerr << label_ << ": " << message << std::endl;
  std::_Exit(code);
}

void World::finish() {
  finished_ = true;
  store_->clear_will();
  store_->set("done/" + std::to_string(rank()), "");
  if (rank() != 0) return;
  try {
    store_->wait(keys("done/"), timeout_);
  } catch (const StoreTimeout& e) {
    throw std::runtime_error(missing_ranks(e.keys, "done/") + " did not finish within " +
                             std::to_string(timeout_.count() / 1000) + " s");
  }
}

void World::StoreOrder::publish(int sequence, int task) {
  world_.store().set("channel/" + std::to_string(sequence), std::to_string(task));
}

int World::StoreOrder::await(int sequence) {
  if (!reader_) reader_ = world_.connect();
  try {
    return std::stoi(reader_->get("channel/" + std::to_string(sequence), world_.timeout()));
  } catch (const StoreTimeout&) {
    throw std::runtime_error("rank 0 picked no collective for " + std::to_string(world_.timeout().count() / 1000) +
                             " s (next in order: #" + std::to_string(sequence) + ")");
  }
}

}  // namespace scalecast::executor
