// Links autograd nodes to forward ops. By sequence number: the last forward op, in time, that
// carried the node's number. By name (no numbers): the autograd engine runs a backward pass's
// nodes in decreasing sequence number, that is in reverse order of creation, so each node is
// matched to the latest forward op before it, not yet matched, whose name is the node's without
// "Backward<N>" (AddmmBackward0: aten::addmm; MaxPool2DWithIndicesBackward0:
// aten::max_pool2d_with_indices), letters and digits compared case-blind.
#include "profiler/torch_backward_links.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <utility>

namespace scalecast::profiler {
namespace {

// "aten::max_pool2d_with_indices" and "MaxPool2DWithIndicesBackward0": "maxpool2dwithindices".
std::string op_key(std::string_view name) {
  if (const size_t colons = name.rfind("::"); colons != std::string_view::npos)
    name.remove_prefix(colons + 2);
  if (const size_t backward = name.rfind("Backward"); backward != std::string_view::npos &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(backward + 8), name.end(),
                  [](unsigned char c) { return std::isdigit(c); }))
    name = name.substr(0, backward);
  std::string key;
  for (const unsigned char c : name)
    if (std::isalnum(c)) key += static_cast<char>(std::tolower(c));
  return key;
}

// The nearest enclosing event (itself included) with one of the roles, or -1.
int enclosing(int i, std::initializer_list<Role> wanted, const std::vector<EventRole>& roles,
              const std::vector<int>& parent) {
  for (; i >= 0; i = parent[i])
    if (std::find(wanted.begin(), wanted.end(), roles[i].role) != wanted.end()) return i;
  return -1;
}

class Linker {
 public:
  Linker(const std::vector<TraceEvent>& events, const std::vector<EventRole>& roles,
         const std::vector<int>& parent)
      : events_(events), roles_(roles), parent_(parent) {}

  BackwardLinks link() {
    BackwardLinks& out = out_;
    out.layer.resize(events_.size());
    std::vector<int> order(events_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return events_[a].start_us < events_[b].start_us; });
    index_forward_ops(order);
    std::map<std::string, std::string> previous_on_thread;  // thread -> last node's layer
    for (const int i : order) {
      if (roles_[i].role != Role::node) continue;
      std::string& previous = previous_on_thread[events_[i].thread];
      if (is_accumulate_grad(roles_[i])) {
        out.layer[i] = previous;
        continue;
      }
      const int op = forward_op_of(i);
      if (op < 0) ++out.unlinked;
      out.layer[i] = op < 0 ? "" : layer_of(op);
      previous = out.layer[i];
    }
    return std::move(out);
  }

 private:
  // Indexes the forward ops (operators inside no autograd node or optimizer step) by sequence
  // number and by name, and finds each node's own call inside it.
  void index_forward_ops(const std::vector<int>& order) {
    for (const int i : order) {
      if (roles_[i].role != Role::op) continue;
      const int p = parent_[i];
      if (p >= 0 && roles_[p].role == Role::node && events_[i].name == roles_[p].label)
        out_.call[p] = i;
      if (enclosing(i, {Role::node, Role::optimizer}, roles_, parent_) >= 0) continue;
      // A node's own call that rounding left outside its node range is no forward op.
      if (classify_range(events_[i].name, "").phase == Phase::backward) continue;
      if (events_[i].sequence) by_sequence_[*events_[i].sequence] = i;
      // An op inside an op of the same name is part of it (aten::_convolution in
      // aten::convolution): one autograd node between them.
      const std::string key = op_key(events_[i].name);
      if (p >= 0 && roles_[p].role == Role::op && op_key(events_[p].name) == key) continue;
      by_name_[key].emplace(events_[i].start_us, i);
    }
  }

  // The sequence number of a node: its own, or that of the node call inside it.
  std::optional<int64_t> sequence_of(int node) const {
    if (events_[node].sequence) return events_[node].sequence;
    const auto inner = out_.call.find(node);
    if (inner == out_.call.end()) return std::nullopt;
    return events_[inner->second].sequence;
  }

  int forward_op_of(int node) {
    if (const auto sequence = sequence_of(node)) {
      const auto it = by_sequence_.find(*sequence);
      return it == by_sequence_.end() ? -1 : it->second;
    }
    auto candidates = by_name_.find(op_key(roles_[node].label));
    if (candidates == by_name_.end()) return -1;
    auto& ops = candidates->second;
    auto it = ops.lower_bound({events_[node].start_us, -1});
    if (it == ops.begin()) return -1;
    --it;
    const int op = it->second;
    ops.erase(it);
    return op;
  }

  std::string layer_of(int op) const {
    const int layer = enclosing(op, {Role::layer}, roles_, parent_);
    return layer < 0 ? "" : roles_[layer].label;
  }

  const std::vector<TraceEvent>& events_;
  const std::vector<EventRole>& roles_;
  const std::vector<int>& parent_;
  BackwardLinks out_;
  std::map<int64_t, int> by_sequence_;
  std::map<std::string, std::set<std::pair<double, int>>> by_name_;
};

}  // namespace

bool is_accumulate_grad(const EventRole& role) {
  return role.role == Role::node && role.label.ends_with("AccumulateGrad");
}

BackwardLinks link_backward_nodes(const std::vector<TraceEvent>& events,
                                  const std::vector<EventRole>& roles,
                                  const std::vector<int>& parent) {
  return Linker(events, roles, parent).link();
}

}  // namespace scalecast::profiler
