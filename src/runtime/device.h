// A simulated GPU for host programs: device memory, module loading and kernel launches.
//
//   runtime::Device gpu;
//   runtime::Module mod = gpu.loadModuleFile("vector_add.ptx");
//   uint64_t a = gpu.upload(hostA), c = gpu.malloc(n * sizeof(float));
//   runtime::LaunchReport r = gpu.launch(mod.kernel("vector_add"), {n / 256}, {256}, 0,
//                                        a, b, c, n);
//   std::vector<float> out = gpu.download<float>(c, n);
//
// Each Device is independent (no global state); a Device must outlive the Modules it loaded.
// Not thread-safe: use one Device per thread.
#pragma once
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "func/launch.h"
#include "func/parallel_ctas.h"
#include "ptx/link.h"
#include "runtime/compiler_options.h"
#include "runtime/error.h"
#include "runtime/kernel_args.h"
#include "runtime/launch_report.h"
#include "runtime/hint_store.h"
#include "runtime/launch_setup.h"
#include "runtime/kernel_sampler.h"
#include "runtime/module.h"

namespace warpsim::func {
class DeviceMemory;
}
namespace warpsim::config {
class Tree;
}
namespace warpsim::timing {
class Gpu;
class PluginRegistry;
}

namespace warpsim::runtime {

struct DeviceOptions {
  uint64_t memoryBytes = 0;          // device memory capacity; 0: the engine's default
  uint32_t numSms = 0;               // SMs the engine distributes CTAs over; 0: its default
  uint64_t maxWarpInstructions = 0;  // per launch; 0: unlimited
  uint32_t localStackBytes = 0;      // per-thread call stack beyond the kernel's frame; 0: default
  std::ostream* printfOutput = nullptr;  // device printf; nullptr: std::cout
  bool collectStats = true;          // attach a KernelStatsObserver to every launch
  // Resource usage of kernels: Auto runs ptxas when available (once per module, on first
  // use) and estimates otherwise; Estimate never runs ptxas.
  enum class Resources : uint8_t { Auto, Estimate } resources = Resources::Auto;

  // The GPU being simulated (config/config.h): a bundled configuration name ("gtx480") or a
  // TOML file path, overlays applied in order, then "key=value" overrides. Empty config:
  // kDefaultConfig. mode "timing" (the default) runs launches on the cycle-level model
  // (timing/gpu.h); "functional" runs them on the functional engine only, without building the
  // model. Both modes simulate the configured GPU: the device properties programs see, the SMs
  // CTAs are placed on (%smid, %nsmid), the memory capacity and the per-thread register limit;
  // functional mode also reads [functional].warp_quantum (func::RunOptions::warpQuantum) and
  // host.threads (func::RunOptions::threads).
  // numSms (when not 0) overrides gpu.num_sms. Configuration errors (a bad value, a key nobody
  // reads) throw Error with one line naming file and line; functional mode reads few keys, so
  // it reports unknown keys only in the tables it reads whole ([functional], [profile]).
  std::string mode = "timing";
  std::string config;
  std::vector<std::string> overlays;
  std::vector<std::string> sets;
  // The [profile] keys (runtime/profile_options.h) are read from the configuration, and without
  // one (functional mode) from the profile.* entries of `sets`:
  // "profile.value_similarity=true" adds value-similarity statistics to every LaunchReport.
  // Timing mode: a live progress line on stderr during long launches, when stderr is a
  // terminal (never otherwise).
  bool progress = false;
  // One-line notices on loading a module (a kernel over the GPU's per-thread register limit
  // that was register-allocated to fit) and after a launch with memory findings (below);
  // nullptr: stderr.
  std::ostream* notices = nullptr;
  // Device-memory checks (func/memory_findings.h). Device memory is laid out as the driver lays
  // it out (func/allocation_layout.h), so accesses outside every allocation that stay in mapped
  // memory work as on a GPU; a launch that made any prints one warning line on `notices`, and
  // memcheck makes each such access a fault instead. initcheck remembers which device bytes were
  // ever written (by the host, module loading or a kernel) and a launch that read bytes never
  // written prints one error line on `notices`. LaunchReport::memory has the counts.
  bool memcheck = false;
  bool initcheck = false;
};

// The configuration a Device uses when DeviceOptions::config is empty.
inline constexpr const char* kDefaultConfig = "gtx480";

// What the selected GPU configuration says about the device, as CUDA's device properties
// report it (cudaGetDeviceProperties, cudaDeviceGetAttribute).
struct GpuProperties {
  std::string name = "warpsim";
  uint32_t computeMajor = 9, computeMinor = 0;
  uint32_t numSms = 80;
  uint32_t warpSize = 32;
  uint32_t maxThreadsPerBlock = 1024;
  uint32_t maxThreadsPerSm = 2048;
  uint32_t maxBlocksPerSm = 32;
  uint32_t registersPerSm = 65536;         // 32-bit registers
  uint32_t registersPerBlock = 65536;
  uint32_t sharedBytesPerSm = 96 * 1024;
  uint32_t sharedBytesPerBlock = 48 * 1024;
  uint32_t l2Bytes = 6 * 1024 * 1024;
  uint32_t clockKhz = 1530000;             // core clock
  uint32_t memoryClockKhz = 877000;
  uint32_t memoryBusWidthBits = 4096;
  uint64_t memoryBytes = 0;                // device memory capacity
  // Allocation granularities of the occupancy calculation (CUDA Occupancy Calculator; the
  // configuration's [resources] keys, which the timing model's resource manager applies too):
  // registers per warp in multiples of registerAllocationUnit, a CTA's warps rounded up to
  // warpAllocationGranularity for registers, shared memory per CTA in multiples of
  // sharedAllocationUnit. 1: none.
  uint32_t registerAllocationUnit = 1;
  uint32_t warpAllocationGranularity = 1;
  uint32_t sharedAllocationUnit = 1;
};

class Device {
 public:
  explicit Device(DeviceOptions options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Memory. Addresses are device (global) addresses; errors throw Error naming the address.
  uint64_t malloc(uint64_t bytes);
  void free(uint64_t address);
  void memcpyHtoD(uint64_t dst, const void* src, uint64_t bytes);
  void memcpyDtoH(void* dst, uint64_t src, uint64_t bytes) const;
  void memcpyDtoD(uint64_t dst, uint64_t src, uint64_t bytes);
  void memset(uint64_t dst, uint8_t value, uint64_t bytes);

  // malloc + copy of a host vector; returns the device address.
  template <class T>
  uint64_t upload(const std::vector<T>& host) {
    uint64_t bytes = host.size() * sizeof(T);
    uint64_t address = malloc(bytes == 0 ? 1 : bytes);
    if (bytes != 0) memcpyHtoD(address, host.data(), bytes);
    return address;
  }
  template <class T>
  std::vector<T> download(uint64_t address, size_t count) const {
    std::vector<T> host(count);
    if (count != 0) memcpyDtoH(host.data(), address, count * sizeof(T));
    return host;
  }

  // Modules: parse, allocate and initialise module variables, link. PTX errors throw Error
  // with "<file>:<line>: error: ...".
  Module loadModule(std::string_view ptxText, std::string sourceName = "<string>");
  Module loadModuleFile(const std::string& path);
  // Separately compiled device code (nvcc -rdc=true): one PTX text per translation unit, linked
  // into one module called `name` as nvlink links them (ptx/link.h), so that .extern functions
  // and variables reach the unit that defines them. Its text, and the line numbers of its
  // messages, are the units' texts one after another (ptx::joinUnits). An unresolved or doubly
  // defined name throws Error naming it, the unit and the line.
  Module loadLinkedModule(const std::vector<ptx::Unit>& units, std::string name);

  // Launches a kernel with typed arguments (packed and checked against its parameters) and
  // runs it to completion. A fault in the kernel throws LaunchError.
  template <class... Args>
  LaunchReport launch(const Kernel& kernel, func::Dim3 grid, func::Dim3 block,
                      uint32_t dynamicSharedBytes, const Args&... args) {
    func::LaunchConfig config;
    config.grid = grid;
    config.block = block;
    config.dynamicSharedBytes = dynamicSharedBytes;
    config.params = packArgs(kernel.function(), args...);
    LaunchReport report = run(kernel, config);
    if (!report.result.ok) throw LaunchError(report.result.error);
    return report;
  }

  // Runs a launch with an already packed argument buffer; never throws for kernel faults
  // (report.result.ok is false and report.result.error says what happened).
  LaunchReport run(const Kernel& kernel, const func::LaunchConfig& config);

  // Launches from different streams, run together. In timing mode they share the GPU as the
  // timing model's work distributor allows (timing::Gpu::runConcurrent: an SM holds CTAs of one
  // launch at a time, later launches take SMs as earlier ones drain); a launch starts after the
  // launches its `after` names (earlier indices: stream order, event waits). In functional
  // mode they run one after another, in order. One report per launch, in order; each has its
  // own result, statistics and findings (printed as run() prints them). Cooperative launches
  // are refused here (run them alone with run()).
  struct ConcurrentLaunch {
    const Kernel* kernel = nullptr;
    func::LaunchConfig config;
    std::vector<uint32_t> after;
  };
  std::vector<LaunchReport> runConcurrent(const std::vector<ConcurrentLaunch>& launches);

  // CTAs of `kernel` with `config`'s block and dynamic shared memory that can be resident on
  // the whole GPU at once: the timing model's resource managers decide in timing mode, the
  // occupancy calculation over properties() (runtime/occupancy.h) in functional mode.
  uint64_t residentCtas(const Kernel& kernel, const func::LaunchConfig& config);
  // Empty when `config` may run as a cooperative launch (LaunchConfig::cooperative: its grid is
  // no larger than residentCtas), else the one-line error (cudaErrorCooperativeLaunchTooLarge).
  // run() checks it and gives a cooperative launch a zeroed grid-sync workspace
  // (func::RunOptions::gridSyncWorkspace), freed after the launch.
  std::string cooperativeLimit(const Kernel& kernel, const func::LaunchConfig& config);

  // Locality descriptors (include/warpsim/locality.h), hints for the timing model: `d` goes
  // with every launch of `kernel` until cleared, or with the next launch when `kernel` is "".
  // A bad descriptor, or one whose range partly overlaps another the same launches take,
  // throws Error naming the field. run() and runConcurrent() attach them to a launch whose
  // LaunchConfig::hints is not set already.
  void addLocalityDescriptor(const hints::LocalityDescriptor& d, const std::string& kernel = "") {
    hints_.add(d, kernel);
  }
  void clearLocalityDescriptors(const std::string& kernel = "") { hints_.clear(kernel); }
  // XMem atoms (include/warpsim/xmem.h), hints for the timing model: the atom created at `site`
  // (the same id for every call from one site), and an operation on one, which goes with the
  // next launch. A map or unmap whose block is not inside one device allocation, of an atom
  // never created, or malformed, throws Error (one line).
  uint32_t createAtom(const std::string& site, const hints::AtomAttributes& attributes) {
    return hints_.atoms().create(site, attributes);
  }
  void issueAtomOp(const hints::AtomOp& op);
  // The hints the next launch of `kernel` takes (those for the next launch are used up).
  std::shared_ptr<const hints::LaunchHints> takeLaunchHints(const std::string& kernel) {
    return hints_.take(kernel);
  }

  const DeviceOptions& options() const { return options_; }
  // The simulated GPU's properties (from the configuration).
  const GpuProperties& properties() const { return properties_; }
  func::DeviceMemory& memory() { return *memory_; }
  const func::DeviceMemory& memory() const { return *memory_; }
  // The timing model (timing mode; nullptr in functional mode) and the configuration (both
  // modes; in functional mode only the keys functional mode reads are resolved).
  timing::Gpu* gpu() { return gpu_.get(); }
  const config::Tree* configTree() const { return tree_.get(); }
  config::Tree* configTree() { return tree_.get(); }
  // Whether launches collect value-similarity statistics (profile.value_similarity).
  bool profilesValues() const { return profileValues_; }

 private:
  void buildTimingModel();
  // Functional mode: what it needs of the configuration, without the timing model.
  void readFunctionalConfiguration();
  // Register allocation of a freshly parsed module (before it is linked): every function at
  // compiler.registers when that is on; otherwise only kernels over the configured GPU's
  // per-thread register limit (and their callees), at that limit, with a notice.
  void allocateRegisters(ModuleState& state);
  // Everything of loading after parsing: register allocation, variables, linking.
  Module finishLoading(std::unique_ptr<ModuleState> state);
  // The warning and error lines of a launch's memory findings, on DeviceOptions::notices.
  void reportFindings(const func::MemoryFindings& findings) const;
  // What every launch takes from this Device (runtime/launch_setup.h).
  LaunchDefaults launchDefaults();
  // `given`, or a copy of it with the hints of its kernel's next launch when it has none and
  // there are some (`copy` holds it).
  const func::LaunchConfig& withHints(const Kernel& kernel, const func::LaunchConfig& given,
                                      func::LaunchConfig& copy);
  // "" when the launch's locality descriptors fit its grid, else the launch's one-line error.
  static std::string hintProblem(const Kernel& kernel, const func::LaunchConfig& config);

  DeviceOptions options_;
  GpuProperties properties_;
  bool profileValues_ = false;
  CompilerOptions compilerOptions_;
  uint32_t maxRegistersPerThread_ = 0;  // resources.max_registers_per_thread; 0: no limit known
  uint32_t warpQuantum_ = 1;            // functional.warp_quantum
  uint32_t hostThreads_ = 1;            // host.threads (0 there: the machine's cores)
  func::CtaDependence ctaDependence_;   // kernels whose CTAs depend on each other
  uint64_t allocationAlignment_ = 256;  // gpu.allocation_alignment (malloc)
  KernelSampler sampler_;               // [sampling]; timing mode only
  std::unique_ptr<config::Tree> tree_;
  std::unique_ptr<timing::PluginRegistry> registry_;
  std::unique_ptr<func::DeviceMemory> memory_;
  std::unique_ptr<timing::Gpu> gpu_;   // declared after memory_: destroyed before it
  HintStore hints_;
};

}  // namespace warpsim::runtime
