#include <fmt/format.h>

#include <chrono>
#include <fstream>

#include "commands/commands.h"
#include "commands/run_summary.h"
#include "examples/example.h"
#include "runtime/error.h"

namespace warpsim::app {

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

}  // namespace warpsim::app
