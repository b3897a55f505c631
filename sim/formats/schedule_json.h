// The schedule as JSON, the file the simulator and the real executor both run. Reading checks
// the format version, every field and every dependency, so a corrupt file is refused whole.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/types/schedule.h"

namespace scalecast {

inline constexpr int kScheduleFormatVersion = 3;  // 2: algorithm on all-reduce tasks only;
                                                 // 3: NICs, node GPUs, CPU, fabric flags

nlohmann::ordered_json schedule_to_json(const Schedule& schedule);
Schedule schedule_from_json(const nlohmann::json& json, const std::string& source);
Schedule read_schedule_file(const std::string& path);

}  // namespace scalecast
