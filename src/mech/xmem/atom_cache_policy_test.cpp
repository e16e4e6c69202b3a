// The cache policy "atoms" on hand-made launches: which accesses are looked up, bypassed,
// pinned and inserted where, the prefetches of an oversized REGULAR atom, and the counters.
#include "mech/xmem/atom_cache_policy.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hints/launch_hints.h"

namespace warpsim::mech::xmem {
namespace {

using timing::mem::CacheAccessInfo;
using timing::mem::InsertPosition;
using timing::mem::PinKind;

constexpr uint64_t kStream = 0x100000;  // 8 KB, reuse 0
constexpr uint64_t kTile = 0x200000;    // 16 KB, reuse 8, REGULAR stride 128
constexpr uint64_t kOther = 0x300000;   // no atom

hints::AtomOp op(hints::AtomOp::Kind kind, uint32_t atom, uint64_t base = 0, uint64_t bytes = 0) {
  hints::AtomOp o;
  o.kind = kind;
  o.atom = atom;
  o.base = base;
  o.lenX = o.sizeX = bytes;
  return o;
}

// Atom 0 streams kStream (reuse 0), atom 1 is the 16 KB tile; both mapped and active.
hints::LaunchHints twoAtoms() {
  hints::LaunchHints h;
  hints::AtomAttributes stream;
  stream.reuse = 0;
  hints::AtomAttributes tile;
  tile.reuse = 8;
  tile.pattern = hints::AtomPattern::Regular;
  tile.strideBytes = 128;
  h.atoms.attributes = {stream, tile};
  h.atoms.history.push_back(std::make_shared<const std::vector<hints::AtomOp>>(std::vector<hints::AtomOp>{
      op(hints::AtomOp::Kind::Map, 0, kStream, 8192), op(hints::AtomOp::Kind::Map, 1, kTile, 16384),
      op(hints::AtomOp::Kind::Activate, 0), op(hints::AtomOp::Kind::Activate, 1)}));
  h.atoms.newOps = 4;
  return h;
}

timing::mem::CacheLaunch launchOf(const hints::LaunchHints& h, uint64_t capacity) {
  timing::mem::CacheLaunch l;
  l.hints = &h;
  l.capacityBytes = l.levelCapacityBytes = capacity;
  return l;
}

CacheAccessInfo read(uint64_t line, bool hit = false) {
  CacheAccessInfo a;
  a.line = line;
  a.hit = hit;
  return a;
}

TEST(AtomCachePolicy, WithoutAtomsItIsTheBaseline) {
  AtomCachePolicy p(AtomPolicyOptions{}, 128);
  uint64_t lines[4];
  EXPECT_FALSE(p.bypass(read(kStream)));
  EXPECT_EQ(p.insertion(read(kStream)), InsertPosition::Mru);
  EXPECT_EQ(p.pin(read(kStream)), PinKind::None);
  EXPECT_EQ(p.prefetch(read(kStream), lines, 4), 0u);
  EXPECT_EQ(p.amu().stats().lookups, 0u);  // nothing mapped: no lookups at all
}

TEST(AtomCachePolicy, ReuseZeroBypassesAndAFittingTileIsPinnedWhole) {
  const hints::LaunchHints h = twoAtoms();
  AtomCachePolicy p(AtomPolicyOptions{}, 128);
  p.beginLaunch(launchOf(h, 64 * 1024));  // budget 48 KB: the 16 KB tile fits
  EXPECT_TRUE(p.bypass(read(kStream + 128)));
  EXPECT_FALSE(p.bypass(read(kTile)));
  EXPECT_EQ(p.pin(read(kTile + 128 * 5)), PinKind::Soft);
  EXPECT_EQ(p.insertion(read(kTile + 128 * 5)), InsertPosition::Mru);
  uint64_t lines[4];
  EXPECT_EQ(p.prefetch(read(kTile + 128 * 5), lines, 4), 0u);  // wholly pinned: nothing to fetch ahead
  EXPECT_FALSE(p.bypass(read(kOther)));
  EXPECT_EQ(p.pin(read(kOther)), PinKind::None);
  EXPECT_EQ(p.insertion(read(kOther)), InsertPosition::Mru);

  nlohmann::json out = nlohmann::json::object();
  p.reportStats(out);
  EXPECT_EQ(out["atoms"][0]["bypassed"], 1);
  EXPECT_EQ(out["atoms"][1]["pinned_lines"], 1);
  EXPECT_EQ(out["atoms"][1]["working_set_bytes"], 16384);
  EXPECT_EQ(out["atoms"][1]["pinned_bytes"], 16384);
  EXPECT_EQ(out["atoms"][0]["pinned_bytes"], 0);
  EXPECT_EQ(out["atoms"][1]["reads"], 1);
  EXPECT_EQ(out["amu"]["maps"], 2);
  EXPECT_EQ(out["amu"]["activates"], 2);
  // kStream+128, kTile, kTile+640 (its pin, insertion and prefetch share one lookup), kOther.
  EXPECT_EQ(out["amu"]["lookups"], 4);
  EXPECT_EQ(out["amu"]["lookups_no_atom"], 1);
}

TEST(AtomCachePolicy, AnOversizedTileIsPinnedInPartAndItsRestPrefetchedAlongTheStride) {
  const hints::LaunchHints h = twoAtoms();
  AtomCachePolicy p(AtomPolicyOptions{}, 128);
  p.beginLaunch(launchOf(h, 8 * 1024));  // budget 6 KB of the 16 KB tile: 3/8 pinned
  EXPECT_EQ(p.rules()[1].pinThreshold, CacheAtomRule::kHashRange * 3 / 8);
  nlohmann::json out = nlohmann::json::object();
  p.reportStats(out);
  EXPECT_EQ(out["atoms"][1]["pinned_bytes"], 6144);
  timing::mem::CacheAccessInfo prefetched = read(kTile);
  prefetched.prefetch = true;
  EXPECT_EQ(p.insertion(prefetched), InsertPosition::Mru);  // about to be read
  int pinnedLines = 0;
  for (uint64_t l = kTile; l < kTile + 16384; l += 128) {
    const bool kept = lineHash(l) < p.rules()[1].pinThreshold;
    pinnedLines += kept;
    EXPECT_EQ(p.pin(read(l)), kept ? PinKind::Soft : PinKind::None);
    EXPECT_EQ(p.insertion(read(l)), kept ? InsertPosition::Mru : InsertPosition::Lru);
  }
  EXPECT_GT(pinnedLines, 0);
  EXPECT_LT(pinnedLines, 128);
  // A miss on an unpinned line: the next two unpinned lines along the stride, within the atom.
  uint64_t miss = kTile;
  while (lineHash(miss) < p.rules()[1].pinThreshold) miss += 128;
  std::vector<uint64_t> want;
  for (uint64_t t = miss + 128; t < kTile + 16384 && want.size() < 2; t += 128) {
    if (lineHash(t) >= p.rules()[1].pinThreshold) want.push_back(t);
  }
  uint64_t lines[4];
  const uint32_t n = p.prefetch(read(miss), lines, 4);
  ASSERT_LE(n, 2u);
  EXPECT_EQ(std::vector<uint64_t>(lines, lines + n),
            std::vector<uint64_t>(want.begin(), want.begin() + std::min<size_t>(want.size(), n)));
  EXPECT_EQ(p.prefetch(read(miss, true), lines, 4), 0u);  // a hit asks for nothing
  // The last line of the atom prefetches nothing past its end.
  EXPECT_EQ(p.prefetch(read(kTile + 16384 - 128), lines, 4), 0u);
}

TEST(AtomCachePolicy, ALowerReuseAtomThatDoesNotFitIsCachedAsUndescribedData) {
  // The 16 KB tile (reuse 8) and a 16 KB REGULAR atom of reuse 1 in a 16 KB cache: 12 KB of the
  // tile is pinned; the other atom gets no pins, enters at MRU and prefetches nothing.
  hints::LaunchHints h = twoAtoms();
  constexpr uint64_t kLow = 0x400000;
  hints::AtomAttributes low;
  low.reuse = 1;
  low.pattern = hints::AtomPattern::Regular;
  low.strideBytes = 128;
  h.atoms.attributes.push_back(low);
  h.atoms.history.push_back(std::make_shared<const std::vector<hints::AtomOp>>(std::vector<hints::AtomOp>{
      op(hints::AtomOp::Kind::Map, 2, kLow, 16384), op(hints::AtomOp::Kind::Activate, 2)}));
  h.atoms.newOps = 6;
  AtomCachePolicy p(AtomPolicyOptions{}, 128);
  p.beginLaunch(launchOf(h, 16 * 1024));
  EXPECT_EQ(p.rules()[1].pinThreshold, CacheAtomRule::kHashRange * 3 / 4);
  EXPECT_EQ(p.rules()[2].pinThreshold, 0u);
  uint64_t lines[4];
  for (uint64_t l = kLow; l < kLow + 16384; l += 128) {
    EXPECT_EQ(p.pin(read(l)), PinKind::None);
    EXPECT_EQ(p.insertion(read(l)), InsertPosition::Mru);
    EXPECT_EQ(p.prefetch(read(l), lines, 4), 0u);
  }
}

TEST(AtomCachePolicy, PinsFollowUseUnlessSwitchedOffAndARenewedPinIsNotCountedAgain) {
  const hints::LaunchHints h = twoAtoms();
  AtomCachePolicy p(AtomPolicyOptions{}, 128);
  EXPECT_TRUE(p.pinsFollowUse());
  p.beginLaunch(launchOf(h, 64 * 1024));  // the tile fits: pinned whole
  EXPECT_EQ(p.pin(read(kTile)), PinKind::Soft);
  EXPECT_EQ(p.pin(read(kTile, true)), PinKind::Soft);  // a hit renews it
  nlohmann::json out = nlohmann::json::object();
  p.reportStats(out);
  EXPECT_EQ(out["atoms"][1]["pinned_lines"], 1);
  AtomPolicyOptions keep;
  keep.releasePins = false;
  EXPECT_FALSE(AtomCachePolicy(keep, 128).pinsFollowUse());
  AtomPolicyOptions noPins;
  noPins.pinning = false;
  EXPECT_FALSE(AtomCachePolicy(noPins, 128).pinsFollowUse());
}

TEST(AtomCachePolicy, DeactivatedAtomsAndSwitchedOffPartsAreIgnored) {
  hints::LaunchHints h = twoAtoms();
  AtomPolicyOptions off;
  off.bypass = false;
  AtomCachePolicy p(off, 128);
  p.beginLaunch(launchOf(h, 64 * 1024));
  EXPECT_FALSE(p.bypass(read(kStream)));
  // A later launch deactivates the tile: its lines are the baseline's again.
  hints::LaunchHints later = h;
  later.atoms.history.push_back(std::make_shared<const std::vector<hints::AtomOp>>(
      std::vector<hints::AtomOp>{op(hints::AtomOp::Kind::Deactivate, 1)}));
  later.atoms.newOps = 1;
  AtomCachePolicy q(AtomPolicyOptions{}, 128);
  q.beginLaunch(launchOf(h, 64 * 1024));
  EXPECT_EQ(q.pin(read(kTile)), PinKind::Soft);
  q.beginLaunch(launchOf(later, 64 * 1024));
  EXPECT_EQ(q.pin(read(kTile + 128)), PinKind::None);
  EXPECT_EQ(q.insertion(read(kTile + 128)), InsertPosition::Mru);
  EXPECT_EQ(q.amu().stats().deactivates, 1u);  // the earlier operations were not applied twice
  EXPECT_EQ(q.amu().stats().maps, 2u);
}

// A kernel's operations (hintOp) apply at once, after the host's operations of the kernel's
// launch even when the cache has not begun that launch (an L1 whose SM runs none of its CTAs),
// and the rules follow them.
TEST(AtomCachePolicy, AKernelsOperationsApplyAtOnceAfterTheHostsOfItsLaunch) {
  const hints::LaunchHints h = twoAtoms();
  AtomCachePolicy p(AtomPolicyOptions{}, 128);
  // The tile's first 4 KB to atom 0 (reuse 0), before the launch began here.
  p.hintOp(op(hints::AtomOp::Kind::Map, 0, kTile, 4096), &h);
  EXPECT_EQ(p.amu().aam().owner(kTile), 0u);         // the kernel's map came after the host's
  EXPECT_EQ(p.amu().aam().owner(kTile + 4096), 1u);
  EXPECT_EQ(p.amu().aam().owner(kStream), 0u);
  p.beginLaunch(launchOf(h, 64 * 1024));  // nothing left to apply
  EXPECT_EQ(p.amu().aam().owner(kTile), 0u);
  EXPECT_EQ(p.amu().stats().maps, 3u);
  EXPECT_TRUE(p.bypass(read(kTile)));  // reuse 0 now
  // The same line after the kernel gives it back to the tile: no stale lookup.
  p.hintOp(op(hints::AtomOp::Kind::Map, 1, kTile, 4096), &h);
  EXPECT_FALSE(p.bypass(read(kTile)));
  EXPECT_EQ(p.pin(read(kTile)), PinKind::Soft);
  p.hintOp(op(hints::AtomOp::Kind::Deactivate, 0), &h);
  EXPECT_FALSE(p.bypass(read(kStream)));  // inactive: the baseline's
  nlohmann::json out = nlohmann::json::object();
  p.reportStats(out);
  EXPECT_EQ(out["amu"]["maps"], 4);
  EXPECT_EQ(out["amu"]["activates"], 2);
  EXPECT_EQ(out["amu"]["deactivates"], 1);
  EXPECT_EQ(out["atoms"][0]["working_set_bytes"], 0);  // inactive
  EXPECT_EQ(out["atoms"][1]["working_set_bytes"], 16384);
  EXPECT_EQ(out["atoms"][0]["bypassed"], 1);
}

}  // namespace
}  // namespace warpsim::mech::xmem
