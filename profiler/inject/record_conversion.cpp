// Conversion of CUPTI 13 activity records (CUpti_ActivityKernel10, Memcpy6, Memset4, API,
// Marker2, Device5) into the dump's records; records without timestamps are skipped.
#include "profiler/inject/record_conversion.h"

namespace scalecast::profiler::inject {
namespace {

const char* memcpy_direction(uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
      return "HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
      return "AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
      return "AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
      return "AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
      return "DtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return "PtoP";
    default:
      return "unknown";
  }
}

bool has_times(uint64_t start, uint64_t end) { return start != 0 || end != 0; }

}  // namespace

void write_cupti_record(const CUpti_Activity* record, DumpWriter& writer) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      if (!has_times(k->start, k->end)) return;
      writer.write(GpuActivity{GpuKind::kernel, k->correlationId, k->deviceId, k->streamId,
                               k->start, k->end, 0, k->name ? k->name : ""});
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      if (!has_times(m->start, m->end)) return;
      writer.write(GpuActivity{GpuKind::memcpy, m->correlationId, m->deviceId, m->streamId,
                               m->start, m->end, m->bytes, memcpy_direction(m->copyKind)});
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      if (!has_times(m->start, m->end)) return;
      writer.write(GpuActivity{GpuKind::memset, m->correlationId, m->deviceId, m->streamId,
                               m->start, m->end, m->bytes, ""});
      return;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      writer.write(ApiCall{a->correlationId, a->threadId, a->start, a->end});
      return;
    }
    case CUPTI_ACTIVITY_KIND_MARKER: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMarker2*>(record);
      const uint32_t thread = m->objectId.pt.threadId;
      if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        writer.write(RangeStart{m->id, thread, m->timestamp, m->domain ? m->domain : "",
                                m->name ? m->name : ""});
      } else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        writer.write(RangeEnd{m->id, thread, m->timestamp});
      }
      return;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
      const auto* d = reinterpret_cast<const CUpti_ActivityDevice5*>(record);
      writer.write(Device{d->id, d->name ? d->name : ""});
      return;
    }
    default:
      return;
  }
}

}  // namespace scalecast::profiler::inject
