// The CUPTI injection library: loaded into an unmodified CUDA program, it records kernels,
// copies, sets, runtime/driver API calls and NVTX ranges to the dump in SCALECAST_PROFILE_OUT.
//
// Entry points: InitializeInjection (CUDA_INJECTION64_PATH: the driver calls it in cuInit),
// a load-time constructor (LD_PRELOAD, when CUDA_INJECTION64_PATH is not set), and
// InitializeInjectionNvtx2 (NVTX_INJECTION64_PATH: NVTX calls it on its first use; it hands
// NVTX on to the CUPTI this library is linked with, so NVTX markers reach the same CUPTI).
#include <cupti.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>

#include "profiler/dump_writer.h"
#include "profiler/inject/record_conversion.h"

namespace {

using scalecast::profiler::DumpWriter;
using scalecast::profiler::NvtxCallCounts;

constexpr size_t kBufferBytes = size_t{8} << 20;

struct Session {
  std::mutex mutex;  // guards file, writer, finished, dropped
  std::ofstream file;
  std::optional<DumpWriter> writer;
  pid_t pid = 0;  // the recording process (a forked child must not finish the dump)
  bool finished = false;
  uint64_t dropped = 0;
  bool counting_nvtx = false;
  std::atomic<uint64_t> pushes{0};
  std::atomic<uint64_t> pops{0};
  std::atomic<uint64_t> starts{0};
  std::atomic<uint64_t> ends{0};
};

// Never destroyed: CUPTI may deliver buffers while static destructors run.
Session& session() {
  static Session* const instance = new Session;
  return *instance;
}

void report(const std::string& message) {
  std::fprintf(stderr, "scalecast_cupti: %s\n", message.c_str());
}

bool cupti_ok(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return true;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  report(std::string(call) + " failed: " + (text ? text : "unknown CUPTI error"));
  return false;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t,
                               size_t valid_size) {
  Session& s = session();
  {
    const std::lock_guard<std::mutex> lock(s.mutex);
    if (s.writer && !s.finished) {
      CUpti_Activity* record = nullptr;
      while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
        scalecast::profiler::inject::write_cupti_record(record, *s.writer);
      }
      size_t dropped = 0;
      if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS) {
        s.dropped += dropped;
      }
    }
  }
  std::free(buffer);
}

// Counts the program's NVTX range calls, to check later that every range reached the dump.
void CUPTIAPI on_nvtx_call(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void*) {
  if (domain != CUPTI_CB_DOMAIN_NVTX) return;
  Session& s = session();
  switch (id) {
    case CUPTI_CBID_NVTX_nvtxRangePushA:
    case CUPTI_CBID_NVTX_nvtxRangePushW:
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx:
      ++s.pushes;
      break;
    case CUPTI_CBID_NVTX_nvtxRangePop:
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
      ++s.pops;
      break;
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
    case CUPTI_CBID_NVTX_nvtxRangeStartW:
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx:
      ++s.starts;
      break;
    case CUPTI_CBID_NVTX_nvtxRangeEnd:
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd:
      ++s.ends;
      break;
    default:
      break;
  }
}

void finish_recording() {
  Session& s = session();
  if (!s.writer || s.pid != getpid()) return;
  cupti_ok(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  const std::lock_guard<std::mutex> lock(s.mutex);
  if (s.finished) return;
  std::optional<NvtxCallCounts> calls;
  if (s.counting_nvtx) calls = NvtxCallCounts{s.pushes, s.pops, s.starts, s.ends};
  s.writer->finish(calls, s.dropped);
  s.file.close();
  s.finished = true;
  if (!s.file) report("error while writing the activity dump");
}

// Claims the dump path (it must not exist: a second CUDA process of the same run must not
// overwrite the first one's dump) and opens it.
bool open_dump(Session& s, const char* path) {
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) {
    const int error = errno;
    report(std::string(path) + ": " + std::strerror(error) +
           (error == EEXIST ? " (another process of this run records there, or remove the file)"
                            : "") +
           "; not recording process " + std::to_string(getpid()));
    return false;
  }
  ::close(fd);
  s.file.open(path, std::ios::binary | std::ios::trunc);
  if (!s.file) {
    report(std::string(path) + ": cannot open for writing");
    return false;
  }
  s.writer.emplace(s.file);
  s.pid = getpid();
  return true;
}

// Gives up recording before anything was captured: the dump is removed, so the caller sees
// no dump rather than an empty one, and CUPTI's error above says why.
void abandon(Session& s, const char* path) {
  const std::lock_guard<std::mutex> lock(s.mutex);  // buffers of kinds already enabled are dropped
  s.writer.reset();
  s.file.close();
  ::unlink(path);
  report("not recording: CUPTI activity tracing is unavailable (no GPU or driver?)");
}

void start_recording_once() {
  const char* path = std::getenv("SCALECAST_PROFILE_OUT");
  if (path == nullptr || *path == '\0') {
    report("SCALECAST_PROFILE_OUT is not set; not recording");
    return;
  }
  Session& s = session();
  if (!open_dump(s, path)) return;
  if (!cupti_ok(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                "cuptiActivityRegisterCallbacks")) {
    abandon(s, path);
    return;
  }
  const struct {
    CUpti_ActivityKind kind;
    const char* name;
    bool required;  // without it there is no profile to make
  } kinds[] = {
      {CUPTI_ACTIVITY_KIND_DEVICE, "DEVICE", false},
      {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL", true},
      {CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY", false},
      {CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET", false},
      {CUPTI_ACTIVITY_KIND_RUNTIME, "RUNTIME", true},
      {CUPTI_ACTIVITY_KIND_DRIVER, "DRIVER", true},
      {CUPTI_ACTIVITY_KIND_MARKER, "MARKER", true},
  };
  for (const auto& k : kinds) {
    const std::string call = std::string("cuptiActivityEnable(") + k.name + ")";
    if (!cupti_ok(cuptiActivityEnable(k.kind), call.c_str()) && k.required) {
      abandon(s, path);
      return;
    }
  }
  // The NVTX callbacks only count range calls (a check on lost records); without them the
  // markers are still recorded.
  CUpti_SubscriberHandle subscriber = nullptr;
  s.counting_nvtx =
      cupti_ok(cuptiSubscribe(&subscriber, on_nvtx_call, nullptr), "cuptiSubscribe") &&
      cupti_ok(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX), "cuptiEnableDomain(NVTX)");
  std::atexit(finish_recording);
}

void start_recording() {
  static std::once_flag once;
  std::call_once(once, start_recording_once);
}

__attribute__((constructor)) void on_load() {
  // Under CUDA_INJECTION64_PATH the driver calls InitializeInjection during cuInit, which is
  // where CUPTI expects to be set up; otherwise (LD_PRELOAD) start before main.
  if (std::getenv("CUDA_INJECTION64_PATH") == nullptr) start_recording();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  start_recording();
  return 1;
}

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  // The CUPTI this library is bound to, found by one of its functions' addresses.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiActivityEnable), &info) == 0 || !info.dli_fname) {
    report("cannot locate the CUPTI library; NVTX ranges will not be recorded");
    return 0;
  }
  void* cupti = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  void* symbol = cupti ? dlsym(cupti, "InitializeInjectionNvtx2") : nullptr;
  if (symbol == nullptr) {
    report(std::string(info.dli_fname) +
           " has no InitializeInjectionNvtx2; NVTX ranges will not be recorded");
    return 0;
  }
  return reinterpret_cast<NvtxInitializeInjectionNvtxFunc_t>(symbol)(get_export_table);
}
