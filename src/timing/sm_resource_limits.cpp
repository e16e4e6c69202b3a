#include "timing/sm_resource_limits.h"

#include <fmt/format.h>

#include <charconv>

namespace warpsim::timing {

namespace {

// "0,8,16,32,64,96" (KB) -> bytes; "" when the text is not such a list.
std::vector<uint32_t> parseKilobytes(const std::string& text, std::string* why) {
  std::vector<uint32_t> out;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    size_t b = at, e = end;
    while (b < e && text[b] == ' ') ++b;
    while (e > b && text[e - 1] == ' ') --e;
    uint32_t kb = 0;
    auto [ptr, ec] = std::from_chars(text.data() + b, text.data() + e, kb);
    if (b == e || ec != std::errc() || ptr != text.data() + e || kb > (1u << 20)) {
      *why = fmt::format("'{}' is not a number of kilobytes (expected a list such as "
                         "\"0,8,16,32,64,96\")",
                         text.substr(b, e - b));
      return {};
    }
    if (!out.empty() && kb * 1024 <= out.back()) {
      *why = "the sizes must be ascending";
      return {};
    }
    out.push_back(kb * 1024);
    at = end + 1;
  }
  return out;
}

}  // namespace

SmResourceLimits SmResourceLimits::read(config::Tree& tree) {
  SmResourceLimits l;
  config::Section sm = tree.section("sm");
  l.maxWarps = sm.u32("max_warps", 48, "warp slots per SM", 1, 64);
  l.maxCtas = sm.u32("max_ctas", 8, "CTA slots per SM", 1, 1024);
  l.maxThreads = sm.u32("max_threads", 1536, "resident threads per SM", 32, 1 << 16);
  l.registers = sm.u32("registers", 32768, "32-bit registers per SM", 1, 1 << 24);
  l.sharedBytes = sm.u32("shared_bytes", 48 * 1024,
                         "shared memory bytes per SM (with l1_shared_bytes: the largest carve-out)",
                         0, 1 << 30);
  l.unifiedBytes = sm.u32("l1_shared_bytes", 0,
                          "bytes of the array the L1 data cache and shared memory share; each "
                          "kernel gets one of shared_carveouts as shared memory and the L1 the "
                          "rest, as the driver chooses (0: fixed sizes, l1.size and shared_bytes)",
                          0, 1 << 30);
  const uint32_t largest = l.sharedBytes;
  const std::string list = sm.word(
      "shared_carveouts", "",
      "with l1_shared_bytes: the shared-memory sizes a kernel may get, in KB, ascending, the "
      "last equal to shared_bytes (\"0,8,16,32,64,96\" on compute capability 7.0)",
      [&](const std::string& text) -> std::string {
        if (l.unifiedBytes == 0) return text.empty() ? "" : "needs sm.l1_shared_bytes";
        std::string why;
        std::vector<uint32_t> sizes = parseKilobytes(text, &why);
        if (!why.empty()) return why;
        if (sizes.back() != largest)
          return fmt::format("the largest size, {} KB, must equal sm.shared_bytes ({} bytes)",
                             sizes.back() / 1024, largest);
        if (sizes.back() > l.unifiedBytes)
          return fmt::format("{} KB exceeds sm.l1_shared_bytes ({} bytes)", sizes.back() / 1024,
                             l.unifiedBytes);
        return "";
      });
  if (l.unifiedBytes != 0) {
    if (l.sharedBytes > l.unifiedBytes) {
      throw config::Error(fmt::format(
          "config: error: sm.shared_bytes = {} exceeds sm.l1_shared_bytes = {} (the array it is "
          "carved from)",
          l.sharedBytes, l.unifiedBytes));
    }
    std::string why;
    l.sharedCarveouts = list.empty() ? std::vector<uint32_t>{l.sharedBytes} : parseKilobytes(list, &why);
  }
  config::Section r = tree.section("resources");
  l.registerUnit = r.u32("register_allocation_unit", 64,
                         "registers are allocated per warp in multiples of this many", 1, 1 << 16);
  l.warpGranularity = r.u32("warp_allocation_granularity", 2,
                            "the register file's partitions, each holding whole warps", 1, 64);
  l.sharedUnit = r.u32("shared_allocation_unit", 128,
                       "shared memory is allocated per CTA in multiples of this many bytes", 1, 1 << 20);
  l.sharedReservedPerCta =
      r.u32("shared_reserved_per_cta", 0,
            "shared memory bytes the system reserves per CTA, counted against the SM's shared "
            "memory (1024 from compute capability 8.0 on)",
            0, 1 << 20);
  l.maxRegsPerThread = r.u32("max_registers_per_thread", 63, "the most registers one thread may use", 1, 1024);
  return l;
}

}  // namespace warpsim::timing
