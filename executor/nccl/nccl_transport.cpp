// The NCCL transport: one communicator, a compute stream for spin kernels and a comm stream for
// NCCL; every operation is bracketed by CUDA events read against an epoch event, and waited on
// by polling so a dead peer (NCCL's async error) or the timeout aborts the communicator.
#include "executor/nccl/nccl_transport.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "executor/nccl/spin_kernel.h"
#include "executor/spin_calibration.h"
#include "sim/io/input_error.h"

namespace scalecast::executor {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r));
}

class NcclTransport : public Transport {
 public:
  explicit NcclTransport(const TransportSetup& setup)
      : timeout_(setup.timeout), rank_(setup.rank), ranks_(setup.world) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
      throw InputError("the nccl transport needs a GPU, and this host shows none");
    const char* local = std::getenv("LOCAL_RANK");
    device_ = local != nullptr ? std::atoi(local) : setup.rank % count;
    if (device_ < 0 || device_ >= count)
      throw InputError("LOCAL_RANK " + std::to_string(device_) + " has no GPU (" + std::to_string(count) +
                       " visible)");
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaStreamCreateWithFlags(&comm_, cudaStreamNonBlocking), "cudaStreamCreate");
    for (cudaEvent_t* e : {&epoch_, &compute_start_, &compute_end_, &comm_start_, &comm_end_})
      check(cudaEventCreate(e), "cudaEventCreate");
    ncclUniqueId id;
    if (setup.rank == 0) {
      check(ncclGetUniqueId(&id), "ncclGetUniqueId");
      setup.store->set("nccl/id", std::string(reinterpret_cast<const char*>(&id), sizeof id));
    } else {
      const std::string text = setup.store->get("nccl/id", timeout_);
      if (text.size() != sizeof id) throw std::runtime_error("rank 0 published a malformed NCCL id");
      std::memcpy(&id, text.data(), sizeof id);
    }
    check(ncclCommInitRank(&comm_handle_, setup.world, id, setup.rank), "ncclCommInitRank");
    calibrate();
  }

  ~NcclTransport() override {
    cudaSetDevice(device_);
    if (comm_handle_ != nullptr) ncclCommDestroy(comm_handle_);
    if (buffer_ != nullptr) cudaFree(buffer_);
    for (cudaEvent_t e : {epoch_, compute_start_, compute_end_, comm_start_, comm_end_}) cudaEventDestroy(e);
    cudaStreamDestroy(compute_);
    cudaStreamDestroy(comm_);
  }

  std::string name() const override { return "nccl"; }
  // One communicator must see its operations in one order on every rank: only the ordered
  // collective channel may use it, so parameter-server schedules are refused.
  bool concurrent_exchanges() const override { return false; }

  void start_clock() override {
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaEventRecord(epoch_, compute_), "cudaEventRecord");
    check(cudaEventSynchronize(epoch_), "cudaEventSynchronize");
  }

  Interval exchange(const std::vector<PeerOp>& ops, const std::function<void()>& posted) override {
    check(cudaSetDevice(device_), "cudaSetDevice");
    std::size_t total = 0;
    for (const PeerOp& op : ops) total += op.bytes;
    reserve(total);
    check(cudaEventRecord(comm_start_, comm_), "cudaEventRecord");
    check(ncclGroupStart(), "ncclGroupStart");
    std::size_t offset = 0;
    for (const PeerOp& op : ops) {
      char* at = buffer_ + offset;
      offset += op.bytes;
      if (op.send) check(ncclSend(at, op.bytes, ncclInt8, op.peer, comm_handle_, comm_), "ncclSend");
      else check(ncclRecv(at, op.bytes, ncclInt8, op.peer, comm_handle_, comm_), "ncclRecv");
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
    if (posted) posted();
    check(cudaEventRecord(comm_end_, comm_), "cudaEventRecord");
    wait(comm_end_, "point-to-point step");
    return {at(comm_start_), at(comm_end_)};
  }

  // NCCL picks its own algorithm (NCCL_ALGO=Ring|Tree forces one), so `algorithm` is not used.
  Interval collective(CommOp op, const collectives::AllreduceAlgorithm*, std::size_t bytes) override {
    check(cudaSetDevice(device_), "cudaSetDevice");
    const std::size_t count = std::max<std::size_t>(1, bytes / sizeof(float));
    reserve(count * sizeof(float));
    check(cudaEventRecord(comm_start_, comm_), "cudaEventRecord");
    if (op == CommOp::allreduce)
      check(ncclAllReduce(buffer_, buffer_, count, ncclFloat, ncclSum, comm_handle_, comm_), "ncclAllReduce");
    else if (op == CommOp::reduce)
      check(ncclReduce(buffer_, buffer_, count, ncclFloat, ncclSum, 0, comm_handle_, comm_), "ncclReduce");
    else if (op == CommOp::broadcast)
      check(ncclBroadcast(buffer_, buffer_, count, ncclFloat, 0, comm_handle_, comm_), "ncclBroadcast");
    else if (op == CommOp::all_gather || op == CommOp::reduce_scatter) {
      // In place, as FSDP runs them: each rank's shard is its slice of the whole array.
      const std::size_t shard = std::max<std::size_t>(1, count / static_cast<std::size_t>(ranks_));
      float* own = reinterpret_cast<float*>(buffer_) + shard * static_cast<std::size_t>(rank_);
      if (op == CommOp::all_gather)
        check(ncclAllGather(own, buffer_, shard, ncclFloat, comm_handle_, comm_), "ncclAllGather");
      else
        check(ncclReduceScatter(buffer_, own, shard, ncclFloat, ncclSum, comm_handle_, comm_), "ncclReduceScatter");
    } else
      throw InputError("NCCL has no collective for " + to_string(op));
    check(cudaEventRecord(comm_end_, comm_), "cudaEventRecord");
    wait(comm_end_, to_string(op).c_str());
    return {at(comm_start_), at(comm_end_)};
  }

  Interval compute(double seconds) override {
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaEventRecord(compute_start_, compute_), "cudaEventRecord");
    check(launch_spin(calibration_.cycles_for(seconds), compute_), "spin kernel");
    check(cudaEventRecord(compute_end_, compute_), "cudaEventRecord");
    wait(compute_end_, "compute", seconds);
    return {at(compute_start_), at(compute_end_)};
  }

 private:
  void reserve(std::size_t bytes) {
    if (bytes <= capacity_) return;
    if (buffer_ != nullptr) check(cudaFree(buffer_), "cudaFree");
    buffer_ = nullptr;
    check(cudaMalloc(reinterpret_cast<void**>(&buffer_), bytes), "cudaMalloc");
    check(cudaMemset(buffer_, 1, bytes), "cudaMemset");
    capacity_ = bytes;
  }

  // Waits for the event, polling so that a peer's failure (NCCL's async error) or the timeout
  // ends the wait. A sleep between polls costs the timer's slack (50 us or more) at every task
  // boundary, which a framework's host, queueing ahead of its GPU, never pays: sleep only through
  // the part of `expected_s` that is sure to pass, then poll without sleeping, checking the error
  // and the deadline every millisecond.
  void wait(cudaEvent_t event, const char* what, double expected_s = 0) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + timeout_;
    constexpr double kSleepMarginS = 200e-6;
    if (expected_s > kSleepMarginS)
      std::this_thread::sleep_for(std::chrono::duration<double>(expected_s - kSleepMarginS));
    auto next_check = Clock::now();
    cudaError_t state;
    while ((state = cudaEventQuery(event)) == cudaErrorNotReady) {
      const auto now = Clock::now();
      if (now >= next_check) {
        next_check = now + std::chrono::milliseconds(1);
        ncclResult_t async = ncclSuccess;
        ncclCommGetAsyncError(comm_handle_, &async);
        if (async != ncclSuccess) {
          ncclCommAbort(comm_handle_);
          comm_handle_ = nullptr;
          throw PeerError(-1, std::string("NCCL failed during ") + what + ": " + ncclGetErrorString(async));
        }
        if (now > deadline) {
          ncclCommAbort(comm_handle_);
          comm_handle_ = nullptr;
          throw PeerError(-1, std::string(what) + " did not complete within " +
                                  std::to_string(timeout_.count() / 1000) + " s (a peer may be gone)");
        }
      }
      std::this_thread::yield();
    }
    check(state, what);
  }

  double at(cudaEvent_t event) const {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, epoch_, event), "cudaEventElapsedTime");
    return ms / 1e3;
  }

  // Spins of a few lengths, timed between events, fitted to seconds = overhead + cycles / rate.
  void calibrate() {
    std::vector<SpinSample> samples;
    for (int repeat = 0; repeat < 3; ++repeat)
      for (long long cycles : {0LL, 200000LL, 2000000LL, 20000000LL}) {
        check(cudaEventRecord(compute_start_, compute_), "cudaEventRecord");
        check(launch_spin(cycles, compute_), "spin kernel");
        check(cudaEventRecord(compute_end_, compute_), "cudaEventRecord");
        check(cudaEventSynchronize(compute_end_), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, compute_start_, compute_end_), "cudaEventElapsedTime");
        if (repeat > 0) samples.push_back({static_cast<double>(cycles), ms / 1e3});  // first round warms up
      }
    calibration_ = fit_spin(samples);
  }

  std::chrono::milliseconds timeout_;
  int rank_ = 0;
  int ranks_ = 1;
  int device_ = 0;
  cudaStream_t compute_ = nullptr, comm_ = nullptr;
  cudaEvent_t epoch_ = nullptr, compute_start_ = nullptr, compute_end_ = nullptr, comm_start_ = nullptr,
              comm_end_ = nullptr;
  ncclComm_t comm_handle_ = nullptr;
  char* buffer_ = nullptr;
  std::size_t capacity_ = 0;
  SpinCalibration calibration_;
};

}  // namespace

std::unique_ptr<Transport> make_nccl_transport(const TransportSetup& setup) {
  return std::make_unique<NcclTransport>(setup);
}

}  // namespace scalecast::executor
