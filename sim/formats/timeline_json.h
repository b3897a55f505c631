// A timeline as JSON, the file every backend and the real executor can write, so a prediction and
// a measurement of one schedule can be compared (`scalecast compare`) without the schedule itself.
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/types/schedule.h"
#include "sim/types/timeline.h"
#include "sim/io/input_error.h"

namespace scalecast {

inline constexpr int kTimelineFormatVersion = 2;  // 2: the policy's commits

// What a comparison needs of each task of the schedule the timeline ran.
struct TimelineTask {
  int id = 0;
  TaskKind kind = TaskKind::forward;
  std::string name;
  int iteration = 0;
  CommOp op = CommOp::allreduce;  // comm tasks only
  double bytes = 0;               // comm tasks only
  std::string algorithm;          // all-reduce tasks only: the registered algorithm that ran it
};

struct TimelineFile {
  std::string scenario, model, method;
  int gpus = 0;
  int nodes = 0;
  int iterations = 0;
  std::vector<TimelineTask> tasks;  // index = task id
  Timeline timeline;                // backend, events, notes
};

// One event as timeline files and the messages between processes (the SimGrid child, the
// executor's ranks) carry it: {task, rank, track, start_s, end_s}.
nlohmann::ordered_json event_to_json(const TimelineEvent& event);
// Strict: throws an InputError naming `source` and the field; task ids below `tasks`.
TimelineEvent event_from_json(const nlohmann::json& j, int tasks, const std::string& source);

// Format "scalecast-timeline": backend, scenario/model/method/gpus/nodes/iterations, notes, the
// tasks (id, kind, name, iteration; op and bytes for comm tasks, the algorithm of all-reduces),
// the events (task, rank, track, start_s, end_s) and the scheduling policy's commits (task ids,
// in order).
void write_timeline_json(std::ostream& out, const Schedule& schedule, const Timeline& timeline);
TimelineFile timeline_file(const Schedule& schedule, const Timeline& timeline);
// Strict: format, version, every field in its range, task ids in order, a task in every
// iteration, events naming existing tasks, commits of communication tasks.
TimelineFile timeline_from_json(const nlohmann::json& json, const std::string& source);
TimelineFile read_timeline_json(const std::string& path);

}  // namespace scalecast
