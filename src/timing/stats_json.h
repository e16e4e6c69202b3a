// Small helpers for the statistics trees components report as JSON.
#pragma once
#include <cstdint>
#include <initializer_list>

#include <nlohmann/json.hpp>

namespace warpsim::timing {

// The number at `path` in `tree` (objects only), 0 when absent or not a number.
uint64_t counter(const nlohmann::json& tree, std::initializer_list<const char*> path);

// Adds `part` into `sum`: numbers add (unsigned stays unsigned; any floating-point operand makes
// a float), objects merge key by key, arrays add element-wise (growing as needed); strings and
// booleans keep the first value seen. Used for per-SM totals and per-run totals.
void addInto(nlohmann::json& sum, const nlohmann::json& part);

// num / den, 0 when den is 0.
inline double ratio(uint64_t num, uint64_t den) {
  return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

}  // namespace warpsim::timing
