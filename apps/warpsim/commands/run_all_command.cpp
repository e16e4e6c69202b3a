#include <fmt/format.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "commands/commands.h"
#include "commands/forked_runs.h"
#include "commands/run_one.h"
#include "runtime/error.h"

namespace warpsim::app {

namespace {

// One workload's line of `run --all`, whether it passed and its wall time.
struct WorkloadLine {
  bool passed = false;
  double wallSeconds = 0.0;
  std::string text;
};

WorkloadLine runAndFormat(const workloads::Workload& w, const RunArgs& args) {
  // A workload that throws (a launch error, a bad size) fails; the others still run.
  try {
    const RunSummary summary = runOne(w, args);
    return {summary.outcome.passed, summary.wallSeconds, formatLine(summary)};
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return {false, 0.0, fmt::format("FAIL {:<15} error: {}\n", w.name, what.substr(0, what.find('\n')))};
  }
}

// A line as a child process sends it back: "<passed> <wall seconds>\n<text>".
std::string encode(const WorkloadLine& l) {
  return fmt::format("{} {:.17g}\n{}", l.passed ? 1 : 0, l.wallSeconds, l.text);
}

WorkloadLine decode(const std::string& s) {
  WorkloadLine l;
  const size_t eol = s.find('\n');
  l.passed = s.rfind("1 ", 0) == 0;
  l.wallSeconds = std::strtod(s.c_str() + 2, nullptr);
  l.text = eol == std::string::npos ? std::string() : s.substr(eol + 1);
  return l;
}

// The line of a workload whose process ended without a result.
WorkloadLine died(const std::string& name, const ForkedResult& r) {
  std::string why;
  if (WIFSIGNALED(r.waitStatus)) {
    why = fmt::format("its process was killed by signal {} ({})", WTERMSIG(r.waitStatus),
                      strsignal(WTERMSIG(r.waitStatus)));
  } else {
    why = fmt::format("its process exited with status {}", WEXITSTATUS(r.waitStatus));
  }
  return {false, 0.0, fmt::format("FAIL {:<15} error: {}\n", name, why)};
}

}  // namespace

int runAllWorkloads(const RunArgs& args) {
  checkMode(args.mode);
  if (!args.workload.empty()) {
    throw runtime::Error(fmt::format("run: --all runs every workload; drop '{}'", args.workload));
  }
  if (args.threadsPerBlock != 0 || args.sharedPerBlock != 0 || args.tileBytes != 0) {
    throw runtime::Error(fmt::format(
        "run: {} needs a workload, not --all (each workload accepts its own values; warpsim list "
        "--specs)",
        args.threadsPerBlock != 0 ? "--threads-per-block"
                                  : (args.sharedPerBlock != 0 ? "--shared-per-block" : "--tile-bytes")));
  }
  if (!args.statsFile.empty()) {
    throw runtime::Error("run: --stats writes one workload's statistics; it needs a workload, "
                         "not --all");
  }
  const std::vector<workloads::Workload> all = workloads::allWorkloads();
  const auto start = std::chrono::steady_clock::now();
  size_t passed = 0;
  double wall = 0.0;
  auto count = [&](const WorkloadLine& l) {
    if (l.passed) ++passed;
    wall += l.wallSeconds;
    fmt::print("{}", l.text);
    std::fflush(stdout);
  };
  if (args.jobs <= 1) {
    for (const workloads::Workload& w : all) count(runAndFormat(w, args));
  } else {
    // Several children would each draw a progress line on the terminal: none.
    RunArgs quiet = args;
    quiet.quiet = true;
    runForked(
        all.size(), args.jobs, [&](size_t i) { return encode(runAndFormat(all[i], quiet)); },
        [&](size_t i, const ForkedResult& r) {
          if (!r.output.empty()) fmt::print(stderr, "{}", r.output);
          count(r.returned ? decode(r.result) : died(all[i].name, r));
        });
  }
  fmt::print("{} of {} workloads passed (size {}, {} mode), {:.1f} s", passed, all.size(), args.size,
             args.mode, wall);
  if (args.jobs > 1) {
    fmt::print(" in {} processes, {:.1f} s elapsed", args.jobs,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  fmt::print("\n");
  return passed == all.size() ? 0 : 3;
}

}  // namespace warpsim::app
