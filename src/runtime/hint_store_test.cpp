#include "runtime/hint_store.h"

#include <gtest/gtest.h>

#include "runtime/error.h"

namespace warpsim::runtime {
namespace {

hints::LocalityDescriptor at(uint64_t base, uint32_t elements, warpsimLocalityType type = WARPSIM_NO_REUSE) {
  hints::LocalityDescriptor d{};
  d.base = reinterpret_cast<const void*>(base);
  d.dims = {elements, 1, 1};
  d.element_bytes = 4;
  d.type = type;
  d.data_tile = {elements, 1, 1};
  d.compute_tile = {1, 1, 1};
  d.sharing = WARPSIM_COACCESSED;
  d.pattern = WARPSIM_IRREGULAR;
  return d;
}

TEST(HintStore, KernelDescriptorsStayAndNextLaunchDescriptorsGoWithOneLaunch) {
  HintStore s;
  EXPECT_EQ(s.take("k"), nullptr);
  s.add(at(0x1000, 64), "k");
  s.add(at(0x1000, 64, WARPSIM_INTER_THREAD), "k");  // a second kind of locality of the same structure
  s.add(at(0x9000, 16), "");
  auto first = s.take("other");  // the next launch, whichever kernel: only the waiting one
  ASSERT_NE(first, nullptr);
  ASSERT_EQ(first->locality.size(), 1u);
  EXPECT_EQ(hints::baseOf(first->locality[0]), 0x9000u);
  auto second = s.take("k");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->locality.size(), 2u);
  EXPECT_EQ(s.take("k")->locality.size(), 2u);  // again at every launch of k
  s.clear("k");
  EXPECT_EQ(s.take("k"), nullptr);
}

TEST(HintStore, AKernelIsNamedByItsEntryOrItsDeclaredName) {
  HintStore s;
  s.add(at(0x1000, 64), "histo_main");
  ASSERT_NE(s.take("_Z10histo_mainPj"), nullptr);
  ASSERT_NE(s.take("histo_main"), nullptr);
  EXPECT_EQ(s.take("_Z11histo_finalPj"), nullptr);
}

TEST(HintStore, BadOrPartlyOverlappingDescriptorsAreRefusedWithTheirLine) {
  HintStore s;
  hints::LocalityDescriptor bad = at(0x1000, 64);
  bad.element_bytes = 0;
  EXPECT_THROW(
      {
        try {
          s.add(bad, "k");
        } catch (const Error& e) {
          EXPECT_STREQ(e.what(), "locality descriptor: element_bytes (0) must be 1 to 256");
          throw;
        }
      },
      Error);
  s.add(at(0x1000, 64), "k");
  EXPECT_THROW(s.add(at(0x1080, 64), "k"), Error);  // [0x1080, 0x1180) across [0x1000, 0x1100)
  s.add(at(0x1080, 64), "other");                   // another kernel's launches: no conflict
  s.add(at(0x1080, 64), "");
  EXPECT_THROW(s.take("k"), Error);                 // k's launch would take both
}

}  // namespace
}  // namespace warpsim::runtime
