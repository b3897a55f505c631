// Reads torch.profiler's export_chrome_trace JSON into TraceEvents: complete events with their
// thread, times and the arguments the importer uses; anything malformed names its event.
#include "profiler/torch_trace.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace scalecast::profiler {
namespace {

using nlohmann::json;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// "pid" and "tid" are numbers or strings ("CPU functions", "stream 7").
std::string id_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// Kineto writes arguments as numbers, older versions some as strings.
std::optional<int64_t> integer_arg(const json& args, const char* key) {
  const auto it = args.find(key);
  if (it == args.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (it->is_string()) {
    try {
      return std::stoll(it->get<std::string>());
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

class EventReader {
 public:
  EventReader(const json& event, const std::string& where) : event_(event), where_(where) {}

  [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
    const auto it = event_.find(key);
    throw TraceError(where_ + "." + key + ": expected " + expected + ", got " +
                     (it == event_.end() ? std::string("nothing") : "'" + it->dump() + "'"));
  }

  double number(const std::string& key) const {
    const auto it = event_.find(key);
    if (it == event_.end() || !it->is_number()) fail(key, "a number of microseconds");
    return it->get<double>();
  }

 private:
  const json& event_;
  const std::string& where_;
};

TraceEvent read_event(const json& e, const std::string& where) {
  const EventReader r(e, where);
  TraceEvent event;
  const auto name = e.find("name");
  if (name == e.end() || !name->is_string()) r.fail("name", "a string");
  event.name = name->get<std::string>();
  if (const auto cat = e.find("cat"); cat != e.end() && cat->is_string())
    event.category = lower(cat->get<std::string>());
  const auto pid = e.find("pid");
  const auto tid = e.find("tid");
  event.thread = (pid == e.end() ? "" : id_text(*pid)) + "/" + (tid == e.end() ? "" : id_text(*tid));
  event.start_us = r.number("ts");
  const double duration = r.number("dur");
  if (duration < 0) r.fail("dur", "a duration >= 0");
  event.end_us = event.start_us + duration;
  const auto args_it = e.find("args");
  const json args = args_it == e.end() ? json::object() : *args_it;
  if (!args.is_object()) r.fail("args", "an object");
  event.sequence = integer_arg(args, "Sequence number");
  event.correlation = integer_arg(args, "correlation");
  if (const auto dims = args.find("Input Dims"); dims != args.end() && dims->is_array()) {
    for (const json& shape : *dims) {
      std::vector<int64_t> extents;
      if (shape.is_array())
        for (const json& extent : shape)
          if (extent.is_number_integer()) extents.push_back(extent.get<int64_t>());
      event.input_dims.push_back(std::move(extents));
    }
  }
  if (const auto types = args.find("Input type"); types != args.end() && types->is_array()) {
    for (const json& type : *types) event.input_types.push_back(type.is_string() ? type.get<std::string>() : "");
  }
  return event;
}

}  // namespace

TorchTrace parse_torch_trace(const std::string& text, const std::string& path) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    const auto line = std::count(text.begin(),
                                 text.begin() + static_cast<std::ptrdiff_t>(
                                                    std::min(e.byte, text.size())),
                                 '\n') + 1;
    throw TraceError(path + ":" + std::to_string(line) +
                     ": expected the JSON of torch.profiler's export_chrome_trace, got a syntax "
                     "error (byte " + std::to_string(e.byte) + ")");
  }
  TorchTrace trace;
  trace.path = path;
  trace.kineto = root.is_object();
  const json* events = &root;
  if (trace.kineto) {
    const auto it = root.find("traceEvents");
    if (it == root.end() || !it->is_array())
      throw TraceError(path + ": traceEvents: expected a list of events, got " +
                       (it == root.end() ? std::string("nothing") : it->type_name()));
    events = &*it;
    if (const auto devices = root.find("deviceProperties");
        devices != root.end() && devices->is_array() && !devices->empty() &&
        (*devices)[0].is_object()) {
      const auto name = (*devices)[0].find("name");
      if (name != (*devices)[0].end() && name->is_string()) trace.device_name = *name;
    }
  } else if (!root.is_array()) {
    throw TraceError(path + ": expected a list of events or {\"traceEvents\": [...]}, got " +
                     std::string(root.type_name()));
  }
  for (size_t i = 0; i < events->size(); ++i) {
    const json& e = (*events)[i];
    const std::string where = path + ": traceEvents[" + std::to_string(i) + "]";
    if (!e.is_object()) throw TraceError(where + ": expected an event object, got " + e.dump());
    const auto phase = e.find("ph");
    if (phase == e.end() || !phase->is_string() || *phase != "X") continue;
    trace.events.push_back(read_event(e, where));
  }
  return trace;
}

TorchTrace read_torch_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path + ": expected a readable trace file, got one that cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_torch_trace(text.str(), path);
}

}  // namespace scalecast::profiler
