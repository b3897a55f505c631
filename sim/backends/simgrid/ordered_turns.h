// A resource that one task at a time uses (a node's NCCL stream, an in-order connection), granted
// by arrival time and then task id, as the analytical backend's queues grant it.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <utility>

namespace scalecast::simgrid_backend {

// Yields the calling actor until every actor woken at this instant has run: until `count`
// (what those actors add to) no longer changes across a yield.
void settle(const std::function<size_t()>& count);

// SimGrid wakes actors that sleep until the same instant in no fixed order, so a plain mutex
// would hand the resource to same-instant arrivals in that order. Here every arrival of the
// instant registers first, then the earliest (time, task id) goes.
class OrderedTurns {
 public:
  OrderedTurns();
  void acquire(int task);  // blocks the calling actor until its turn
  void release();          // the holder is done; the next in order goes

 private:
  std::set<std::pair<double, int>> waiting_;
  size_t arrivals_ = 0;  // grows with every acquire, so that settle() sees each arrival
  bool busy_ = false;
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr turn_;
};

// Holds an OrderedTurns for the scope of a task's use.
class Turn {
 public:
  Turn(OrderedTurns& turns, int task) : turns_(turns) { turns_.acquire(task); }
  ~Turn() { turns_.release(); }
  Turn(const Turn&) = delete;
  Turn& operator=(const Turn&) = delete;

 private:
  OrderedTurns& turns_;
};

}  // namespace scalecast::simgrid_backend
