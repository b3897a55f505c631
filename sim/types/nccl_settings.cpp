// NCCL_ALGO and NCCL_PROTO as NCCL 2.27 reads them (src/graph/tuning.cc:34-130): a list of
// names, "^" before it to disable them instead, and "function:list" sections separated by ';'.
#include "sim/types/nccl_settings.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "sim/io/input_error.h"

namespace scalecast::collectives::nccl {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, by);) out.push_back(part);
  return out;
}

// Index of `word` among names (case aside), or -1.
int index_of(const std::string& word, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (lower(names[i]) == lower(word)) return static_cast<int>(i);
  return -1;
}

const std::vector<std::string>& algo_names() {
  static const std::vector<std::string> n = {"tree", "ring", "collnetdirect", "collnetchain", "nvls", "nvlstree", "pat"};
  return n;
}
const std::vector<std::string>& proto_names() {
  static const std::vector<std::string> n = {"ll", "ll128", "simple"};
  return n;
}
const std::vector<std::string>& func_names() {
  static const std::vector<std::string> n = {"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
  return n;
}

// Applies one mask to `on` (per function, per name).
template <std::size_t N>
void apply(const std::string& text, const std::vector<std::string>& names, std::array<std::array<bool, N>, kFuncs>& on,
           const char* what) {
  for (auto& f : on) f.fill(true);
  if (text.empty()) return;
  for (const std::string& section : split(text, ';')) {
    std::vector<int> funcs;
    std::string list = section;
    if (const auto colon = section.find(':'); colon != std::string::npos) {
      const int f = index_of(section.substr(0, colon), func_names());
      if (f < 0)
        throw InputError("NCCL " + std::string(what) + " '" + text + "': unknown function '" +
                         section.substr(0, colon) + "' (known: broadcast, reduce, allgather, reducescatter, allreduce)");
      funcs.push_back(f);
      list = section.substr(colon + 1);
    } else {
      for (int f = 0; f < kFuncs; ++f) funcs.push_back(f);
    }
    const bool negate = !list.empty() && list[0] == '^';
    if (negate) list = list.substr(1);
    std::array<bool, N> mask{};
    for (const std::string& word : split(list, ',')) {
      const int i = index_of(word, names);
      if (i < 0) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        throw InputError("NCCL " + std::string(what) + " '" + text + "': unknown name '" + word +
                         "' (known: " + known + ")");
      }
      mask[static_cast<std::size_t>(i)] = true;
    }
    for (int f : funcs)
      for (std::size_t i = 0; i < N; ++i) on[f][i] = negate ? !mask[i] : mask[i];
  }
}

}  // namespace

const char* name(Func f) {
  static const char* const names[] = {"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
  return names[static_cast<int>(f)];
}

Enabled enabled(const NcclSettings& s) {
  Enabled e;
  apply(s.algo, algo_names(), e.algo, "algorithms");
  apply(s.proto, proto_names(), e.proto, "protocols");
  return e;
}

void check_mask(const std::string& text, bool algorithms) {
  Enabled e;
  if (algorithms) apply(text, algo_names(), e.algo, "algorithms");
  else apply(text, proto_names(), e.proto, "protocols");
}

bool valid_mask(const std::string& text, bool algorithms) {
  try {
    check_mask(text, algorithms);
  } catch (const InputError&) {
    return false;
  }
  return true;
}

const char* mask_syntax(bool algorithms) {
  return algorithms ? "NCCL_ALGO's syntax (e.g. ring,tree or ^nvls)" : "NCCL_PROTO's syntax (e.g. ^LL128 or simple)";
}

int parse_nccl_version(const std::string& text) {
  const auto parts = split(text, '.');
  if (parts.size() != 3) return 0;
  int v[3] = {};
  for (int i = 0; i < 3; ++i) {
    if (parts[i].empty() || parts[i].size() > 3 ||
        !std::all_of(parts[i].begin(), parts[i].end(), [](char c) { return c >= '0' && c <= '9'; }))
      return 0;
    v[i] = std::stoi(parts[i]);
  }
  const int code = v[0] * 10000 + v[1] * 100 + v[2];
  return v[1] < 100 && v[2] < 100 && code >= kNcclOldest && code <= kNcclNewest ? code : 0;
}

std::string nccl_version_text(int version) {
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

std::string nccl_version_syntax() {
  return "an NCCL release MAJOR.MINOR.PATCH from " + nccl_version_text(kNcclOldest) + " to " +
         nccl_version_text(kNcclNewest);
}

int max_channels(int version) {
  // MAXCHANNELS: devcomm.h at v2.4.8 (16), v2.5.6 to v2.24.3 (32), device.h from v2.25.1 (64).
  return version < 20500 ? 16 : version < 22500 ? 32 : 64;
}

}  // namespace scalecast::collectives::nccl
