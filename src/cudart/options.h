// Options of the drop-in CUDA runtime, read once from the environment:
//   WARPSIM_STATS=FILE      write per-launch statistics (docs/stats.md "kernels") as JSON at exit
//   WARPSIM_QUIET=1         no diagnostic lines for failing calls or unsupported API calls
//   WARPSIM_SMS=N           SMs the CTAs are spread over (%nsmid); default 80
//   WARPSIM_MAX_WARP_INSTRUCTIONS=N  per-launch limit (a runaway kernel becomes a fault)
//   WARPSIM_RESOURCES=ptxas use ptxas for register counts (default: estimate, no ptxas run)
//   WARPSIM_FAULT=error     a kernel fault becomes a sticky error (cudaErrorIllegalAddress for
//                           bad accesses, else cudaErrorLaunchFailure) that launches and
//                           synchronisations return, instead of exiting with status 1; the
//                           one-line message is printed either way
#pragma once
#include <cstdint>
#include <string>

namespace warpsim::cudart {

struct Options {
  std::string statsFile;
  bool quiet = false;
  uint32_t numSms = 80;
  uint64_t maxWarpInstructions = 0;
  bool usePtxas = false;
  bool exitOnFault = true;

  static Options fromEnvironment();
};

}  // namespace warpsim::cudart
