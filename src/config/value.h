// One configuration value as the layers hold it: a TOML boolean, integer, float or string
// (arrays, dates and times are not part of the format).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace warpsim::config {

struct Value {
  enum class Kind : uint8_t { Bool, Int, Float, String };
  Kind kind = Kind::Int;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;

  static Value ofBool(bool v) { Value x; x.kind = Kind::Bool; x.b = v; return x; }
  static Value ofInt(int64_t v) { Value x; x.kind = Kind::Int; x.i = v; return x; }
  static Value ofFloat(double v) { Value x; x.kind = Kind::Float; x.f = v; return x; }
  static Value ofString(std::string v) {
    Value x;
    x.kind = Kind::String;
    x.s = std::move(v);
    return x;
  }

  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float; }
};

// The value as a TOML literal: true, 48, 1.5, 1e+300, "text" (escaped).
std::string literal(const Value& v);
std::string literal(int64_t v);
std::string literal(uint64_t v);
std::string literal(double v);
std::string literal(std::string_view v);
// "a boolean", "an integer", "a float", "a string"
const char* kindName(Value::Kind kind);

}  // namespace warpsim::config
