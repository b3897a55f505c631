// What an NVTX range name means to the attribution: the iteration marker, a phase range, a
// user layer range (fwd:NAME, bwd:NAME, layer:NAME), or an op range as emit_nvtx writes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace scalecast::profiler {

enum class Phase { forward, backward };

struct RangeName {
  enum class Kind {
    iteration,  // the iteration marker (default "iteration")
    phase,      // "forward" or "backward": sets the phase of everything inside
    layer,      // "fwd:NAME", "bwd:NAME" (phase given) or "layer:NAME" (phase from context)
    op,         // anything else: an operator range such as "aten::conv2d, seq = 12"
  };
  Kind kind = Kind::op;
  std::optional<Phase> phase;   // phase ranges, fwd:/bwd: layers; ops: backward for autograd nodes
  std::string label;            // layer: NAME; op: the text before the first comma
  std::optional<uint64_t> seq;  // op: emit_nvtx sequence number ("seq = N", "stashed seq=N")
};

// Classifies one range name. Autograd backward nodes ("ConvolutionBackward0, seq = 12",
// "...stashed seq=12", "autograd::engine::evaluate_function: ...", "torch::autograd::...")
// are ops with phase backward; every other op has no phase of its own.
RangeName classify_range(std::string_view name, std::string_view iteration_marker);

}  // namespace scalecast::profiler
