// The one exception of the sweep engine: what() is a single line, "SPEC:LINE: error: ..." when a
// spec file is at fault, else "sweep: ..." (apps/warpsim prints it as "warpsim: error: sweep: ...").
#pragma once
#include <stdexcept>
#include <string>

namespace warpsim::sweep {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace warpsim::sweep
