// The zone bits earlier launches fixed: kept for their structures, chosen for new ones, and the
// CTA partition follows the kept bits.
#include "mech/locality_descriptor/placement_history.h"

#include <gtest/gtest.h>

#include <vector>

#include "mech/locality_descriptor/launch_plan.h"
#include "mech/locality_descriptor/test_descriptors.h"

namespace warpsim::mech::locality_descriptor {
namespace {

const Dims kGrid{4, 4, 1};
constexpr uint64_t kMatrix = 0x100000;
constexpr uint64_t kOtherMatrix = 0x200000;

TEST(PlacementHistory, AStructureKeepsItsFirstBitAndANewOneGetsItsOwn) {
  PlacementHistory history;
  const std::vector<TileGeometry> first{geometryOf(testing::columnStrips(kMatrix), kGrid)};
  EXPECT_EQ(history.place(first, 2, 0).zoneBit, std::vector<uint32_t>{7});

  // The matrix again (now by rows, which alone would choose bit 12) and a new structure read by
  // rows: the matrix keeps 7, so every row strip lies half in each zone and its C-Tile goes to
  // zone 0 (the tie's lowest); the new structure then fits zone 0 whole at bit 14 (16 KB pieces).
  const std::vector<TileGeometry> second{geometryOf(testing::rowStrips(kMatrix), kGrid),
                                         geometryOf(testing::rowStrips(kOtherMatrix), kGrid)};
  EXPECT_EQ(placeForNuma(second, 2).zoneBit, (std::vector<uint32_t>{12, 12}));
  const NumaPlacement placed = history.place(second, 2, 0);
  EXPECT_EQ(placed.zoneBit, (std::vector<uint32_t>{7, 14}));
  EXPECT_DOUBLE_EQ(placed.localFraction[1], 1.0);
  ASSERT_EQ(history.structures().size(), 2u);
  EXPECT_EQ(history.structures()[0].base, kMatrix);
  EXPECT_EQ(history.structures()[0].bit, 7u);
  EXPECT_EQ(history.structures()[1].base, kOtherMatrix);
  EXPECT_EQ(history.structures()[1].size, 64u * 64 * 4);
  EXPECT_EQ(history.structures()[1].bit, 14u);
}

TEST(PlacementHistory, TheCtaPartitionFollowsTheKeptBit) {
  // With the matrix fixed at bit 7 every 16-row strip lies half in each of 2 zones; the row
  // strips' C-Tiles go to the lowest zone of the tie (zone 0), so half of what they read is local.
  PlacementHistory history;
  const std::vector<TileGeometry> columns{geometryOf(testing::columnStrips(kMatrix), kGrid)};
  history.place(columns, 2, 0);
  const std::vector<TileGeometry> rows{geometryOf(testing::rowStrips(kMatrix), kGrid)};
  const NumaPlacement placed = history.place(rows, 2, 0);
  EXPECT_EQ(placed.zoneOfCta, std::vector<uint32_t>(16, 0));
  EXPECT_DOUBLE_EQ(placed.localFraction[0], 0.5);
}

TEST(PlacementHistory, AFixedBitOutsideTheCandidatesIsRefused) {
  const std::vector<TileGeometry> one{geometryOf(testing::columnStrips(kMatrix), kGrid)};
  const std::vector<std::optional<uint32_t>> fixed{17u};
  EXPECT_THROW(placeForNuma(one, 2, 0, fixed), std::invalid_argument);
  const std::vector<std::optional<uint32_t>> tooMany{7u, 7u};
  EXPECT_THROW(placeForNuma(one, 2, 0, tooMany), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
