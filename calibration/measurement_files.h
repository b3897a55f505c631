// Which measurement a file holds, told from its content: an execute sweep CSV, nccl-tests output,
// an execute timeline, or a measured throughput table in the validation format; and the
// collectives the first three measured, as samples a fit predicts on a cluster.
#pragma once

#include <string>
#include <vector>

#include "calibration/collective_sample.h"
#include "calibration/transport_fit.h"

namespace scalecast::calibration {

enum class MeasurementFormat { sweep_csv, nccl_tests, timeline, throughput_table };
std::string to_string(MeasurementFormat format);

// Throws an InputError naming the file when it is none of the formats.
MeasurementFormat detect_format(const std::string& path);

// The collectives of a sweep, nccl-tests or timeline file; throws an InputError for a bad one. An
// nccl-tests output without device lines ran on `gpus` of `cluster` (calibrate --gpus).
std::vector<CollectiveSample> read_collective_samples(const std::string& path, MeasurementFormat format,
                                                      const Cluster* cluster = nullptr, int gpus = 0);

// A collective as a fit predicts it on the cluster resized to the sample's nodes and GPUs per
// node: where NCCL ran it and chooses the algorithm, NCCL's model under `nccl` (the scenario's
// settings), the one `collective` and training use; else the closed form of its algorithm.
FitSample fit_sample(const CollectiveSample& sample, const collectives::nccl::NcclSettings& nccl = {});

}  // namespace scalecast::calibration
