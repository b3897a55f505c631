// The transports this build holds (Gloo over TCP where Gloo was found, NCCL where CUDA and NCCL
// were found) and the one way to make one, so callers never include a library's headers.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "executor/store.h"
#include "executor/transport.h"

namespace scalecast::executor {

struct TransportSetup {
  int rank = 0;
  int world = 1;
  StoreClient* store = nullptr;      // for the library's rendezvous (keys under its own prefix)
  std::string master_addr;           // rank 0's host: picks the local address that reaches it
  int master_port = 0;
  std::chrono::milliseconds timeout{30000};  // longest wait of any operation
};

std::vector<std::string> transport_names();
// Throws an InputError naming the transports this build holds, where `name` is not one.
void require_transport(const std::string& name);
// Throws an InputError naming the transports this build holds.
std::unique_ptr<Transport> make_transport(const std::string& name, const TransportSetup& setup);

}  // namespace scalecast::executor
