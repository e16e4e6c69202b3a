// libwarpsim_locality without warpsim's runtime in the process (as on a real GPU): the calls
// accept everything and do nothing.
#include <gtest/gtest.h>

#include "warpsim/locality.h"

namespace {

TEST(LocalityStub, WithoutTheSimulatorEveryCallSucceedsAndDoesNothing) {
  warpsimLocalityDescriptor bad = {};  // null base, zero sizes: warpsim's runtime would refuse it
  EXPECT_EQ(warpsimLocalityDescriptorAdd(&bad, "kernel"), 0);
  EXPECT_EQ(warpsimLocalityDescriptorAdd(nullptr, nullptr), 0);
  EXPECT_EQ(warpsimLocalityDescriptorsClear("kernel"), 0);
  EXPECT_EQ(warpsimLocalityDescriptorsClear(nullptr), 0);
}

}  // namespace
