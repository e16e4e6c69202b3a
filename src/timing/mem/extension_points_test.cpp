// The memory extension points: a local-memory path, cache-policy hooks and compression plugged
// in through MemoryPlugins, and the baselines' registration by name.
#include <gtest/gtest.h>

#include <bit>
#include <functional>

#include "func/address_space.h"
#include "timing/mem/baseline_plugins.h"
#include "timing/mem/register_memory_baselines.h"
#include "timing/mem/testing/harness.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing::mem {
namespace {

using testing::kA;
using testing::record;
using testing::tinyParams;

// Serves every local load whose lanes all loaded 0 (from the loaded values), in 9 cycles.
class ZeroLoadPath final : public ILocalMemoryPath {
 public:
  Outcome access(const Access& a, Cycle) override {
    ++calls;
    lastMask = a.mask;
    lastOffset = a.offset[0];
    if (a.store) return {};
    for (uint32_t m = a.mask; m; m &= m - 1) {
      if (a.record->dstValues[0][std::countr_zero(m)] != 0) return {};
    }
    return {a.mask, 9};
  }
  int calls = 0;
  uint32_t lastMask = 0;
  uint64_t lastOffset = 0;
};

// Bypasses every miss and prefetches the next line after every read.
class BypassPrefetchPolicy final : public ICachePolicy {
 public:
  explicit BypassPrefetchPolicy(bool bypassAll) : bypassAll_(bypassAll) {}
  bool bypass(const CacheAccessInfo&) override { return bypassAll_; }
  InsertPosition insertion(const CacheAccessInfo&) override { return InsertPosition::Mru; }
  PinKind pin(const CacheAccessInfo&) override { return PinKind::None; }
  uint32_t prefetch(const CacheAccessInfo& a, uint64_t* lines, uint32_t max) override {
    if (bypassAll_ || max == 0) return 0;
    lines[0] = a.line + 128;
    return 1;
  }

 private:
  bool bypassAll_;
};

// Soft-pins every line while `*wanted`; counts the pin() calls of hits; pins follow use when
// `follow`.
class FollowUsePinPolicy final : public ICachePolicy {
 public:
  FollowUsePinPolicy(bool follow, const bool* wanted, int* hitPins)
      : follow_(follow), wanted_(wanted), hitPins_(hitPins) {}
  bool bypass(const CacheAccessInfo&) override { return false; }
  InsertPosition insertion(const CacheAccessInfo&) override { return InsertPosition::Mru; }
  PinKind pin(const CacheAccessInfo& a) override {
    if (a.hit) ++*hitPins_;
    return *wanted_ ? PinKind::Soft : PinKind::None;
  }
  uint32_t prefetch(const CacheAccessInfo&, uint64_t*, uint32_t) override { return 0; }
  bool pinsFollowUse() const override { return follow_; }

 private:
  bool follow_;
  const bool* wanted_;
  int* hitPins_;
};

// Every line compresses to one burst, with 2 cycles to decompress.
class OneBurstCompression final : public IMemoryCompression {
 public:
  CompressedTransfer transfer(uint64_t, uint32_t, bool) override { return {1, 2}; }
};

// Every line is read whole in one burst with a metadata read beside it; replies carry 8 bytes.
class WholeLineCompression final : public IMemoryCompression {
 public:
  CompressedTransfer transfer(uint64_t, uint32_t, bool write) override {
    CompressedTransfer t;
    t.bursts = 1;
    t.sectors = 0xF;
    t.metadataRead = 0x40'0000'0000ull;
    if (write) t.readFirstBursts = 2;
    return t;
  }
  ReplyCost reply(uint64_t, uint32_t, uint32_t, bool) override { return {8, 0, format}; }
  uint32_t maxSideRequests() const override { return 2; }
  uint32_t storedBytes(uint64_t line) override {
    ++sized;
    return line == wholeAt ? 0 : stored;
  }
  uint8_t format = 0;
  uint32_t stored = 0;  // bytes of L2 data per line (0: whole) ...
  uint64_t wholeAt = 1;  // ... but this line's, whole
  uint32_t sized = 0;
};

// Holds every reply in another form and remembers it.
struct HoldingListener final : ReplyListener {
  bool holdReply(uint64_t line, uint32_t sectors, uint8_t f, uint32_t slot, uint32_t t,
                 Cycle now) override {
    held.push_back({line, sectors, f, slot, t, now});
    return true;
  }
  struct Held {
    uint64_t line;
    uint32_t sectors;
    uint8_t format;
    uint32_t slot, ticket;
    Cycle at;
  };
  std::vector<Held> held;
};

// Holds (or refuses) every whole-line store offered to it and remembers it.
struct HoldingStoreListener final : StoreListener {
  bool holdStore(uint64_t line, uint32_t slot, uint32_t t, Cycle now) override {
    offered.push_back({line, slot, t, now});
    return hold;
  }
  struct Offered {
    uint64_t line;
    uint32_t slot, ticket;
    Cycle at;
  };
  bool redoStore(uint64_t line, uint8_t f, uint32_t slot, uint32_t t, Cycle now) override {
    redone.push_back({line, f, slot, t, now});
    return hold;
  }
  struct Redone {
    uint64_t line;
    uint8_t format;
    uint32_t slot, ticket;
    Cycle at;
  };
  std::vector<Offered> offered;
  std::vector<Redone> redone;
  bool hold = true;
};

// No compression; records the form of every store reaching the L2.
struct StoreForm {
  uint64_t line;
  uint32_t sectors;
  uint8_t format;
};
// With refusePartial, the L2 refuses every plain write of part of a line it holds whole and
// sends the line back in form 5, 20 bytes long.
class StoreFormCompression final : public IMemoryCompression {
 public:
  StoreFormCompression(std::vector<StoreForm>& writes, bool refusePartial)
      : writes_(writes), refusePartial_(refusePartial) {}
  bool refusesWrite(uint64_t, uint32_t) override { return refusePartial_; }
  ReplyCost reply(uint64_t, uint32_t, uint32_t bytes, bool) override {
    return refusePartial_ ? ReplyCost{20, 0, 5} : ReplyCost{bytes, 0, 0};
  }
  CompressedTransfer transfer(uint64_t, uint32_t sectors, bool) override {
    return {static_cast<uint32_t>(std::popcount(sectors))};
  }
  void written(uint64_t line, uint32_t sectors, uint8_t format) override {
    writes_.push_back({line, sectors, format});
  }

 private:
  std::vector<StoreForm>& writes_;
  const bool refusePartial_;
};

struct TestPlugins final : MemoryPlugins {
  std::unique_ptr<ICachePolicy> cachePolicy(const ICachePolicy::Context& c) override {
    if (std::string(c.level) == "l1" && l1Policy) return l1Policy(c);
    if (std::string(c.level) == "l2" && l2Policy) {
      ++l2Slices;
      return l2Policy(c);
    }
    return std::make_unique<LruAllocatePolicy>();
  }
  std::unique_ptr<IMemoryCompression> compression(const IMemoryCompression::Context&) override {
    if (oneBurst) return std::make_unique<OneBurstCompression>();
    if (recordStores) return std::make_unique<StoreFormCompression>(stores, refusePartial);
    if (wholeLine) {
      auto c = std::make_unique<WholeLineCompression>();
      c->format = replyFormat;
      c->stored = storedBytes;
      c->wholeAt = wholeAt;
      return c;
    }
    return std::make_unique<NoCompression>();
  }
  std::unique_ptr<ILocalMemoryPath> localPath(const ILocalMemoryPath::Context&) override {
    if (!zeroPath) return std::make_unique<NoLocalMemoryPath>();
    auto p = std::make_unique<ZeroLoadPath>();
    path = p.get();
    return p;
  }
  std::unique_ptr<IAddressMapping> addressMapping(const IAddressMapping::Context& c) override {
    return base.addressMapping(c);
  }
  BaselineMemoryPlugins base;
  std::function<std::unique_ptr<ICachePolicy>(const ICachePolicy::Context&)> l1Policy, l2Policy;
  uint32_t l2Slices = 0;  // l2Policy's instances
  bool oneBurst = false, zeroPath = false, wholeLine = false, recordStores = false,
       refusePartial = false;
  std::vector<StoreForm> stores;
  uint8_t replyFormat = 0;
  uint32_t storedBytes = 0;
  uint64_t wholeAt = 1;
  ZeroLoadPath* path = nullptr;
};

// Steps a MemorySystemImpl built with custom plug-ins (the harness uses the baselines).
struct Driver {
  Driver(const MemoryParams& p, TestPlugins& plugins) : sys(p, plugins) {}
  Cycle latency(const func::ExecRecord& r) {
    const Cycle start = now;
    sys.unit(0).accept(r, 1, now);
    for (; now < start + 10000; ++now) {
      sys.advanceTo(now * 1000);
      sys.unit(0).cycle(now);
      uint32_t token;
      if (sys.unit(0).popCompleted(token)) return now++ - start;
    }
    return kNever;
  }
  // Steps `cycles` cycles.
  void run(Cycle cycles) {
    for (const Cycle until = now + cycles; now < until; ++now) {
      sys.advanceTo(now * 1000);
      sys.unit(0).cycle(now);
    }
  }
  // Steps up to `cycles` cycles until an instruction completes; false when none did.
  bool runUntilCompleted(Cycle cycles, uint32_t& token) {
    for (const Cycle until = now + cycles; now < until; ++now) {
      sys.advanceTo(now * 1000);
      sys.unit(0).cycle(now);
      if (sys.unit(0).popCompleted(token)) {
        ++now;
        return true;
      }
    }
    return false;
  }
  MemorySystemImpl sys;
  Cycle now = 0;
};

TEST(LocalMemoryPath, ServedLanesSkipTheL1) {
  TestPlugins plugins;
  plugins.zeroPath = true;
  Driver d(tinyParams(), plugins);
  uint64_t zeros[32] = {}, ones[32];
  std::fill(std::begin(ones), std::end(ones), 1);
  func::ExecRecord r = record(ir::Op::Ld, ir::Space::Local, 8, 0);
  r.numDstRegs = 1;
  r.dstValues[0] = zeros;
  EXPECT_EQ(d.latency(r), 9u);
  EXPECT_EQ(plugins.path->calls, 1);
  EXPECT_EQ(plugins.path->lastMask, ~0u);
  EXPECT_EQ(plugins.path->lastOffset, 8u);
  r.dstValues[0] = ones;  // not served: through the L1 (a miss to DRAM)
  EXPECT_EQ(d.latency(r), 74u);
  // Generic addresses arrive as local offsets.
  func::ExecRecord g = record(ir::Op::Ld, ir::Space::Generic, func::kLocalWindow + 12, 0);
  for (auto& s : g.laneSpace) s = ir::Space::Local;
  g.numDstRegs = 1;
  g.dstValues[0] = zeros;
  EXPECT_EQ(d.latency(g), 9u);
  EXPECT_EQ(plugins.path->lastOffset, 12u);
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["l1d"]["accesses"], 1);
}

TEST(CachePolicy, BypassKeepsLinesOutOfTheL1) {
  TestPlugins plugins;
  plugins.l1Policy = [](const ICachePolicy::Context&) {
    return std::make_unique<BypassPrefetchPolicy>(true);
  };
  Driver d(tinyParams(), plugins);
  const auto load = record(ir::Op::Ld, ir::Space::Global, kA, 4);
  EXPECT_EQ(d.latency(load), 74u);
  EXPECT_EQ(d.latency(load), 46u);  // missed the L1 again, hit the L2
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["l1d"]["misses"], 2);
}

TEST(CachePolicy, PrefetchBringsTheNextLine) {
  TestPlugins plugins;
  plugins.l1Policy = [](const ICachePolicy::Context&) {
    return std::make_unique<BypassPrefetchPolicy>(false);
  };
  Driver d(tinyParams(), plugins);
  d.latency(record(ir::Op::Ld, ir::Space::Global, kA, 4));
  for (int i = 0; i < 200; ++i) d.latency(record(ir::Op::Ld, ir::Space::Global, 0, 0, 4, 0));
  EXPECT_EQ(d.latency(record(ir::Op::Ld, ir::Space::Global, kA + 128, 4)), 5u);
}

uint32_t pinnedL2Lines(MemorySystemImpl& sys, uint32_t slices) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < slices; ++i) {
    const CacheTags& t = sys.slice(i).tags();
    for (uint32_t set = 0; set < t.sets(); ++set) {
      for (uint32_t way = 0; way < t.ways(); ++way) n += t.line(set, way).allocated && t.line(set, way).pin != PinKind::None;
    }
  }
  return n;
}

// Loads kA twice per call through an L1 that keeps nothing: a miss or hit at the L2, then a hit.
struct PinFollowing {
  explicit PinFollowing(bool follow) {
    plugins.l1Policy = [](const ICachePolicy::Context&) { return std::make_unique<BypassPrefetchPolicy>(true); };
    plugins.l2Policy = [this, follow](const ICachePolicy::Context&) {
      return std::make_unique<FollowUsePinPolicy>(follow, &wanted, &hitPins);
    };
    d = std::make_unique<Driver>(tinyParams(), plugins);
  }
  void launch() {
    const uint32_t grid[3] = {1, 1, 1};
    d->sys.beginLaunch(nullptr, grid, 1);
  }
  void load() { d->latency(record(ir::Op::Ld, ir::Space::Global, kA, 4)); }
  uint32_t pinned() { return pinnedL2Lines(d->sys, plugins.l2Slices); }
  bool wanted = true;
  int hitPins = 0;
  TestPlugins plugins;
  std::unique_ptr<Driver> d;
};

TEST(CachePolicy, AnL2PolicysPinsThatFollowUseAreClearedAtALaunchAndRenewedByReadHits) {
  PinFollowing f(true);
  f.launch();
  f.load();  // installed, pinned
  EXPECT_EQ(f.pinned(), 1u);
  EXPECT_EQ(f.hitPins, 0);
  f.load();  // an L2 hit renews the pin
  EXPECT_EQ(f.hitPins, 1);
  EXPECT_EQ(f.pinned(), 1u);
  f.launch();  // the next launch clears it
  EXPECT_EQ(f.pinned(), 0u);
  f.load();  // a hit pins it again
  EXPECT_EQ(f.hitPins, 2);
  EXPECT_EQ(f.pinned(), 1u);
  f.wanted = false;  // the program moved on: the next hit releases it
  f.load();
  EXPECT_EQ(f.hitPins, 3);
  EXPECT_EQ(f.pinned(), 0u);
}

TEST(CachePolicy, AnL2PolicysPinsStayUntilEvictedOtherwise) {
  PinFollowing f(false);
  f.launch();
  f.load();
  f.load();
  f.launch();
  f.wanted = false;
  f.load();
  EXPECT_EQ(f.hitPins, 0);  // pin() is asked only at installs
  EXPECT_EQ(f.pinned(), 1u);
}

TEST(MemoryCompression, BurstsComeFromTheCompressor) {
  TestPlugins plugins;
  plugins.oneBurst = true;
  Driver d(tinyParams(), plugins);
  // One burst instead of four (3 cycles less) and 2 cycles of decompression: 74 - 3 + 2.
  EXPECT_EQ(d.latency(record(ir::Op::Ld, ir::Space::Global, kA, 4)), 73u);
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["dram"]["read_bursts"], 1);
}

TEST(MemoryCompression, AWidenedReadFillsTheWholeLineAndSideReadsUseTheBus) {
  TestPlugins plugins;
  plugins.wholeLine = true;
  Driver d(tinyParams(), plugins);
  // One sector (every lane loads one word).
  const Cycle miss = d.latency(record(ir::Op::Ld, ir::Space::Global, kA, 0));
  // Another sector of the line: the L1 misses (it filled one sector), the L2 has them all.
  const Cycle hit = d.latency(record(ir::Op::Ld, ir::Space::Global, kA + 64, 0));
  // An L2 hit is 46 cycles with a 4-sector reply (4 flits of 32 bytes + the header spill
  // into a 5th: tinyParams); this reply is 8 + 8 header bytes, one flit: 4 cycles less.
  EXPECT_EQ(hit, 42u);
  // The miss reads the metadata (a burst in another row, queued first) and one data burst.
  EXPECT_EQ(miss, 73u);
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["dram"]["read_bursts"], 2);  // the line's burst and the metadata burst
  EXPECT_EQ(s["l2"]["misses"], 1);
  // Replies of 8 bytes: one flit each with the 8-byte header (32-byte flits), where a
  // 32-byte sector would take two.
  EXPECT_EQ(s["icnt"]["flits"], 4);  // and two one-flit read requests
}

TEST(MemoryCompression, RepliesInAnotherFormWaitForTheListenersRelease) {
  TestPlugins plugins;
  plugins.wholeLine = true;
  plugins.replyFormat = 3;
  Driver d(tinyParams(), plugins);
  HoldingListener listener;
  d.sys.unit(0).setReplyListener(&listener);
  func::ExecRecord r = record(ir::Op::Ld, ir::Space::Global, kA, 0);
  r.warpSlot = 5;
  d.sys.unit(0).accept(r, 1, d.now);
  uint32_t token = 0;
  for (; d.now < 200; ++d.now) {
    d.sys.advanceTo(d.now * 1000);
    d.sys.unit(0).cycle(d.now);
    ASSERT_FALSE(d.sys.unit(0).popCompleted(token)) << "completed while held";
  }
  ASSERT_EQ(listener.held.size(), 1u);
  EXPECT_EQ(listener.held[0].line, kA);
  EXPECT_EQ(listener.held[0].format, 3u);
  EXPECT_EQ(listener.held[0].slot, 5u);
  EXPECT_EQ(listener.held[0].at, 73u);  // when the miss above completed, it is held instead
  EXPECT_FALSE(d.sys.unit(0).idle());
  d.sys.unit(0).releaseReply(listener.held[0].ticket, d.now);
  d.sys.unit(0).cycle(++d.now);
  // The fill completes the load at once (it waited in the L1's MSHR).
  ASSERT_TRUE(d.sys.unit(0).popCompleted(token));
  EXPECT_EQ(token, 1u);
  // Another sector of the line: the L1 holds only the released sector; the L2 reply is held too.
  EXPECT_EQ(d.latency(record(ir::Op::Ld, ir::Space::Global, kA + 64, 0)), kNever);
  EXPECT_EQ(listener.held.size(), 2u);
}

// Issues `r` and releases every reply or hit the listener holds `wait` cycles after it held it;
// returns the cycles to completion (kNever after 2000).
Cycle latencyReleasing(Driver& d, HoldingListener& listener, const func::ExecRecord& r,
                       Cycle wait) {
  const Cycle start = d.now;
  const size_t before = listener.held.size();
  d.sys.unit(0).accept(r, 1, d.now);
  for (; d.now < start + 2000; ++d.now) {
    d.sys.advanceTo(d.now * 1000);
    for (size_t i = before; i < listener.held.size(); ++i)
      if (listener.held[i].at + wait == d.now)
        d.sys.unit(0).releaseReply(listener.held[i].ticket, d.now);
    d.sys.unit(0).cycle(d.now);
    uint32_t token;
    if (d.sys.unit(0).popCompleted(token)) return d.now++ - start;
  }
  return kNever;
}

TEST(MemoryCompression, AnL1KeepingFillFormsTransformsEveryHitAndHoldsLinesInTheirSize) {
  TestPlugins plugins;
  plugins.wholeLine = true;  // replies of 8 bytes: one sector
  plugins.replyFormat = 3;
  MemoryParams p = tinyParams();  // L1: 32 sets of 4 ways
  p.l1.keepFillForm = true;
  p.l1.cache.tagFactor = 2;
  Driver d(p, plugins);
  HoldingListener listener;
  d.sys.unit(0).setReplyListener(&listener);
  constexpr uint64_t kSetStride = 32 * 128;  // lines of one L1 set
  // Eight whole lines of set 0: each fill held 10 cycles, then kept in the L1 in one sector.
  for (uint64_t i = 0; i < 8; ++i)
    ASSERT_NE(latencyReleasing(d, listener, record(ir::Op::Ld, ir::Space::Global,
                                                   kA + i * kSetStride, 4), 10),
              kNever);
  ASSERT_EQ(listener.held.size(), 8u);
  // All eight are still there (eight tags, 8 of 16 sectors): every load hits and each hit is
  // held for the listener in the cycle it reaches the L1, completing at its release.
  for (uint64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(latencyReleasing(d, listener, record(ir::Op::Ld, ir::Space::Global,
                                                   kA + i * kSetStride, 4), 30),
              30u);
    ASSERT_EQ(listener.held.size(), 9 + i);
    EXPECT_EQ(listener.held.back().line, kA + i * kSetStride);
    EXPECT_EQ(listener.held.back().format, 3u);
  }
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["l1d"]["misses"], 8);
  EXPECT_EQ(s["l1d"]["hits"], 8);
  EXPECT_EQ(s["l1d"]["form_hits"], 8);
  EXPECT_EQ(s["l1d"]["evictions"], 0);
  // A store into a line held in a form drops it: the next load misses (and is held again).
  EXPECT_EQ(d.latency(record(ir::Op::St, ir::Space::Global, kA, 0)), 1u);
  ASSERT_NE(latencyReleasing(d, listener, record(ir::Op::Ld, ir::Space::Global, kA, 4), 10),
            kNever);
  d.sys.reportStats(s);
  EXPECT_EQ(s["l1d"]["misses"], 9);
  EXPECT_EQ(s["l1d"]["form_hits"], 8);
}

TEST(MemoryCompression, AnL1WithoutMoreTagsHoldsNoMoreLinesInAForm) {
  TestPlugins plugins;
  plugins.wholeLine = true;
  plugins.replyFormat = 3;
  MemoryParams p = tinyParams();
  p.l1.keepFillForm = true;  // tag_factor 1: four lines of the set at most
  Driver d(p, plugins);
  HoldingListener listener;
  d.sys.unit(0).setReplyListener(&listener);
  for (uint64_t i = 0; i < 8; ++i)
    ASSERT_NE(latencyReleasing(d, listener, record(ir::Op::Ld, ir::Space::Global,
                                                   kA + i * 32 * 128, 4), 10),
              kNever);
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["l1d"]["evictions"], 4);
}

// Eight lines of one L2 set (256 sets of 4 ways; no L1), loaded twice; returns the L2's
// counters.
nlohmann::json loadOneL2SetTwice(uint32_t tagFactor, uint32_t storedBytes) {
  TestPlugins plugins;
  plugins.wholeLine = true;
  plugins.storedBytes = storedBytes;
  MemoryParams p = tinyParams();
  p.l1.cache.sizeBytes = 0;
  p.l2.cache.assoc = 4;
  p.l2.cache.tagFactor = tagFactor;
  Driver d(p, plugins);
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t i = 0; i < 8; ++i)
      EXPECT_NE(d.latency(record(ir::Op::Ld, ir::Space::Global, kA + i * 256 * 128, 4)), kNever);
  nlohmann::json s;
  d.sys.reportStats(s);
  return s["l2"];
}

TEST(MemoryCompression, AnL2WithMoreTagsHoldsLinesInTheSizeTheCompressionGives) {
  // 64 bytes a line, twice the tags: all eight stay, the second pass hits.
  nlohmann::json s = loadOneL2SetTwice(2, 64);
  EXPECT_EQ(s["misses"], 8);
  EXPECT_EQ(s["hits"], 8);
  EXPECT_EQ(s["evictions"], 0);
  // Whole lines (incompressible) with the same tags: four at a time, LRU thrashes.
  s = loadOneL2SetTwice(2, 0);
  EXPECT_EQ(s["misses"], 16);
  EXPECT_EQ(s["evictions"], 12);
  // 90 bytes a line (12 segments of 8 bytes): five fit in the 64 segments of the set.
  s = loadOneL2SetTwice(2, 90);
  EXPECT_EQ(s["misses"], 16);
  EXPECT_EQ(s["evictions"], 11);
  // 32 bytes a line but one tag a way: no more than four lines.
  s = loadOneL2SetTwice(1, 32);
  EXPECT_EQ(s["misses"], 16);
  EXPECT_EQ(s["evictions"], 12);
}

TEST(MemoryCompression, AWholeLineAmongCompressedDirtyOnesEvictsThemAsTheDramQueueTakesThem) {
  TestPlugins plugins;
  plugins.wholeLine = true;
  plugins.storedBytes = 32;  // 4 segments of 8 bytes
  constexpr uint64_t kSetStride = 256 * 128;
  plugins.wholeAt = kA + 16 * kSetStride;
  MemoryParams p = tinyParams();
  p.l1.cache.sizeBytes = 0;
  p.l2.cache.assoc = 4;
  p.l2.cache.tagFactor = 4;
  p.dram.queueDepth = 8;  // room for a read and a write-back with their side requests, not more
  Driver d(p, plugins);
  // Sixteen dirty lines take the set's 16 tags and 64 segments.
  for (uint64_t i = 0; i < 16; ++i)
    ASSERT_NE(d.latency(record(ir::Op::St, ir::Space::Global, kA + i * kSetStride, 4)), kNever);
  // A whole line: the victim's 4 segments and three more lines' must leave, all dirty; taken
  // together with the read they would never fit in the queue.
  ASSERT_NE(d.latency(record(ir::Op::Ld, ir::Space::Global, plugins.wholeAt, 4)), kNever);
  d.run(2000);
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["l2"]["evictions"], 4);
  EXPECT_EQ(s["l2"]["writebacks"], 4);
  EXPECT_TRUE(d.sys.idle());
}

TEST(StoreListener, AHeldWholeLineStoreLeavesWhenReleasedInItsFormAndFencesWaitForIt) {
  TestPlugins plugins;
  plugins.recordStores = true;
  Driver d(tinyParams(), plugins);
  HoldingStoreListener listener;
  d.sys.unit(0).setStoreListener(&listener);
  func::ExecRecord st = record(ir::Op::St, ir::Space::Global, kA, 4);  // the whole line
  st.warpSlot = 7;
  // The store completes for its warp as any store does: it is in the store buffer.
  EXPECT_EQ(d.latency(st), 1u);
  ASSERT_EQ(listener.offered.size(), 1u);
  EXPECT_EQ(listener.offered[0].line, kA);
  EXPECT_EQ(listener.offered[0].slot, 7u);
  // A fence waits while the store is held: nothing reaches the L2, the unit is not idle.
  d.sys.unit(0).accept(record(ir::Op::Membar, ir::Space::None, 0, 0), 2, d.now);
  uint32_t token = 0;
  ASSERT_FALSE(d.runUntilCompleted(300, token)) << "the fence completed at " << d.now;
  EXPECT_TRUE(plugins.stores.empty());
  EXPECT_FALSE(d.sys.unit(0).idle());
  // Released in form 3, 20 bytes long: one flit with its 8-byte header where the plain line
  // takes five.
  d.sys.unit(0).releaseStore(listener.offered[0].ticket, 3, 20, d.now);
  ASSERT_TRUE(d.runUntilCompleted(300, token));
  EXPECT_EQ(token, 2u);
  ASSERT_EQ(plugins.stores.size(), 1u);
  EXPECT_EQ(plugins.stores[0].line, kA);
  EXPECT_EQ(plugins.stores[0].sectors, 0xFu);
  EXPECT_EQ(plugins.stores[0].format, 3u);
  nlohmann::json s;
  d.sys.reportStats(s);
  EXPECT_EQ(s["icnt"]["flits"], 2);  // the write and its acknowledgement
  // A store of part of a line is not offered and leaves plain; a refused whole line too.
  EXPECT_EQ(d.latency(record(ir::Op::St, ir::Space::Global, kA + 128, 0)), 1u);
  listener.hold = false;
  EXPECT_EQ(d.latency(record(ir::Op::St, ir::Space::Global, kA + 256, 4)), 1u);
  d.run(300);
  EXPECT_EQ(listener.offered.size(), 2u);
  ASSERT_EQ(plugins.stores.size(), 3u);
  EXPECT_EQ(plugins.stores[1].sectors, 0x1u);
  EXPECT_EQ(plugins.stores[1].format, 0u);
  EXPECT_EQ(plugins.stores[2].sectors, 0xFu);
  EXPECT_EQ(plugins.stores[2].format, 0u);
  EXPECT_TRUE(d.sys.unit(0).idle());
}

TEST(StoreListener, APartialWriteTheL2RefusesIsRedoneWholeAndFencesWaitForTheRedo) {
  TestPlugins plugins;
  plugins.recordStores = plugins.refusePartial = true;
  Driver d(tinyParams(), plugins);
  HoldingStoreListener listener;
  d.sys.unit(0).setStoreListener(&listener);
  // The L2 holds the line whole after a load of it; a store of one sector leaves plain.
  ASSERT_NE(d.latency(record(ir::Op::Ld, ir::Space::Global, kA, 4)), kNever);
  func::ExecRecord st = record(ir::Op::St, ir::Space::Global, kA, 0);
  st.warpSlot = 9;
  EXPECT_EQ(d.latency(st), 1u);
  d.sys.unit(0).accept(record(ir::Op::Membar, ir::Space::None, 0, 0), 2, d.now);
  d.run(300);
  // Refused: nothing was written; the SM got the line back in form 5 and offered the redo.
  EXPECT_TRUE(plugins.stores.empty());
  ASSERT_EQ(listener.redone.size(), 1u);
  EXPECT_EQ(listener.redone[0].line, kA);
  EXPECT_EQ(listener.redone[0].format, 5u);
  EXPECT_EQ(listener.redone[0].slot, 9u);
  uint32_t token = 0;
  EXPECT_FALSE(d.sys.unit(0).popCompleted(token));  // the fence waits for the redo
  EXPECT_FALSE(d.sys.unit(0).idle());
  // Released plain: the whole line reaches the L2, then the fence completes.
  d.sys.unit(0).releaseStore(listener.redone[0].ticket, 0, 128, d.now);
  ASSERT_TRUE(d.runUntilCompleted(300, token));
  EXPECT_EQ(token, 2u);
  ASSERT_EQ(plugins.stores.size(), 1u);
  EXPECT_EQ(plugins.stores[0].sectors, 0xFu);
  EXPECT_EQ(plugins.stores[0].format, 0u);
  // A listener that does not hold the redo: the whole line leaves plain at once.
  listener.hold = false;
  EXPECT_EQ(d.latency(record(ir::Op::St, ir::Space::Global, kA, 0)), 1u);
  d.run(300);
  EXPECT_EQ(listener.redone.size(), 2u);
  ASSERT_EQ(plugins.stores.size(), 2u);
  EXPECT_EQ(plugins.stores[1].sectors, 0xFu);
  EXPECT_TRUE(d.sys.unit(0).idle());
}

TEST(Registration, BaselinesAreRegisteredByName) {
  PluginRegistry r;
  registerMemoryBaselines(r);
  EXPECT_TRUE(r.has<ICachePolicy>("lru-allocate"));
  EXPECT_TRUE(r.has<IMemoryCompression>("none"));
  EXPECT_TRUE(r.has<ILocalMemoryPath>("none"));
  EXPECT_TRUE(r.has<IAddressMapping>("hash"));
  IAddressMapping::Context c;
  c.channels = 6;
  c.banks = 16;
  c.rowBytes = 2048;
  c.interleaveBytes = 256;
  EXPECT_EQ(r.make<IAddressMapping>("hash", c)->granuleBytes(), 256u);
  EXPECT_THROW(r.make<ICachePolicy>("nope", {}), config::Error);
}

}  // namespace
}  // namespace warpsim::timing::mem
