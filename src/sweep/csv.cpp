#include "sweep/csv.h"

#include <fmt/format.h>

#include <cmath>

namespace warpsim::sweep {

std::string csvField(std::string_view text) {
  const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csvRow(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) out += ',';
    out += csvField(fields[i]);
  }
  return out + "\n";
}

std::string formatNumber(double value) {
  if (!std::isfinite(value)) return "";
  return fmt::format("{}", value);
}

std::string cellText(const nlohmann::ordered_json& value) {
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::null: return "";
    case nlohmann::ordered_json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case nlohmann::ordered_json::value_t::number_integer:
      return std::to_string(value.get<int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned:
      return std::to_string(value.get<uint64_t>());
    case nlohmann::ordered_json::value_t::number_float: return formatNumber(value.get<double>());
    case nlohmann::ordered_json::value_t::string: return value.get<std::string>();
    default: return value.dump();
  }
}

}  // namespace warpsim::sweep
