#include "timing/sm_resource_limits.h"

namespace warpsim::timing {

SmResourceLimits SmResourceLimits::read(config::Tree& tree) {
  SmResourceLimits l;
  config::Section sm = tree.section("sm");
  l.maxWarps = sm.u32("max_warps", 48, "warp slots per SM", 1, 64);
  l.maxCtas = sm.u32("max_ctas", 8, "CTA slots per SM", 1, 1024);
  l.maxThreads = sm.u32("max_threads", 1536, "resident threads per SM", 32, 1 << 16);
  l.registers = sm.u32("registers", 32768, "32-bit registers per SM", 1, 1 << 24);
  l.sharedBytes = sm.u32("shared_bytes", 48 * 1024, "shared memory bytes per SM", 0, 1 << 30);
  config::Section r = tree.section("resources");
  l.registerUnit = r.u32("register_allocation_unit", 64,
                         "registers are allocated per warp in multiples of this many", 1, 1 << 16);
  l.warpGranularity = r.u32("warp_allocation_granularity", 2,
                            "the register file's partitions, each holding whole warps", 1, 64);
  l.sharedUnit = r.u32("shared_allocation_unit", 128,
                       "shared memory is allocated per CTA in multiples of this many bytes", 1, 1 << 20);
  l.maxRegsPerThread = r.u32("max_registers_per_thread", 63, "the most registers one thread may use", 1, 1024);
  return l;
}

}  // namespace warpsim::timing
