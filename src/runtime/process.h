// Runs an external program (ptxas) and captures what it prints.
#pragma once
#include <string>
#include <vector>

namespace warpsim::runtime {

struct ProcessResult {
  bool started = false;  // false: the program could not be executed at all
  int exitCode = -1;     // exit status, or -1 when it did not exit normally
  std::string output;    // stdout and stderr, interleaved
};

// Executes argv[0] (a path, or a name looked up in PATH) with the given arguments; no shell.
ProcessResult runProcess(const std::vector<std::string>& argv);

}  // namespace warpsim::runtime
