// Gloo over TCP on CPUs: expansion steps as tagged UnboundBuffer sends and receives, Gloo's own
// collectives as the reference, compute emulated by sleeping on a virtual device clock.
#pragma once

#include <memory>

#include "executor/transports.h"

namespace scalecast::executor {

// Connects the full mesh through the store (keys under "gloo/"); throws PeerError on failure.
std::unique_ptr<Transport> make_gloo_transport(const TransportSetup& setup);

}  // namespace scalecast::executor
