// Child processes without a shell: the runs of a sweep (spawnChild) and the short SLURM
// commands whose output the sweep reads (captureOutput).
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace warpsim::sweep {

// Starts `program` with `args` (argv[1...]): stdin from /dev/null, stdout and stderr appended to
// the two files (created), in a process group of its own (a terminal's Ctrl-C reaches only the
// sweep, which then ends its runs: killGroup), with the signal mask and SIGINT/SIGTERM/SIGPIPE
// at their defaults, and killed when the sweep dies (PR_SET_PDEATHSIG). When exec fails the
// child writes why to its stderr file and exits with status 127. Throws Error when fork fails.
pid_t spawnChild(const std::string& program, const std::vector<std::string>& args,
                 const std::filesystem::path& stdoutFile, const std::filesystem::path& stderrFile);

// SIGKILL to the process group of a child started by spawnChild (its own, and what it started).
void killGroup(pid_t pid);

struct Captured {
  int waitStatus = 0;  // as waitpid reports it
  std::string out;
  std::string err;
};
// Runs `program args...` to completion, collecting stdout and stderr. Throws Error when it cannot
// be started (a missing program gives wait status 127 and a message in `err`).
Captured captureOutput(const std::string& program, const std::vector<std::string>& args);

// The executable named `name` in $PATH (or `name` itself when it contains '/'), or "" if none.
std::string findExecutable(const std::string& name);

}  // namespace warpsim::sweep
