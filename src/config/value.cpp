#include "config/value.h"

#include <cmath>
#include <fmt/format.h>

namespace warpsim::config {

std::string literal(int64_t v) { return std::to_string(v); }
std::string literal(uint64_t v) { return std::to_string(v); }

std::string literal(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  // Shortest text that reads back as the same double; TOML floats need a '.' or an exponent.
  std::string text = fmt::format("{}", v);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

std::string literal(std::string_view v) {
  std::string out = "\"";
  for (char c : v) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string literal(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Bool: return v.b ? "true" : "false";
    case Value::Kind::Int: return literal(v.i);
    case Value::Kind::Float: return literal(v.f);
    case Value::Kind::String: return literal(std::string_view(v.s));
  }
  return "";
}

const char* kindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::Int: return "an integer";
    case Value::Kind::Float: return "a float";
    case Value::Kind::String: return "a string";
  }
  return "a value";
}

}  // namespace warpsim::config
