// gnuplot scripts' common head and quoting, and gnuplot started without a shell in the folder
// that holds the script and its data.
#include "sim/report/gnuplot.h"

#include <filesystem>

#include "sim/io/run_program.h"

namespace scalecast {

std::string gnuplot_preamble(const std::string& who) {
  return "# Drawn by " + who + "; run `gnuplot plots.gp` in this folder to redraw.\n"
         "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
         "  set terminal pngcairo size 960,640 noenhanced font ',10'\n"
         "} else {\n"
         "  set terminal png size 960,640 noenhanced\n"
         "}\n"
         "set grid\n"
         "# Tableau 10: distinguishable on white, unlike the default yellow.\n"
         "set linetype 1 lc rgb '#4e79a7'\nset linetype 2 lc rgb '#f28e2b'\n"
         "set linetype 3 lc rgb '#e15759'\nset linetype 4 lc rgb '#76b7b2'\n"
         "set linetype 5 lc rgb '#59a14f'\nset linetype 6 lc rgb '#b07aa1'\n"
         "set linetype 7 lc rgb '#9c755f'\nset linetype 8 lc rgb '#bab0ac'\n";
}

std::string gnuplot_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string run_gnuplot(const std::string& folder, const std::string& script) {
  const std::string log = (std::filesystem::path(folder) / "gnuplot.log").string();
  const int status = run_program({{"gnuplot", script}, {}, folder, log});
  if (status < 0) return "gnuplot is not installed: the data files and " + script + " are written, no PNGs";
  if (status != 0) return "gnuplot failed (see " + log + ")";
  return "";
}

}  // namespace scalecast
