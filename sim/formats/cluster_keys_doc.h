// The reference of the cluster's fabric, network and parameter-server keys (docs/CLUSTER_KEYS.md),
// written from the field tables so the documentation cannot drift from what the readers take.
#pragma once

#include <string>

namespace scalecast {

// The whole Markdown file: one table per block, each key's schedule key, unit, range, defaults,
// whether calibration fits it, and its meaning.
std::string cluster_keys_markdown();

}  // namespace scalecast
