// The Gloo transport: a full mesh of TCP pairs built through the rendezvous store, pre-touched
// scratch buffers so page faults stay out of the timings, and Gloo's exceptions turned into
// errors that name the peer rank.
#include "executor/gloo/gloo_transport.h"
#include "sim/io/input_error.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gloo/allreduce.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/math.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/transport/tcp/device.h>

namespace scalecast::executor {
namespace {

using std::chrono::milliseconds;

// Gloo's rendezvous keys in the executor's store, under a prefix of their own.
class StoreAdapter : public gloo::rendezvous::Store {
 public:
  StoreAdapter(StoreClient& client, std::string prefix, milliseconds timeout)
      : client_(client), prefix_(std::move(prefix)), timeout_(timeout) {}
  void set(const std::string& key, const std::vector<char>& data) override {
    client_.set(prefix_ + key, std::string(data.begin(), data.end()));
  }
  std::vector<char> get(const std::string& key) override {
    const std::string v = client_.get(prefix_ + key, timeout_);
    return {v.begin(), v.end()};
  }
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys, const milliseconds& timeout) override {
    std::vector<std::string> prefixed;
    for (const auto& k : keys) prefixed.push_back(prefix_ + k);
    client_.wait(prefixed, timeout);
  }

 private:
  StoreClient& client_;
  std::string prefix_;
  milliseconds timeout_;
};

// Reusable, already-touched buffers: a transfer borrows one at least as large as it needs.
class ScratchPool {
 public:
  class Lease {
   public:
    Lease(ScratchPool& pool, std::size_t size, std::unique_ptr<char[]> data)
        : pool_(pool), size_(size), data_(std::move(data)) {}
    Lease(Lease&&) = default;
    ~Lease() {
      if (data_) pool_.give_back(size_, std::move(data_));
    }
    char* data() const { return data_.get(); }

   private:
    ScratchPool& pool_;
    std::size_t size_;
    std::unique_ptr<char[]> data_;
  };

  Lease borrow(std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = free_.lower_bound(bytes);
      if (it != free_.end()) {
        Lease lease(*this, it->first, std::move(it->second));
        free_.erase(it);
        return lease;
      }
    }
    const std::size_t size = std::max<std::size_t>(bytes, 4096);
    auto data = std::make_unique<char[]>(size);
    std::memset(data.get(), 1, size);
    return Lease(*this, size, std::move(data));
  }

 private:
  void give_back(std::size_t size, std::unique_ptr<char[]> data) {
    std::lock_guard<std::mutex> lock(m_);
    free_.emplace(size, std::move(data));
  }

  std::mutex m_;
  std::multimap<std::size_t, std::unique_ptr<char[]>> free_;
};

// The address of this host's interface that routes to rank 0 (no packet is sent).
std::string local_address_towards(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr)
    throw std::runtime_error("cannot resolve MASTER_ADDR '" + host + "'");
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  const bool routed = fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) == 0;
  ::freeaddrinfo(found);
  sockaddr_in local{};
  socklen_t len = sizeof local;
  const bool named = routed && ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0;
  if (fd >= 0) ::close(fd);
  if (!named) throw std::runtime_error("no route to MASTER_ADDR '" + host + "'");
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &local.sin_addr, text, sizeof text);
  return text;
}

class GlooTransport : public Transport {
 public:
  explicit GlooTransport(const TransportSetup& setup) : rank_(setup.rank), timeout_(setup.timeout) {
    gloo::transport::tcp::attr attr;
    if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface != nullptr && *iface != '\0')
      attr.iface = iface;
    else
      attr.hostname = local_address_towards(setup.master_addr, setup.master_port);
    auto device = gloo::transport::tcp::CreateDevice(attr);
    upward_ = connect(setup, device, "gloo/up/");
    downward_ = connect(setup, device, "gloo/down/");
  }

  std::string name() const override { return "gloo"; }
  void start_clock() override { epoch_ = std::chrono::steady_clock::now(); }
  bool concurrent_exchanges() const override { return true; }

  Interval exchange(const std::vector<PeerOp>& ops, const std::function<void()>& posted) override {
    std::vector<ScratchPool::Lease> memory;
    std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> buffers;
    for (const PeerOp& op : ops) {
      memory.push_back(pool_.borrow(op.bytes));
      buffers.push_back(context_for(op)->createUnboundBuffer(memory.back().data(), op.bytes));
    }
    auto failed = [](const PeerOp& op, const std::string& why) {
      return PeerError(op.peer, std::string(op.send ? "sending to" : "receiving from") + " rank " +
                                    std::to_string(op.peer) + " failed: " + why);
    };
    const double start = clock();
    for (std::size_t i = 0; i < ops.size(); ++i) {
      try {
        if (ops[i].send) buffers[i]->send(ops[i].peer, ops[i].tag);
        else buffers[i]->recv(ops[i].peer, ops[i].tag);
      } catch (const gloo::Exception& e) {
        throw failed(ops[i], e.what());
      }
    }
    if (posted) posted();
    for (std::size_t i = 0; i < ops.size(); ++i) {
      bool completed = false;
      try {
        completed = ops[i].send ? buffers[i]->waitSend(timeout_) : buffers[i]->waitRecv(timeout_);
      } catch (const gloo::Exception& e) {
        throw failed(ops[i], e.what());
      }
      if (!completed) throw failed(ops[i], "aborted");
    }
    return {start, clock()};
  }

  Interval collective(CommOp op, const collectives::AllreduceAlgorithm* algorithm, std::size_t bytes) override {
    const std::size_t count = std::max<std::size_t>(1, bytes / sizeof(float));
    ScratchPool::Lease memory = pool_.borrow(count * sizeof(float));
    auto* data = reinterpret_cast<float*>(memory.data());
    const auto sum = static_cast<void (*)(void*, const void*, const void*, std::size_t)>(&gloo::sum<float>);
    const uint32_t tag = next_tag_++;
    const double start = clock();
    try {
      if (op == CommOp::allreduce) {
        gloo::AllreduceOptions o(upward_);
        o.setOutput(data, count);
        // Gloo has a ring and BCube (its recursive exchange); every other request gets the ring.
        const bool halving = algorithm && std::string_view(algorithm->name) == "halving-doubling";
        o.setAlgorithm(halving ? gloo::AllreduceOptions::Algorithm::BCUBE : gloo::AllreduceOptions::Algorithm::RING);
        o.setReduceFunction(sum);
        o.setTag(tag);
        o.setTimeout(timeout_);
        gloo::allreduce(o);
      } else if (op == CommOp::reduce) {
        gloo::ReduceOptions o(upward_);
        o.setOutput(data, count);
        o.setRoot(0);
        o.setReduceFunction(sum);
        o.setTag(tag);
        o.setTimeout(timeout_);
        gloo::reduce(o);
      } else if (op == CommOp::broadcast) {
        gloo::BroadcastOptions o(upward_);
        o.setOutput(data, count);
        o.setRoot(0);
        o.setTag(tag);
        o.setTimeout(timeout_);
        gloo::broadcast(o);
      } else {
        throw InputError("Gloo has no collective for " + to_string(op));
      }
    } catch (const gloo::Exception& e) {
      throw PeerError(-1, std::string("Gloo's ") + to_string(op) + " failed: " + e.what());
    }
    return {start, clock()};
  }

  // Compute runs on a virtual device clock, as kernels do from a GPU's launch queue: a task
  // starts when it is dispatched or when the previous one ends, whichever is later, and this
  // thread sleeps to its end. A late wake-up thus delays what waits for the task, never the
  // device's next task. Calls come from one thread (the compute lane).
  Interval compute(double seconds) override {
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    const auto start = std::max(std::chrono::steady_clock::now(), device_free_);
    const auto end = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(seconds));
    std::this_thread::sleep_until(end);
    device_free_ = end;
    return {since_epoch(start), since_epoch(end)};
  }

 private:
  static std::shared_ptr<gloo::Context> connect(const TransportSetup& setup,
                                                std::shared_ptr<gloo::transport::Device>& device,
                                                const std::string& prefix) {
    auto context = std::make_shared<gloo::rendezvous::Context>(setup.rank, setup.world);
    context->setTimeout(setup.timeout);
    StoreAdapter store(*setup.store, prefix, setup.timeout);
    try {
      context->connectFullMesh(store, device);
    } catch (const gloo::Exception& e) {
      throw PeerError(-1, std::string("Gloo could not connect every rank: ") + e.what());
    }
    return context;
  }

  // Data from a lower to a higher rank travels on one mesh, the other way on a second one. On one
  // Gloo pair, transfers in opposite directions at once (a 2-rank ring, a pairwise exchange, a
  // worker's push during a pull) shared its TCP connection badly: 2-host sendrecv on the 1 Gbps
  // testbed reached 0.058 GB/s on one mesh, 0.109 GB/s with two.
  const std::shared_ptr<gloo::Context>& context_for(const PeerOp& op) const {
    const bool upward = op.send ? rank_ < op.peer : op.peer < rank_;
    return upward ? upward_ : downward_;
  }

  double since_epoch(std::chrono::steady_clock::time_point t) const {
    return std::chrono::duration<double>(t - epoch_).count();
  }
  double clock() const { return since_epoch(std::chrono::steady_clock::now()); }

  int rank_;
  milliseconds timeout_;
  std::shared_ptr<gloo::Context> upward_, downward_;
  ScratchPool pool_;
  uint32_t next_tag_ = 1;
  std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point device_free_{};
};

}  // namespace

std::unique_ptr<Transport> make_gloo_transport(const TransportSetup& setup) {
  return std::make_unique<GlooTransport>(setup);
}

}  // namespace scalecast::executor
