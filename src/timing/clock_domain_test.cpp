#include "timing/clock_domain.h"

#include <gtest/gtest.h>

namespace warpsim::timing {
namespace {

TEST(ClockDomain, EdgesOfA1400MhzClock) {
  ClockDomain core = ClockDomain::fromMhz(1400.0);
  EXPECT_EQ(core.khz(), 1400000u);
  EXPECT_EQ(core.timeOf(0), 0u);
  EXPECT_EQ(core.timeOf(1), 714u);   // 714.28 ps, floored
  EXPECT_EQ(core.timeOf(7), 5000u);  // exact: no drift accumulates
  EXPECT_EQ(core.timeOf(1400000000), 1000000000000u);
  EXPECT_EQ(core.firstCycleAtOrAfter(0), 0u);
  EXPECT_EQ(core.firstCycleAtOrAfter(714), 1u);
  EXPECT_EQ(core.firstCycleAtOrAfter(715), 2u);
  EXPECT_EQ(core.firstCycleAtOrAfter(kNever), kNever);
}

TEST(ClockDomain, FirstCycleAtOrAfterIsTheEarliestEdgeNotBefore) {
  for (double mhz : {924.0, 700.0, 1455.0, 1530.5}) {
    ClockDomain c = ClockDomain::fromMhz(mhz);
    for (uint64_t ps = 0; ps < 20000; ps += 37) {
      const Cycle n = c.firstCycleAtOrAfter(ps);
      EXPECT_GE(c.timeOf(n), ps) << mhz << " MHz, " << ps << " ps";
      if (n > 0) {
        EXPECT_LT(c.timeOf(n - 1), ps) << mhz << " MHz, " << ps << " ps";
      }
    }
  }
}

}  // namespace
}  // namespace warpsim::timing
