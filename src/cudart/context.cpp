#include "cudart/context.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cerrno>  // program_invocation_name
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "config/config.h"
#include "cudart/fatbin.h"
#include "cudart/host_range.h"
#include "func/device_memory.h"
#include "func/functional_gpu.h"
#include "runtime/report_json.h"

namespace warpsim::cudart {

namespace {
constexpr uint64_t kHostPage = 4096;
}  // namespace

Context& Context::get() {
  // The one process-level object (see context.h for why it exists).
  static Context context;
  return context;
}

// Owned by the exit hook (it outlives the Context): whether a launch read uninitialised memory.
struct Context::InitcheckExit {
  bool found = false;
  static void atExit(int status, void* self) {
    if (status != 0 || !static_cast<InitcheckExit*>(self)->found) return;
    std::fflush(nullptr);
    std::_Exit(1);  // as compute-sanitizer --error-exitcode 1 would
  }
};

Context::Context() : options_(Options::fromEnvironment()) {
  runtime::DeviceOptions d;  // memory capacity: the configuration's
  d.numSms = options_.numSms;
  d.mode = options_.mode;  // WARPSIM_MODE: functional (default here) or timing
  d.config = options_.config;
  d.overlays = options_.overlays;
  d.sets = options_.sets;
  d.maxWarpInstructions = options_.maxWarpInstructions;
  d.collectStats = !options_.statsFile.empty();
  d.resources = options_.usePtxas ? runtime::DeviceOptions::Resources::Auto
                                  : runtime::DeviceOptions::Resources::Estimate;
  d.memcheck = options_.memcheck;
  d.initcheck = options_.initcheck;
  try {
    device_ = std::make_unique<runtime::Device>(d);
  } catch (const std::exception& e) {
    // A bad configuration (WARPSIM_CONFIG, WARPSIM_SET, ...): nothing can run. This happens
    // while the program registers its kernels, before main(). Messages that already say
    // "file:line: error: ..." are printed as they are.
    const char* what = e.what();
    std::fprintf(stderr, std::strstr(what, "error:") ? "warpsim: %s\n" : "warpsim: error: %s\n",
                 what);
    std::exit(1);
  }
  reserveDeviceRange();
  if (options_.initcheck) {
    // Registered now, before the static Context's destructor is: it runs after that (statistics
    // written), with the status the program exits with.
    initcheckExit_ = new InitcheckExit;
    on_exit(&InitcheckExit::atExit, initcheckExit_);
  }
}


Context::~Context() {
  runBatch();  // kernels still waiting when the program ends run, as they would on a GPU
  if (!options_.statsFile.empty()) writeStats();
}

void Context::reserveDeviceRange() {
  // Device addresses start at kBaseAddress and only grow. Reserve the first stretch of the host
  // address space at or above it that is free for the whole capacity (and the driver's chunk
  // and the 2 MiB alignment of the layout, func/allocation_layout.h), and move the device's
  // address space there, so that every device address is free in the host as well.
  const uint64_t base = func::DeviceMemory::kBaseAddress;
  const uint64_t bytes = device_->memory().capacity() + 2 * func::AllocationLayout::kChunkBytes;
  uint64_t start = reserveHostRange(base, bytes);
  if (start == 0) return;
  if (!device_->memory().relocate(start)) {
    munmap(reinterpret_cast<void*>(start), bytes);
    return;
  }
  reservedStart_ = start;
  reservedBytes_ = bytes;
}

cudaError_t Context::fail(const char* call, cudaError_t e, const std::string& message) {
  if (!options_.quiet) std::fprintf(stderr, "warpsim: %s: %s\n", call, message.c_str());
  return setError(e);
}

FatbinRecord* Context::addFatbin(const void* wrapper) {
  FatbinRecord& r = fatbins_.emplace_back();
  r.wrapper = wrapper;
  r.data = fatbinData(wrapper);
  return &r;
}

void Context::removeFatbin(FatbinRecord* fatbin) {
  // The records stay (their registrations may be used again, which reloads the module); the
  // module, the kernel handles into it and its managed variables' mirrors go.
  if (fatbin == nullptr || !fatbin->module) return;
  for (auto& [host, k] : kernels_) {
    if (k.fatbin == fatbin) k.kernel.reset();
  }
  for (auto& [host, v] : vars_) {
    if (v.fatbin != fatbin || v.managedHostPtr == nullptr) continue;
    uint64_t address = fatbin->module->symbolAddress(v.name);
    managed_.erase(std::remove_if(managed_.begin(), managed_.end(),
                                  [&](const auto& m) { return m.first == address; }),
                   managed_.end());
  }
  fatbin->module.reset();
  fatbin->loadAttempted = false;
}

void Context::addKernel(FatbinRecord* fatbin, const void* hostFun, const char* name) {
  KernelRecord& k = kernels_[hostFun];
  k.fatbin = fatbin;
  k.name = name;
}

void Context::addVar(FatbinRecord* fatbin, const void* hostVar, const char* name, uint64_t size,
                     void** managedHostPtr) {
  VarRecord& v = vars_[hostVar];
  v.fatbin = fatbin;
  v.name = name;
  v.size = size;
  v.managedHostPtr = managedHostPtr;
}

cudaError_t Context::ensureLoaded(FatbinRecord& fatbin) {
  if (fatbin.loadAttempted) return fatbin.module ? cudaSuccess : fatbin.loadError;
  fatbin.loadAttempted = true;
  std::vector<const void*> others;
  for (const FatbinRecord& f : fatbins_) {
    if (&f != &fatbin && f.data != nullptr) others.push_back(f.data);
  }
  std::string firstError;
  try {
    const void* end = fatbin.data != nullptr ? loadedSegmentEnd(fatbin.data) : nullptr;
    if (end == nullptr) throw std::runtime_error("fat binary: not inside a loaded segment");
    // One unit, or several linked ones (-rdc=true).
    std::vector<std::vector<FatbinEntry>> units = readFatbinUnits(fatbin.wrapper, others, end);
    for (uint32_t arch : commonPtxArchs(units)) {
      try {
        fatbin.module = loadFatbinPtx(*device_, units, arch);
        fatbin.ptxArch = arch;
        break;
      } catch (const runtime::Error& err) {
        if (firstError.empty()) firstError = err.what();
      }
    }
  } catch (const std::runtime_error& err) {
    fatbin.loadError = cudaErrorNoKernelImageForDevice;
    std::fprintf(stderr, "warpsim: error: %s\n", err.what());
    return setError(fatbin.loadError);
  }
  if (!fatbin.module) {
    fatbin.loadError = cudaErrorInvalidPtx;
    // The message already reads "<ptx>:<line>: error: ...".
    std::fprintf(stderr, "warpsim: %s\n", firstError.c_str());
    return setError(fatbin.loadError);
  }
  // __managed__ variables of this module: give their pages to the host at the device address.
  for (auto& [host, v] : vars_) {
    if (v.fatbin != &fatbin || v.managedHostPtr == nullptr) continue;
    uint64_t address = fatbin.module->symbolAddress(v.name);
    uint64_t size = fatbin.module->symbolSize(v.name);
    uint64_t first = address & ~(kHostPage - 1);
    uint64_t last = (address + size + kHostPage - 1) & ~(kHostPage - 1);
    if (!mapHostPages(first, last - first)) {
      std::fprintf(stderr, "warpsim: error: __managed__ '%s' at 0x%llx: the host has something "
                   "at that address; cannot mirror\n", v.name.c_str(),
                   static_cast<unsigned long long>(address));
      continue;
    }
    device_->memcpyDtoH(reinterpret_cast<void*>(address), address, size);
    managed_.emplace_back(address, size);
    *v.managedHostPtr = reinterpret_cast<void*>(address);
  }
  return cudaSuccess;
}

cudaError_t Context::kernelFor(const char* call, const void* hostFun, KernelRecord*& out) {
  auto it = kernels_.find(hostFun);
  if (it == kernels_.end()) {
    return fail(call, cudaErrorInvalidDeviceFunction,
                fmt::format("{} is not a registered kernel", hostFun));
  }
  KernelRecord& k = it->second;
  if (!k.kernel) {
    if (cudaError_t e = ensureLoaded(*k.fatbin); e != cudaSuccess) return e;
    try {
      k.kernel = k.fatbin->module->kernel(k.name);
    } catch (const runtime::Error& err) {
      return fail(call, cudaErrorInvalidDeviceFunction, err.what());
    }
  }
  out = &k;
  return cudaSuccess;
}

cudaError_t Context::symbolFor(const void* hostVar, uint64_t& address, uint64_t& size) {
  auto it = vars_.find(hostVar);
  if (it == vars_.end()) return setError(cudaErrorInvalidSymbol);
  VarRecord& v = it->second;
  if (cudaError_t e = ensureLoaded(*v.fatbin); e != cudaSuccess) return e;
  try {
    address = v.fatbin->module->symbolAddress(v.name);
    size = v.fatbin->module->symbolSize(v.name);
  } catch (const runtime::Error& err) {
    return fail("symbol", cudaErrorInvalidSymbol, err.what());
  }
  return cudaSuccess;
}

cudaError_t Context::afterLaunch(runtime::LaunchReport&& report) {
  if (initcheckExit_ && report.memory.uninitialisedReads.count != 0) initcheckExit_->found = true;
  if (!report.result.ok) {
    std::string line = report.result.error.substr(0, report.result.error.find('\n'));
    std::fprintf(stderr, "warpsim: error: %s\n", line.c_str());
    if (stickyError_ == cudaSuccess) {
      stickyError_ = line.find("illegal") != std::string::npos ? cudaErrorIllegalAddress
                                                               : cudaErrorLaunchFailure;
    }
    return setError(stickyError_);
  }
  if (!options_.statsFile.empty()) reports_.push_back(std::move(report));
  return cudaSuccess;
}

cudaError_t Context::allocateManaged(uint64_t bytes, uint64_t& address) {
  uint64_t rounded = (std::max<uint64_t>(bytes, 1) + kHostPage - 1) & ~(kHostPage - 1);
  address = device_->memory().allocate(rounded, kHostPage);
  if (address == 0) return setError(cudaErrorMemoryAllocation);
  if (!mapHostPages(address, rounded)) {
    device_->free(address);
    return fail("cudaMallocManaged", cudaErrorMemoryAllocation,
                fmt::format("host address 0x{:x} ({} bytes) is in use; cannot mirror", address,
                            rounded));
  }
  std::memset(reinterpret_cast<void*>(address), 0, rounded);
  managed_.emplace_back(address, rounded);
  return cudaSuccess;
}

bool Context::inReservation(uint64_t first, uint64_t bytes) const {
  return reservedStart_ != 0 && first >= reservedStart_ &&
         first + bytes <= reservedStart_ + reservedBytes_;
}

// Host pages at [first, first + bytes): inside the reservation by changing its protection, else
// by a new mapping that never replaces anything the host has there.
bool Context::mapHostPages(uint64_t first, uint64_t bytes) {
  void* host = reinterpret_cast<void*>(first);
  if (inReservation(first, bytes)) return mprotect(host, bytes, PROT_READ | PROT_WRITE) == 0;
  return mmap(host, bytes, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == host;
}

bool Context::releaseManaged(uint64_t address) {
  auto it = std::find_if(managed_.begin(), managed_.end(),
                         [&](const auto& m) { return m.first == address; });
  if (it == managed_.end()) return false;
  void* host = reinterpret_cast<void*>(it->first);
  if (inReservation(it->first, it->second)) {
    mprotect(host, it->second, PROT_NONE);
  } else {
    munmap(host, it->second);
  }
  managed_.erase(it);
  return true;
}

bool Context::isManaged(uint64_t address) const {
  return std::any_of(managed_.begin(), managed_.end(), [&](const auto& m) {
    return address >= m.first && address - m.first < m.second;
  });
}

void Context::pushManaged() {
  for (auto [address, bytes] : managed_) {
    device_->memcpyHtoD(address, reinterpret_cast<const void*>(address), bytes);
  }
  hostMappings_.push(*device_);  // memory registered with cudaHostRegisterMapped
}

void Context::pullManaged() {
  for (auto [address, bytes] : managed_) {
    device_->memcpyDtoH(reinterpret_cast<void*>(address), address, bytes);
  }
  hostMappings_.pull(*device_);
}

MemPools& Context::pools() {
  if (!pools_) pools_ = std::make_unique<MemPools>(device_->memory());
  return *pools_;
}

cudaStream_t Context::newStream(unsigned flags, int priority) {
  streams_.push_back(std::make_unique<StreamRecord>());
  streams_.back()->flags = flags;
  streams_.back()->priority = priority;
  return reinterpret_cast<cudaStream_t>(streams_.back().get());
}

StreamRecord* Context::stream(cudaStream_t s) {
  if (s == nullptr || s == cudaStreamLegacy) return &legacyStream_;
  if (s == cudaStreamPerThread) return &perThreadStream_;
  for (const auto& p : streams_) {
    if (reinterpret_cast<cudaStream_t>(p.get()) == s) return p.get();
  }
  return nullptr;
}

bool Context::isStream(cudaStream_t s) const {
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return true;
  return std::any_of(streams_.begin(), streams_.end(),
                     [&](const auto& p) { return reinterpret_cast<cudaStream_t>(p.get()) == s; });
}

bool Context::destroyStream(cudaStream_t s) {
  auto it = std::find_if(streams_.begin(), streams_.end(), [&](const auto& p) {
    return reinterpret_cast<cudaStream_t>(p.get()) == s;
  });
  if (it == streams_.end()) return false;
  captures_.leave(**it);
  streams_.erase(it);
  return true;
}

EventRecord* Context::newEvent() {
  events_.push_back(std::make_unique<EventRecord>());
  return events_.back().get();
}

bool Context::isEvent(const EventRecord* e) const {
  return std::any_of(events_.begin(), events_.end(), [&](const auto& p) { return p.get() == e; });
}

bool Context::destroyEvent(EventRecord* e) {
  auto it = std::find_if(events_.begin(), events_.end(), [&](const auto& p) { return p.get() == e; });
  if (it == events_.end()) return false;
  events_.erase(it);
  return true;
}

uint64_t Context::launchNs(const runtime::LaunchReport& report) const {
  if (report.simulatedSeconds > 0) {
    return static_cast<uint64_t>(report.simulatedSeconds * 1e9 + 0.5);
  }
  uint64_t sms = std::max<uint32_t>(device_->properties().numSms, 1);
  return (report.warpInstructions() + sms - 1) / sms;
}

void Context::writeStats() const {
  // The layout of `warpsim run`'s workload statistics (docs/stats.md), with the program in
  // place of the workload and its verification.
  runtime::KernelStats sum = runtime::sumStats(reports_);
  uint64_t warp = 0, thread = 0;
  double seconds = 0;
  nlohmann::json kernels = nlohmann::json::array();
  for (const runtime::LaunchReport& r : reports_) {
    kernels.push_back(runtime::kernelJson(r));
    warp += r.warpInstructions();
    thread += r.threadInstructions();
    seconds += r.wallSeconds;
  }
  nlohmann::json doc;
  doc["warpsim_version"] = WARPSIM_VERSION;
  doc["program"] = program_invocation_name;
  doc["mode"] = device_->options().mode;
  doc["config"] = {{"name", device_->configTree()->name()},
                   {"overlays", options_.overlays},
                   {"sets", options_.sets},
                   {"sms", device_->properties().numSms},
                   {"resources", options_.usePtxas ? "ptxas" : "estimate"}};
  doc["kernels"] = kernels;
  doc["totals"] = {{"kernels", reports_.size()},
                   {"warp_instructions", warp},
                   {"thread_instructions", thread},
                   {"simd_efficiency", sum.simdEfficiency()},
                   {"instruction_mix", runtime::mixJson(sum)},
                   {"memory", runtime::memoryJson(sum)},
                   {"loads", sum.loads},
                   {"stores", sum.stores},
                   {"atomics", sum.atomics},
                   {"branches", sum.branches},
                   {"divergent_branches", sum.divergentBranches}};
  if (auto v = runtime::valueSimilarityTotals(reports_); !v.is_null()) doc["totals"]["value_similarity"] = std::move(v);
  doc["simulated_ns"] = clockNs_;
  doc["host"] = {{"simulation_seconds", seconds},
                 {"thread_instructions_per_second", seconds > 0 ? thread / seconds : 0.0}};
  std::ofstream out(options_.statsFile);
  if (out) out << doc.dump(2) << "\n";
  if (!out) {
    std::fprintf(stderr, "warpsim: error: cannot write stats file %s\n",
                 options_.statsFile.c_str());
  }
}

}  // namespace warpsim::cudart
