// The data plane of the executor: point-to-point transfers of one expansion step, a library's
// own collectives (reference mode) and emulated compute, each timed on the transport's clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/types/schedule.h"

namespace scalecast::executor {

// One transfer as this rank sees it: send `bytes` to `peer` or receive them from it. Both ends
// of a transfer carry the same tag, unique among the transfers in flight between them.
struct PeerOp {
  int peer = 0;
  bool send = false;
  std::size_t bytes = 0;
  std::uint64_t tag = 0;
};

// Seconds since the transport's clock was started (see Transport::start_clock).
struct Interval {
  double start_s = 0;
  double end_s = 0;
};

// A transfer with a peer failed (connection lost) or timed out.
class PeerError : public std::runtime_error {
 public:
  PeerError(int peer_rank, const std::string& what) : std::runtime_error(what), peer(peer_rank) {}
  int peer;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::string name() const = 0;
  // Time zero of every Interval returned afterwards; called by every rank right after a barrier.
  virtual void start_clock() = 0;
  // Whether exchange() may run on several threads at once (parameter-server tasks need it).
  virtual bool concurrent_exchanges() const = 0;
  // Runs the ops concurrently; returns when all have completed. Throws PeerError. `posted`
  // (where set) is called once every op is handed to the library and before any wait: ops
  // handed over one exchange after another leave on a connection in that order.
  virtual Interval exchange(const std::vector<PeerOp>& ops, const std::function<void()>& posted) = 0;
  // The library's own all-reduce, reduce (to rank 0) or broadcast (from rank 0) of `bytes`
  // over every rank of the transport; `algorithm` (all-reduce) asks for the library's nearest
  // one where it has a choice. Throws PeerError.
  virtual Interval collective(CommOp op, const collectives::AllreduceAlgorithm* algorithm, std::size_t bytes) = 0;
  // Occupies the compute device for `seconds`: a sleeping CPU thread, or a spinning GPU kernel.
  virtual Interval compute(double seconds) = 0;
};

}  // namespace scalecast::executor
