#include "hints/locality_descriptor.h"

#include <gtest/gtest.h>

namespace warpsim::hints {
namespace {

// histo's descriptor (the thesis's example): a 256 x 64 array of uchar4, D-Tiles of 32 x 64
// elements, one C-Tile per grid column.
LocalityDescriptor histo() {
  LocalityDescriptor d{};
  d.base = reinterpret_cast<const void*>(uintptr_t{0x7f0000000000});
  d.dims = {256, 64, 1};
  d.element_bytes = 4;
  d.type = WARPSIM_INTER_THREAD;
  d.data_tile = {32, 64, 1};
  d.compute_tile = {1, 16, 1};
  d.compute_data_map = {1, 0, 0};
  d.sharing = WARPSIM_COACCESSED;
  d.pattern = WARPSIM_REGULAR;
  d.stride = 256;
  d.priority = 1;
  return d;
}

TEST(LocalityDescriptor, AConsistentDescriptorPasses) {
  EXPECT_EQ(checkLocalityDescriptor(histo()), "");
  EXPECT_EQ(bytesOf(histo()), 256u * 64 * 4);
}

TEST(LocalityDescriptor, EachBadFieldIsNamed) {
  auto with = [](auto change) {
    LocalityDescriptor d = histo();
    change(d);
    return checkLocalityDescriptor(d);
  };
  EXPECT_EQ(with([](auto& d) { d.base = nullptr; }), "locality descriptor: base is null");
  EXPECT_EQ(with([](auto& d) { d.element_bytes = 0; }), "locality descriptor: element_bytes (0) must be 1 to 256");
  EXPECT_EQ(with([](auto& d) { d.dims.y = 0; }),
            "locality descriptor: dims.y is 0 (each dimension counts at least 1)");
  EXPECT_EQ(with([](auto& d) { d.data_tile.x = 512; }),
            "locality descriptor: data_tile.x (512) is larger than dims.x (256)");
  EXPECT_EQ(with([](auto& d) { d.compute_tile.z = 0; }),
            "locality descriptor: compute_tile.z is 0 (each dimension counts at least 1)");
  EXPECT_EQ(with([](auto& d) { d.type = 7; }),
            "locality descriptor: type (7) is not INTRA_THREAD (1), INTER_THREAD (2) or NO_REUSE (3)");
  EXPECT_EQ(with([](auto& d) { d.sharing = 0; }),
            "locality descriptor: sharing (0) is not COACCESSED (1) or NEARBY (2)");
  EXPECT_EQ(with([](auto& d) { d.pattern = 3; }),
            "locality descriptor: pattern (3) is not REGULAR (1) or IRREGULAR (2)");
  EXPECT_EQ(with([](auto& d) { d.stride = 0; }),
            "locality descriptor: stride (0) of a REGULAR pattern must be 1 to the structure's 16384 elements");
  EXPECT_EQ(with([](auto& d) { d.stride = 16385; }),
            "locality descriptor: stride (16385) of a REGULAR pattern must be 1 to the structure's 16384 elements");
  EXPECT_EQ(with([](auto& d) { d.stride = 4096; }), "");  // more than a D-Tile's 2048: a pitch
  EXPECT_EQ(with([](auto& d) { d.pattern = WARPSIM_IRREGULAR, d.stride = 0; }), "");
  EXPECT_EQ(with([](auto& d) { d.compute_data_map = {1, 1, 0}; }),
            "locality descriptor: compute_data_map.y: rank 1 is given twice");
  EXPECT_EQ(with([](auto& d) { d.compute_data_map = {2, 0, 0}; }),
            "locality descriptor: compute_data_map (2, 0, 0): the ranks of the traversed dimensions must be 1 to 1");
  EXPECT_EQ(with([](auto& d) { d.compute_data_map = {0, 4, 0}; }),
            "locality descriptor: compute_data_map.y (4) is not a rank: 0 (not traversed), 1, 2 or 3");
  EXPECT_EQ(with([](auto& d) { d.compute_data_map = {3, 1, 2}; }), "");
}

TEST(LocalityDescriptor, AnUntraversedGridDimensionMustHoldOneCTile) {
  const uint32_t fits[3] = {8, 16, 1};   // histo: C-Tiles (1, 16, 1): 8 along x, 1 along y
  const uint32_t taller[3] = {8, 32, 1};
  EXPECT_EQ(checkForGrid(histo(), fits), "");
  EXPECT_EQ(checkForGrid(histo(), taller),
            "locality descriptor: compute_data_map.y is 0 (not traversed) but the grid's 32 CTAs along y make 2 "
            "C-Tiles of 16");
}

TEST(LocalityDescriptor, OneStructureMayHaveSeveralDescriptorsButRangesMustNotPartlyOverlap) {
  LocalityDescriptor a = histo(), same = histo(), apart = histo(), across = histo();
  same.type = WARPSIM_NO_REUSE;
  apart.base = reinterpret_cast<const void*>(baseOf(a) + bytesOf(a));
  across.base = reinterpret_cast<const void*>(baseOf(a) + 4096);
  EXPECT_EQ(checkOverlap(a, same), "");
  EXPECT_EQ(checkOverlap(a, apart), "");
  EXPECT_EQ(checkOverlap(a, across),
            "locality descriptor: base: the range [0x7f0000000000, 0x7f0000010000) overlaps "
            "[0x7f0000001000, 0x7f0000011000) of another descriptor without being the same structure");
}

}  // namespace
}  // namespace warpsim::hints
