// Writes activity dump records as tab-separated lines (format in dump_format.h), escaping the
// text fields so a name can hold any byte.
#include "profiler/dump_writer.h"

#include <string_view>

#include "profiler/dump_format.h"

namespace scalecast::profiler {
namespace {

void put_text(std::ostream& out, std::string_view text) {
  for (const char c : text) {
    switch (c) {
      case '\\':
        out << "\\\\";
        break;
      case '\t':
        out << "\\t";
        break;
      case '\n':
        out << "\\n";
        break;
      case '\r':
        out << "\\r";
        break;
      default:
        out << c;
    }
  }
}

}  // namespace

DumpWriter::DumpWriter(std::ostream& out) : out_(out) {
  out_ << dump::kMagic << '\t' << dump::kVersion << '\n';
}

void DumpWriter::write(const Device& device) {
  out_ << "device\t" << device.id << '\t';
  put_text(out_, device.name);
  out_ << '\n';
  ++records_;
}

void DumpWriter::write(const RangeStart& start) {
  out_ << "range_start\t" << start.id << '\t' << start.thread << '\t' << start.time << '\t';
  put_text(out_, start.domain);
  out_ << '\t';
  put_text(out_, start.name);
  out_ << '\n';
  ++records_;
}

void DumpWriter::write(const RangeEnd& end) {
  out_ << "range_end\t" << end.id << '\t' << end.thread << '\t' << end.time << '\n';
  ++records_;
}

void DumpWriter::write(const ApiCall& call) {
  out_ << "api\t" << call.correlation << '\t' << call.thread << '\t' << call.start << '\t'
       << call.end << '\n';
  ++records_;
}

void DumpWriter::write(const GpuActivity& activity) {
  out_ << to_string(activity.kind) << '\t' << activity.correlation << '\t' << activity.device
       << '\t' << activity.stream << '\t' << activity.start << '\t' << activity.end;
  switch (activity.kind) {
    case GpuKind::kernel:
      out_ << '\t';
      put_text(out_, activity.name);
      break;
    case GpuKind::memcpy:
      out_ << '\t' << activity.bytes << '\t';
      put_text(out_, activity.name);
      break;
    case GpuKind::memset:
      out_ << '\t' << activity.bytes;
      break;
  }
  out_ << '\n';
  ++records_;
}

void DumpWriter::finish(const std::optional<NvtxCallCounts>& nvtx_calls, uint64_t dropped_records) {
  if (nvtx_calls) {
    out_ << "nvtx_calls\t" << nvtx_calls->push << '\t' << nvtx_calls->pop << '\t'
         << nvtx_calls->start << '\t' << nvtx_calls->end << '\n';
    ++records_;
  }
  out_ << "dropped\t" << dropped_records << '\n';
  ++records_;
  out_ << "end\t" << records_ << '\n';
  out_.flush();
}

void write_dump(std::ostream& out, const ActivityLog& log) {
  DumpWriter writer(out);
  for (const Device& device : log.devices) writer.write(device);
  for (const RangeStart& start : log.range_starts) writer.write(start);
  for (const RangeEnd& end : log.range_ends) writer.write(end);
  for (const ApiCall& call : log.api_calls) writer.write(call);
  for (const GpuActivity& activity : log.gpu) writer.write(activity);
  writer.finish(log.has_nvtx_calls ? std::optional<NvtxCallCounts>(log.nvtx_calls) : std::nullopt,
                log.dropped_records);
}

}  // namespace scalecast::profiler
