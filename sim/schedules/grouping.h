// Grouping gradient tensors into messages: per tensor, fixed buckets, a fusion buffer with a
// cycle time, MG-WFBP's optimal merge, or one buffer; then splitting messages into partitions.
#pragma once

#include <vector>

#include "sim/collectives/algorithm_choice.h"
#include "sim/types/strategy.h"
#include "sim/types/workload.h"

namespace scalecast {

// A message: consecutive gradient tensors in backward order, sent as one communication.
struct Message {
  double bytes = 0;
  int first_layer = -1;   // lowest layer index it carries: its gradients are produced last
  int last_layer = -1;    // highest layer index
  int tensors = 0;
  // It may go delay_s after the backward of release_layer ends (-1: first_layer): a fusion
  // buffer waits for its cycle tick, anchored on the last tensor fused by then, so that every
  // buffer of one tick is released at the very same instant.
  int release_layer = -1;
  double delay_s = 0;
};

// Time at which each layer's backward pass ends, counted from the start of the iteration,
// when computation runs alone (index: layer).
std::vector<double> backward_end_times(const Workload& workload);

// Groups the workload's gradients by the strategy's grouping. `cost` is the all-reduce cost line
// t = a + b*bytes MG-WFBP merges under.
std::vector<Message> group_gradients(const Workload& workload, const Strategy& strategy,
                                     const collectives::AlphaBeta& cost);

// MG-WFBP (Shi et al., INFOCOM'19, Algorithm 1): walking the backward order, a tensor is merged
// into the message before it when its gradient is ready earlier than a after that message's
// communication could start (merging then saves a start-up a and delays nothing), or when the
// message holds fewer than `min_elements` parameters (`elements` per tensor; the released code
// merges below 8192). `ready_s` and `bytes` are per tensor in backward order; returns, per
// tensor, the index of its message.
std::vector<int> mgwfbp_merge(const std::vector<double>& ready_s, const std::vector<double>& bytes,
                              const collectives::AlphaBeta& cost, const std::vector<double>& elements = {},
                              double min_elements = 0);

// How many parts of at most `partition_bytes` a message of `bytes` is split into (1 where
// partition_bytes is 0). Throws std::length_error where the count does not fit an int.
int partition_count(double bytes, double partition_bytes);

// Splits every message into parts of at most `partition_bytes` (0: unchanged).
std::vector<Message> partition_messages(const std::vector<Message>& messages,
                                        double partition_bytes);

}  // namespace scalecast
