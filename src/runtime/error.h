// The exceptions of the host API. what() is a single line naming what went wrong and where
// (file:line for PTX problems, kernel and argument for launch problems, address for memory
// problems).
#pragma once
#include <stdexcept>
#include <string>

namespace warpsim::runtime {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A kernel that faulted, deadlocked or ran past its instruction limit. what() is the first
// line of the engine's message; details() all of it (a deadlock lists every waiting warp).
class LaunchError : public Error {
 public:
  explicit LaunchError(const std::string& engineMessage)
      : Error(engineMessage.substr(0, engineMessage.find('\n'))), details_(engineMessage) {}
  const std::string& details() const { return details_; }

 private:
  std::string details_;
};

}  // namespace warpsim::runtime
