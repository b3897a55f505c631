// NCCL's environment as a scenario states it (strategy.nccl_*): which algorithms and protocols
// may run (NCCL_ALGO, NCCL_PROTO with NCCL's own syntax), NVLink SHARP, channel bounds, chunk
// and buffer sizes; defaults are NCCL 2.27's.
#pragma once

#include <array>
#include <string>

#include "sim/types/nccl_tables.h"

namespace scalecast::collectives::nccl {

enum class Func { broadcast = 0, reduce = 1, all_gather = 2, reduce_scatter = 3, all_reduce = 4 };
inline constexpr int kFuncs = 5;
const char* name(Func f);  // "broadcast", "reduce", "allgather", "reducescatter", "allreduce"

// What NCCL_ALGO or NCCL_PROTO enables, per function: "ring,tree", "^ll128" (all but),
// "allreduce:tree;allgather:ring" (per function, others unchanged). Empty text enables all.
struct Enabled {
  std::array<std::array<bool, kAlgos>, kFuncs> algo{};
  std::array<std::array<bool, kProtos>, kFuncs> proto{};
};

// What scalecast accepts for NCCL's chunk and buffer sizes, in bytes.
inline constexpr double kMinChunk = 4096, kMaxChunk = 64 * 1048576.0;
inline constexpr double kMinBuffSize = 65536, kMaxBuffSize = 1073741824;

// NCCL releases as NCCL_VERSION_CODE numbers them (major x 10000 + minor x 100 + patch): the
// model knows 2.4.8 (its first with trees) to 2.27.7; what changed between them is in
// docs/MODEL.md, "NCCL's version".
inline constexpr int kNcclOldest = 20408, kNcclNewest = 22707;

struct NcclSettings {
  int version = kNcclNewest;     // strategy.nccl_version
  std::string algo;              // NCCL_ALGO ("": NCCL's choice)
  std::string proto;             // NCCL_PROTO
  bool nvls = true;              // NCCL_NVLS_ENABLE (NVLink SHARP where the NVSwitch has it)
  int min_channels = 0;          // NCCL_MIN_NCHANNELS (0: NCCL's)
  int max_channels = 0;          // NCCL_MAX_NCHANNELS (0: NCCL's)
  double nvls_chunk = kNvlsChunk;     // NCCL_NVLS_CHUNKSIZE, bytes
  double nvls_tree_chunk = 0;         // NCCL_NVLSTREE_MAX_CHUNKSIZE (0: NCCL's)
  double buffsize = kBuffSize;        // NCCL_BUFFSIZE, bytes
  // Not an NCCL setting: whether the prediction counts the fill of NCCL's pipelines (the tree's,
  // NVLink SHARP's; switch: nccl-pipeline-fill), for an ablation.
  bool pipeline_fill = true;
};

// Parses both masks; throws an InputError naming what is unknown in them.
Enabled enabled(const NcclSettings& s);
// Checks one mask's syntax (`what`: "algorithms" or "protocols"); throws an InputError.
void check_mask(const std::string& text, bool algorithms);
// Whether check_mask accepts the text, for readers that name the syntax in their own error.
bool valid_mask(const std::string& text, bool algorithms);
// What a mask must look like, for an input error: "NCCL_ALGO's syntax (e.g. ring,tree or ^nvls)".
const char* mask_syntax(bool algorithms);

// "2.4.8" -> 20408; 0 for text that is not MAJOR.MINOR.PATCH within the versions the model
// knows. And back: 20408 -> "2.4.8".
int parse_nccl_version(const std::string& text);
std::string nccl_version_text(int version);
// What nccl_version accepts, for an input error.
std::string nccl_version_syntax();
// NCCL's MAXCHANNELS at a version: 16 before 2.5, 32 to 2.24, 64 from 2.25.
int max_channels(int version);

}  // namespace scalecast::collectives::nccl
