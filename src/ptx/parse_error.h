// The one exception the PTX front end throws for bad input.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace warpsim::ptx {

// what() is a single line: "<file>:<line>: error: <message>".
class ParseError : public std::runtime_error {
 public:
  ParseError(std::string_view file, uint32_t line, std::string_view message)
      : std::runtime_error(format(file, line, message)), line_(line) {}
  uint32_t line() const { return line_; }

 private:
  static std::string format(std::string_view file, uint32_t line, std::string_view message) {
    std::string s(file);
    s += ':';
    s += std::to_string(line);
    s += ": error: ";
    s += message;
    return s;
  }
  uint32_t line_;
};

}  // namespace warpsim::ptx
