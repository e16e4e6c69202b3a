#include "hints/atoms.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace warpsim::hints {
namespace {

std::vector<std::pair<uint64_t, uint64_t>> runs(const AtomOp& op) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  forEachRun(op, [&](uint64_t start, uint64_t bytes) { out.emplace_back(start, bytes); });
  return out;
}

TEST(Atoms, AttributesAreCheckedByName) {
  EXPECT_EQ(checkAtom(WARPSIM_ATOM_FLOAT32 | WARPSIM_ATOM_SPARSE, {WARPSIM_ATOM_REGULAR, 4, 9}, WARPSIM_ATOM_READ_ONLY),
            "");
  EXPECT_EQ(checkAtom(1u << 7, {WARPSIM_ATOM_IRREGULAR, 0, 0}, WARPSIM_ATOM_READ_ONLY),
            "CreateAtom: data_properties (0x80) has bits that are none of WARPSIM_ATOM_INT32 .. WARPSIM_ATOM_INDEX "
            "(0x7f)");
  EXPECT_EQ(checkAtom(0, {7, 0, 0}, WARPSIM_ATOM_READ_ONLY),
            "CreateAtom: pattern.type (7) is not REGULAR (1), IRREGULAR (2) or NON_DET (3)");
  EXPECT_EQ(checkAtom(0, {WARPSIM_ATOM_REGULAR, 0, 0}, WARPSIM_ATOM_READ_ONLY),
            "CreateAtom: pattern.stride_bytes is 0 for a REGULAR pattern (give its stride in bytes)");
  EXPECT_EQ(checkAtom(0, {WARPSIM_ATOM_NON_DET, 8, 0}, WARPSIM_ATOM_READ_ONLY),
            "CreateAtom: pattern.stride_bytes (8) is given for a pattern that is not REGULAR");
  EXPECT_EQ(checkAtom(0, {WARPSIM_ATOM_NON_DET, 0, 0}, 0),
            "CreateAtom: rw (0) is not READ_ONLY (1), READ_WRITE (2) or WRITE_ONLY (3)");
}

TEST(Atoms, TheRecordKeepsEveryAttribute) {
  const AtomAttributes a = atomAttributes(WARPSIM_ATOM_INT32 | WARPSIM_ATOM_INDEX, {WARPSIM_ATOM_REGULAR, -64, 200},
                                          3, WARPSIM_ATOM_WRITE_ONLY);
  EXPECT_EQ(a.dataProperties, uint32_t{WARPSIM_ATOM_INT32 | WARPSIM_ATOM_INDEX});
  EXPECT_EQ(a.pattern, AtomPattern::Regular);
  EXPECT_EQ(a.strideBytes, -64);
  EXPECT_EQ(a.intensity, 200);
  EXPECT_EQ(a.reuse, 3);
  EXPECT_EQ(a.rw, AtomRw::WriteOnly);
}

TEST(Atoms, BlocksAreLinearisedIntoRunsInAddressOrder) {
  AtomOp one{AtomOp::Kind::Map, 0, 0x1000, 100, 1, 100, 1, 1};
  EXPECT_EQ(runs(one), (std::vector<std::pair<uint64_t, uint64_t>>{{0x1000, 100}}));
  // 2-D: 3 rows of 16 bytes in rows of 64.
  AtomOp tile{AtomOp::Kind::Map, 0, 0x1000, 64, 3, 16, 3, 1};
  EXPECT_EQ(runs(tile), (std::vector<std::pair<uint64_t, uint64_t>>{{0x1000, 16}, {0x1040, 16}, {0x1080, 16}}));
  // 2-D of whole rows: one run.
  AtomOp rows{AtomOp::Kind::Unmap, 0, 0x1000, 64, 3, 64, 3, 1};
  EXPECT_EQ(runs(rows), (std::vector<std::pair<uint64_t, uint64_t>>{{0x1000, 192}}));
  // 3-D: 2 planes of 2 rows of 8 bytes; rows 32 bytes, planes 4 rows.
  AtomOp cube{AtomOp::Kind::Map, 0, 0x2000, 32, 4, 8, 2, 2};
  EXPECT_EQ(runs(cube), (std::vector<std::pair<uint64_t, uint64_t>>{
                            {0x2000, 8}, {0x2020, 8}, {0x2080, 8}, {0x20a0, 8}}));
  EXPECT_EQ(cube.end(), 0x20a8u);  // the end of the last run
  EXPECT_EQ(tile.end(), 0x1090u);
  // 3-D of whole planes: one run.
  AtomOp planes{AtomOp::Kind::Map, 0, 0x2000, 32, 4, 32, 4, 3};
  EXPECT_EQ(runs(planes), (std::vector<std::pair<uint64_t, uint64_t>>{{0x2000, 384}}));
}

TEST(Atoms, MalformedBlocksAreRefusedByName) {
  EXPECT_EQ(checkAtomOp({AtomOp::Kind::Map, 0, 0x1000, 64, 3, 16, 3, 1}), "");
  EXPECT_EQ(checkAtomOp({AtomOp::Kind::Map, 0, 0x1000, 0, 1, 0, 1, 1}),
            "AtomMap: the block is empty (sizeX 0, sizeY 1, sizeZ 1)");
  EXPECT_EQ(checkAtomOp({AtomOp::Kind::Unmap, 0, 0x1000, 64, 3, 65, 3, 1}),
            "AtomUnmap: sizeX (65) is larger than the row length lenX (64)");
  EXPECT_EQ(checkAtomOp({AtomOp::Kind::Map, 0, 0x1000, 64, 3, 16, 4, 2}),
            "AtomMap: sizeY (4) is larger than the plane's rows lenY (3)");
  EXPECT_EQ(checkAtomOp({AtomOp::Kind::Activate, 3}), "");
  // A block whose end wraps around the address space (a garbage size from a kernel).
  EXPECT_EQ(checkAtomOp({AtomOp::Kind::Map, 0, 0x1000, 64, 3, 16, uint64_t{1} << 60, 1}),
            "AtomMap: the block from 0x1000 runs past the end of the address space");
  EXPECT_EQ(checkAtomOp({AtomOp::Kind::Unmap, 0, ~uint64_t{0} - 8, 16, 0, 16, 1, 1}),
            "AtomUnmap: the block from 0xfffffffffffffff7 runs past the end of the address space");
}

// The words the host calls and the kernels' atom_hint instructions share.
TEST(Atoms, IssuedOperationsAreCheckedInTheSameWords) {
  EXPECT_EQ(checkAtomId({AtomOp::Kind::Activate, 1}, 2), "");
  EXPECT_EQ(checkAtomId({AtomOp::Kind::Deactivate, 2}, 2),
            "AtomDeactivate: atom 2 was never created (the program has 2 atoms)");
  EXPECT_EQ(outsideAllocation({AtomOp::Kind::Map, 1, 0x1000, 64, 3, 16, 3, 1}),
            "AtomMap: [0x1000, 0x1090) of atom 1 is not inside one device allocation");
  EXPECT_STREQ(atomOpName(AtomOp::Kind::Unmap), "AtomUnmap");
}

}  // namespace
}  // namespace warpsim::hints
