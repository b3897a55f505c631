// Parses NVTX range names: the user convention (fwd:/bwd:/layer:, forward/backward, the
// iteration marker) and PyTorch emit_nvtx op ranges with their sequence numbers.
#include "profiler/range_names.h"

#include <cctype>
#include <charconv>

namespace scalecast::profiler {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Reads "seq = N", "seq=N" or "stashed seq = N" from one comma-separated field.
std::optional<uint64_t> parse_seq_field(std::string_view field) {
  field = trim(field);
  if (field.starts_with("stashed ")) field = trim(field.substr(8));
  if (!field.starts_with("seq")) return std::nullopt;
  field = trim(field.substr(3));
  if (!field.starts_with('=')) return std::nullopt;
  field = trim(field.substr(1));
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (field.empty() || error != std::errc() || end != field.data() + field.size()) {
    return std::nullopt;
  }
  return value;
}

bool is_autograd_node(std::string_view op, std::string_view full_name) {
  return op.find("Backward") != std::string_view::npos || op.starts_with("autograd::") ||
         op.starts_with("torch::autograd::") ||
         full_name.find("stashed seq") != std::string_view::npos;
}

}  // namespace

RangeName classify_range(std::string_view name, std::string_view iteration_marker) {
  RangeName out;
  const std::string_view trimmed = trim(name);
  if (trimmed == iteration_marker) {
    out.kind = RangeName::Kind::iteration;
    return out;
  }
  if (trimmed == "forward" || trimmed == "backward") {
    out.kind = RangeName::Kind::phase;
    out.phase = trimmed == "forward" ? Phase::forward : Phase::backward;
    return out;
  }
  struct Prefix {
    std::string_view text;
    std::optional<Phase> phase;
  };
  for (const Prefix& prefix : {Prefix{"fwd:", Phase::forward}, Prefix{"bwd:", Phase::backward},
                               Prefix{"layer:", std::nullopt}}) {
    if (trimmed.starts_with(prefix.text) && !trim(trimmed.substr(prefix.text.size())).empty()) {
      out.kind = RangeName::Kind::layer;
      out.phase = prefix.phase;
      out.label = std::string(trim(trimmed.substr(prefix.text.size())));
      return out;
    }
  }
  out.kind = RangeName::Kind::op;
  const size_t comma = trimmed.find(',');
  const std::string_view op = trim(trimmed.substr(0, comma));
  out.label = std::string(op);
  for (size_t begin = comma; begin != std::string_view::npos;) {
    const size_t next = trimmed.find(',', begin + 1);
    const std::string_view field = trimmed.substr(
        begin + 1, next == std::string_view::npos ? std::string_view::npos : next - begin - 1);
    if (const std::optional<uint64_t> seq = parse_seq_field(field)) {
      out.seq = seq;
      break;
    }
    begin = next;
  }
  if (is_autograd_node(op, trimmed)) out.phase = Phase::backward;
  return out;
}

}  // namespace scalecast::profiler
