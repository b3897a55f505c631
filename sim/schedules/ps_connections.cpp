// The connection rule of parameter-server transfers (ps-lite's ZeroMQ sockets, Gloo's pairs).
#include "sim/schedules/ps_connections.h"

namespace scalecast {

PsConnections ps_connections(const Cluster& c, const Strategy& s) {
  PsConnections out;
  // ps-lite 2f40b17 (the commit BytePS v0.2.3-v0.2.5 pins), src/zmq_van.h: one DEALER socket per
  // peer (senders_[id]) carries every message to it, data and requests alike; KVWorker::Pull
  // sends a request without data, and the server answers over its own socket to the worker.
  out.pull_requests =
      s.aggregation == Aggregation::parameter_server && s.pull_requests && s.library != CollectiveLibrary::gloo;
  out.in_order = c.net.in_order_connections || out.pull_requests;
  return out;
}

}  // namespace scalecast
