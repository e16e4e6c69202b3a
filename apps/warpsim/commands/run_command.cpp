#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <memory>

#include "commands/commands.h"
#include "commands/run_summary.h"
#include "examples/example.h"
#include "runtime/error.h"

namespace warpsim::app {

namespace {

struct RunArgs {
  std::string example;
  uint64_t size = 0;  // 0: the example's default
  uint64_t seed = 1;
  std::string statsFile;
  uint32_t sms = 0;
  bool estimate = false;
  bool detail = false;
  bool quiet = false;
};

int runExample(const RunArgs& args) {
  ExampleRegistry examples = bundledExamples();
  const Example* example =
      args.example.empty() ? &examples.all().front() : examples.find(args.example);
  if (example == nullptr) {
    std::string names;
    for (const Example& e : examples.all()) names += (names.empty() ? "" : ", ") + e.name;
    throw runtime::Error(fmt::format("run: no example '{}' (examples: {})", args.example, names));
  }

  uint64_t size = args.size != 0 ? args.size : example->defaultSize;
  if (size > example->maxSize) {
    throw runtime::Error(fmt::format("run: --size {} is too large for {} (at most {} {})", size,
                                     example->name, example->maxSize, example->sizeMeaning));
  }

  runtime::DeviceOptions options;
  options.numSms = args.sms;
  if (args.estimate) options.resources = runtime::DeviceOptions::Resources::Estimate;
  runtime::Device device(options);

  RunSummary summary;
  summary.example = example->name;
  summary.size = size;
  summary.seed = args.seed;
  ExampleContext ctx{device, summary.size, summary.seed, summary.launches};
  auto start = std::chrono::steady_clock::now();
  summary.outcome = example->run(ctx);
  summary.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!args.quiet) fmt::print("{}", formatSummary(summary, args.detail));
  if (!args.statsFile.empty()) {
    std::ofstream out(args.statsFile);
    if (!out) throw runtime::Error(fmt::format("{}: cannot open for writing", args.statsFile));
    out << summaryJson(summary).dump(2) << '\n';
    if (!out) throw runtime::Error(fmt::format("{}: write failed", args.statsFile));
  }
  return summary.outcome.passed ? 0 : 3;
}

// Accepts whole numbers of at least 1 (CLI::PositiveNumber prints an unreadable range).
const CLI::Validator kAtLeastOne(
    [](std::string& value) -> std::string {
      try {
        size_t used = 0;
        long long v = std::stoll(value, &used);
        if (used == value.size() && v >= 1) return "";
      } catch (const std::exception&) {
      }
      return "must be a whole number of at least 1, not '" + value + "'";
    },
    "N>=1");

}  // namespace

Subcommand addRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Run a bundled example program, verify it against a CPU reference and print a "
             "summary (exit status 3 when verification fails)");
  cmd->add_option("example", args->example, "Example to run (see `warpsim list`); default: the "
                                            "first listed");
  cmd->add_option("--size", args->size, "Problem size (meaning depends on the example)")
      ->check(kAtLeastOne);
  cmd->add_option("--seed", args->seed, "Seed of the input generator")->capture_default_str();
  cmd->add_option("--stats", args->statsFile, "Write the statistics as JSON to this file");
  cmd->add_option("--sms", args->sms, "Number of SMs the CTAs are spread over (%nsmid)")
      ->check(kAtLeastOne);
  cmd->add_flag("--estimate-resources", args->estimate,
                "Estimate registers/shared/local instead of running ptxas");
  cmd->add_flag("--detail", args->detail,
                "Also print instruction mix, memory traffic and branches per kernel");
  cmd->add_flag("-q,--quiet", args->quiet, "Print nothing (use with --stats)");
  return {cmd, [args] { return runExample(*args); }};
}

}  // namespace warpsim::app
