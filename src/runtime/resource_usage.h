// Per-kernel hardware resource usage: registers per thread, static shared memory per CTA and
// local memory (stack frame: local arrays and register spills) per thread.
//
// Two sources, recorded in ResourceUsage::source:
//  * "ptxas": `ptxas -v --gpu-name sm_XX` run on the module's PTX, its report parsed. ptxas is
//    looked up in $WARPSIM_PTXAS, then PATH, then /usr/local/cuda/bin. WARPSIM_PTXAS=off
//    disables it.
//  * "estimate" (no ptxas, or ptxas failed): registers = peak live value registers from the IR
//    liveness analysis, rounded up to a multiple of 8, at least 16 and at most 255 (or the
//    kernel's .maxnreg); shared = the static .shared bytes the kernel uses; local = the kernel's
//    own .local frame (callee frames and spills are not known without a register allocator).
//  * "allocator": the module was register-allocated before it ran (compiler.registers, or a
//    kernel over the GPU's per-thread register limit; src/compiler/register_allocation.h):
//    registers = what the allocated kernel and its callees use; local = the kernel's frame
//    with its spill area; spill bytes = the static bytes of the inserted spill stores/loads;
//    shared memory and barriers as ptxas (or the estimate) report them; `note` names the
//    budget and ptxas's own register count when known.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace warpsim::runtime {

struct ResourceUsage {
  enum class Source : uint8_t { Ptxas, Estimate, Allocator };
  Source source = Source::Estimate;
  uint32_t registers = 0;        // per thread
  uint32_t sharedBytes = 0;      // static shared memory per CTA
  uint32_t localBytes = 0;       // per-thread stack frame
  uint32_t spillStoreBytes = 0;  // ptxas and allocator
  uint32_t spillLoadBytes = 0;   // ptxas and allocator
  uint32_t barriers = 0;         // ptxas only
  std::string note;              // ptxas target ("sm_80"), or why this is an estimate
};

const char* sourceName(ResourceUsage::Source s);

// The ptxas to use, or nullopt when none is found or WARPSIM_PTXAS=off.
std::optional<std::string> findPtxas();

// Parses the text of `ptxas -v` into (entry name, usage) pairs, in the order ptxas reports them.
// Only entry functions are returned; lines it does not know are ignored.
std::vector<std::pair<std::string, ResourceUsage>> parsePtxasReport(std::string_view text);

struct PtxasRun {
  bool ok = false;
  std::string error;  // one line, when !ok
  std::vector<std::pair<std::string, ResourceUsage>> kernels;
};

// Runs `ptxas -v --gpu-name sm_<smTarget>` on `ptxText` (written to a temporary file).
PtxasRun runPtxas(const std::string& ptxas, std::string_view ptxText, uint32_t smTarget);

// The documented estimate for one kernel (see the header comment).
ResourceUsage estimateResources(const ir::Function& kernel, uint32_t staticSharedBytes,
                                const std::string& why);

}  // namespace warpsim::runtime
