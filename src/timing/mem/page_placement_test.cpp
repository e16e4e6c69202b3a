#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <stdexcept>

#include "timing/mem/frame_pool.h"
#include "timing/mem/hash_address_mapping.h"
#include "timing/mem/page_placements.h"
#include "timing/mem/paged_address_mapping.h"

namespace warpsim::timing::mem {
namespace {

constexpr uint64_t kHeapBase = func::DeviceMemory::kBaseAddress;

TEST(FramePool, FindsTheNextFreeFrameAndWrapsAround) {
  FramePool pool(130);  // three words, the last one partly past the end
  EXPECT_EQ(pool.nextFree(0), 0u);
  EXPECT_EQ(pool.nextFree(129), 129u);
  EXPECT_EQ(pool.nextFree(130), 0u);  // from wraps too
  for (uint64_t f = 5; f < 130; ++f) pool.take(f);
  EXPECT_EQ(pool.freeCount(), 5u);
  EXPECT_EQ(pool.nextFree(70), 0u);  // past the end (bits 130..191 are no frames), then from 0
  pool.take(0);
  pool.take(2);
  EXPECT_EQ(pool.nextFree(1), 1u);
  EXPECT_EQ(pool.nextFree(2), 3u);
  EXPECT_EQ(pool.nextFree(4), 4u);
  pool.take(1);
  pool.take(3);
  pool.take(4);
  EXPECT_EQ(pool.freeCount(), 0u);
  EXPECT_EQ(pool.nextFree(7), FramePool::kNone);
}

TEST(RandomPagePlacement, GivesEveryFrameOnceInAnOrderFixedByTheSeed) {
  RandomPagePlacement a(100, 7), b(100, 7), c(100, 8);
  std::set<uint64_t> frames;
  bool differs = false, moved = false;
  for (uint64_t page = 0; page < 100; ++page) {
    const uint64_t f = a.frameFor(page, 0);
    EXPECT_EQ(b.frameFor(page, 0), f);
    differs |= c.frameFor(page, 0) != f;
    moved |= f != page;
    frames.insert(f);
  }
  EXPECT_EQ(frames.size(), 100u);  // a permutation of the frames
  EXPECT_EQ(*frames.rbegin(), 99u);
  EXPECT_TRUE(differs);
  EXPECT_TRUE(moved);
  EXPECT_THROW(a.frameFor(100, 0), std::runtime_error);  // none left
}

// frame = (page + shift) % frames, or a fixed frame for every page (a broken placement).
class ShiftedPlacement final : public IPagePlacement {
 public:
  ShiftedPlacement(uint64_t frames, uint64_t shift, bool broken = false)
      : frames_(frames), shift_(shift), broken_(broken) {}
  uint64_t frameFor(uint64_t page, uint64_t address) override {
    lastAddress = address;
    return broken_ ? 1 : (page + shift_) % frames_;
  }
  uint64_t lastAddress = 0;

 private:
  uint64_t frames_, shift_;
  bool broken_;
};

TEST(PagedAddressMapping, MapsEachPageThroughItsFrameOnceAndLeavesOtherAddressesAlone) {
  FrameSpace space;
  space.pageBytes = 4096;
  space.frames = 64;
  auto placement = std::make_unique<ShiftedPlacement>(64, 5);
  ShiftedPlacement* shifted = placement.get();
  PagedAddressMapping paged(std::make_unique<HashAddressMapping>(6, 16, 2048, 256), std::move(placement), space);
  const HashAddressMapping plain(6, 16, 2048, 256);
  EXPECT_EQ(paged.frameOf(3), PagedAddressMapping::kUnplaced);
  // Page 3 (bytes 0x3000..0x3fff from the base) lives in frame 8.
  const DramAddress a = paged.map(kHeapBase + 0x3123);
  EXPECT_EQ(shifted->lastAddress, kHeapBase + 0x3123);
  EXPECT_EQ(paged.frameOf(3), 8u);
  const DramAddress e = plain.map(kHeapBase + 8 * 4096 + 0x123);
  EXPECT_EQ(a.channel, e.channel);
  EXPECT_EQ(a.local, e.local);
  EXPECT_EQ(a.bank, e.bank);
  EXPECT_EQ(a.row, e.row);
  EXPECT_EQ(paged.pagesPlaced(), 1u);
  paged.map(kHeapBase + 0x3fff);  // the same page: no new placement
  EXPECT_EQ(paged.pagesPlaced(), 1u);
  // Page 62 wraps to frame 3.
  EXPECT_EQ(paged.map(kHeapBase + 62 * 4096).local, plain.map(kHeapBase + 3 * 4096).local);
  EXPECT_EQ(paged.pagesPlaced(), 2u);
  // Below the base and past the frames: as they are.
  EXPECT_EQ(paged.map(0x1000).local, plain.map(0x1000).local);
  EXPECT_EQ(paged.map(kHeapBase + 64 * 4096).local, plain.map(kHeapBase + 64 * 4096).local);
  EXPECT_EQ(paged.pagesPlaced(), 2u);
}

TEST(PagedAddressMapping, RefusesAPlacementThatGivesOneFrameTwice) {
  FrameSpace space;
  space.pageBytes = 4096;
  space.frames = 8;
  PagedAddressMapping paged(std::make_unique<HashAddressMapping>(2, 4, 2048, 256),
                            std::make_unique<ShiftedPlacement>(8, 0, true), space);
  paged.map(kHeapBase);
  try {
    paged.map(kHeapBase + 4096);
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "page placement gave page 1 frame 1, already taken");
  }
}

}  // namespace
}  // namespace warpsim::timing::mem
