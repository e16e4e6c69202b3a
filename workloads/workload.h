// The bundled workload suite: self-checking CUDA programs (workloads/<name>/) that the warpsim
// command line runs like its examples.
//
// Each workload directory holds the kernels (<name>.cu), the PTX nvcc emitted for them
// (<name>.ptx, committed and embedded in the binary) and a host driver (driver.cpp) that
// generates deterministic input, runs the launch sequence and checks the result against a CPU
// reference. One problem-size number (ExampleContext::size) scales a workload; its meaning is
// in sizeMeaning and three presets name the sizes the suite is run at.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "examples/example.h"

namespace warpsim::workloads {

struct Workload {
  std::string name;          // also the directory and PTX name
  std::string category;      // streaming, dense, reduction, stencil, science, irregular, dp,
                             // divergence or private
  std::string description;   // one line
  std::string sizeMeaning;   // "elements", "matrix edge", ...
  uint64_t smallSize = 0;    // well under a second in the functional simulator
  uint64_t defaultSize = 0;  // a few seconds at most
  uint64_t largeSize = 0;
  uint64_t maxSize = 0;  // the largest size the driver accepts
  std::function<app::ExampleOutcome(app::ExampleContext&)> run;
};

enum class SizePreset : uint8_t { Small, Default, Large };
uint64_t presetSize(const Workload& w, SizePreset preset);

// Every workload, in catalogue order (grouped by category).
std::vector<Workload> allWorkloads();

// Adds every workload to `registry` as an app::Example ("[category] description").
void registerAll(app::ExampleRegistry& registry);

// The embedded PTX of workload `name`; throws runtime::Error when there is none.
std::string_view workloadPtx(std::string_view name);

}  // namespace warpsim::workloads
