// The warpsim subcommands as plain functions of their parsed options (the option wiring is in
// main.cpp, the only file that includes CLI11). Each returns the exit status; errors are thrown
// (runtime::Error) and reported by main().
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::app {

struct RunArgs {
  std::string workload;            // empty: workloads::kDefaultWorkload
  std::string size = "default";    // small, default, large or a number
  std::string mode = "timing";  // "timing" (cycle-level model) or "functional"
  uint64_t seed = 1;
  std::string statsFile;  // empty: no JSON
  uint32_t sms = 0;       // 0: the engine's default
  bool all = false;       // every workload, one line each
  unsigned jobs = 1;      // --all: workloads run at once, each in a process of its own
  uint32_t threads = 0;   // --threads N: host.threads=N (0: not given)
  bool estimate = false;  // estimate resources instead of running ptxas
  bool detail = false;
  bool quiet = false;
  // The simulated GPU: configuration name or file, overlays in order, key=value overrides.
  std::string config;
  std::vector<std::string> overlays;
  std::vector<std::string> sets;
  uint64_t sampleInterval = 0;  // timing: statistics time series every N cycles (0: none)
  bool profileValues = false;   // --profile-values: profile.value_similarity=true
  std::string maxRegisters;     // --max-registers off|minimal|N: compiler.registers=...
  bool memcheck = false;        // --memcheck: accesses outside every allocation are faults
  bool initcheck = false;       // --initcheck: report reads of never-written device memory
  // The resource specification (workloads::SpecSpace; 0: the workload's own choice).
  uint32_t threadsPerBlock = 0;  // --threads-per-block
  uint32_t sharedPerBlock = 0;   // --shared-per-block (bytes)
  uint32_t tileBytes = 0;        // --tile-bytes
  // `warpsim run [options] -- PROGRAM [ARGS...]`: the program and its arguments.
  std::vector<std::string> program;
};
// The configuration overrides of a run: the --set values, then those its flags imply
// (--profile-values: profile.value_similarity=true; --max-registers X: compiler.registers=X;
// --threads N: host.threads=N).
std::vector<std::string> runSets(const RunArgs& args);

// `warpsim run`: 0 when verification passed, 3 when it failed, 1 when --initcheck found reads of
// uninitialised memory.
int runWorkload(const RunArgs& args);
// `warpsim run --all`: 0 when every workload passed, 3 when any failed.
int runAllWorkloads(const RunArgs& args);
// `warpsim run -- PROGRAM [ARGS...]`: runs a CUDA program built with `nvcc -cudart shared` on
// the drop-in libcudart.so.13 and returns its exit status (128 + N when signal N ended it).
// Throws runtime::Error when the program is missing or does not load libcudart.so.13.
int runProgram(const RunArgs& args);

// `warpsim list`; `specs`: `warpsim list --specs`, the resource specifications workloads accept.
int listWorkloads(bool specs);

struct CheckArgs {
  std::string file;
  bool estimate = false;
  std::string allocate;  // --allocate minimal|N: print every function as allocated
};
// `warpsim ptx-check`
int checkPtx(const CheckArgs& args);

}  // namespace warpsim::app
