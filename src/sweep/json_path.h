// A path into a statistics JSON document: names separated by dots, array elements by index
// ("totals.cycles", "kernels.0.cycles", "kernels[0].cycles", "kernels[-1].name": negative
// indices count from the end).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::sweep {

class JsonPath {
 public:
  JsonPath() = default;
  // Throws std::invalid_argument saying what is wrong ("empty name after 'a.'").
  static JsonPath parse(std::string_view text);

  // The value at the path, or nullptr when a name or an index is absent. A step "0" is an
  // index into an array and a name in an object.
  const nlohmann::json* find(const nlohmann::json& document) const;
  const std::string& text() const { return text_; }

 private:
  struct Step {
    std::string name;     // for objects (the digits of an index too)
    bool isIndex = false; // digits, possibly negative: also an array index
    int64_t index = 0;
  };
  std::string text_;
  std::vector<Step> steps_;
};

}  // namespace warpsim::sweep
