// NCCL's own units, GB/s (1e9 B/s) and microseconds, as its tuning tables and topology search
// count: the one place scalecast's rates and times turn into them and back.
#pragma once

#include "sim/types/quantities.h"

namespace scalecast::collectives::nccl {

constexpr double gb_per_s(Rate r) { return r.bytes_per_s() / 1e9; }
constexpr double microseconds(Seconds t) { return t.s() * 1e6; }
constexpr Seconds from_microseconds(double us) { return Seconds(us * 1e-6); }

}  // namespace scalecast::collectives::nccl
