// libwarpsim_xmem without warpsim's runtime in the process (as on a real GPU): ids per call site
// from 0, every other call accepted and ignored.
#include <gtest/gtest.h>

#include "warpsim/xmem.h"

namespace {

warpsimAtomId createInALoop() {
  warpsimAtomId id = -1;
  for (int i = 0; i < 3; ++i) {
    id = warpsimCreateAtom(WARPSIM_ATOM_FLOAT32, (warpsimAtomAccessPattern{WARPSIM_ATOM_REGULAR, 4, 0}), 9,
                           WARPSIM_ATOM_READ_ONLY);
  }
  return id;
}

TEST(XmemStub, WithoutTheSimulatorIdsGoPerCallSiteAndTheRestDoesNothing) {
  const warpsimAtomId first = createInALoop();
  EXPECT_EQ(createInALoop(), first);  // one site, one atom
  const warpsimAtomId second = warpsimCreateAtom(0, (warpsimAtomAccessPattern{99, 0, 0}), 0, 0);  // bad: not checked
  EXPECT_EQ(second, first + 1);
  EXPECT_EQ(warpsimAtomMap(first, nullptr, 0, 1), 0);
  EXPECT_EQ(warpsimAtom2DMap(first, nullptr, 1, 2, 3, 0), 0);
  EXPECT_EQ(warpsimAtom3DMap(-5, nullptr, 1, 1, 2, 3, 4, 1), 0);
  EXPECT_EQ(warpsimAtomActivate(first), 0);
  EXPECT_EQ(warpsimAtomDeactivate(1000), 0);
}

}  // namespace
