// The check workload's driver: trains the network with NVTX ranges in the profiler's
// convention ("iteration", fwd:fcN, bwd:fcN) and writes each layer's true GPU time, measured
// with CUDA events around the layer, as a profile CSV to compare with `scalecast profile`.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "profiler/check_workload/kernels.h"
#include "profiler/check_workload/network.h"
#include "profiler/mean_std.h"
#include "profiler/profile_csv.h"
#include "sim/io/output_files.h"

namespace {

using scalecast::check::check;

constexpr long long kHeadStartNs = 1'000'000;  // 1 ms: far longer than queueing one layer

struct Options {
  std::string out;
  int iterations = 20;
  int warmup = 2;
  int batch = 4096;
  int width = 4096;
};

const char* const kUsage =
    "usage: scalecast_check_workload --out TRUTH.csv [--iterations N] [--warmup N] "
    "[--batch N] [--width N]\n";

int positive(const std::string& flag, const char* text, int minimum) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < minimum || value > 1000000) {
    throw std::invalid_argument(flag + " expects an integer >= " + std::to_string(minimum) +
                                ", got '" + text + "'");
  }
  return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const char* value = argv[++i];
    if (flag == "--out")
      o.out = value;
    else if (flag == "--iterations")
      o.iterations = positive(flag, value, 1);
    else if (flag == "--warmup")
      o.warmup = positive(flag, value, 0);
    else if (flag == "--batch")
      o.batch = positive(flag, value, 1);
    else if (flag == "--width")
      o.width = positive(flag, value, 2);
    else
      throw std::invalid_argument("unknown option " + flag);
  }
  if (o.out.empty()) throw std::invalid_argument("--out is required");
  if (o.warmup >= o.iterations) throw std::invalid_argument("--warmup must be below --iterations");
  return o;
}

// Start and end events of one (iteration, layer, phase).
struct EventPair {
  cudaEvent_t start = nullptr;
  cudaEvent_t end = nullptr;
};

int run(const Options& o) {
  cudaStream_t main_stream = nullptr;
  cudaStream_t side_stream = nullptr;
  check(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaStreamCreateWithFlags(&side_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const int w = o.width;
  scalecast::check::Network net({w, w, 2 * w, w / 2, w}, o.batch, main_stream, side_stream);
  const int layers = net.layers();

  // events[(iteration * layers + layer) * 2 + phase], phase 0 forward, 1 backward
  std::vector<EventPair> events(static_cast<size_t>(o.iterations) * layers * 2);
  for (EventPair& pair : events) {
    check(cudaEventCreate(&pair.start), "cudaEventCreate");
    check(cudaEventCreate(&pair.end), "cudaEventCreate");
  }
  auto timed = [&](int iteration, int layer, int phase, const std::string& range, auto&& work) {
    const EventPair& pair = events[(static_cast<size_t>(iteration) * layers + layer) * 2 + phase];
    check(cudaEventRecord(pair.start, main_stream), "cudaEventRecord");
    nvtxRangePushA(range.c_str());
    work();
    nvtxRangePop();
    check(cudaEventRecord(pair.end, main_stream), "cudaEventRecord");
  };

  std::vector<double> step_s;
  for (int it = 0; it < o.iterations; ++it) {
    nvtxRangePushA("iteration");
    const auto begin = std::chrono::steady_clock::now();
    // The GPU is idle after the last step's synchronize: without a head start, the first layer's
    // start event would also time the host launching its kernels, which the profiler never sees.
    nvtxRangePushA("head start");
    scalecast::check::hold(kHeadStartNs, main_stream);
    nvtxRangePop();
    for (int l = 0; l < layers; ++l) timed(it, l, 0, "fwd:" + net.name(l), [&] { net.forward(l); });
    nvtxRangePushA("loss");
    net.loss();
    nvtxRangePop();
    for (int l = layers - 1; l >= 0; --l) {
      timed(it, l, 1, "bwd:" + net.name(l), [&] { net.backward(l); });
    }
    nvtxRangePushA("optimizer");
    net.sgd_step(1e-6f);
    nvtxRangePop();
    check(cudaStreamSynchronize(main_stream), "cudaStreamSynchronize");
    step_s.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
    nvtxRangePop();
  }

  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  scalecast::profiler::Profile truth;
  truth.model = "check_workload";
  truth.batch_per_gpu = o.batch;
  truth.gpu = properties.name;
  truth.iterations = o.iterations - o.warmup;
  truth.warmup = o.warmup;
  truth.step_s = scalecast::profiler::mean_std(std::vector<double>(step_s.begin() + o.warmup, step_s.end())).mean;
  truth.has_grad_tensor_bytes = true;
  for (int l = 0; l < layers; ++l) {
    std::vector<double> phase_ms[2];
    for (int it = o.warmup; it < o.iterations; ++it) {
      for (int phase = 0; phase < 2; ++phase) {
        const EventPair& pair = events[(static_cast<size_t>(it) * layers + l) * 2 + phase];
        float ms = 0;
        check(cudaEventElapsedTime(&ms, pair.start, pair.end), "cudaEventElapsedTime");
        phase_ms[phase].push_back(ms);
      }
    }
    const scalecast::profiler::MeanStd fwd = scalecast::profiler::mean_std(phase_ms[0]);
    const scalecast::profiler::MeanStd bwd = scalecast::profiler::mean_std(phase_ms[1]);
    scalecast::profiler::ProfileLayer layer;
    layer.name = net.name(l);
    layer.forward_ms = fwd.mean;
    layer.forward_std_ms = fwd.std;
    layer.backward_ms = bwd.mean;
    layer.backward_std_ms = bwd.std;
    layer.grad_tensor_bytes = {net.bias_bytes(l), net.weight_bytes(l)};  // backward order
    layer.grad_tensors = 2;
    layer.grad_bytes = net.bias_bytes(l) + net.weight_bytes(l);
    truth.layers.push_back(layer);
  }
  for (EventPair& pair : events) {
    cudaEventDestroy(pair.start);
    cudaEventDestroy(pair.end);
  }
  scalecast::write_file_atomically(
      o.out, [&](std::ostream& out) { scalecast::profiler::write_profile_csv(out, truth); });
  std::printf("check workload: %d iterations, step %.3f ms, truth written to %s\n", o.iterations,
              truth.step_s * 1e3, o.out.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scalecast_check_workload: %s\n%s", e.what(), kUsage);
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scalecast_check_workload: %s\n", e.what());
    return 1;
  }
}
