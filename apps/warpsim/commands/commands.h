// The warpsim subcommands as plain functions of their parsed options (the option wiring is in
// main.cpp, the only file that includes CLI11). Each returns the exit status; errors are thrown
// (runtime::Error) and reported by main().
#pragma once
#include <cstdint>
#include <string>

namespace warpsim::app {

struct RunArgs {
  std::string workload;            // empty: workloads::kDefaultWorkload
  std::string size = "default";    // small, default, large or a number
  std::string mode = "functional";  // only functional exists; timing is refused
  uint64_t seed = 1;
  std::string statsFile;  // empty: no JSON
  uint32_t sms = 0;       // 0: the engine's default
  bool all = false;       // every workload, one line each
  bool estimate = false;  // estimate resources instead of running ptxas
  bool detail = false;
  bool quiet = false;
};
// `warpsim run`: 0 when verification passed, 3 when it failed.
int runWorkload(const RunArgs& args);
// `warpsim run --all`: 0 when every workload passed, 3 when any failed.
int runAllWorkloads(const RunArgs& args);

// `warpsim list`
int listWorkloads();

struct CheckArgs {
  std::string file;
  bool estimate = false;
};
// `warpsim ptx-check`
int checkPtx(const CheckArgs& args);

}  // namespace warpsim::app
