// CUPTI 13 activity records, built in memory as CUPTI lays them out, converted to dump records
// and read back: checks the injection library's field mapping without a GPU.
#include "profiler/inject/record_conversion.h"

#include <gtest/gtest.h>

#include <sstream>

#include "profiler/dump_reader.h"

namespace scalecast::profiler::inject {
namespace {

template <typename Record>
const CUpti_Activity* as_activity(const Record& record) {
  return reinterpret_cast<const CUpti_Activity*>(&record);
}

ActivityLog convert(const std::vector<const CUpti_Activity*>& records) {
  std::ostringstream out;
  DumpWriter writer(out);
  for (const CUpti_Activity* record : records) write_cupti_record(record, writer);
  writer.finish(std::nullopt, 0);
  std::istringstream in(out.str());
  return parse_dump(in, "converted");
}

TEST(RecordConversion, KernelCopySetAndApiCalls) {
  CUpti_ActivityKernel10 kernel{};
  kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  kernel.start = 1000;
  kernel.end = 2500;
  kernel.deviceId = 1;
  kernel.streamId = 13;
  kernel.correlationId = 77;
  kernel.name = "_Z9bias_reluPfPKfii";
  CUpti_ActivityMemcpy6 copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  copy.bytes = 4096;
  copy.start = 3000;
  copy.end = 3100;
  copy.streamId = 14;
  copy.correlationId = 78;
  CUpti_ActivityMemset4 set{};
  set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  set.bytes = 512;
  set.start = 3100;
  set.end = 3110;
  set.correlationId = 79;
  CUpti_ActivityAPI api{};
  api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  api.start = 900;
  api.end = 950;
  api.threadId = 4242;
  api.correlationId = 77;
  CUpti_ActivityAPI driver = api;
  driver.kind = CUPTI_ACTIVITY_KIND_DRIVER;
  driver.correlationId = 78;
  CUpti_ActivityKernel10 untimed{};
  untimed.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;  // no timestamps: skipped

  const ActivityLog log = convert({as_activity(kernel), as_activity(copy), as_activity(set),
                                   as_activity(api), as_activity(driver), as_activity(untimed)});
  ASSERT_EQ(log.gpu.size(), 3u);
  EXPECT_EQ(log.gpu[0].kind, GpuKind::kernel);
  EXPECT_EQ(log.gpu[0].name, "_Z9bias_reluPfPKfii");
  EXPECT_EQ(log.gpu[0].device, 1u);
  EXPECT_EQ(log.gpu[0].stream, 13u);
  EXPECT_EQ(log.gpu[0].start, 1000u);
  EXPECT_EQ(log.gpu[0].end, 2500u);
  EXPECT_EQ(log.gpu[0].correlation, 77u);
  EXPECT_EQ(log.gpu[1].kind, GpuKind::memcpy);
  EXPECT_EQ(log.gpu[1].name, "HtoD");
  EXPECT_EQ(log.gpu[1].bytes, 4096u);
  EXPECT_EQ(log.gpu[2].kind, GpuKind::memset);
  EXPECT_EQ(log.gpu[2].bytes, 512u);
  ASSERT_EQ(log.api_calls.size(), 2u);
  EXPECT_EQ(log.api_calls[0].thread, 4242u);
  EXPECT_EQ(log.api_calls[0].correlation, 77u);
  EXPECT_EQ(log.api_calls[1].correlation, 78u);
}

TEST(RecordConversion, NvtxMarkersAndDevices) {
  CUpti_ActivityMarker2 start{};
  start.kind = CUPTI_ACTIVITY_KIND_MARKER;
  start.flags = CUPTI_ACTIVITY_FLAG_MARKER_START;
  start.timestamp = 100;
  start.id = 5;
  start.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  start.objectId.pt.threadId = 4242;
  start.name = "fwd:conv1";
  start.domain = nullptr;  // default domain
  CUpti_ActivityMarker2 end = start;
  end.flags = CUPTI_ACTIVITY_FLAG_MARKER_END;
  end.timestamp = 200;
  end.name = nullptr;
  CUpti_ActivityMarker2 instant = start;
  instant.flags = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;  // not a range: skipped
  CUpti_ActivityDevice5 device{};
  device.kind = CUPTI_ACTIVITY_KIND_DEVICE;
  device.id = 0;
  device.name = "NVIDIA H100 80GB HBM3";

  const ActivityLog log =
      convert({as_activity(start), as_activity(end), as_activity(instant), as_activity(device)});
  ASSERT_EQ(log.range_starts.size(), 1u);
  EXPECT_EQ(log.range_starts[0].id, 5u);
  EXPECT_EQ(log.range_starts[0].thread, 4242u);
  EXPECT_EQ(log.range_starts[0].time, 100u);
  EXPECT_EQ(log.range_starts[0].name, "fwd:conv1");
  EXPECT_EQ(log.range_starts[0].domain, "");
  ASSERT_EQ(log.range_ends.size(), 1u);
  EXPECT_EQ(log.range_ends[0].id, 5u);
  EXPECT_EQ(log.range_ends[0].time, 200u);
  ASSERT_EQ(log.devices.size(), 1u);
  EXPECT_EQ(log.devices[0].name, "NVIDIA H100 80GB HBM3");
}

}  // namespace
}  // namespace scalecast::profiler::inject
