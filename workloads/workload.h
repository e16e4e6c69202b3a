// The bundled workload suite: self-checking CUDA programs (workloads/<name>/), the programs the
// warpsim command line runs.
//
// Each workload directory holds the kernels (<name>.cu), the PTX nvcc emitted for them
// (<name>.ptx, committed and embedded in the binary) and a host driver (driver.cpp) that
// generates deterministic input, runs the launch sequence and checks the result against a CPU
// reference. One problem-size number (WorkloadContext::size) scales a workload; its meaning is
// in sizeMeaning and three presets name the sizes the suite is run at.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/device.h"

namespace warpsim::workloads {

// What a driver runs on: the device, the problem size and seed, and the list every launch
// report is appended to (in launch order).
struct WorkloadContext {
  runtime::Device& device;
  uint64_t size;
  uint64_t seed;
  std::vector<runtime::LaunchReport>& reports;
  // The resource specification asked for (Workload::spec says which a workload accepts; 0: the
  // workload's own choice). A specification changes how the work is laid out on the GPU, never
  // the result: every point verifies against the same CPU reference.
  uint32_t threadsPerBlock = 0;      // threads per CTA of the workload's main kernels
  uint32_t sharedBytesPerBlock = 0;  // shared memory (scratchpad) bytes per CTA of those kernels
  // A tiled workload's tile: the bytes of data one tile holds (the working set its code was
  // tuned for, e.g. to fit a cache; 0: the workload's own choice). Like the others, it changes
  // how the work is laid out, never the result.
  uint32_t tileBytes = 0;
};

// The resource specifications a workload accepts (empty lists: none; it runs its own).
struct SpecSpace {
  std::vector<uint32_t> threadsPerBlock;      // accepted values, ascending
  std::vector<uint32_t> sharedBytesPerBlock;  // accepted values, ascending
  std::string meaning;  // one line: what the parameters change in this workload
  std::vector<uint32_t> tileBytes{};  // accepted values, ascending (WorkloadContext::tileBytes)
};

struct Outcome {
  bool passed = false;
  std::string detail;  // what was checked, or the first mismatch
};

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
  std::function<Outcome(WorkloadContext&)> run;
  SpecSpace spec{};  // resource specifications it accepts (WorkloadContext::threadsPerBlock, ...)
};

enum class SizePreset : uint8_t { Small, Default, Large };
uint64_t presetSize(const Workload& w, SizePreset preset);
const char* presetName(SizePreset preset);
// "small", "default" or "large"; nullopt for anything else.
std::optional<SizePreset> parsePreset(std::string_view name);

// Every workload, in catalogue order (grouped by category).
std::vector<Workload> allWorkloads();

// The workload `name` in `all`, or nullptr.
const Workload* findWorkload(const std::vector<Workload>& all, std::string_view name);

// The workload `warpsim run` runs when none is named.
inline constexpr std::string_view kDefaultWorkload = "sgemm-tiled";

// The embedded PTX of workload `name`; throws runtime::Error when there is none.
std::string_view workloadPtx(std::string_view name);

}  // namespace warpsim::workloads
