#include "timing/stats_json.h"

namespace warpsim::timing {

uint64_t counter(const nlohmann::json& tree, std::initializer_list<const char*> path) {
  const nlohmann::json* node = &tree;
  for (const char* key : path) {
    if (!node->is_object()) return 0;
    auto it = node->find(key);
    if (it == node->end()) return 0;
    node = &*it;
  }
  if (node->is_number_unsigned()) return node->get<uint64_t>();
  if (node->is_number_integer()) return static_cast<uint64_t>(std::max<int64_t>(0, node->get<int64_t>()));
  if (node->is_number_float()) return static_cast<uint64_t>(std::max(0.0, node->get<double>()));
  return 0;
}

void addInto(nlohmann::json& sum, const nlohmann::json& part) {
  if (sum.is_null()) {
    sum = part;
    return;
  }
  if (sum.is_object() && part.is_object()) {
    for (auto it = part.begin(); it != part.end(); ++it) addInto(sum[it.key()], it.value());
    return;
  }
  if (sum.is_array() && part.is_array()) {
    for (size_t i = 0; i < part.size(); ++i) {
      if (i < sum.size()) {
        addInto(sum[i], part[i]);
      } else {
        sum.push_back(part[i]);
      }
    }
    return;
  }
  if (sum.is_number() && part.is_number()) {
    if (sum.is_number_float() || part.is_number_float()) {
      sum = sum.get<double>() + part.get<double>();
    } else if (sum.is_number_unsigned() && part.is_number_unsigned()) {
      sum = sum.get<uint64_t>() + part.get<uint64_t>();
    } else {
      sum = sum.get<int64_t>() + part.get<int64_t>();
    }
  }
}

}  // namespace warpsim::timing
