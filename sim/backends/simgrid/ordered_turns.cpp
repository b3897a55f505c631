// Turns on a shared resource in (arrival time, task id) order: every same-instant arrival
// registers before the resource is granted or handed on.
#include "sim/backends/simgrid/ordered_turns.h"

#include <mutex>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace scalecast::simgrid_backend {

namespace sg4 = simgrid::s4u;

void settle(const std::function<size_t()>& count) {
  size_t seen = 0;
  do {
    seen = count();
    sg4::this_actor::yield();
  } while (count() != seen);
}

OrderedTurns::OrderedTurns() : mutex_(sg4::Mutex::create()), turn_(sg4::ConditionVariable::create()) {}

void OrderedTurns::acquire(int task) {
  const std::pair<double, int> key{sg4::Engine::get_clock(), task};
  waiting_.insert(key);
  ++arrivals_;
  settle([this] { return arrivals_; });
  std::unique_lock lock(*mutex_);
  turn_->wait(lock, [&] { return !busy_ && *waiting_.begin() == key; });
  busy_ = true;
  waiting_.erase(waiting_.begin());
}

void OrderedTurns::release() {
  // Arrivals at the instant the resource frees compete with those waiting already.
  settle([this] { return arrivals_; });
  busy_ = false;
  turn_->notify_all();
}

}  // namespace scalecast::simgrid_backend
