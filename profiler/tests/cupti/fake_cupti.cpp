// A stand-in for libcupti.so.13 in tests without a GPU: it keeps what the injection library
// enables and, on flush, delivers fixed CUPTI 13 records through the registered buffer callbacks.
//
// Delivered (each only when its activity kind was enabled; markers only after NVTX was handed
// over through InitializeInjectionNvtx2): device "Fake GPU"; ranges "iteration" [100, 1000) and
// "fwd:conv1" [110, 200) on thread 7; a kernel [300, 800) and an HtoD copy [800, 900) launched
// inside fwd:conv1; and two push and two pop NVTX callbacks. FAKE_CUPTI_FAIL=1 makes
// cuptiActivityEnable fail, as CUPTI does without a GPU.
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

namespace {

struct State {
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  CUpti_CallbackFunc callback = nullptr;
  bool nvtx_domain = false;
  bool nvtx_handed_over = false;
  bool delivered = false;
  std::set<int> kinds;
};

State& state() {
  static State s;
  return s;
}

size_t record_size(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_MARKER:
      return sizeof(CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return sizeof(CUpti_ActivityDevice5);
    default:
      return 0;
  }
}

// Appends `record` to the buffer at `used` (8-byte aligned, as CUPTI lays records out).
template <typename Record>
void append(uint8_t* buffer, size_t& used, const Record& record) {
  std::memcpy(buffer + used, &record, sizeof record);
  used += (sizeof record + 7) / 8 * 8;
}

CUpti_ActivityMarker2 marker(uint32_t flags, uint32_t id, uint64_t time, const char* name) {
  CUpti_ActivityMarker2 m{};
  m.kind = CUPTI_ACTIVITY_KIND_MARKER;
  m.flags = static_cast<CUpti_ActivityFlag>(flags);
  m.id = id;
  m.timestamp = time;
  m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  m.objectId.pt.threadId = 7;
  m.name = name;
  return m;
}

CUpti_ActivityAPI api(CUpti_ActivityKind kind, uint32_t correlation, uint64_t start) {
  CUpti_ActivityAPI a{};
  a.kind = kind;
  a.correlationId = correlation;
  a.threadId = 7;
  a.start = start;
  a.end = start + 5;
  return a;
}

void deliver() {
  State& s = state();
  if (s.delivered || !s.request || !s.complete) return;
  s.delivered = true;
  uint8_t* buffer = nullptr;
  size_t size = 0;
  size_t max_records = 0;
  s.request(&buffer, &size, &max_records);
  if (!buffer || size < 4096) return;
  size_t used = 0;
  auto on = [&](CUpti_ActivityKind kind) { return s.kinds.count(kind) > 0; };
  if (on(CUPTI_ACTIVITY_KIND_DEVICE)) {
    CUpti_ActivityDevice5 device{};
    device.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    device.name = "Fake GPU";
    append(buffer, used, device);
  }
  if (on(CUPTI_ACTIVITY_KIND_MARKER) && s.nvtx_handed_over) {
    append(buffer, used, marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 1, 100, "iteration"));
    append(buffer, used, marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 2, 110, "fwd:conv1"));
    append(buffer, used, marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 2, 200, nullptr));
    append(buffer, used, marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 1, 1000, nullptr));
  }
  if (on(CUPTI_ACTIVITY_KIND_RUNTIME))
    append(buffer, used, api(CUPTI_ACTIVITY_KIND_RUNTIME, 5, 120));
  if (on(CUPTI_ACTIVITY_KIND_DRIVER)) append(buffer, used, api(CUPTI_ACTIVITY_KIND_DRIVER, 6, 140));
  if (on(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) {
    CUpti_ActivityKernel10 kernel{};
    kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    kernel.correlationId = 5;
    kernel.streamId = 13;
    kernel.start = 300;
    kernel.end = 800;
    kernel.name = "_Z4convv";
    append(buffer, used, kernel);
  }
  if (on(CUPTI_ACTIVITY_KIND_MEMCPY)) {
    CUpti_ActivityMemcpy6 copy{};
    copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    copy.correlationId = 6;
    copy.streamId = 13;
    copy.bytes = 1024;
    copy.start = 800;
    copy.end = 900;
    append(buffer, used, copy);
  }
  if (s.callback && s.nvtx_domain) {
    for (CUpti_CallbackId id : {CUPTI_CBID_NVTX_nvtxRangePushA, CUPTI_CBID_NVTX_nvtxRangePushA,
                                CUPTI_CBID_NVTX_nvtxRangePop, CUPTI_CBID_NVTX_nvtxRangePop}) {
      s.callback(nullptr, CUPTI_CB_DOMAIN_NVTX, id, nullptr);
    }
  }
  s.complete(nullptr, 0, buffer, size, used);
}

}  // namespace

extern "C" {

CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                           CUpti_BuffersCallbackCompleteFunc complete) {
  state().request = request;
  state().complete = complete;
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
  const char* fail = std::getenv("FAKE_CUPTI_FAIL");
  if (fail && std::strcmp(fail, "1") == 0) return CUPTI_ERROR_UNKNOWN;
  state().kinds.insert(kind);
  return CUPTI_SUCCESS;
}

CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void*) {
  state().callback = callback;
  *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&state());
  return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle,
                              CUpti_CallbackDomain domain) {
  if (domain == CUPTI_CB_DOMAIN_NVTX) state().nvtx_domain = enable != 0;
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityFlushAll(uint32_t) {
  deliver();
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid_size,
                                       CUpti_Activity** record) {
  size_t offset = 0;
  if (*record != nullptr) {
    const size_t size = record_size((*record)->kind);
    offset = static_cast<size_t>(reinterpret_cast<uint8_t*>(*record) - buffer) + (size + 7) / 8 * 8;
  }
  if (offset >= valid_size) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(buffer + offset);
  return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
  *dropped = 0;
  return CUPTI_SUCCESS;
}

CUptiResult cuptiGetResultString(CUptiResult, const char** text) {
  *text = "CUPTI_ERROR_UNKNOWN (fake CUPTI)";
  return CUPTI_SUCCESS;
}

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t) {
  state().nvtx_handed_over = true;
  return 1;
}

}  // extern "C"
