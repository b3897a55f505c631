// NCCL on GPUs: expansion steps as ncclSend/ncclRecv inside one ncclGroupStart/End, NCCL's own
// collectives as the reference, compute as a calibrated spin kernel; timed with CUDA events.
#pragma once

#include <memory>

#include "executor/transports.h"

namespace scalecast::executor {

// Picks the GPU (LOCAL_RANK, else rank modulo the visible GPUs), shares NCCL's unique id through
// the store and initialises the communicator; calibrates the spin kernel.
std::unique_ptr<Transport> make_nccl_transport(const TransportSetup& setup);

}  // namespace scalecast::executor
