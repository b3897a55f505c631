// Building the dependency graph of an expansion's transfers (full, symmetry block with ghosts,
// one node) by one pass over the steps that remembers each endpoint's latest inputs.
#include "sim/backends/simgrid/flow_graph.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace scalecast::simgrid_backend {
namespace {

using collectives::Transfer;

// Flows into each endpoint in its latest receiving step; a new flow from that endpoint waits
// for all of them, and in an in-order expansion for the last flow between the same endpoints.
class Inputs {
 public:
  explicit Inputs(bool in_order) : in_order_(in_order) {}
  void depend(FlowGraph& g, int id, int piece) {
    Flow& f = g.flows[id];
    if (auto it = latest_.find(key(f.src, piece)); it != latest_.end()) {
      f.deps += static_cast<int>(it->second.size());
      for (int d : it->second) g.flows[d].next.push_back(id);
    }
    if (!in_order_) return;
    auto [it, fresh] = last_on_pair_.try_emplace({f.src, f.dst}, id);
    if (fresh) return;
    const int before = it->second;
    it->second = id;
    ++f.deps;
    g.flows[before].next.push_back(id);
  }
  void arrive(int dst, int piece, int id) { step_[key(dst, piece)].push_back(id); }
  void end_step() {
    for (auto& [dst, ids] : step_) latest_[dst] = std::move(ids);
    step_.clear();
  }

 private:
  static std::uint64_t key(int endpoint, int piece) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(endpoint)) << 32) | static_cast<std::uint32_t>(piece);
  }
  bool in_order_;
  std::unordered_map<std::uint64_t, std::vector<int>> latest_, step_;
  std::map<std::pair<int, int>, int> last_on_pair_;
};

int add(FlowGraph& g, const Transfer& t, bool ghost) {
  Flow f;
  f.src = t.src;
  f.dst = t.dst;
  f.bytes = t.bytes;
  f.piece = t.piece;
  f.ghost = ghost;
  g.flows.push_back(std::move(f));
  return static_cast<int>(g.flows.size()) - 1;
}

}  // namespace

size_t FlowGraph::representatives() const {
  size_t n = 0;
  for (const Flow& f : flows) n += f.ghost ? 0 : 1;
  return n;
}

FlowGraph full_graph(const collectives::Expansion& e) {
  FlowGraph g;
  g.expanded = e.transfer_count();
  g.flows.reserve(g.expanded);
  Inputs inputs(e.in_order);
  for (const auto& step : e.steps) {
    for (const Transfer& t : step) {
      if (t.src == t.dst) continue;
      const int id = add(g, t, false);
      inputs.depend(g, id, t.piece);
      inputs.arrive(t.dst, t.piece, id);
    }
    inputs.end_step();
  }
  return g;
}

FlowGraph node_graph(const collectives::Expansion& e, int node_ranks, int gpus) {
  const auto kept = [&](int endpoint) { return endpoint < node_ranks || endpoint >= gpus; };
  FlowGraph g;
  g.expanded = e.transfer_count();
  Inputs inputs(e.in_order);
  for (const auto& step : e.steps) {
    for (const Transfer& t : step) {
      if (t.src == t.dst || !kept(t.src) || !kept(t.dst)) continue;
      const int id = add(g, t, false);
      inputs.depend(g, id, t.piece);
      inputs.arrive(t.dst, t.piece, id);
    }
    inputs.end_step();
  }
  return g;
}

FlowGraph block_graph(const collectives::Expansion& e, int block, int ranks) {
  if (e.in_order) throw std::logic_error("block_graph: an in-order expansion has no symmetry block");
  FlowGraph g;
  g.expanded = e.transfer_count();
  Inputs inputs(false);
  for (const auto& step : e.steps) {
    std::map<std::pair<int, int>, std::vector<int>> images;  // (src, dst) -> representatives
    for (const Transfer& t : step) {
      if (t.src >= block || t.src == t.dst) continue;
      const int id = add(g, t, false);
      inputs.depend(g, id, t.piece);
      images[{t.src, t.dst}].push_back(id);
      if (t.dst < block) inputs.arrive(t.dst, t.piece, id);
    }
    for (const Transfer& t : step) {
      if (t.src < block || t.dst >= block) continue;
      const int shift = t.src / block * block;
      auto it = images.find({t.src - shift, ((t.dst - shift) % ranks + ranks) % ranks});
      if (it == images.end() || it->second.empty())
        throw std::logic_error("block_graph: the expansion is not invariant under a shift by " +
                               std::to_string(block) + " ranks");
      const int image = it->second.back();
      it->second.pop_back();
      const int id = add(g, t, true);
      g.flows[image].mirrors.push_back(id);
      inputs.arrive(t.dst, t.piece, id);
    }
    inputs.end_step();
  }
  return g;
}

}  // namespace scalecast::simgrid_backend
