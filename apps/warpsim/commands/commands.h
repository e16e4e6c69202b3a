// The warpsim subcommands as plain functions of their parsed options (the option wiring is in
// main.cpp, the only file that includes CLI11). Each returns the exit status; errors are thrown
// (runtime::Error) and reported by main().
#pragma once
#include <cstdint>
#include <string>

namespace warpsim::app {

struct RunArgs {
  std::string example;    // empty: the first bundled example
  uint64_t size = 0;      // 0: the example's default
  uint64_t seed = 1;
  std::string statsFile;  // empty: no JSON
  uint32_t sms = 0;       // 0: the engine's default
  bool estimate = false;  // estimate resources instead of running ptxas
  bool detail = false;
  bool quiet = false;
};
// `warpsim run`: 0 when verification passed, 3 when it failed.
int runExample(const RunArgs& args);

// `warpsim list`
int listExamples();

struct CheckArgs {
  std::string file;
  bool estimate = false;
};
// `warpsim ptx-check`
int checkPtx(const CheckArgs& args);

}  // namespace warpsim::app
