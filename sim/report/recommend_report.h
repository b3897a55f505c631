// What recommend prints: the configurations ranked by the objective (table, CSV, JSON), the best
// per network, the Pareto front of throughput against cost per sample, and its gnuplot plot.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/recommend/search.h"

namespace scalecast {

// The header's prices: each GPU's price per hour and the entry (or scenario key) it comes from
// with its date, the network options' and a dedicated server's; or what lacks a price.
void write_recommend_prices(std::ostream& out, const recommend::Search& search);
// The first `top` outcomes (0: all) as a table with a units row.
void write_recommend_table(std::ostream& out, const recommend::Search& search,
                           const std::vector<recommend::Outcome>& ranked, std::size_t top);
// The best of each (GPU count, network option), and the Pareto front (fastest first), as tables.
void write_recommend_summary(std::ostream& out, const recommend::Search& search,
                             const std::vector<recommend::Outcome>& ranked);
// Every outcome, ranked: rank, pareto, network, servers, prices, then the prediction's columns.
void write_recommend_csv(std::ostream& out, const std::vector<recommend::Outcome>& ranked);
void write_recommend_json(std::ostream& out, const recommend::Search& search,
                          const std::vector<recommend::Outcome>& ranked);

// Writes PNG_PATH's data (.dat) and script (.gp) beside it and draws it with gnuplot: every
// configuration as a point (throughput, cost per million samples) by method, the front as a
// line. Returns "" when drawn, else what went wrong.
std::string plot_recommend(const std::string& png_path, const recommend::Search& search,
                           const std::vector<recommend::Outcome>& ranked);

}  // namespace scalecast
