// JSON form of launch reports (the fields are documented in docs/stats.md).
#pragma once
#include <nlohmann/json.hpp>

#include "runtime/launch_report.h"

namespace warpsim::runtime {

nlohmann::json toJson(const ResourceUsage& usage);
nlohmann::json toJson(const KernelStats& stats);
nlohmann::json toJson(const LaunchReport& report);

}  // namespace warpsim::runtime
