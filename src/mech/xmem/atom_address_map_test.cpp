// The AAM: which chunks a map or unmap touches, the latest mapping winning per chunk, and
// unmaps that clear only the unmapping atom's chunks.
#include "mech/xmem/atom_address_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace warpsim::mech::xmem {
namespace {

constexpr int kNone = -1;

// The owner of each of `chunks` chunks from `begin` (read at each chunk's first and last byte,
// which must agree), -1 for none.
std::vector<int> owners(const AtomAddressMap& aam, uint64_t begin, uint64_t chunks) {
  std::vector<int> result;
  for (uint64_t c = 0; c < chunks; ++c) {
    const uint64_t first = begin + c * aam.chunkBytes();
    const auto atFirst = aam.owner(first);
    EXPECT_EQ(atFirst, aam.owner(first + aam.chunkBytes() - 1)) << "chunk at " << first;
    result.push_back(atFirst ? static_cast<int>(*atFirst) : kNone);
  }
  return result;
}

TEST(AtomAddressMap, DefaultsAreEightChunksOf512BytesPerPage) {
  const AtomAddressMap aam;
  EXPECT_EQ(aam.pageBytes(), 4096u);
  EXPECT_EQ(aam.chunkBytes(), 512u);
  EXPECT_EQ(aam.chunksPerPage(), 8u);
  EXPECT_EQ(aam.owner(0), std::nullopt);
  EXPECT_EQ(aam.pagesWithEntries(), 0u);
}

TEST(AtomAddressMap, AMapOwnsEveryChunkItTouchesEvenPartly) {
  AtomAddressMap aam;
  aam.map(3, 0x1000 + 100, 1000);  // bytes 0x1064..0x144b: chunk 0 and 2 partly, chunk 1 whole
  EXPECT_EQ(aam.owner(0x0fff), std::nullopt);
  EXPECT_EQ(aam.owner(0x1000), 3u);  // before the range, in its first chunk
  EXPECT_EQ(aam.owner(0x11ff), 3u);
  EXPECT_EQ(aam.owner(0x1200), 3u);
  EXPECT_EQ(aam.owner(0x15ff), 3u);  // after the range, in its last chunk
  EXPECT_EQ(aam.owner(0x1600), std::nullopt);
  EXPECT_EQ(owners(aam, 0x1000, 8), (std::vector<int>{3, 3, 3, kNone, kNone, kNone, kNone, kNone}));
  EXPECT_EQ(aam.chunksWritten(), 3u);
  EXPECT_EQ(aam.chunksOwned(), 3u);
  EXPECT_EQ(aam.pagesWithEntries(), 1u);
}

TEST(AtomAddressMap, AnAlignedRangeOwnsExactlyItsChunks) {
  AtomAddressMap aam;
  aam.map(1, 0x200, 0x200);
  EXPECT_EQ(aam.owner(0x1ff), std::nullopt);
  EXPECT_EQ(aam.owner(0x200), 1u);
  EXPECT_EQ(aam.owner(0x3ff), 1u);
  EXPECT_EQ(aam.owner(0x400), std::nullopt);
  EXPECT_EQ(aam.chunksWritten(), 1u);
}

TEST(AtomAddressMap, AMapAcrossAPageBoundaryFillsBothPages) {
  AtomAddressMap aam;
  aam.map(5, 0x1e00, 0x400);  // the last chunk of page 1 and the first of page 2
  EXPECT_EQ(owners(aam, 0x1000, 16), (std::vector<int>{kNone, kNone, kNone, kNone, kNone, kNone, kNone, 5,  //
                                                       5, kNone, kNone, kNone, kNone, kNone, kNone, kNone}));
  EXPECT_EQ(aam.pagesWithEntries(), 2u);
  EXPECT_EQ(aam.chunksWritten(), 2u);
}

TEST(AtomAddressMap, ZeroBytesDoNothing) {
  AtomAddressMap aam;
  aam.map(1, 0x1000, 0);
  aam.unmap(1, 0x1000, 0);
  EXPECT_EQ(aam.owner(0x1000), std::nullopt);
  EXPECT_EQ(aam.pagesWithEntries(), 0u);
  EXPECT_EQ(aam.chunksWritten(), 0u);
}

TEST(AtomAddressMap, ARemapWinsOnlyWhereItOverlaps) {
  AtomAddressMap aam;
  aam.map(1, 0, 0x1000);
  aam.map(2, 0x300, 0x300);  // 0x300..0x5ff: chunk 1 partly (A7: it goes to the latest), chunk 2
  EXPECT_EQ(owners(aam, 0, 8), (std::vector<int>{1, 2, 2, 1, 1, 1, 1, 1}));
  EXPECT_EQ(aam.chunksWritten(), 10u);
  EXPECT_EQ(aam.chunksOwned(), 8u);
  EXPECT_EQ(aam.chunksOwnedBy(1), 6u);
  EXPECT_EQ(aam.chunksOwnedBy(2), 2u);
  aam.map(1, 0x5ff, 1);  // a single byte takes chunk 2 back
  EXPECT_EQ(owners(aam, 0, 8), (std::vector<int>{1, 2, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(aam.chunksOwnedBy(1), 7u);
  EXPECT_EQ(aam.chunksOwnedBy(2), 1u);
}

TEST(AtomAddressMap, AnUnmapByAnotherAtomLeavesTheOwner) {
  AtomAddressMap aam;
  aam.map(1, 0, 0x1000);
  aam.unmap(2, 0, 0x1000);
  EXPECT_EQ(owners(aam, 0, 8), std::vector<int>(8, 1));
  EXPECT_EQ(aam.chunksWritten(), 8u);
  EXPECT_EQ(aam.pagesWithEntries(), 1u);
}

TEST(AtomAddressMap, AnUnmapByTheOwnerClearsOnlyItsOwnChunks) {
  AtomAddressMap aam;
  aam.map(1, 0, 0x1000);
  aam.map(2, 0x400, 0x200);
  aam.unmap(1, 0, 0x1000);
  EXPECT_EQ(owners(aam, 0, 8), (std::vector<int>{kNone, kNone, 2, kNone, kNone, kNone, kNone, kNone}));
  EXPECT_EQ(aam.chunksWritten(), 8u + 1u + 7u);
  EXPECT_EQ(aam.chunksOwned(), 1u);
  EXPECT_EQ(aam.chunksOwnedBy(1), 0u);
  EXPECT_EQ(aam.chunksOwnedBy(2), 1u);
  EXPECT_EQ(aam.pagesWithEntries(), 1u);
  aam.unmap(2, 0x5ff, 1);  // touching the chunk partly clears all of it
  EXPECT_EQ(aam.owner(0x400), std::nullopt);
  EXPECT_EQ(aam.chunksOwned(), 0u);
  EXPECT_EQ(aam.pagesWithEntries(), 0u);
}

TEST(AtomAddressMap, AnUnmapOfAnUnmappedRangeWritesNothing) {
  AtomAddressMap aam;
  aam.unmap(1, 0, 1 << 20);
  EXPECT_EQ(aam.chunksWritten(), 0u);
  EXPECT_EQ(aam.pagesWithEntries(), 0u);
}

TEST(AtomAddressMap, AReleasedPageComesBackEmpty) {
  AtomAddressMap aam;
  aam.map(1, 0, 0x1000);
  aam.unmap(1, 0, 0x1000);
  aam.map(3, 0x5000, 0x200);  // reuses the released slot
  EXPECT_EQ(owners(aam, 0x5000, 8), (std::vector<int>{3, kNone, kNone, kNone, kNone, kNone, kNone, kNone}));
  EXPECT_EQ(aam.owner(0), std::nullopt);
  EXPECT_EQ(aam.pagesWithEntries(), 1u);
}

TEST(AtomAddressMap, All256IdsAreAtomsAndNoAtomIsSeparate) {
  AtomAddressMap aam;
  aam.map(0, 0, 0x200);
  aam.map(255, 0x200, 0x200);
  EXPECT_EQ(aam.owner(0), 0u);
  EXPECT_EQ(aam.owner(0x200), 255u);
  EXPECT_EQ(aam.owner(0x400), std::nullopt);
  EXPECT_THROW(aam.map(256, 0, 1), std::invalid_argument);
  EXPECT_THROW(aam.unmap(256, 0, 1), std::invalid_argument);
  EXPECT_EQ(aam.owner(0), 0u);
}

TEST(AtomAddressMap, OtherGranularities) {
  AtomAddressMap coarse(8192, 1024);
  EXPECT_EQ(coarse.chunksPerPage(), 8u);
  coarse.map(7, 0x2400, 1);
  EXPECT_EQ(coarse.owner(0x23ff), std::nullopt);
  EXPECT_EQ(coarse.owner(0x2400), 7u);
  EXPECT_EQ(coarse.owner(0x27ff), 7u);
  EXPECT_EQ(coarse.owner(0x2800), std::nullopt);

  AtomAddressMap wholePages(4096, 4096);
  wholePages.map(9, 0x1fff, 2);
  EXPECT_EQ(wholePages.owner(0x1000), 9u);
  EXPECT_EQ(wholePages.owner(0x2fff), 9u);
  EXPECT_EQ(wholePages.owner(0x3000), std::nullopt);
  EXPECT_EQ(wholePages.chunksWritten(), 2u);
}

TEST(AtomAddressMap, TheTopOfTheAddressSpace) {
  AtomAddressMap aam;
  aam.map(4, UINT64_MAX - 511, 512);
  EXPECT_EQ(aam.owner(UINT64_MAX), 4u);
  EXPECT_EQ(aam.owner(UINT64_MAX - 512), std::nullopt);
  EXPECT_THROW(aam.map(4, UINT64_MAX, 2), std::invalid_argument);
}

TEST(AtomAddressMap, InvalidSizesThrow) {
  EXPECT_THROW(AtomAddressMap(4096, 3000), std::invalid_argument);
  EXPECT_THROW(AtomAddressMap(3000, 512), std::invalid_argument);
  EXPECT_THROW(AtomAddressMap(512, 4096), std::invalid_argument);
  EXPECT_THROW(AtomAddressMap(4096, 0), std::invalid_argument);
  EXPECT_THROW(AtomAddressMap(0, 0), std::invalid_argument);
  EXPECT_NO_THROW(AtomAddressMap(4096, 4096));
}

}  // namespace
}  // namespace warpsim::mech::xmem
