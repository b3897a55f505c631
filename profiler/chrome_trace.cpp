// Chrome trace JSON of kernels, copies and sets (process per GPU, thread per stream) and of
// NVTX ranges (one process, thread per host thread); times in microseconds from the first record.
#include "profiler/chrome_trace.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

namespace scalecast::profiler {
namespace {

constexpr int kNvtxPid = 1;
constexpr int kFirstGpuPid = 100;  // GPU d is process kFirstGpuPid + d

std::string demangle(const std::string& name) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

nlohmann::json metadata(const char* what, int pid, int64_t tid, const std::string& name) {
  return {{"ph", "M"}, {"name", what}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

void write_chrome_trace(std::ostream& out, const ActivityLog& log, const Attribution& attribution) {
  Nanos origin = std::numeric_limits<Nanos>::max();
  for (const Range& range : attribution.ranges) origin = std::min(origin, range.start);
  for (const GpuActivity& activity : log.gpu) origin = std::min(origin, activity.start);
  auto micros = [origin](Nanos t) { return static_cast<double>(t - origin) / 1e3; };

  nlohmann::json events = nlohmann::json::array();
  events.push_back(metadata("process_name", kNvtxPid, 0, "NVTX ranges"));
  std::set<uint32_t> threads;
  for (const Range& range : attribution.ranges) {
    if (threads.insert(range.thread).second) {
      events.push_back(metadata("thread_name", kNvtxPid, range.thread,
                                "thread " + std::to_string(range.thread)));
    }
    nlohmann::json args = {{"id", range.id}};
    if (!range.domain.empty()) args["domain"] = range.domain;
    if (!range.closed) args["closed_by"] = "iteration end (missing pop/end)";
    events.push_back({{"ph", "X"},
                      {"cat", "nvtx"},
                      {"name", range.name},
                      {"pid", kNvtxPid},
                      {"tid", range.thread},
                      {"ts", micros(range.start)},
                      {"dur", static_cast<double>(range.end - range.start) / 1e3},
                      {"args", std::move(args)}});
  }

  std::set<uint32_t> devices;
  std::set<std::pair<uint32_t, uint32_t>> streams;
  for (size_t i = 0; i < log.gpu.size(); ++i) {
    const GpuActivity& activity = log.gpu[i];
    const int pid = kFirstGpuPid + static_cast<int>(activity.device);
    if (devices.insert(activity.device).second) {
      std::string name = "GPU " + std::to_string(activity.device);
      for (const Device& device : log.devices) {
        if (device.id == activity.device) name += ": " + device.name;
      }
      events.push_back(metadata("process_name", pid, 0, name));
    }
    if (streams.emplace(activity.device, activity.stream).second) {
      events.push_back(metadata("thread_name", pid, activity.stream,
                                "stream " + std::to_string(activity.stream)));
    }
    const ActivityAttribution& a = attribution.activities[i];
    nlohmann::json args = {{"correlation", activity.correlation}};
    if (!a.launched) args["launch"] = "not recorded";
    if (activity.kind != GpuKind::kernel) args["bytes"] = activity.bytes;
    if (a.iteration >= 0) args["iteration"] = a.iteration;
    if (!a.layer.empty()) {
      args["layer"] = a.layer;
      args["phase"] = a.phase == Phase::forward ? "forward" : "backward";
    }
    std::string name = activity.kind == GpuKind::kernel
                           ? demangle(activity.name)
                           : std::string(to_string(activity.kind)) +
                                 (activity.name.empty() ? "" : " " + activity.name);
    events.push_back({{"ph", "X"},
                      {"cat", to_string(activity.kind)},
                      {"name", std::move(name)},
                      {"pid", pid},
                      {"tid", activity.stream},
                      {"ts", micros(activity.start)},
                      {"dur", static_cast<double>(activity.end - activity.start) / 1e3},
                      {"args", std::move(args)}});
  }
  const nlohmann::json trace = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
  // Names are whatever the program wrote; bytes that are not UTF-8 become U+FFFD.
  out << trace.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace scalecast::profiler
