#include "commands/sweep_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "config/config.h"
#include "runtime/error.h"
#include "sweep/out_dir.h"
#include "sweep/spec_parser.h"
#include "sweep/sweep_run.h"
#include "sweep/sweep_tools.h"
#include "workloads/workload.h"

namespace warpsim::app {

namespace fs = std::filesystem;

namespace {

// "" when `name` names a configuration (or overlay) that `--config` (`--overlay`) would find,
// else what is wrong; the rules are config.h's.
std::string checkConfigName(const std::string& name, bool overlay) {
  std::error_code ec;
  const bool path = name.find('/') != std::string::npos ||
                    (name.size() >= 5 && name.substr(name.size() - 5) == ".toml");
  if (path) return fs::is_regular_file(name, ec) ? "" : "no such file";
  for (const std::string& dir : config::Tree::searchPath(overlay)) {
    if (fs::is_regular_file(fs::path(dir) / (name + ".toml"), ec)) return "";
  }
  std::string known;
  for (const auto& [bundled, description] : config::Tree::listBundled(overlay)) {
    known += (known.empty() ? "" : ", ") + bundled;
  }
  return fmt::format("no {} of that name (bundled: {})", overlay ? "overlay" : "configuration",
                     known);
}

sweep::SpecContext specContext() {
  sweep::SpecContext context;
  for (const workloads::Workload& w : workloads::allWorkloads()) context.workloads.push_back(w.name);
  context.checkConfig = checkConfigName;
  return context;
}

// The simulator every point runs: this very binary.
std::string selfPath() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw runtime::Error("sweep: cannot find this program's path (/proc/self/exe)");
  return self.string();
}

void requireDir(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(sweep::OutDir(dir).pointsList(), ec)) {
    throw runtime::Error(fmt::format("sweep: {} is not a sweep directory (no points.jsonl)", dir));
  }
}

}  // namespace

int runSweepCommand(const SweepArgs& args) {
  if (args.out.empty() && !args.dryRun) {
    throw runtime::Error("sweep: --out DIR is required (where the results go)");
  }
  if (args.executor != "local" && args.executor != "slurm") {
    throw runtime::Error(fmt::format("sweep: --executor '{}' is unknown (local, slurm)",
                                     args.executor));
  }
  const sweep::Spec spec = sweep::loadSpec(args.spec, specContext());
  sweep::SweepOptions options;
  options.out = args.out;
  options.warpsim = selfPath();
  options.version = WARPSIM_VERSION;
  options.jobs = args.jobs != 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
  options.retryFailed = args.retryFailed;
  options.dryRun = args.dryRun;
  options.slurm = args.executor == "slurm";
  options.slurmOptions = args.slurm;
  options.terminal = isatty(STDERR_FILENO) != 0;
  return sweep::runSweep(spec, sweep::readFile(args.spec), options);
}

int sweepPointCommand(const SweepArgs& args) {
  requireDir(args.dir);
  return sweep::runTask(args.dir, args.task, args.jobs != 0 ? args.jobs : 1, selfPath(),
                        isatty(STDERR_FILENO) != 0);
}

int sweepStatusCommand(const SweepArgs& args) {
  requireDir(args.dir);
  return sweep::printStatus(args.dir, selfPath());
}

int sweepTableCommand(const SweepArgs& args) {
  requireDir(args.dir);
  const sweep::Spec spec = sweep::loadSpec(sweep::OutDir(args.dir).spec().string(), specContext());
  return sweep::rebuildTable(args.dir, spec);
}

}  // namespace warpsim::app
