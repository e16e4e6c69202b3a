// Bundled example programs: host drivers over the runtime API that generate deterministic
// input, launch kernels from the bundled PTX and verify the results against a CPU reference.
//
// A driver registers itself by name in an ExampleRegistry; `warpsim list` shows the registry
// and `warpsim run <name>` runs one. The workload suite (workloads/<name>/) plugs into the
// same registry with one registration function per workload.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace warpsim::app {

struct ExampleContext {
  runtime::Device& device;
  uint64_t size;                               // problem size (elements, matrix edge, ...)
  uint64_t seed;                               // input generator seed
  std::vector<runtime::LaunchReport>& reports; // every launch, in order
};

struct ExampleOutcome {
  bool passed = false;
  std::string detail;  // what was checked, or the first mismatch
};

struct Example {
  std::string name;
  std::string description;
  uint64_t defaultSize = 0;
  uint64_t maxSize = 0;
  std::string sizeMeaning;  // "elements", "matrix edge", ...
  std::function<ExampleOutcome(ExampleContext&)> run;
};

class ExampleRegistry {
 public:
  // Throws runtime::Error when the name is taken.
  void add(Example example);
  const Example* find(const std::string& name) const;
  const std::vector<Example>& all() const { return examples_; }

 private:
  std::vector<Example> examples_;
};

// The examples shipped with warpsim (the first one is the default of `warpsim run`).
ExampleRegistry bundledExamples();

// Registration functions, one per example file.
void registerVecaddReduce(ExampleRegistry& r);
void registerMatmul(ExampleRegistry& r);
void registerHistogram(ExampleRegistry& r);

}  // namespace warpsim::app
