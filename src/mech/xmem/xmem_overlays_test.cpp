// The overlay `xmem` is `xmem-cache` and `xmem-placement` together: every key of the mechanism
// reads the same from both.
#include <gtest/gtest.h>

#include "config/config.h"
#include "mech/xmem/atom_cache_policy.h"
#include "mech/xmem/atom_page_placement.h"

namespace warpsim::mech::xmem {
namespace {

TEST(XmemOverlays, XmemIsTheCacheAndThePlacementOverlaysTogether) {
  config::Tree both = config::Tree::load("gtx480", {"xmem"});
  config::Tree parts = config::Tree::load("gtx480", {"xmem-cache", "xmem-placement"});
  EXPECT_EQ(both.section("l2").str("policy", "", ""), "atoms");
  EXPECT_EQ(parts.section("l2").str("policy", "", ""), "atoms");
  EXPECT_EQ(both.section("page_placement").str("impl", "", ""), "atoms");
  EXPECT_EQ(parts.section("page_placement").str("impl", "", ""), "atoms");
  EXPECT_EQ(both.section("page_placement").u32("page_bytes", 0, ""),
            parts.section("page_placement").u32("page_bytes", 0, ""));
  const AtomPolicyOptions c1 = AtomPolicyOptions::read(both, "l2"), c2 = AtomPolicyOptions::read(parts, "l2");
  EXPECT_EQ(c1.bypass, c2.bypass);
  EXPECT_EQ(c1.pinning, c2.pinning);
  EXPECT_EQ(c1.prefetch, c2.prefetch);
  EXPECT_EQ(c1.pinShare, c2.pinShare);
  EXPECT_EQ(c1.prefetchDegree, c2.prefetchDegree);
  EXPECT_EQ(c1.amu.albEntries, c2.amu.albEntries);
  EXPECT_EQ(c1.amu.albWays, c2.amu.albWays);
  EXPECT_EQ(c1.amu.chunkBytes, c2.amu.chunkBytes);
  EXPECT_EQ(c1.amu.pageBytes, c2.amu.pageBytes);
  const AtomPlacementOptions p1 = AtomPlacementOptions::read(both), p2 = AtomPlacementOptions::read(parts);
  EXPECT_EQ(p1.isolateShare, p2.isolateShare);
  EXPECT_EQ(p1.isolateMinIntensity, p2.isolateMinIntensity);
  EXPECT_EQ(p1.chunkBytes, p2.chunkBytes);
}

}  // namespace
}  // namespace warpsim::mech::xmem
