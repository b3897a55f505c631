// What one rank does in a schedule: run compute tasks, take part in collectives through the
// ordered channel, or move parameter-server partitions; with its own transfers of every step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "executor/transport.h"
#include "sim/collectives/expansion.h"
#include "sim/types/schedule.h"

namespace scalecast::executor {

enum class Role {
  skip,     // nothing to do here: done as soon as its dependencies are
  compute,  // a compute task of a GPU rank
  channel,  // a collective: every GPU rank runs it, in the order rank 0 decides
  ps,       // a push or pull this rank sends or receives partitions of
};

struct RankTask {
  Role role = Role::skip;
  std::vector<std::vector<PeerOp>> steps;  // this rank's transfers, step by step (comm tasks)
  std::string track;                       // timeline track of this rank's events
};

struct RankPlan {
  int rank = 0;
  int gpus = 0;
  int world = 0;
  int channel_tasks = 0;  // collectives, in the channel's order on every GPU rank
  std::vector<RankTask> tasks;  // index = task id
};

// Dedicated parameter-server processes the schedule needs (ranks gpus .. gpus+servers-1).
int server_processes(const Schedule& schedule);
// GPU ranks plus dedicated servers: the WORLD_SIZE a run of the schedule needs.
int world_size(const Schedule& schedule);

// The tag both ends of a transfer use: task, step, and the how-many-th transfer between the
// same two ranks in that step; tags of different tasks never meet.
std::uint64_t transfer_tag(int task, int step, int occurrence);
// This rank's transfers of an expansion, step by step; steps without any are left out.
std::vector<std::vector<PeerOp>> rank_steps(const collectives::Expansion& expansion, int rank, int task);

// Throws an InputError where rank is outside the schedule's world.
RankPlan plan_rank(const Schedule& schedule, int rank);

}  // namespace scalecast::executor
