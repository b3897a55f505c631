// One rank of a real run: refuse what cannot run (file, world size, a schedule that differs
// between ranks) before any data moves, then connect the transport, align clocks on a barrier,
// run, and gather the events. Failures after the world exists go through World::abort.
#include "executor/session.h"

#include <algorithm>
#include <csignal>
#include <sstream>

#include <nlohmann/json.hpp>

#include "executor/rank_plan.h"
#include "executor/rank_runner.h"
#include "executor/transports.h"
#include "executor/world.h"
#include "sim/io/input_error.h"
#include "sim/io/json_text.h"
#include "sim/formats/schedule_json.h"
#include "sim/formats/timeline_json.h"

namespace scalecast::executor {
namespace {

std::string events_to_json(const std::vector<TimelineEvent>& events) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const auto& e : events) j.push_back(event_to_json(e));
  return json_text(j);
}

void events_from_json(const std::string& text, int tasks, std::vector<TimelineEvent>& out) {
  for (const auto& e : nlohmann::json::parse(text)) out.push_back(event_from_json(e, tasks, "a rank's events"));
}

}  // namespace

Schedule read_run_schedule(const std::string& path, int world) {
  Schedule s = read_schedule_file(path);
  const int need = world_size(s), servers = server_processes(s);
  if (need != world)
    throw InputError(InputKind::refused, path + ": the schedule needs " + std::to_string(need) + " ranks (" + std::to_string(s.gpus()) +
                       " GPU ranks + " + std::to_string(servers) + " parameter servers), but the run has " +
                       std::to_string(world));
  return s;
}

std::optional<Execution> execute_rank(const ExecuteOptions& o, const LaunchEnv& env) {
  std::signal(SIGPIPE, SIG_IGN);  // a peer that dies must surface as an error, not kill this rank
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  World world(env, timeout, "scalecast execute");
  Schedule s;
  try {
    s = read_run_schedule(o.schedule_path, env.world_size);
    // A library's own collective runs among every rank: a node's or a rail's runs expanded only.
    if (o.reference)
      for (const Task& t : s.tasks)
        if (t.kind == TaskKind::comm && t.group != CommGroup::all)
          throw InputError(o.schedule_path + ": task " + std::to_string(t.id) + " runs among the GPUs of a " +
                           to_string(t.group) + ", which --reference cannot run (the library's collectives "
                           "span every rank): run it without --reference");
  } catch (const std::exception& e) {
    world.abort(e.what(), 2);
  }
  std::ostringstream options;
  options << o.transport << (o.reference ? " reference" : " expanded") << " compute x" << o.compute_scale;
  try {
    world.arrive();
    world.agree("schedule", digest(json_text(schedule_to_json(s))));
    world.agree("options", options.str());
  } catch (const InputError& e) {
    world.abort(e.what(), 2);
  } catch (const std::exception& e) {
    world.abort(e.what(), 1);
  }

  const RankPlan plan = plan_rank(s, env.rank);
  std::unique_ptr<Transport> transport;
  std::optional<RankRunner> runner;
  std::vector<TimelineEvent> events;
  try {
    transport = make_transport(o.transport, {env.rank, env.world_size, &world.store(), env.master_addr,
                                             env.master_port, timeout});
    runner.emplace(s, plan, *transport, world.channel_order(), RunOptions{o.reference, o.compute_scale});
  } catch (const InputError& e) {
    world.abort(e.what(), 2);
  } catch (const std::exception& e) {
    world.abort(e.what(), 1);
  }
  try {
    world.barrier("start");
    transport->start_clock();
    events = runner->run();
    const auto all = world.gather("events", events_to_json(events));
    events.clear();
    for (const auto& text : all) events_from_json(text, static_cast<int>(s.tasks.size()), events);
    world.finish();
  } catch (const std::exception& e) {
    world.abort(e.what(), 1);
  }
  if (env.rank != 0) return std::nullopt;

  std::sort(events.begin(), events.end(), [](const TimelineEvent& a, const TimelineEvent& b) {
    return std::tie(a.start_s, a.rank, a.task) < std::tie(b.start_s, b.rank, b.task);
  });
  Execution ex;
  ex.timeline.backend = "executor-" + o.transport;
  ex.timeline.events = std::move(events);
  ex.timeline.commits = runner->commits();
  ex.timeline.notes.push_back("measured on " + std::to_string(env.world_size) + " ranks with " + o.transport +
                              (o.reference ? " (the library's own collectives)"
                                           : " (collectives expanded into the simulator's point-to-point steps)"));
  if (o.compute_scale != 1)
    ex.timeline.notes.push_back("compute tasks ran for " + std::to_string(o.compute_scale) + " x their duration");
  ex.schedule = std::move(s);
  return ex;
}

}  // namespace scalecast::executor
