// MAPE, worst rows and ranking agreement: one formula each, as documented in metrics.h and in
// validation/data/README.md.
#include "validation/metrics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace scalecast::validation {

double error_pct(const Point& p) { return 100.0 * (p.predicted - p.measured) / p.measured; }

ErrorSummary summarize(const std::vector<Point>& points) {
  ErrorSummary s;
  double sum = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double e = error_pct(points[i]);
    sum += std::abs(e);
    if (s.rows == 0 || std::abs(e) > std::abs(s.worst_error_pct)) {
      s.worst = i;
      s.worst_error_pct = e;
    }
    ++s.rows;
  }
  s.mape = s.rows > 0 ? sum / static_cast<double>(s.rows) : 0;
  return s;
}

std::vector<GroupError> group_errors(const std::vector<Point>& points, const std::string& column) {
  auto key_of = [&](const Point& p) -> std::string {
    if (column == "table") return p.table;
    if (column == "network") return p.network;
    if (column == "model") return p.model;
    if (column == "method") return p.method;
    throw std::logic_error("group_errors: unknown column '" + column + "'");
  };
  std::vector<GroupError> out;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string key = key_of(points[i]);
    auto it = std::find_if(out.begin(), out.end(), [&](const GroupError& g) {
      return g.table == points[i].table && g.key == key;
    });
    if (it == out.end()) {
      out.push_back({points[i].table, key, {}});
      members.emplace_back();
      it = out.end() - 1;
    }
    members[static_cast<std::size_t>(it - out.begin())].push_back(i);
  }
  for (std::size_t g = 0; g < out.size(); ++g) {
    std::vector<Point> subset;
    for (std::size_t i : members[g]) subset.push_back(points[i]);
    out[g].summary = summarize(subset);
    out[g].summary.worst = members[g][out[g].summary.worst];
  }
  return out;
}

std::vector<RankingGroup> ranking_groups(const std::vector<Point>& points) {
  std::vector<RankingGroup> out;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    auto it = std::find_if(out.begin(), out.end(), [&](const RankingGroup& g) {
      return g.table == p.table && g.model == p.model && g.network == p.network && g.gpus == p.gpus;
    });
    if (it == out.end()) {
      out.push_back({p.table, p.model, p.network, p.gpus, 0, 0, 0});
      members.emplace_back();
      it = out.end() - 1;
    }
    members[static_cast<std::size_t>(it - out.begin())].push_back(i);
  }
  for (std::size_t g = 0; g < out.size(); ++g) {
    const auto& m = members[g];
    for (std::size_t a = 0; a < m.size(); ++a) {
      for (std::size_t b = a + 1; b < m.size(); ++b) {
        const Point& x = points[m[a]];
        const Point& y = points[m[b]];
        const double spread = std::max(0.0, x.stddev) + std::max(0.0, y.stddev);
        if (std::abs(x.measured - y.measured) <= spread) {
          ++out[g].skipped;
          continue;
        }
        ++out[g].pairs;
        const bool measured_x_faster = x.measured > y.measured;
        // Predictions equal to 1e-9 (relative) are a tie: floating-point noise orders nothing.
        const double tie = 1e-9 * std::max(std::abs(x.predicted), std::abs(y.predicted));
        if (std::abs(x.predicted - y.predicted) > tie &&
            (x.predicted > y.predicted) == measured_x_faster)
          ++out[g].agree;
      }
    }
  }
  return out;
}

RankingTotal ranking_total(const std::vector<RankingGroup>& groups) {
  RankingTotal t;
  for (const auto& g : groups) {
    t.pairs += g.pairs;
    t.agree += g.agree;
    t.skipped += g.skipped;
  }
  return t;
}

}  // namespace scalecast::validation
