// Reads torch.profiler's export_chrome_trace JSON into TraceEvents: complete events with their
// thread, bounded times and the arguments the importer uses; anything malformed names its pointer.
#include "profiler/torch_trace.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <unordered_set>

#include "sim/io/input_error.h"
#include "sim/io/json_reader.h"
#include "sim/io/ranges.h"

namespace scalecast::profiler {
namespace {

using nlohmann::json;

// Starts: up to 1e16 us (about 317 years after the epoch), so that a start plus a duration is a
// whole number of nanoseconds in 64 bits.
Bound start_us() { return {0, true, 1e16, false, "of microseconds in [0, 1e16]"}; }

// Durations: at most one layer's pass, ranges::compute_time(), in microseconds.
Bound duration_us() {
  const Bound seconds = ranges::compute_time();
  return {seconds.min * 1e6, seconds.min_inclusive, seconds.max * 1e6, false,
          "of microseconds " + seconds.describe()};
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool has_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

// "pid" and "tid" are numbers or strings ("CPU functions", "stream 7"): only compared.
std::string id_text(const json& event, const char* key) {
  const auto it = event.find(key);
  if (it == event.end()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

bool fits_int64(const json& value) {
  return value.is_number_integer() &&
         !(value.is_number_unsigned() &&
           value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
}

// An id Kineto writes as an integer (some versions as a decimal string); absent: nullopt.
std::optional<int64_t> id_arg(const JsonReader& args, const char* key) {
  if (!args.has(key)) return std::nullopt;
  const JsonReader id = args.require(key);
  if (fits_int64(id.value())) return id.value().get<int64_t>();
  if (id.value().is_string()) {
    const std::string& text = id.value().get_ref<const std::string&>();
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size()) return value;
  }
  id.fail("an integer id");
}

// One "Input Dims" entry: a tensor's extents, or nullopt for anything else (a list of tensors'
// shapes, an argument that is no tensor). The importer bounds the extents it uses.
std::optional<std::vector<int64_t>> tensor_shape(const json& shape) {
  if (!shape.is_array()) return std::nullopt;
  std::vector<int64_t> extents;
  for (const json& extent : shape) {
    if (!fits_int64(extent)) return std::nullopt;
    extents.push_back(extent.get<int64_t>());
  }
  return extents;
}

TraceEvent read_event(const JsonReader& e) {
  TraceEvent event;
  event.pointer = e.pointer();
  event.name = e.require("name").string();
  if (e.has("cat")) event.category = lower(e.require("cat").string());
  event.thread = id_text(e.value(), "pid") + "/" + id_text(e.value(), "tid");
  event.start_us = e.require("ts").number(start_us());
  event.end_us = event.start_us + e.require("dur").number(duration_us());
  if (!e.has("args")) return event;
  const JsonReader args = e.require("args");
  if (!args.value().is_object()) args.fail("an object");
  event.sequence = id_arg(args, "Sequence number");
  event.correlation = id_arg(args, "correlation");
  if (args.has("Input Dims")) {
    const JsonReader dims = args.require("Input Dims");
    for (size_t i = 0; i < dims.size(); ++i) event.input_dims.push_back(tensor_shape(dims.item(i).value()));
  }
  if (args.has("Input type")) {
    const JsonReader types = args.require("Input type");
    for (size_t i = 0; i < types.size(); ++i) {
      const json& type = types.item(i).value();
      event.input_types.push_back(type.is_string() ? type.get<std::string>() : "");
    }
  }
  return event;
}

TorchTrace trace_from(const json& root, const std::string& path) {
  TorchTrace trace;
  trace.path = path;
  const bool kineto = root.is_object();  // else the legacy profiler's list of events
  const JsonReader top(root, path);
  if (!kineto && !root.is_array()) top.fail("a list of events or {\"traceEvents\": [...]}");
  const JsonReader events = kineto ? top.require("traceEvents") : top;
  if (kineto && top.has("deviceProperties")) {
    const JsonReader devices = top.require("deviceProperties");
    if (devices.size() > 0 && devices.item(0).has("name")) {
      const JsonReader name = devices.item(0).require("name");
      trace.device_name = name.string();
      if (has_control(trace.device_name))
        name.fail("a device name without line breaks or control characters");
    }
  }
  for (size_t i = 0; i < events.size(); ++i) {
    const JsonReader e = events.item(i);
    if (!e.value().is_object()) e.fail("an event object");
    const auto phase = e.value().find("ph");
    if (phase == e.value().end() || *phase != "X") continue;
    trace.events.push_back(read_event(e));
  }
  return trace;
}

// The parsed text, refusing a key given twice in one object (the parser would keep the last
// silently): the error names the key's JSON pointer. Syntax errors are parse_json's.
json parse_once_keyed(const std::string& text, const std::string& path) {
  struct Frame {
    bool array = false;
    std::size_t index = 0;  // arrays: the entry being read
    std::string key;        // objects: the key being read
    std::unordered_set<std::string> keys;
  };
  std::vector<Frame> frames;
  const auto pointer = [&frames] {
    std::string out;
    for (const Frame& f : frames) out += "/" + (f.array ? std::to_string(f.index) : f.key);
    return out;
  };
  const auto entry_done = [&frames] {
    if (!frames.empty() && frames.back().array) ++frames.back().index;
  };
  const json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: frames.emplace_back(); break;
      case json::parse_event_t::array_start:
        frames.emplace_back();
        frames.back().array = true;
        break;
      case json::parse_event_t::key: {
        Frame& f = frames.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second)
          throw InputError(InputKind::file, path + ": " + pointer() + ": expected each key once in an object, got it twice");
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames.pop_back();
        entry_done();
        break;
      case json::parse_event_t::value: entry_done(); break;
    }
    return true;
  };
  try {
    return json::parse(text, check);
  } catch (const json::exception&) {
    return parse_json(text, path);  // throws its error, naming where the parser stopped
  }
}

}  // namespace

TorchTrace parse_torch_trace(const std::string& text, const std::string& path) {
  return trace_from(parse_once_keyed(text, path), path);
}

TorchTrace read_torch_trace(const std::string& path) {
  return parse_torch_trace(read_json_text(path, "a torch.profiler trace (export_chrome_trace JSON)"), path);
}

}  // namespace scalecast::profiler
