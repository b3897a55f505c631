// BytePS's partition keys and their servers (byteps/common/global.cc, operations.cc, v0.2.5).
#include "sim/schedules/ps_keys.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace scalecast {

std::uint64_t byteps_key_hash(std::uint64_t key) {
  std::uint64_t hash = 5381;
  for (const char c : std::to_string(key)) hash = (hash << 5) + hash + static_cast<std::uint64_t>(c);
  return hash;
}

std::vector<int> byteps_servers(const Workload& w, const std::vector<Message>& messages, double partition_bytes,
                                int servers) {
  // Gradient names in the backward order messages take them in, then each one's declared key:
  // its place in name order (ties, as unnamed tensors from a profile, in backward order).
  std::vector<const std::string*> names;
  for (auto l = w.layers.rbegin(); l != w.layers.rend(); ++l)
    for (const GradTensor& g : l->grads) names.push_back(&g.name);
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *names[a] < *names[b]; });
  std::vector<std::uint64_t> declared(names.size());
  for (std::size_t k = 0; k < order.size(); ++k) declared[order[k]] = k;

  const auto n = static_cast<std::uint64_t>(std::max(1, servers));
  std::vector<int> out;
  std::size_t next = 0;  // the first tensor of the message in backward order
  for (const Message& m : messages) {
    const auto tensors = static_cast<std::size_t>(m.tensors);
    if (tensors == 0 || next + tensors > declared.size())
      throw std::logic_error("byteps_servers: messages that do not carry the workload's tensors in order");
    const std::uint64_t d = *std::min_element(declared.begin() + next, declared.begin() + next + tensors);
    next += tensors;
    const auto count = static_cast<std::uint64_t>(partition_count(m.bytes, partition_bytes));
    for (std::uint64_t i = 0; i < count; ++i)
      out.push_back(static_cast<int>(byteps_key_hash((d << 16) + i) % n));
  }
  return out;
}

}  // namespace scalecast
