// Message formation for every grouping knob, MG-WFBP's merge rule, and partitioning.
// Tensors are visited in backward order: last layer first, each layer's grads in their order.
#include "sim/schedules/grouping.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "sim/types/wrap_units.h"

namespace scalecast {
namespace {

struct TensorItem {
  double bytes;
  int64_t elements;
  int layer;
  double ready_s;
};

std::vector<TensorItem> tensors_in_backward_order(const Workload& w) {
  const std::vector<double> ready = backward_end_times(w);
  std::vector<TensorItem> items;
  for (int l = static_cast<int>(w.layers.size()) - 1; l >= 0; --l)
    for (const GradTensor& g : w.layers[l].grads)
      items.push_back({static_cast<double>(g.bytes), g.elements, l, ready[l]});
  return items;
}

void add_tensor(Message& m, const TensorItem& t) {
  m.bytes += t.bytes;
  m.first_layer = m.first_layer < 0 ? t.layer : std::min(m.first_layer, t.layer);
  m.last_layer = std::max(m.last_layer, t.layer);
  ++m.tensors;
}

// Closes a bucket once it holds at least its cap; the first bucket has a smaller cap (DDP).
std::vector<Message> buckets(const std::vector<TensorItem>& items, const Strategy& s) {
  std::vector<Message> out;
  Message current;
  for (const TensorItem& t : items) {
    add_tensor(current, t);
    const double cap = out.empty() ? s.first_bucket_bytes : s.bucket_bytes;
    if (current.bytes >= cap) {
      out.push_back(current);
      current = Message{};
    }
  }
  if (current.tensors > 0) out.push_back(current);
  return out;
}

// Horovod's background loop wakes every cycle_s from the start of backward and fuses the tensors
// ready by then, up to the buffer size per message (a cycle of 0: as each tensor is ready).
std::vector<Message> fusion(const std::vector<TensorItem>& items, const Strategy& s,
                            double backward_start_s) {
  std::vector<Message> out;
  std::vector<double> ticks;             // of each message in out
  std::map<double, const TensorItem*> last_by_tick;
  Message current;
  double current_tick = 0;
  auto flush = [&] {
    if (current.tensors == 0) return;
    out.push_back(current);
    ticks.push_back(current_tick);
    current = Message{};
  };
  for (const TensorItem& t : items) {
    const double since_start = t.ready_s - backward_start_s;
    const double tick = s.cycle_s > 0
                            ? backward_start_s + s.cycle_s * std::ceil(since_start / s.cycle_s - 1e-12)
                            : t.ready_s;
    if (current.tensors > 0 && (tick != current_tick || current.bytes + t.bytes > s.bucket_bytes))
      flush();
    if (current.tensors == 0) current_tick = tick;
    add_tensor(current, t);
    last_by_tick[tick] = &t;  // items come in readiness order
  }
  flush();
  for (size_t i = 0; i < out.size(); ++i) {
    const TensorItem& anchor = *last_by_tick.at(ticks[i]);
    out[i].release_layer = anchor.layer;
    out[i].delay_s = ticks[i] - anchor.ready_s;
  }
  return out;
}

}  // namespace

std::vector<double> backward_end_times(const Workload& w) {
  std::vector<double> end(w.layers.size(), 0.0);
  double t = w.forward_s();
  for (int l = static_cast<int>(w.layers.size()) - 1; l >= 0; --l) {
    t += w.layers[l].backward_s;
    end[l] = t;
  }
  return end;
}

std::vector<int> mgwfbp_merge(const std::vector<double>& ready_s, const std::vector<double>& bytes,
                              const collectives::AlphaBeta& cost, const std::vector<double>& elements,
                              double min_elements) {
  std::vector<int> group(ready_s.size(), 0);
  if (ready_s.empty()) return group;
  int current = 0;
  double group_start = ready_s[0];  // when the current message's communication can start
  double group_bytes = bytes[0];
  double group_elements = elements.empty() ? 0 : elements[0];
  double previous_end = 0;          // end of the communication before the current message
  for (size_t i = 1; i < ready_s.size(); ++i) {
    // Merge where this tensor is ready before the message's communication could start plus a
    // (merging then saves a start-up and delays nothing), or where the message is too small to
    // go alone.
    const bool tiny = !elements.empty() && group_elements < min_elements;
    if (ready_s[i] < group_start + cost.a || tiny) {
      // Merge: the merged message starts when this tensor is ready (or as planned if later).
      group_start = std::max(group_start, ready_s[i]);
      group_bytes += bytes[i];
      if (!elements.empty()) group_elements += elements[i];
    } else {
      previous_end = group_start + cost.a + cost.b * group_bytes;
      ++current;
      group_start = std::max(ready_s[i], previous_end);
      group_bytes = bytes[i];
      if (!elements.empty()) group_elements = elements[i];
    }
    group[i] = current;
  }
  return group;
}

std::vector<Message> group_gradients(const Workload& w, const Strategy& s,
                                     const collectives::AlphaBeta& cost) {
  const std::vector<TensorItem> items = tensors_in_backward_order(w);
  std::vector<Message> out;
  switch (s.grouping) {
    case Grouping::per_tensor:
      for (const TensorItem& t : items) {
        out.emplace_back();
        add_tensor(out.back(), t);
      }
      break;
    case Grouping::single:
      out.emplace_back();
      for (const TensorItem& t : items) add_tensor(out.back(), t);
      break;
    case Grouping::bucket: out = buckets(items, s); break;
    case Grouping::unit: {
      // Items run in backward order, so a unit's tensors are consecutive.
      const std::vector<WrapUnit> units = wrap_units(w);
      std::vector<int> unit_of(w.layers.size(), 0);
      for (std::size_t u = 0; u < units.size(); ++u)
        for (int l = units[u].first_layer; l <= units[u].last_layer; ++l) unit_of[static_cast<std::size_t>(l)] = static_cast<int>(u);
      int open = -1;
      for (const TensorItem& t : items) {
        if (unit_of[static_cast<std::size_t>(t.layer)] != open) {
          out.emplace_back();
          open = unit_of[static_cast<std::size_t>(t.layer)];
        }
        add_tensor(out.back(), t);
      }
      break;
    }
    case Grouping::fusion: out = fusion(items, s, w.forward_s()); break;
    case Grouping::mgwfbp: {
      std::vector<double> ready, bytes, elements;
      for (const TensorItem& t : items) {
        ready.push_back(t.ready_s);
        bytes.push_back(t.bytes);
        elements.push_back(static_cast<double>(t.elements));
      }
      const std::vector<int> group = mgwfbp_merge(ready, bytes, cost, elements, s.mgwfbp_min_elements);
      for (size_t i = 0; i < items.size(); ++i) {
        if (static_cast<int>(out.size()) <= group[i]) out.emplace_back();
        add_tensor(out.back(), items[i]);
      }
      break;
    }
  }
  if (out.size() == 1 && out[0].tensors == 0) out.clear();
  return out;
}

int partition_count(double bytes, double partition_bytes) {
  if (partition_bytes <= 0) return 1;
  const double count = std::max(1.0, std::ceil(bytes / partition_bytes));
  // Runs are sized before they are built (sim/backends/work_estimate.h); this only guards the cast.
  if (!(count <= std::numeric_limits<int>::max()))
    throw std::length_error("a message of " + std::to_string(bytes) + " bytes in partitions of " +
                            std::to_string(partition_bytes));
  return static_cast<int>(count);
}

std::vector<Message> partition_messages(const std::vector<Message>& messages,
                                        double partition_bytes) {
  if (partition_bytes <= 0) return messages;
  std::vector<Message> out;
  for (const Message& m : messages) {
    const int parts = partition_count(m.bytes, partition_bytes);
    for (int i = 0; i < parts; ++i) {
      Message p = m;
      p.bytes = std::min(partition_bytes, m.bytes - i * partition_bytes);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace scalecast
