// Plots drawn by gnuplot: a script preamble (PNG terminal, grid, distinguishable colours),
// gnuplot's string quoting, and running one script in its folder. Used by validate and recommend.
#pragma once

#include <string>

namespace scalecast {

// Terminal (pngcairo when gnuplot has it, else png), grid and line colours; `who` names the
// command in the script's first comment.
std::string gnuplot_preamble(const std::string& who);

// A gnuplot single-quoted string.
std::string gnuplot_quoted(const std::string& text);

// Runs `gnuplot SCRIPT` in `folder`, its output in gnuplot.log there. Returns "" when it drew,
// else one line saying what went wrong (not installed, failed: see the log).
std::string run_gnuplot(const std::string& folder, const std::string& script);

}  // namespace scalecast
