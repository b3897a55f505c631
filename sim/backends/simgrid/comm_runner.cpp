// Communication tasks as SimGrid flows: a flow starts when the flows it depends on have
// arrived; the task ends when its last representative flow arrives. Ghosts left are cancelled.
#include "sim/backends/simgrid/comm_runner.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>
#include <xbt/log.h>
#include <stdexcept>
#include <vector>

#include "sim/collectives/allreduce_algorithm.h"
#include "sim/collectives/expansion.h"
#include "sim/network/nccl/nccl_collective.h"
#include "sim/backends/replay_protocol.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(scalecast_comm, scalecast, "Transfers of collectives and push/pull as SimGrid flows");

namespace scalecast::simgrid_backend {
namespace {

namespace sg4 = simgrid::s4u;
namespace nccl = collectives::nccl;

}  // namespace

void CommRunner::run(const Task& task) {
  // One collective call or PS request starts all its transfers at once: its software overhead
  // is paid once, as in the analytical backend.
  const bool collective = task.op != CommOp::push && task.op != CommOp::pull;
  const double overhead = collective ? links_.call_overhead.s() + framework_task_s(links_, s_.strategy, task.bytes)
                                     : ps_request_overhead_s(links_, s_.strategy);
  if (overhead > 0) sg4::this_actor::sleep_for(overhead);
  const auto key = std::make_tuple(task.op, task.algorithm, task.bytes);
  const bool memoizable = o_.collectives_alone && collective;
  if (memoizable) {
    if (auto it = memo_.find(key); it != memo_.end()) {
      stats_.transfers_expanded += it->second.transfers;
      ++stats_.collectives_reused;
      sg4::this_actor::sleep_for(it->second.duration_s);
      return;
    }
  }
  if (!collective) {
    // A push or pull: its node-local parts take turns on the node's NCCL stream (one for all
    // nodes, which run alike), its network part shares the links with every other transfer.
    const collectives::TransferStages st = collectives::transfer_stages(s_, task);
    const FlowLatency links_latency = latency(task);
    if (!st.before.steps.empty()) on_stream(task, st.before);
    if (rule_.in_order && !st.network.steps.empty()) {
      if (rule_.pull_requests && task.op == CommOp::pull) {
        // The pull's request carries no data: it leaves at its turn on the push direction's
        // connection, which goes on at once, and arrives a latency later.
        { const Turn request(connections_[{task.server, true}], task.id); }
        sg4::this_actor::sleep_for(links_.network_latency.s());
      }
      // One connection per worker and server and direction: a transfer waits for the one before.
      const Turn turn(connections_[{task.server, task.op == CommOp::push}], task.id);
      run_part(task, st.network, links_latency);
    } else {
      run_part(task, st.network, links_latency);
    }
    if (!st.after.steps.empty()) on_stream(task, st.after);
    return;
  }
  const double start = sg4::Engine::get_clock();
  const FlowLatency flow_latency = latency(task);
  if (flow_latency.base_s > 0) sg4::this_actor::sleep_for(flow_latency.base_s);
  const size_t expanded = run_part(task, collectives::expand(s_, task), flow_latency);
  if (memoizable) memo_[key] = {sg4::Engine::get_clock() - start, expanded};
}

void CommRunner::on_stream(const Task& task, const collectives::Expansion& part) {
  const Turn turn(stream_, task.id);
  if (s_.cluster.ps.stage_overhead > Seconds()) sg4::this_actor::sleep_for(s_.cluster.ps.stage_overhead.s());
  run_part(task, part, latency(task));
}

size_t CommRunner::run_part(const Task& task, const collectives::Expansion& part, const FlowLatency& latency) {
  if (part.steps.empty()) return 0;
  const FlowGraph g = graph(task, part);
  execute(g, latency);
  stats_.transfers_expanded += g.expanded;
  return g.expanded;
}

FlowGraph CommRunner::graph(const Task& task, const collectives::Expansion& e) {
  if (o_.block_ranks > 0 && block_foldable(s_, task)) {
    ++stats_.collectives_reduced;
    return block_graph(e, o_.block_ranks, s_.gpus());
  }
  if (o_.ps_node_ranks > 0 && (task.op == CommOp::push || task.op == CommOp::pull)) {
    ++stats_.ps_reduced;
    return node_graph(e, o_.ps_node_ranks, s_.gpus());
  }
  return full_graph(e);
}

// Each representative flow is an actor of its own that sends, then releases the flows waiting
// for it: a finished comm costs SimGrid O(1), where one actor waiting on every active comm
// (wait_any) costs O(active) per finish, quadratic in the flows in flight at 8192 GPUs. Ghosts
// are started with their image and never waited for.
FlowLatency CommRunner::latency(const Task& t) const {
  const FlowLatency links{0, links_.fabric_latency.s(), links_.network_latency.s(), false};
  if (t.op != CommOp::allreduce || t.group != CommGroup::all || !t.algorithm || !t.algorithm->library_choice ||
      !links_.nccl)
    return links;
  const auto picked = links_.nccl->choice(nccl::Func::all_reduce, t.bytes);
  if (!picked || (picked->algo != nccl::Algo::tree && picked->algo != nccl::Algo::ring)) return links;
  const nccl::HopLatencies h =
      nccl::hop_latencies(links_.nccl->system(), picked->algo, picked->proto, nccl::LatencyView::physical);
  const double intra = picked->algo == nccl::Algo::ring ? std::max(h.intra_us, h.ring_step_floor_us) : h.intra_us;
  return {h.base_us * 1e-6, intra * 1e-6, h.inter_us * 1e-6, true};
}

void CommRunner::execute(const FlowGraph& g, const FlowLatency& latency) {
  std::vector<int> deps(g.flows.size());
  for (size_t i = 0; i < g.flows.size(); ++i) deps[i] = g.flows[i].deps;
  std::vector<sg4::CommPtr> ghosts;
  const sg4::SemaphorePtr done = sg4::Semaphore::create(0);
  size_t left = 0;
  const auto bytes_of = [](const Flow& f) {
    // SimGrid 3.32 never starts a host-to-host comm of 0 bytes: an empty chunk carries one.
    return static_cast<uint64_t>(std::max(1LL, std::llround(f.bytes)));
  };
  std::function<void(int)> start;
  const auto release = [&](int id) {
    for (int n : g.flows[id].next)
      if (--deps[n] == 0) start(n);
  };
  start = [&](int id) {
    const Flow& f = g.flows[id];
    XBT_DEBUG("flow %d: %.0f B from %s to %s", id, f.bytes, p_.endpoints[f.src]->get_cname(),
              p_.endpoints[f.dst]->get_cname());
    ++stats_.transfers_simulated;
    stats_.transfers_simulated += 1 + f.mirrors.size();
    sg4::Actor::create("flow", p_.endpoints[f.src], [&, id] {
      const Flow& flow = g.flows[id];
      // A ghost is a flow of the same kind as its image (a shift by whole nodes): it waits alike.
      const bool across = collectives::node_of(s_.cluster, flow.src) != collectives::node_of(s_.cluster, flow.dst);
      const double wait = latency.pipelined && flow.piece > 0 ? 0 : across ? latency.inter_s : latency.intra_s;
      if (wait > 0) sg4::this_actor::sleep_for(wait);
      for (int ghost : flow.mirrors) {
        const Flow& image = g.flows[ghost];
        ghosts.push_back(sg4::Comm::sendto_async(p_.endpoints[image.src], p_.endpoints[image.dst], bytes_of(image)));
      }
      sg4::Comm::sendto(p_.endpoints[flow.src], p_.endpoints[flow.dst], bytes_of(flow));
      release(id);
      for (int ghost : flow.mirrors) release(ghost);
      if (--left == 0) done->release();
    });
  };
  for (const Flow& f : g.flows) left += f.ghost ? 0 : 1;
  if (left == 0) return;
  for (size_t i = 0; i < g.flows.size(); ++i)
    if (!g.flows[i].ghost && deps[i] == 0) start(static_cast<int>(i));
  done->acquire();
  for (auto& comm : ghosts)
    if (!comm->test()) comm->cancel();  // ghosts whose images have all arrived
}

}  // namespace scalecast::simgrid_backend
