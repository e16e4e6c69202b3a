#include "runtime/gpu_properties.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "timing/mem/mem_params_config.h"

namespace warpsim::runtime {

namespace {

// The resolved value of `key` as the configuration printed it (TOML literal).
std::optional<std::string> resolved(const std::vector<config::ResolvedKey>& keys,
                                    std::string_view key) {
  for (const config::ResolvedKey& k : keys) {
    if (k.key == key) return k.value;
  }
  return std::nullopt;
}

std::optional<double> number(const std::vector<config::ResolvedKey>& keys, std::string_view key) {
  std::optional<std::string> text = resolved(keys, key);
  if (!text) return std::nullopt;
  std::string digits;
  for (char c : *text) {
    if (c != '_') digits += c;  // TOML digit separators
  }
  double v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc()) return std::nullopt;
  return v;
}

template <class T>
void set(T& field, std::optional<double> v, double scale = 1.0) {
  if (v) field = static_cast<T>(std::llround(*v * scale));
}

}  // namespace

GpuProperties gpuProperties(config::Tree& tree, uint64_t memoryBytes) {
  GpuProperties p;
  config::Section gpu = tree.section("gpu");
  const std::string cc = gpu.str("compute_capability", "2.0",
                                 "CUDA compute capability reported to programs (major.minor)");
  unsigned major = 0, minor = 0;
  if (std::sscanf(cc.c_str(), "%u.%u", &major, &minor) != 2) {
    throw config::Error(fmt::format("config: error: gpu.compute_capability '{}' is not major.minor", cc));
  }
  p.computeMajor = major;
  p.computeMinor = minor;

  const std::vector<config::ResolvedKey> keys = tree.resolved();
  if (std::optional<std::string> name = resolved(keys, "name");
      name && name->size() >= 2 && name->front() == '"') {
    p.name = name->substr(1, name->size() - 2);
  } else {
    p.name = tree.name();
  }
  set(p.numSms, number(keys, "gpu.num_sms"));
  set(p.maxThreadsPerSm, number(keys, "sm.max_threads"));
  set(p.maxBlocksPerSm, number(keys, "sm.max_ctas"));
  set(p.registersPerSm, number(keys, "sm.registers"));
  p.registersPerBlock = std::min<uint32_t>(p.registersPerSm, 65536);
  set(p.sharedBytesPerSm, number(keys, "sm.shared_bytes"));
  p.sharedBytesPerBlock = std::min<uint32_t>(p.sharedBytesPerSm, 48 * 1024);
  p.maxThreadsPerBlock = std::min<uint32_t>(p.maxThreadsPerSm, 1024);
  set(p.clockKhz, number(keys, "clocks.core"), 1000.0);
  set(p.memoryClockKhz, number(keys, "clocks.dram"), 1000.0);
  set(p.l2Bytes, number(keys, "l2.size"));
  // CUDA programs compute peak bandwidth as 2 x memory clock x bus width / 8; the model moves
  // one 32-byte burst per channel every dram.burst_cycles DRAM cycles, so the width that makes
  // that formula give the modelled bandwidth is channels x 128 / burst_cycles bits.
  const std::optional<double> channels = number(keys, "dram.channels");
  const double burst = number(keys, "dram.burst_cycles").value_or(1.0);
  if (channels && burst > 0) p.memoryBusWidthBits = static_cast<uint32_t>(*channels * 128.0 / burst);
  set(p.registerAllocationUnit, number(keys, "resources.register_allocation_unit"));
  set(p.warpAllocationGranularity, number(keys, "resources.warp_allocation_granularity"));
  set(p.sharedAllocationUnit, number(keys, "resources.shared_allocation_unit"));
  p.memoryBytes = memoryBytes;
  return p;
}

GpuProperties gpuPropertiesWithoutModel(config::Tree& tree, uint64_t memoryBytes) {
  // Defaults, documentation and ranges as the timing model reads these keys: timing/gpu.cpp
  // ([gpu].num_sms, [clocks].core), the "static" resource manager
  // (timing/static_resource_manager.cpp: [sm] limits) and the memory system (clocks.dram, l2,
  // dram: timing/mem/mem_params_config.cpp, read whole). device_properties_test checks that both
  // modes report the same properties for every bundled configuration and for an empty one.
  config::Section gpu = tree.section("gpu");
  const uint32_t numSms = gpu.u32("num_sms", 15, "streaming multiprocessors", 1, 4096);
  const double coreMhz = tree.section("clocks").f64("core", 1400.0, "SM (core) clock in MHz", 1.0, 1e6);
  config::Section sm = tree.section("sm");
  sm.u32("max_ctas", 8, "CTA slots per SM", 1, 1024);
  sm.u32("max_threads", 1536, "resident threads per SM", 32, 1 << 16);
  sm.u32("registers", 32768, "32-bit registers per SM", 1, 1 << 24);
  sm.u32("shared_bytes", 48 * 1024, "shared memory bytes per SM", 0, 1 << 30);
  config::Section r = tree.section("resources");
  r.u32("register_allocation_unit", 64, "registers are allocated per warp in multiples of this many", 1, 1 << 16);
  r.u32("warp_allocation_granularity", 2, "a CTA's warps are rounded up to a multiple of this for registers", 1, 64);
  r.u32("shared_allocation_unit", 128, "shared memory is allocated per CTA in multiples of this many bytes", 1,
        1 << 20);
  timing::mem::readMemoryParams(tree, numSms, coreMhz);
  return gpuProperties(tree, memoryBytes);
}

}  // namespace warpsim::runtime
