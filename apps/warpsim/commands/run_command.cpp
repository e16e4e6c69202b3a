#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <fstream>

#include "commands/commands.h"
#include "commands/run_one.h"
#include "commands/workload_spec.h"
#include "config/config.h"
#include "runtime/error.h"

namespace warpsim::app {

std::vector<std::string> runSets(const RunArgs& args) {
  std::vector<std::string> sets = args.sets;
  if (args.profileValues) sets.emplace_back("profile.value_similarity=true");
  // As a string, whether a name or a number: an overlay may have set the key to a name.
  if (!args.maxRegisters.empty()) sets.push_back("compiler.registers=\"" + args.maxRegisters + "\"");
  if (args.threads != 0) sets.push_back(fmt::format("host.threads={}", args.threads));
  return sets;
}

void checkMode(const std::string& mode) {
  if (mode == "functional" || mode == "timing") return;
  throw runtime::Error(fmt::format("run: --mode '{}' is unknown (modes: timing, functional)", mode));
}

namespace {

// The problem size named by `size` (a preset or a whole number) and its preset name.
std::pair<uint64_t, std::string> resolveSize(const workloads::Workload& w,
                                             const std::string& size) {
  if (std::optional<workloads::SizePreset> p = workloads::parsePreset(size)) {
    return {workloads::presetSize(w, *p), workloads::presetName(*p)};
  }
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), n);
  if (ec != std::errc() || end != size.data() + size.size() || n == 0) {
    throw runtime::Error(fmt::format(
        "run: --size '{}' is neither small, default, large nor a whole number of at least 1",
        size));
  }
  if (n > w.maxSize) {
    throw runtime::Error(fmt::format("run: --size {} is too large for {} (at most {} {})", n,
                                     w.name, w.maxSize, w.sizeMeaning));
  }
  return {n, "custom"};
}

void writeStats(const std::string& path, const RunSummary& summary) {
  std::ofstream out(path);
  if (!out) throw runtime::Error(fmt::format("{}: cannot open for writing", path));
  out << summaryJson(summary).dump(2) << '\n';
  if (!out) throw runtime::Error(fmt::format("{}: write failed", path));
}

}  // namespace

RunSummary runOne(const workloads::Workload& w, const RunArgs& args) {
  checkSpec(w, args.threadsPerBlock, args.sharedPerBlock, args.tileBytes);
  runtime::DeviceOptions options;
  options.numSms = args.sms;
  if (args.estimate) options.resources = runtime::DeviceOptions::Resources::Estimate;
  options.mode = args.mode;
  options.config = args.config;
  options.overlays = args.overlays;
  options.sets = runSets(args);
  if (args.sampleInterval != 0) {
    options.sets.push_back(fmt::format("gpu.sample_interval={}", args.sampleInterval));
  }
  options.progress = !args.quiet;
  options.memcheck = args.memcheck;
  options.initcheck = args.initcheck;
  runtime::Device device(options);

  RunSummary summary;
  summary.workload = w.name;
  summary.category = w.category;
  std::tie(summary.size, summary.sizeName) = resolveSize(w, args.size);
  summary.sizeMeaning = w.sizeMeaning;
  summary.seed = args.seed;
  summary.threadsPerBlock = args.threadsPerBlock;
  summary.sharedPerBlock = args.sharedPerBlock;
  summary.tileBytes = args.tileBytes;
  summary.mode = args.mode;
  summary.sms = device.properties().numSms;  // the configured GPU's, in either mode
  summary.config = device.configTree()->name();
  summary.resourceSource = args.estimate ? "estimate" : "ptxas";
  workloads::WorkloadContext ctx{device, summary.size, summary.seed, summary.launches,
                                 args.threadsPerBlock, args.sharedPerBlock, args.tileBytes};
  auto start = std::chrono::steady_clock::now();
  summary.outcome = w.run(ctx);
  summary.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

int runWorkload(const RunArgs& args) {
  checkMode(args.mode);
  if (args.jobs > 1) {
    throw runtime::Error("run: --jobs runs the workloads of --all in parallel; it needs --all");
  }
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  std::string name = args.workload.empty() ? std::string(workloads::kDefaultWorkload)
                                           : args.workload;
  const workloads::Workload* w = workloads::findWorkload(all, name);
  if (w == nullptr) {
    throw runtime::Error(
        fmt::format("run: no workload '{}' (warpsim list shows the {})", name, all.size()));
  }
  RunSummary summary = runOne(*w, args);
  if (!args.quiet) fmt::print("{}", formatSummary(summary, args.detail));
  if (!args.statsFile.empty()) writeStats(args.statsFile, summary);
  for (const runtime::LaunchReport& r : summary.launches) {
    if (r.memory.uninitialisedReads.count != 0) return 1;  // reported on stderr by the device
  }
  return summary.outcome.passed ? 0 : 3;
}

}  // namespace warpsim::app
