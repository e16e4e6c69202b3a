#include "commands/report_command.h"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include "runtime/error.h"
#include "sweep/child_process.h"
#include "sweep/out_dir.h"
#include "sweep/points_file.h"

extern char** environ;

namespace warpsim::app {

namespace fs = std::filesystem;

namespace {

// Each --baseline AXIS=VALUE names an axis of the sweep (once) and one of its values.
void checkBaselines(const std::vector<std::string>& baselines, const sweep::PointList& list) {
  std::set<std::string> seen;
  for (const std::string& given : baselines) {
    const size_t eq = given.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw runtime::Error(fmt::format("report: --baseline '{}': expected AXIS=VALUE", given));
    }
    const std::string axis = given.substr(0, eq), value = given.substr(eq + 1);
    const auto at = std::find(list.axisNames.begin(), list.axisNames.end(), axis);
    if (at == list.axisNames.end()) {
      throw runtime::Error(fmt::format("report: --baseline '{}': the sweep has no axis '{}' "
                                       "(axes: {})", given, axis, fmt::join(list.axisNames, ", ")));
    }
    if (!seen.insert(axis).second) {
      throw runtime::Error(fmt::format("report: --baseline '{}': axis '{}' given twice", given,
                                       axis));
    }
    const size_t index = static_cast<size_t>(at - list.axisNames.begin());
    std::vector<std::string> values;
    for (const sweep::Point& p : list.points) {
      if (std::find(values.begin(), values.end(), p.axes[index].text) == values.end()) {
        values.push_back(p.axes[index].text);
      }
    }
    if (std::find(values.begin(), values.end(), value) == values.end()) {
      throw runtime::Error(fmt::format("report: --baseline '{}': '{}' is not a value of axis {} "
                                       "(values: {})",
                                       given, value, axis, fmt::join(values, ", ")));
    }
  }
}

// True when `python` runs and imports what the report script needs.
bool canReport(const std::string& python) {
  const sweep::Captured c =
      sweep::captureOutput(python, {"-c", "import sys, tomllib, matplotlib"});
  return WIFEXITED(c.waitStatus) && WEXITSTATUS(c.waitStatus) == 0;
}

// WARPSIM_PYTHON when set, else the first of python3 ($PATH) and /usr/bin/python3 that can.
std::string findPython() {
  const char* chosen = std::getenv("WARPSIM_PYTHON");
  if (chosen != nullptr && *chosen != '\0') {
    const std::string path = sweep::findExecutable(chosen);
    if (path.empty()) {
      throw runtime::Error(fmt::format("report: WARPSIM_PYTHON={}: no such program", chosen));
    }
    if (!canReport(path)) {
      throw runtime::Error(fmt::format(
          "report: WARPSIM_PYTHON={}: cannot import matplotlib, or older than Python 3.11 "
          "(Debian: apt-get install python3-matplotlib)", chosen));
    }
    return path;
  }
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    const std::string path = sweep::findExecutable(candidate);
    if (!path.empty() && canReport(path)) return path;
  }
  throw runtime::Error(
      "report: no Python 3.11+ with matplotlib (tried python3 on $PATH and /usr/bin/python3; "
      "Debian: apt-get install python3-matplotlib; or set WARPSIM_PYTHON)");
}

// Runs the script with this process's stdout and stderr; its exit status (1 if a signal).
int runScript(const std::string& python, const std::vector<std::string>& args) {
  std::vector<std::string> storage{python};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ);
  if (error != 0) {
    throw runtime::Error(fmt::format("report: cannot start {}: {}", python, std::strerror(error)));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw runtime::Error("report: waitpid failed");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

int reportCommand(const ReportArgs& args) {
  const sweep::OutDir dir(args.dir);
  std::error_code ec;
  for (const fs::path& file : {dir.pointsList(), dir.spec()}) {
    if (!fs::is_regular_file(file, ec)) {
      throw runtime::Error(fmt::format("report: {} is not a sweep directory (no {})", args.dir,
                                       file.filename().string()));
    }
  }
  if (!fs::is_regular_file(dir.tableJsonl(), ec)) {
    throw runtime::Error(fmt::format("report: {} has no table.jsonl (`warpsim sweep table {}` "
                                     "writes it)", args.dir, args.dir));
  }
  checkBaselines(args.baseline, sweep::readPointList(dir.pointsList()));
  if (!args.templateFile.empty() && !fs::is_regular_file(args.templateFile, ec)) {
    throw runtime::Error(fmt::format("report: --template {}: no such file", args.templateFile));
  }
  const std::string script = WARPSIM_REPORT_SCRIPT;
  if (!fs::is_regular_file(script, ec)) {
    throw runtime::Error(fmt::format("report: the report script {} is missing", script));
  }
  const std::string python = findPython();

  // -B: no __pycache__ beside the script or the template.
  std::vector<std::string> scriptArgs{"-B", script, args.dir};
  if (!args.out.empty()) scriptArgs.insert(scriptArgs.end(), {"--out", args.out});
  if (!args.templateFile.empty()) {
    scriptArgs.insert(scriptArgs.end(), {"--template", args.templateFile});
  }
  for (const std::string& b : args.baseline) scriptArgs.insert(scriptArgs.end(), {"--baseline", b});
  return runScript(python, scriptArgs);
}

}  // namespace warpsim::app
