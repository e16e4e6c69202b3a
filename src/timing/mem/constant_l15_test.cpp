// The constant cache's second level (const.l15_*), exact to the cycle on tinyParams() (see
// latency_test.cpp: a constant miss from DRAM with a closed row takes 70 cycles, a hit 2).
// Here the constant cache holds one 64-byte line, so any other line evicts it, and the L1.5
// holds 4 lines of 256 bytes (4 constant lines each) and answers a miss in 9 cycles.
#include <gtest/gtest.h>

#include "timing/mem/mem_params_config.h"
#include "timing/mem/testing/memory_config.h"
#include "timing/mem/testing/harness.h"

namespace warpsim::timing::mem {
namespace {

using testing::Harness;
using testing::kA;
using testing::record;
using testing::tinyParams;

MemoryParams withL15() {
  MemoryParams p = tinyParams();
  p.constant.cache.sizeBytes = 64;
  p.constant.cache.assoc = 1;
  p.constant.l15 = CacheGeometry{1024, 4, 256, 64, Replacement::Lru, 1};
  p.constant.l15Latency = 9;
  validate(p);
  return p;
}

func::ExecRecord constLoad(uint64_t addr) { return record(ir::Op::Ld, ir::Space::Const, addr, 0); }

nlohmann::json constStats(Harness& h) {
  nlohmann::json s;
  h.system().reportStats(s);
  return s["const"];
}

TEST(ConstantL15, AMissTheL15HoldsIsFilledAfterItsLatency) {
  Harness h(withL15());
  EXPECT_EQ(h.latencyOf(constLoad(kA), 1), 70u);        // both levels miss: from DRAM
  EXPECT_EQ(h.latencyOf(constLoad(kA + 4), 2), 2u);      // constant-cache hit
  h.latencyOf(constLoad(kA + 0x4000), 3);                // another line evicts kA's
  EXPECT_EQ(h.latencyOf(constLoad(kA + 8), 4), 9u);      // L1.5 hit
  EXPECT_EQ(h.latencyOf(constLoad(kA + 12), 5), 2u);     // back in the constant cache
  const nlohmann::json s = constStats(h);
  EXPECT_EQ(s["accesses"], 5);
  EXPECT_EQ(s["hits"], 2);
  EXPECT_EQ(s["misses"], 3);
  EXPECT_EQ(s["l15_hits"], 1);
  EXPECT_EQ(s["l15_misses"], 2);
}

TEST(ConstantL15, OnlyTheConstantLinesFetchedAreHeld) {
  Harness h(withL15());
  h.latencyOf(constLoad(kA), 1);
  // kA + 64 is in the same 256-byte L1.5 line but was never fetched: it comes from below.
  Harness reference(tinyParams());
  reference.latencyOf(constLoad(kA), 1);
  const Cycle fromBelow = reference.latencyOf(constLoad(kA + 64), 2);
  EXPECT_GT(fromBelow, 9u);
  EXPECT_EQ(h.latencyOf(constLoad(kA + 64), 2), fromBelow);
  EXPECT_EQ(h.latencyOf(constLoad(kA), 3), 9u);  // evicted by kA + 64, still in the L1.5
  EXPECT_EQ(constStats(h)["l15_hits"], 1);
}

TEST(ConstantL15, LoadsOfALineOnItsWayFromTheL15JoinItsMiss) {
  Harness h(withL15());
  h.latencyOf(constLoad(kA), 1);
  h.latencyOf(constLoad(kA + 0x4000), 2);
  const Cycle start = h.now();
  h.issue(constLoad(kA), 3);
  h.issue(constLoad(kA + 4), 4);  // starts a cycle later, joins the MSHR
  EXPECT_EQ(h.runUntil(3) - start, 9u);
  EXPECT_EQ(h.runUntil(4) - start, 9u);
  EXPECT_EQ(constStats(h)["l15_hits"], 1);
}

TEST(ConstantL15, KernelBoundariesInvalidateIt) {
  Harness h(withL15());
  EXPECT_EQ(h.latencyOf(constLoad(kA), 1), 70u);
  h.system().beginKernel();
  EXPECT_GT(h.latencyOf(constLoad(kA), 2), 9u);  // from the L2 now, not the L1.5
  EXPECT_EQ(constStats(h)["l15_hits"], 0);
}

TEST(ConstantL15, WithoutItTheCountersStayZero) {
  Harness h(tinyParams());
  h.latencyOf(constLoad(kA), 1);
  const nlohmann::json s = constStats(h);
  EXPECT_EQ(s["misses"], 1);
  EXPECT_EQ(s["l15_hits"], 0);
  EXPECT_EQ(s["l15_misses"], 0);
}

TEST(ConstantL15, BadGeometriesAreOneLineErrors) {
  const auto error = testing::memoryConfigError;
  EXPECT_EQ(error("[const]\nl15_size = 65536\nl15_line = 32\n"),
            "config: error: const.l15_line = 32 must hold 1 to 32 constant-cache lines "
            "(const.line = 64)");
  EXPECT_EQ(error("[const]\nl15_size = 65536\nl15_line = 192\n"),
            "config: error: const.l15_line = 192 must be a power of two");
  EXPECT_EQ(error("[const]\nl15_size = 1000\nl15_assoc = 4\nl15_line = 256\n"),
            "config: error: const.l15_size = 1000 is not a multiple of l15_assoc x l15_line = 1024");
  const MemoryParams p = testing::memoryParamsOf("[const]\nl15_size = 65536\nl15_latency = 60\n");
  EXPECT_EQ(p.constant.l15.sizeBytes, 65536u);
  EXPECT_EQ(p.constant.l15.sectorBytes, 64u);
  EXPECT_EQ(p.constant.l15Latency, 60u);
}

}  // namespace
}  // namespace warpsim::timing::mem
