// Parser of the profile CSV: "# key: value" metadata, a header with the required columns, one
// row per layer in forward order. Any malformed or truncated row is an error naming its line.
#include "sim/formats/profile_csv.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <vector>

#include "sim/io/csv.h"
#include "sim/io/input_error.h"
#include "sim/io/input_text.h"
#include "sim/io/ranges.h"

namespace scalecast {
namespace {

const std::vector<std::string> kRequired = {"layer", "forward_ms", "backward_ms", "grad_tensors",
                                            "grad_bytes"};

// The sizes of grad_tensor_bytes, separated by ';'.
std::vector<std::string> split_sizes(const std::string& listed) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(listed);
  while (std::getline(in, field, ';')) out.push_back(field);
  if (!listed.empty() && listed.back() == ';') out.emplace_back();
  return out;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

class RowReader {
 public:
  RowReader(const std::string& path, int line) : path_(path), line_(line) {}

  [[noreturn]] void fail(const std::string& column, const std::string& what,
                         const std::string& got) const {
    throw InputError(InputKind::file, path_ + ":" + std::to_string(line_) + ": " + column + ": expected " + what +
                       ", got " + quote_input(got));
  }

  // Milliseconds of one layer's pass: [0, 1 h].
  double milliseconds(const std::string& column, const std::string& text) const {
    double v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size() || !ranges::compute_time().contains(v * 1e-3))
      fail(column, "milliseconds in [0, 3600000]", text);
    return v;
  }

  int64_t count(const std::string& column, const std::string& text, int64_t max) const {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size() || v < 0 || v > max)
      fail(column, "an integer in [0, " + std::to_string(max) + "]", text);
    return v;
  }

 private:
  const std::string& path_;
  int line_;
};

// A gradient tensor of `bytes`, whole elements of `element_bytes`.
GradTensor grad_tensor(const RowReader& r, const std::string& name, int64_t bytes,
                       int element_bytes, const std::string& column) {
  if (bytes % element_bytes != 0)
    r.fail(column, "multiples of the gradient element size (" + std::to_string(element_bytes) +
                       " B at the scenario's model.precision)",
           std::to_string(bytes));
  return {name, bytes / element_bytes, bytes};
}

// Gradient tensors of a row: listed sizes when given, else the bytes split evenly.
std::vector<GradTensor> row_grads(const RowReader& r, const std::string& layer, int64_t tensors,
                                  int64_t bytes, const std::string& listed, int element_bytes) {
  std::vector<GradTensor> grads;
  if (!listed.empty()) {
    int64_t sum = 0;  // each size is at most grad_bytes, and so is the sum before each is added
    for (const auto& piece : split_sizes(listed)) {
      if (static_cast<int64_t>(grads.size()) == tensors)
        r.fail("grad_tensor_bytes", std::to_string(tensors) + " sizes (grad_tensors)", listed);
      int64_t b = r.count("grad_tensor_bytes", trim(piece), bytes - sum);
      grads.push_back(grad_tensor(r, layer + "." + std::to_string(grads.size()), b,
                                  element_bytes, "grad_tensor_bytes"));
      sum += b;
    }
    if (static_cast<int64_t>(grads.size()) != tensors)
      r.fail("grad_tensor_bytes", std::to_string(tensors) + " sizes (grad_tensors)", listed);
    if (sum != bytes) r.fail("grad_tensor_bytes", "sizes summing to grad_bytes", listed);
    return grads;
  }
  if (tensors == 0 && bytes != 0) r.fail("grad_bytes", "0 when grad_tensors is 0", std::to_string(bytes));
  grad_tensor(r, layer, bytes, element_bytes, "grad_bytes");
  const int64_t elements = bytes / element_bytes;
  for (int64_t i = 0; i < tensors; ++i) {
    const int64_t e = elements / tensors + (i < elements % tensors ? 1 : 0);
    grads.push_back({layer + "." + std::to_string(i), e, e * element_bytes});
  }
  return grads;
}

// Checks the value of a metadata key the simulator reads; the batch goes into the workload.
void read_metadata(const RowReader& r, const std::string& key, const std::string& value, Profile& profile) {
  if (key == "batch_per_gpu") {
    int b = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), b);
    if (ec != std::errc() || p != value.data() + value.size() || b < 1 || b > ranges::kMaxBatch)
      r.fail(key, "an integer in [1, " + std::to_string(ranges::kMaxBatch) + "]", value);
    profile.workload.batch_per_gpu = b;
  } else if (key == "step_s") {
    double v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || !ranges::compute_time().contains(v))
      r.fail(key, "seconds " + ranges::compute_time().describe(), value);
  } else if (key == "precision") {
    if (value != "fp32" && value != "tf32" && value != "fp16") r.fail(key, "fp32, tf32 or fp16", value);
  } else if (key == "optimizer") {
    if (value != "sgd" && value != "adam") r.fail(key, "sgd or adam", value);
  }
}

}  // namespace

std::string Profile::where(const std::string& key) const {
  const auto line = metadata_line.find(key);
  return path + ":" + std::to_string(line == metadata_line.end() ? 1 : line->second) + ": " + key;
}

Profile parse_profile_csv(const std::string& text, const std::string& path,
                          int grad_element_bytes) {
  Profile profile;
  profile.path = path;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  std::vector<std::string> header;
  std::map<std::string, size_t> column;
  int64_t tensors_left = ranges::kMaxTensors, bytes_left = static_cast<int64_t>(ranges::kMaxBytes);
  while (std::getline(in, line)) {
    ++line_no;
    line = trim(line);
    if (line.empty()) continue;
    RowReader r(path, line_no);
    if (line[0] == '#') {
      auto colon = line.find(':');
      if (colon != std::string::npos && header.empty()) {
        const std::string key = trim(line.substr(1, colon - 1));
        profile.metadata[key] = trim(line.substr(colon + 1));
        profile.metadata_line[key] = line_no;
        read_metadata(r, key, profile.metadata[key], profile);
      }
      continue;
    }
    if (header.empty()) {
      header = split_csv_line(line);
      for (size_t i = 0; i < header.size(); ++i) column[trim(header[i])] = i;
      for (size_t i = 0; i < kRequired.size(); ++i)
        if (i >= header.size() || trim(header[i]) != kRequired[i])
          r.fail("header", "columns starting layer,forward_ms,backward_ms,grad_tensors,grad_bytes",
                 line);
      continue;
    }
    auto fields = split_csv_line(line);
    if (fields.size() != header.size())
      r.fail("row", std::to_string(header.size()) + " fields", std::to_string(fields.size()) + " fields");
    for (auto& f : fields) f = trim(f);
    Layer layer;
    layer.name = fields[0];
    if (layer.name.empty() || !is_utf8(layer.name)) r.fail("layer", "a layer name in UTF-8", layer.name);
    layer.kind = "profiled";
    layer.forward_s = r.milliseconds("forward_ms", fields[1]) * 1e-3;
    layer.backward_s = r.milliseconds("backward_ms", fields[2]) * 1e-3;
    // A model's gradients: at most kMaxTensors tensors and kMaxBytes bytes over all rows.
    const int64_t tensors = r.count("grad_tensors", fields[3], tensors_left);
    const int64_t bytes = r.count("grad_bytes", fields[4], bytes_left);
    tensors_left -= tensors;
    bytes_left -= bytes;
    auto listed = column.count("grad_tensor_bytes") ? fields[column["grad_tensor_bytes"]] : "";
    layer.grads = row_grads(r, layer.name, tensors, bytes, listed, grad_element_bytes);
    profile.workload.layers.push_back(std::move(layer));
  }
  if (header.empty())
    throw InputError(InputKind::file, path + ":" + std::to_string(std::max(1, line_no)) +
                       ": header: expected a CSV header, got an empty profile");
  if (profile.workload.layers.empty())
    throw InputError(InputKind::file, path + ":" + std::to_string(line_no) + ": row: expected at least one layer, got none");
  if (!(profile.workload.compute_s() > 0))
    throw InputError(InputKind::file, path + ":" + std::to_string(line_no) +
                       ": forward_ms: expected layers that take time, got 0 ms in every row");
  if (auto it = profile.metadata.find("model"); it != profile.metadata.end()) {
    if (!is_utf8(it->second))
      RowReader(path, profile.metadata_line["model"]).fail("model", "a model name in UTF-8", it->second);
    profile.workload.model = it->second;
  }
  return profile;
}

Profile read_profile_csv(const std::string& path, int grad_element_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(InputKind::file, path + ": cannot open the profile file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_profile_csv(text.str(), path, grad_element_bytes);
}

}  // namespace scalecast
