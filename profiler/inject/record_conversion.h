// Turns one CUPTI activity record (kernel, memcpy, memset, runtime/driver API call, NVTX
// marker, device) into the activity dump's plain record and writes it.
#pragma once

#include <cupti.h>

#include "profiler/dump_writer.h"

namespace scalecast::profiler::inject {

// Writes the record if it is of a kind the dump holds; other kinds are skipped.
void write_cupti_record(const CUpti_Activity* record, DumpWriter& writer);

}  // namespace scalecast::profiler::inject
