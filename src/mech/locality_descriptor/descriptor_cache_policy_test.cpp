// The L1 policy "descriptors" inside a real memory system (one SM, the memory tests' small
// harness parameters): NO_REUSE bypass, hard pinning with way-0 eviction and its periodic reset,
// soft pinning, the next-line and stride prefetches, each switch, and the statistics.
#include "mech/locality_descriptor/descriptor_cache_policy.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hints/launch_hints.h"
#include "timing/mem/memory_system.h"
#include "timing/mem/testing/harness.h"

namespace warpsim::mech::locality_descriptor {
namespace {

using timing::Cycle;
using namespace timing::mem;

constexpr uint64_t kBase = 0x7f00'0001'0000ull;  // the described structure
constexpr uint64_t kOther = 0x7f00'0100'0000ull;  // no descriptor covers it
constexpr Cycle kHit = 5;                          // the harness's L1 hit latency

// Baseline plug-ins but the L1 policy.
class Plugins final : public MemoryPlugins {
 public:
  explicit Plugins(DescriptorPolicyOptions o) : options_(o) {}
  std::unique_ptr<ICachePolicy> cachePolicy(const ICachePolicy::Context& c) override {
    if (std::string(c.level) == "l2") return base_.cachePolicy(c);
    return std::make_unique<DescriptorCachePolicy>(options_, c.lineBytes);
  }
  std::unique_ptr<IMemoryCompression> compression(const IMemoryCompression::Context& c) override {
    return base_.compression(c);
  }
  std::unique_ptr<ILocalMemoryPath> localPath(const ILocalMemoryPath::Context& c) override {
    return base_.localPath(c);
  }
  std::unique_ptr<IAddressMapping> addressMapping(const IAddressMapping::Context& c) override {
    return base_.addressMapping(c);
  }

 private:
  DescriptorPolicyOptions options_;
  BaselineMemoryPlugins base_;
};

// A 64-column float matrix of `rows` rows at kBase, one D-Tile, read by one CTA.
hints::LocalityDescriptor matrix(int32_t type, int32_t sharing, int32_t pattern, uint32_t rows) {
  hints::LocalityDescriptor d{};
  d.base = reinterpret_cast<const void*>(kBase);
  d.dims = {64, rows, 1};
  d.element_bytes = 4;
  d.type = type;
  d.data_tile = {64, rows, 1};
  d.compute_tile = {1, 1, 1};
  d.compute_data_map = {1, 0, 0};
  d.sharing = sharing;
  d.pattern = pattern;
  d.stride = 64;  // a row
  d.priority = 1;
  return d;
}

struct Sim {
  Sim(const hints::LocalityDescriptor* d, DescriptorPolicyOptions o = {},
      MemoryParams p = timing::mem::testing::tinyParams())
      : plugins(o), sys(p, plugins) {
    if (d != nullptr) hints.locality.push_back(*d);
    const uint32_t grid[3] = {1, 1, 1};
    sys.unit(0).beginLaunch(d != nullptr ? &hints : nullptr, grid, 0);
  }
  Cycle load(uint64_t addr) {
    const Cycle start = now;
    sys.unit(0).accept(timing::mem::testing::record(ir::Op::Ld, ir::Space::Global, addr, 0), 1,
                       now);
    for (; now < start + 10000; ++now) {
      sys.advanceTo(now * 1000);
      sys.unit(0).cycle(now);
      uint32_t token;
      if (sys.unit(0).popCompleted(token)) return now++ - start;
    }
    return timing::kNever;
  }
  void idle(Cycle cycles) {
    for (const Cycle until = now + cycles; now < until; ++now) {
      sys.advanceTo(now * 1000);
      sys.unit(0).cycle(now);
    }
  }
  nlohmann::json stats() {
    nlohmann::json s;
    sys.reportStats(s);
    return s;
  }
  hints::LaunchHints hints;
  Plugins plugins;
  MemorySystemImpl sys;
  Cycle now = 0;
};

// One set of two ways.
MemoryParams oneSetTwoWays() {
  MemoryParams p = timing::mem::testing::tinyParams();
  p.l1.cache.sizeBytes = 256;
  p.l1.cache.assoc = 2;
  return p;
}

TEST(DescriptorCachePolicy, NoReuseDataBypassesTheL1) {
  const auto d = matrix(WARPSIM_NO_REUSE, WARPSIM_COACCESSED, WARPSIM_REGULAR, 64);
  Sim r(&d);
  EXPECT_GT(r.load(kBase), kHit);
  EXPECT_GT(r.load(kBase), kHit);  // not kept
  EXPECT_GT(r.load(kOther), kHit);
  EXPECT_EQ(r.load(kOther), kHit);  // outside the structure: cached
  const nlohmann::json s = r.stats();
  EXPECT_EQ(s["l1d"]["misses"], 3);
  EXPECT_EQ(s["l1d"]["hits"], 1);
  const nlohmann::json& e = s["l1d_policy"]["descriptors"][0];
  EXPECT_EQ(e["type"], "NO_REUSE");
  EXPECT_EQ(e["reads"], 2);
  EXPECT_EQ(e["read_hits"], 0);
  EXPECT_EQ(e["bypassed"], 2);
  // Searches: one per line while the same line comes back (the last result is remembered).
  EXPECT_EQ(s["l1d_policy"]["lookups"], 2);
}

TEST(DescriptorCachePolicy, BypassSwitchedOffCachesNoReuseData) {
  const auto d = matrix(WARPSIM_NO_REUSE, WARPSIM_COACCESSED, WARPSIM_REGULAR, 64);
  DescriptorPolicyOptions o;
  o.bypass = false;
  Sim r(&d, o);
  EXPECT_GT(r.load(kBase), kHit);
  EXPECT_EQ(r.load(kBase), kHit);
  EXPECT_EQ(r.stats()["l1d_policy"]["descriptors"][0]["bypassed"], 0);
}

TEST(DescriptorCachePolicy, HardPinnedSetEvictsWayZeroOnly) {
  const auto d = matrix(WARPSIM_INTRA_THREAD, WARPSIM_COACCESSED, WARPSIM_REGULAR, 64);
  Sim r(&d, {}, oneSetTwoWays());
  const uint64_t a = kBase, b = kBase + 128, c = kBase + 256, e = kBase + 384;
  r.load(a);  // way 0
  r.load(b);  // way 1
  r.load(c);  // both hard-pinned: way 0 (a) goes
  EXPECT_EQ(r.load(b), kHit);  // b, the least recently used, stays
  r.load(e);                   // way 0 again (c)
  EXPECT_EQ(r.load(b), kHit);
  EXPECT_GT(r.load(c), kHit);
  const nlohmann::json s = r.stats();
  EXPECT_EQ(s["l1d"]["pinned_evictions"], 3);
  EXPECT_EQ(s["l1d"]["pin_resets"], 0);
  EXPECT_EQ(s["l1d_policy"]["descriptors"][0]["hard_pins"], 5);
  EXPECT_EQ(s["l1d_policy"]["descriptors"][0]["read_hits"], 2);
}

// Three lines read in turn, three times, through two ways: LRU misses every time; with hard
// pinning way 0 takes the misses and the line in way 1 hits from the second round on.
uint64_t cyclicHits(bool pinning, uint64_t* pinnedEvictions) {
  const auto d = matrix(WARPSIM_INTRA_THREAD, WARPSIM_COACCESSED, WARPSIM_REGULAR, 64);
  DescriptorPolicyOptions o;
  o.pinning = pinning;
  Sim r(&d, o, oneSetTwoWays());
  for (int round = 0; round < 3; ++round) {
    for (uint64_t line = 0; line < 3; ++line) r.load(kBase + line * 128);
  }
  const nlohmann::json s = r.stats();
  *pinnedEvictions = s["l1d"]["pinned_evictions"].get<uint64_t>();
  return s["l1d"]["hits"].get<uint64_t>();
}

TEST(DescriptorCachePolicy, HardPinningKeepsPartOfAThrashingWorkingSet) {
  uint64_t pinned = 0;
  EXPECT_EQ(cyclicHits(true, &pinned), 2u);
  EXPECT_EQ(pinned, 5u);
  EXPECT_EQ(cyclicHits(false, &pinned), 0u);
  EXPECT_EQ(pinned, 0u);
}

TEST(DescriptorCachePolicy, TheTimerClearsHardPins) {
  const auto d = matrix(WARPSIM_INTRA_THREAD, WARPSIM_COACCESSED, WARPSIM_REGULAR, 64);
  DescriptorPolicyOptions o;
  o.unpinPeriod = 1000;
  Sim r(&d, o, oneSetTwoWays());
  const uint64_t a = kBase, b = kBase + 128, c = kBase + 256;
  r.load(a);
  r.load(b);
  EXPECT_EQ(r.load(a), kHit);  // b is now the least recently used
  r.idle(1000);
  r.load(c);  // the reset came first: plain LRU evicts b, not way 0 (a)
  EXPECT_EQ(r.load(a), kHit);
  EXPECT_GT(r.load(b), kHit);
  const nlohmann::json s = r.stats();
  EXPECT_EQ(s["l1d"]["pin_resets"], 1);
  // b's return evicts a (unpinned since the reset) before c (hard-pinned when installed).
  EXPECT_EQ(s["l1d"]["pinned_evictions"], 0);
}

TEST(DescriptorCachePolicy, SoftPinnedDataOutlivesOtherData) {
  const auto d = matrix(WARPSIM_INTER_THREAD, WARPSIM_COACCESSED, WARPSIM_IRREGULAR, 64);
  Sim r(&d, {}, oneSetTwoWays());
  r.load(kBase);           // soft-pinned
  r.load(kOther);          // not pinned
  r.load(kOther + 128);    // evicts kOther though kBase is older
  EXPECT_EQ(r.load(kBase), kHit);
  EXPECT_GT(r.load(kOther), kHit);
  const nlohmann::json s = r.stats();
  EXPECT_EQ(s["l1d_policy"]["descriptors"][0]["soft_pins"], 1);
  EXPECT_EQ(s["l1d"]["pinned_evictions"], 0);
}

TEST(DescriptorCachePolicy, NearbyDataPrefetchesTheNextLine) {
  const auto d = matrix(WARPSIM_INTER_THREAD, WARPSIM_NEARBY, WARPSIM_REGULAR, 64);
  Sim r(&d);
  EXPECT_GT(r.load(kBase), kHit);
  r.idle(200);
  EXPECT_EQ(r.load(kBase + 128), kHit);  // brought by the prefetch
  const nlohmann::json s = r.stats();
  EXPECT_EQ(s["l1d"]["prefetches"], 1);  // a hit triggers none
  EXPECT_EQ(s["l1d"]["prefetch_hits"], 1);
  EXPECT_EQ(s["l1d"]["prefetch_late"], 0);
  EXPECT_EQ(s["l1d_policy"]["descriptors"][0]["prefetches"], 1);
}

TEST(DescriptorCachePolicy, ALoadRightBehindThePrefetchIsLate) {
  const auto d = matrix(WARPSIM_INTER_THREAD, WARPSIM_NEARBY, WARPSIM_REGULAR, 64);
  Sim r(&d);
  r.load(kBase);
  const Cycle late = r.load(kBase + 128);  // the prefetch's fill is a cycle behind the miss's
  EXPECT_LT(late, 10u);
  const nlohmann::json s = r.stats();
  EXPECT_EQ(s["l1d"]["prefetch_late"], 1);
  EXPECT_EQ(s["l1d"]["prefetch_hits"], 0);
}

TEST(DescriptorCachePolicy, CoaccessedRegularDataPrefetchesRowsAhead) {
  // 16 KB L1, one active tile 256 bytes wide: 64 rows ahead, 16 KB further.
  const auto d = matrix(WARPSIM_INTER_THREAD, WARPSIM_COACCESSED, WARPSIM_REGULAR, 256);
  Sim r(&d);
  r.load(kBase + 8);
  r.idle(200);
  EXPECT_EQ(r.load(kBase + 64 * 256), kHit);
  EXPECT_GT(r.load(kBase + 65 * 256), kHit);  // not fetched; its own prefetch is row 129
  r.idle(200);
  EXPECT_EQ(r.load(kBase + 129 * 256), kHit);
  const nlohmann::json s = r.stats();
  EXPECT_EQ(s["l1d"]["prefetches"], 2);
  EXPECT_EQ(s["l1d"]["prefetch_hits"], 2);
  EXPECT_EQ(s["l1d"]["prefetch_unused"], 0);
}

TEST(DescriptorCachePolicy, PrefetchSwitchedOffFetchesNothing) {
  const auto d = matrix(WARPSIM_INTER_THREAD, WARPSIM_NEARBY, WARPSIM_REGULAR, 64);
  DescriptorPolicyOptions o;
  o.prefetch = false;
  Sim r(&d, o);
  r.load(kBase);
  r.idle(200);
  EXPECT_GT(r.load(kBase + 128), kHit);
  EXPECT_EQ(r.stats()["l1d"]["prefetches"], 0);
}

TEST(DescriptorCachePolicy, ALaunchWithoutDescriptorsIsTheBaseline) {
  Sim r(nullptr, {}, oneSetTwoWays());
  r.load(kBase);
  EXPECT_EQ(r.load(kBase), kHit);
  const nlohmann::json s = r.stats();
  EXPECT_FALSE(s.contains("l1d_policy"));
  EXPECT_EQ(s["l1d"]["prefetches"], 0);
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
