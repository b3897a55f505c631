// The declared calibration subset and the per-network fit: the transport constants of a (table,
// network) are fitted to its bsp-allreduce and bsp-ps rows only; every other row is held out.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "calibration/transport_fit.h"
#include "sim/backends/backend.h"
#include "validation/cases.h"
#include "validation/measurements.h"

namespace scalecast::validation {

// The methods whose rows calibrate a network: bsp-allreduce and bsp-ps.
const std::vector<std::string>& calibration_methods();
bool is_calibration_row(const MeasuredRow& row);

struct GroupFit {
  std::string table, network;
  std::vector<std::size_t> rows;  // the fitted rows (indices into the measured rows)
  bool fitted = false;
  std::string reason;  // why there is no fit
  calibration::TransportFit fit;
};

// The (table, network) pairs in the order their rows appear.
std::vector<std::pair<std::string, std::string>> networks(const std::vector<MeasuredRow>& rows);
// Indices of the expressible calibration rows of one (table, network).
std::vector<std::size_t> calibration_rows(const std::vector<MeasuredRow>& rows,
                                          const std::vector<Case>& cases, const std::string& table,
                                          const std::string& network);
// A measured row as a fit sample: its iteration time (GPUs x batch / throughput), predicted with
// the row's own scenario whose transport takes the fit's parameters.
calibration::FitSample throughput_sample(const MeasuredRow& row, const Case& c,
                                         const std::vector<calibration::Parameter>& parameters,
                                         const Backend& backend);
// One (table, network) before its fit: its calibration rows, the base cluster (fit.cluster) and
// the constants a fit may move (fit.parameters); without calibration rows, the reason.
GroupFit plan_group(const std::vector<MeasuredRow>& rows, const std::vector<Case>& cases, const std::string& table,
                    const std::string& network);
// Fits the constants of one (table, network) to its calibration rows and to nothing else; a
// network without calibration rows comes back unfitted, with the reason.
GroupFit fit_group(const std::vector<MeasuredRow>& rows, const std::vector<Case>& cases,
                   const std::string& table, const std::string& network, const Backend& backend);

}  // namespace scalecast::validation
