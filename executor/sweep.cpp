// The sweep: per size, a barrier, untimed warm-up iterations, then timed iterations of the
// expansion the simulator uses (or the library's own all-reduce); rank 0 reports the slowest
// rank's mean with nccl-tests' bandwidth figures.
#include "executor/sweep.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fmt/format.h>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "executor/rank_plan.h"
#include "executor/transports.h"
#include "executor/world.h"
#include "sim/collectives/allreduce_algorithm.h"
#include "sim/io/input_error.h"
#include "sim/report/text_table.h"
#include "sim/io/units.h"

namespace scalecast::executor {
namespace {

collectives::Expansion expansion(const SweepOptions& o, int ranks, double bytes) {
  if (o.op == SweepOp::sendrecv) {
    collectives::Expansion e;
    e.steps.emplace_back();
    for (int r = 0; r < ranks; ++r) e.steps.back().push_back({r, (r + 1) % ranks, bytes});
    return e;
  }
  return o.algorithm->expand(ranks, 1, bytes);  // one rank per host
}

}  // namespace

int sweep_iterations(const SweepOptions& o, double bytes) {
  if (o.max_iterations <= o.iterations || !(bytes > 0)) return o.iterations;
  const double calls = std::ceil(o.iterations * 1048576.0 / bytes);
  return static_cast<int>(std::clamp(calls, static_cast<double>(o.iterations), static_cast<double>(o.max_iterations)));
}

std::vector<double> sweep_sizes(const SweepOptions& o) {
  if (!(o.min_bytes >= 1) || !(o.max_bytes >= o.min_bytes))
    throw InputError("sweep sizes: expected MIN:MAX with 1 B <= MIN <= MAX");
  if (!(o.factor > 1)) throw InputError("sweep sizes: the step factor must be above 1");
  std::vector<double> sizes;
  for (double b = o.min_bytes; b <= o.max_bytes * (1 + 1e-12); b *= o.factor) {
    const double bytes = o.op == SweepOp::allreduce ? std::max(4.0, 4 * std::round(b / 4)) : std::round(b);
    if (sizes.empty() || bytes > sizes.back()) sizes.push_back(bytes);
  }
  return sizes;
}

std::pair<double, double> parse_size_range(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw InputError("--sweep: expected MIN:MAX, e.g. 1KB:256MB");
  return {units::parse_bytes(text.substr(0, colon)), units::parse_bytes(text.substr(colon + 1))};
}

std::optional<SweepResult> sweep_rank(const SweepOptions& o, const LaunchEnv& env) {
  std::signal(SIGPIPE, SIG_IGN);
  const std::vector<double> sizes = sweep_sizes(o);
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  World world(env, timeout, "scalecast execute --sweep");
  if (env.world_size < 2) world.abort("a sweep needs at least 2 ranks", 2);
  std::vector<double> times;
  try {
    world.arrive();
    world.agree("sweep", to_string(o.op) + " " + std::string(o.algorithm->name) + (o.reference ? " reference " : " ") +
                             o.transport + " " + std::to_string(sizes.size()) + " " + std::to_string(sizes.back()) +
                             " " + std::to_string(o.warmup) + "x" + std::to_string(o.iterations) + "-" +
                             std::to_string(o.max_iterations));
  } catch (const InputError& e) {
    world.abort(e.what(), 2);
  } catch (const std::exception& e) {
    world.abort(e.what(), 1);
  }
  std::unique_ptr<Transport> transport;
  try {
    transport = make_transport(o.transport, {env.rank, env.world_size, &world.store(), env.master_addr,
                                             env.master_port, timeout});
  } catch (const InputError& e) {
    world.abort(e.what(), 2);
  } catch (const std::exception& e) {
    world.abort(e.what(), 1);
  }
  std::vector<double> max_times(sizes.size(), 0);
  try {
    transport->start_clock();
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto steps = rank_steps(expansion(o, env.world_size, sizes[i]), env.rank, static_cast<int>(i));
      auto once = [&]() -> Interval {
        if (o.reference && o.op == SweepOp::allreduce)
          return transport->collective(CommOp::allreduce, o.algorithm, static_cast<std::size_t>(sizes[i]));
        Interval span{};
        for (std::size_t k = 0; k < steps.size(); ++k) {
          const Interval step = transport->exchange(steps[k], {});
          if (k == 0) span.start_s = step.start_s;
          span.end_s = step.end_s;
        }
        return span;
      };
      world.barrier("size" + std::to_string(i));
      for (int w = 0; w < o.warmup; ++w) once();
      double start = 0, end = 0;
      const int iterations = sweep_iterations(o, sizes[i]);
      for (int it = 0; it < iterations; ++it) {
        const Interval span = once();
        if (it == 0) start = span.start_s;
        end = span.end_s;
      }
      times.push_back((end - start) / iterations);
    }
    for (const auto& text : world.gather("times", nlohmann::json(times).dump())) {
      const auto rank_times = nlohmann::json::parse(text).get<std::vector<double>>();
      for (std::size_t i = 0; i < sizes.size(); ++i) max_times[i] = std::max(max_times[i], rank_times.at(i));
    }
    world.finish();
  } catch (const std::exception& e) {
    world.abort(e.what(), 1);
  }
  if (env.rank != 0) return std::nullopt;
  SweepResult result{o, env.world_size, {}};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const double t = std::max(max_times[i], 1e-9);
    result.rows.push_back({sizes[i], t, algbw(sizes[i], t), busbw(o.op, env.world_size, sizes[i], t)});
  }
  return result;
}

void write_sweep_table(std::ostream& out, const SweepResult& r) {
  const bool predicted = std::any_of(r.rows.begin(), r.rows.end(), [](const SweepRow& x) { return x.predicted_s >= 0; });
  std::vector<std::string> names = {"size", "time", "algbw", "busbw"}, unit_row = {"B", "us", "GB/s", "GB/s"};
  if (predicted) {
    names.insert(names.end(), {"predicted", "error"});
    unit_row.insert(unit_row.end(), {"us", "%"});
  }
  TextTable t(names, unit_row);
  for (const SweepRow& x : r.rows) {
    std::vector<std::string> cells = {fmt::format("{:.0f}", x.bytes), fmt::format("{:.1f}", x.time_s * 1e6),
                                      fmt::format("{:.3f}", x.algbw / units::kGBps),
                                      fmt::format("{:.3f}", x.busbw / units::kGBps)};
    if (predicted) {
      cells.push_back(x.predicted_s >= 0 ? fmt::format("{:.1f}", x.predicted_s * 1e6) : "-");
      cells.push_back(x.predicted_s >= 0 ? fmt::format("{:+.1f}", 100 * (x.predicted_s - x.time_s) / x.time_s) : "-");
    }
    t.add_row(cells);
  }
  out << "# " << to_string(r.options.op) << " on " << r.ranks << " ranks over " << r.options.transport
      << (r.options.op == SweepOp::sendrecv ? ""
          : r.options.reference             ? ", the library's own all-reduce"
                                            : ", " + std::string(r.options.algorithm->name) + " expansion")
      << "; time: mean of " << r.options.iterations << " iterations on the slowest rank\n";
  t.write(out);
  out << "# " << algbw_formula() << "; " << busbw_formula(r.options.op) << " (n = " << r.ranks
      << " ranks); GB/s = 1e9 B/s";
  if (predicted) out << "; error = (predicted - time) / time";
  out << '\n';
}

void write_sweep_csv(std::ostream& out, const SweepResult& r) {
  out << "op,ranks,transport,implementation,bytes,time_s,algbw_GBps,busbw_GBps,predicted_s\n";
  const std::string impl = r.options.op == SweepOp::sendrecv ? "p2p"
                           : r.options.reference           ? "library"
                                                           : std::string(r.options.algorithm->name);
  for (const SweepRow& x : r.rows)
    out << to_string(r.options.op) << ',' << r.ranks << ',' << r.options.transport << ',' << impl << ','
        << fmt::format("{:.0f}", x.bytes) << ',' << fmt::format("{:.9f}", x.time_s) << ','
        << fmt::format("{:.6f}", x.algbw / units::kGBps) << ','
        << fmt::format("{:.6f}", x.busbw / units::kGBps) << ','
        << (x.predicted_s >= 0 ? fmt::format("{:.9f}", x.predicted_s) : std::string()) << '\n';
}

}  // namespace scalecast::executor
