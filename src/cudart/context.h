// The process-level state of the drop-in CUDA runtime.
//
// The CUDA runtime ABI is a set of free C functions (cudaMalloc, __cudaRegisterFunction, ...)
// with no handle to thread state through, so the library keeps exactly one object per process:
// the Context returned by Context::get(), created on first use and destroyed at exit (when it
// writes the WARPSIM_STATS file). Everything else is owned by it. API entry points take its
// mutex, so host threads may call the runtime concurrently; launches run one at a time.
//
// Execution model: operations complete when issued, except kernels launched into a stream other
// than the legacy one in timing mode: they wait in a concurrent batch (launch_batch.h) until the
// next call that needs their results (any API call but further stream launches, event records
// and stream waits), and then run together on the timing model (runtime::Device::runConcurrent).
// Simulated time, used by events, is a deterministic function of the work done: the timing
// model's (a batch advances the device clock by its span; an event recorded behind batch kernels
// gets the end of the last of them), in functional mode ceil(warp-instructions / SMs) cycles at
// 1 GHz per launch; copies and memsets take no time.
//
// Managed memory (cudaMallocManaged, __managed__ variables): at start-up the first stretch of
// the host address space at or above the device's base address that is free for the device's
// whole capacity is reserved (PROT_NONE, nothing committed), and the device's allocator is moved
// there, so device addresses are never host addresses. A managed allocation makes its pages
// host-accessible at the very address the device uses, and the two copies are mirrored: the
// host copy is written to device memory before every launch, copy and memset, and read back
// after. Device addresses are never reused; a managed allocation past the reserved stretch maps its
// pages on demand, and fails with cudaErrorMemoryAllocation and a message when the host has
// something there.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cudart/capture.h"
#include "cudart/graph_exec.h"
#include "cudart/host_mappings.h"
#include "cudart/launch_batch.h"
#include "cudart/mem_pools.h"
#include "cudart/options.h"
#include "runtime/device.h"

namespace warpsim::cudart {

struct FatbinRecord {
  const void* wrapper = nullptr;
  const void* data = nullptr;          // first container
  bool loadAttempted = false;
  std::optional<runtime::Module> module;
  uint32_t ptxArch = 0;                // the compute_NN of the PTX the module was loaded from
  cudaError_t loadError = cudaSuccess;
};

struct KernelRecord {
  FatbinRecord* fatbin = nullptr;
  std::string name;                    // mangled .entry name
  std::optional<runtime::Kernel> kernel;  // resolved on first use
  // cudaFuncAttributePreferredSharedMemoryCarveout (percent; -1: none), given to its launches.
  int preferredCarveout = -1;
};

struct VarRecord {
  FatbinRecord* fatbin = nullptr;
  std::string name;
  uint64_t size = 0;
  void** managedHostPtr = nullptr;     // __managed__ variables: the host pointer to set
};

struct CallConfig {
  dim3 grid, block;
  size_t sharedBytes = 0;
  cudaStream_t stream = nullptr;
};

struct EventRecord {
  bool timing = true;                  // false: created with cudaEventDisableTiming
  bool recorded = false;
  uint64_t timeNs = 0;
  // Recorded on a stream with kernels in the concurrent batch: the batch launches it follows;
  // timeNs is set when the batch runs (the end of the last of them).
  std::vector<uint32_t> batchAfter;
  // Last recorded in a capture sequence (capture.h): its id and the nodes a wait then follows.
  uint64_t captureId = 0;
  std::vector<GraphNode*> captureNodes;
};

class Context {
 public:
  static Context& get();
  ~Context();

  std::recursive_mutex& mutex() { return mutex_; }
  const Options& options() const { return options_; }
  runtime::Device& device() { return *device_; }

  // Registration (called from the static constructors nvcc emits).
  FatbinRecord* addFatbin(const void* wrapper);
  void removeFatbin(FatbinRecord* fatbin);
  void addKernel(FatbinRecord* fatbin, const void* hostFun, const char* name);
  void addVar(FatbinRecord* fatbin, const void* hostVar, const char* name, uint64_t size,
              void** managedHostPtr);

  // The module of a fat binary, loaded on first use. On failure prints the reason once and
  // returns the error.
  cudaError_t ensureLoaded(FatbinRecord& fatbin);
  // The kernel registered for a host stub (or a __cudaGetKernel handle), resolved. Failures are
  // reported as those of the API call `call`.
  cudaError_t kernelFor(const char* call, const void* hostFunOrHandle, KernelRecord*& out);
  // Device address and size of a registered variable (host shadow address).
  cudaError_t symbolFor(const void* hostVar, uint64_t& address, uint64_t& size);

  // `cooperative`: cudaLaunchCooperativeKernel (all CTAs resident at once, grid.sync() works);
  // a grid larger than the GPU holds at once fails with cudaErrorCooperativeLaunchTooLarge.
  // `stream` (nullptr: the legacy stream) decides whether the launch runs now or waits in the
  // concurrent batch (timing mode, a stream other than the legacy one, not cooperative).
  cudaError_t launch(KernelRecord& kernel, dim3 grid, dim3 block, void** args, size_t shared,
                     bool cooperative = false, StreamRecord* stream = nullptr);
  // Runs the kernels waiting in the concurrent batch (launch_batch.h), if any: every API call
  // that is not stream-ordered kernel work, an event record or a stream's wait calls it first
  // (apiCall). Returns the first fault of the batch (also made sticky), else cudaSuccess.
  cudaError_t runBatch();
  LaunchBatch& batch() { return batch_; }

  // Error state: the last error (reset by cudaGetLastError) and the sticky fault.
  cudaError_t setError(cudaError_t e) {
    if (e != cudaSuccess) lastError_ = e;
    return e;
  }
  // A kernel fault is sticky, as on hardware: every later query reports it.
  cudaError_t takeLastError() {
    cudaError_t e = lastError_;
    lastError_ = stickyError_;
    return e;
  }
  cudaError_t stickyError() const { return stickyError_; }
  void clearErrors() { lastError_ = stickyError_ = cudaSuccess; }
  // Whether a kernel fault should end the process (WARPSIM_FAULT is not "error"); checked by
  // the launch entry points after they released the context lock.
  bool faultEndsProcess() const { return stickyError_ != cudaSuccess && options_.exitOnFault; }
  cudaError_t peekLastError() const { return lastError_; }
  // Prints "warpsim: <call>: <message>" on stderr unless WARPSIM_QUIET, and records `e`.
  cudaError_t fail(const char* call, cudaError_t e, const std::string& message);

  std::vector<CallConfig>& callStack() { return callStack_; }

  // Managed memory (see above).
  cudaError_t allocateManaged(uint64_t bytes, uint64_t& address);
  bool releaseManaged(uint64_t address);
  bool isManaged(uint64_t address) const;
  void pushManaged();   // host copy -> device
  void pullManaged();   // device copy -> host

  uint64_t nowNs() const { return clockNs_; }
  cudaStream_t newStream(unsigned flags = 0, int priority = 0);
  bool destroyStream(cudaStream_t s);
  bool isStream(cudaStream_t s) const;
  // The record behind a stream handle (the default streams included), or nullptr.
  StreamRecord* stream(cudaStream_t s);
  EventRecord* newEvent();
  bool destroyEvent(EventRecord* e);
  bool isEvent(const EventRecord* e) const;
  int currentDevice = 0;
  unsigned deviceFlags = 0;  // cudaSetDeviceFlags

 private:
  Context();
  void reserveDeviceRange();
  bool inReservation(uint64_t first, uint64_t bytes) const;
  bool mapHostPages(uint64_t first, uint64_t bytes);
  void writeStats() const;
  // After a launch (alone or in a batch): printf output, managed memory back to the host,
  // initcheck, the fault's line and sticky error, the report kept for WARPSIM_STATS.
  cudaError_t afterLaunch(runtime::LaunchReport&& report);
  // Simulated time of a launch: the timing model's (timing mode), else
  // ceil(warp-instructions / SMs) ns (one warp-instruction per SM per cycle at 1 GHz).
  uint64_t launchNs(const runtime::LaunchReport& report) const;

  std::recursive_mutex mutex_;
  Options options_;
  std::unique_ptr<runtime::Device> device_;
  std::deque<FatbinRecord> fatbins_;
  std::unordered_map<const void*, KernelRecord> kernels_;   // by host stub
  std::unordered_map<const void*, VarRecord> vars_;         // by host shadow
  std::vector<CallConfig> callStack_;
  cudaError_t lastError_ = cudaSuccess;
  cudaError_t stickyError_ = cudaSuccess;
  std::vector<std::pair<uint64_t, uint64_t>> managed_;      // (address, bytes)
  uint64_t reservedStart_ = 0;                              // 0: nothing reserved
  uint64_t reservedBytes_ = 0;
  uint64_t clockNs_ = 0;
  std::vector<std::unique_ptr<StreamRecord>> streams_;
  StreamRecord legacyStream_{true};  // the NULL stream (cudaStreamLegacy)
  StreamRecord perThreadStream_;  // cudaStreamPerThread
  std::vector<std::unique_ptr<EventRecord>> events_;
  LaunchBatch batch_;
  std::vector<runtime::LaunchReport> reports_;              // kept only for WARPSIM_STATS
  // WARPSIM_INITCHECK: the exit hook that turns status 0 into 1 after uninitialised reads.
  struct InitcheckExit;
  InitcheckExit* initcheckExit_ = nullptr;

 public:
  // Stream capture, pinned host memory, memory pools and graphs (capture.h, host_mappings.h,
  // mem_pools.h, graph_exec.h).
  Captures& captures() { return captures_; }
  HostMappings& hostMappings() { return hostMappings_; }
  MemPools& pools();
  GraphState& graphs() { return graphs_; }

 private:
  // Declared last, so destroyed first: graphs before the pools their allocations return to.
  Captures captures_;
  HostMappings hostMappings_;
  std::unique_ptr<MemPools> pools_;  // made on first use (the device's addresses are settled)
  GraphState graphs_;
};

}  // namespace warpsim::cudart
