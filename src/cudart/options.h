// Options of the drop-in CUDA runtime, read once from the environment (`warpsim run` sets them
// from its command line):
//   WARPSIM_STATS=FILE      write per-launch statistics (docs/stats.md "kernels") as JSON at exit
//   WARPSIM_QUIET=1         no diagnostic lines for failing calls or unsupported API calls
//   WARPSIM_MODE=M          functional (default) or timing (the cycle-level model; event times
//                           and the statistics then carry simulated cycles)
//   WARPSIM_CONFIG=C        the GPU configuration: a bundled name or a TOML file
//   WARPSIM_OVERLAYS=A;B    configuration overlays, applied in order (';' or ',' between names)
//   WARPSIM_SET=k=v;k2=v2   configuration overrides, applied last (';' between entries)
//   WARPSIM_SMS=N           SMs the CTAs are spread over (%nsmid); default: the configuration's
//   WARPSIM_MAX_WARP_INSTRUCTIONS=N  per-launch limit (a runaway kernel becomes a fault)
//   WARPSIM_RESOURCES=ptxas use ptxas for register counts (default: estimate, no ptxas run)
//   WARPSIM_FAULT=error     a kernel fault becomes a sticky error (cudaErrorIllegalAddress for
//                           bad accesses, else cudaErrorLaunchFailure) that launches and
//                           synchronisations return, instead of exiting with status 1; the
//                           one-line message is printed either way
//   WARPSIM_MEMCHECK=1      an access outside every allocation is a fault (by default it works
//                           as on a GPU when it stays in mapped memory, and each launch that made
//                           any prints one warning line)
//   WARPSIM_INITCHECK=1     report reads of device memory never written, one line per launch; the
//                           process then exits with status 1 where it would have exited with 0
// A malformed value is reported on one line of stderr and its default is used.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::cudart {

struct Options {
  std::string statsFile;
  bool quiet = false;
  std::string mode = "functional";
  std::string config;
  std::vector<std::string> overlays;
  std::vector<std::string> sets;
  uint32_t numSms = 0;               // 0: the configuration's
  uint64_t maxWarpInstructions = 0;
  bool usePtxas = false;
  bool exitOnFault = true;
  bool memcheck = false;
  bool initcheck = false;

  // `lookup` returns the value of a variable or nullptr (std::getenv by default).
  static Options fromEnvironment(const char* (*lookup)(const char*) = nullptr);
};

// "a;b;;c" -> {"a", "b", "c"}: the non-empty pieces between any of `separators`, trimmed of
// surrounding spaces.
std::vector<std::string> splitList(const std::string& text, const char* separators);

}  // namespace warpsim::cudart
