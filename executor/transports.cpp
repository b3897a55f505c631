// The transport registry: entries compile in only where their library was found at configure
// time (SCALECAST_HAVE_GLOO, SCALECAST_HAVE_NCCL).
#include "executor/transports.h"

#include <stdexcept>

#ifdef SCALECAST_HAVE_GLOO
#include "executor/gloo/gloo_transport.h"
#endif
#ifdef SCALECAST_HAVE_NCCL
#include "executor/nccl/nccl_transport.h"
#include "sim/io/input_error.h"
#endif

namespace scalecast::executor {

std::vector<std::string> transport_names() {
  std::vector<std::string> names;
#ifdef SCALECAST_HAVE_GLOO
  names.push_back("gloo");
#endif
#ifdef SCALECAST_HAVE_NCCL
  names.push_back("nccl");
#endif
  return names;
}

void require_transport(const std::string& name) {
  std::string known;
  for (const auto& n : transport_names()) {
    if (n == name) return;
    known += (known.empty() ? "" : ", ") + n;
  }
  throw InputError("unknown transport '" + name + "' (this build has: " +
                   (known.empty() ? std::string("none") : known) + ")");
}

std::unique_ptr<Transport> make_transport(const std::string& name, const TransportSetup& setup) {
  require_transport(name);
#ifdef SCALECAST_HAVE_GLOO
  if (name == "gloo") return make_gloo_transport(setup);
#endif
#ifdef SCALECAST_HAVE_NCCL
  if (name == "nccl") return make_nccl_transport(setup);
#endif
  (void)setup;  // unused where this build has no transport
  throw std::logic_error("transport '" + name + "' is listed but not built");
}

}  // namespace scalecast::executor
