// Launch description, options and result of a functional kernel run (see functional_gpu.h).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "func/exec_record.h"
#include "func/memory_findings.h"
#include "hints/launch_hints.h"

namespace warpsim::func {

class CtaDependence;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

struct LaunchConfig {
  Dim3 grid, block;
  uint32_t dynamicSharedBytes = 0;
  // The kernel argument buffer, laid out per ir::Function::params offsets; its size must equal
  // the kernel's kernelParamBytes.
  std::vector<uint8_t> params;
  // A cooperative launch (cudaLaunchCooperativeKernel): all CTAs are resident at once, so they
  // may wait for each other (cooperative_groups grid.sync(), RunOptions::gridSyncWorkspace);
  // runKernel interleaves them instead of running them one after another.
  bool cooperative = false;
  // The shared-memory carve-out the program prefers for the kernel, in percent of the largest
  // (cudaFuncAttributePreferredSharedMemoryCarveout; -1: none). Only the timing model reads it,
  // on GPUs whose L1 and shared memory share one array (timing/shared_carveout.h).
  int32_t preferredCarveoutPercent = -1;
  // What the program says about its data for this launch (locality descriptors, XMem atoms):
  // read by the timing model's components; the engine reads only how many atoms there are, to
  // check the atom operations kernels issue (nullptr: nothing).
  std::shared_ptr<const hints::LaunchHints> hints;
};

struct LaunchResult {
  bool ok = true;
  // One line naming kernel, CTA, thread, PTX file:line and what went wrong, e.g.
  //   kernel 'k' CTA (1,0,0) thread (5,0,0) at k.ptx:123: illegal global load of 4 bytes at
  //   0x7f0000000100 (unmapped)
  // A deadlock message has a summary first line followed by one line per warp.
  std::string error;
  uint64_t warpInstructions = 0;    // warp-instructions issued
  uint64_t threadInstructions = 0;  // sum over issued warp-instructions of the active lanes
  uint64_t ctasExecuted = 0;
  // XMem atom operations the kernel issued (ir::Op::AtomHint, one per executing lane; each
  // atom_hint instruction is also one warp-instruction above).
  uint64_t deviceAtomOps = 0;
};

// Receives the record of every executed warp-instruction (see exec_record.h for lifetimes).
struct ExecObserver {
  virtual ~ExecObserver() = default;
  virtual void onExec(const ExecRecord& record) = 0;
  // Parallel functional mode (func/parallel_ctas.h): each CTA runs with an empty observer of
  // its own from newPart(), and the parts are added to this observer with addPart() in linear
  // CTA order, which must leave it as seeing the CTAs one after another would have. An observer
  // that needs one stream of records returns nullptr (the default): the launch then runs its
  // CTAs one after another.
  virtual std::unique_ptr<ExecObserver> newPart() const { return nullptr; }
  virtual void addPart(const ExecObserver& part) {}
};

struct RunOptions {
  ExecObserver* observer = nullptr;
  std::ostream* printfOut = nullptr;   // device printf destination; nullptr: std::cout
  uint32_t numSms = 80;                // %nsmid; CTA i runs on SM i % numSms (%smid)
  // Functional engine (func::runKernel): warp-instructions a warp executes per turn as the warps
  // of a CTA take turns round robin (cta.h); 0: each warp runs until it waits or exits.
  uint32_t warpQuantum = 1;
  // Functional engine: host threads that run a launch's CTAs (func/parallel_ctas.h), with the
  // result of running them one after another; 1: one after another on the calling thread.
  uint32_t threads = 1;
  // What earlier launches on the same device taught about their kernels (parallel_ctas.h);
  // nullptr: nothing is remembered between launches.
  CtaDependence* ctaDependence = nullptr;
  uint32_t localStackBytes = 1024;     // per-thread stack for calls, beyond the kernel's depot
  uint64_t maxWarpInstructions = 0;    // 0: unlimited; else the launch stops with an error
  uint32_t maxSharedBytesPerCta = 48 * 1024;  // static + dynamic shared memory limit
  uint64_t gridId = 1;                 // %gridid
  // %envreg1 (high 32 bits) and %envreg2 (low 32 bits): the address of the zeroed device memory
  // in which a cooperative launch's grid.sync() counts arrivals (runtime::Device allocates it);
  // 0 in a normal launch, where nvcc's grid.sync() executes trap, as on a GPU.
  uint64_t gridSyncWorkspace = 0;
  // Device-memory checks (func/memory_findings.h). An access outside every allocation that still
  // falls in mapped device memory proceeds, as on a GPU, and is counted in *findings (when set);
  // with memcheck it faults instead, as accesses outside mapped memory always do. With initcheck
  // (the memory must track initialisation, DeviceMemory::trackInitialisation) loads and atomics
  // of bytes never written are counted in *findings.
  MemoryFindings* findings = nullptr;
  bool memcheck = false;
  bool initcheck = false;
};

}  // namespace warpsim::func
