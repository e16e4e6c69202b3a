// Independent tasks in child processes, several at a time, reported in their own order: what
// `warpsim run --all --jobs N` runs the suite with.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace warpsim::app {

struct ForkedResult {
  std::string result;  // what the task returned
  std::string output;  // what the child printed on stdout and stderr, interleaved
  int waitStatus = 0;  // as waitpid reports it
  bool returned = false;  // the task returned (the child neither threw nor died first)
};

// Runs task(i) for every i below `count`, each in a child process forked from this one, at most
// `jobs` at a time, and calls report(i, result) in the order of i, each as soon as it and every
// earlier task have ended. A task that throws ends its child with status 1 (the message in
// `output`); a child that dies (a signal) reports returned = false. Throws runtime::Error when
// a process or pipe cannot be created. Call it before the process starts any thread.
void runForked(size_t count, unsigned jobs, const std::function<std::string(size_t)>& task,
               const std::function<void(size_t, const ForkedResult&)>& report);

}  // namespace warpsim::app
