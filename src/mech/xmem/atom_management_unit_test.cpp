// The AMU: atom operations (1-D, 2-D, 3-D blocks) written to the AAM, AST gating of lookups, the
// ALB's hits and misses, and the statistics.
#include "mech/xmem/atom_management_unit.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace warpsim::mech::xmem {
namespace {

using Kind = hints::AtomOp::Kind;
constexpr int kNoOwner = -1;

hints::AtomOp block(Kind kind, uint32_t atom, uint64_t base, uint64_t lenX, uint64_t lenY, uint64_t sizeX,
                    uint64_t sizeY, uint64_t sizeZ) {
  hints::AtomOp op;
  op.kind = kind;
  op.atom = atom;
  op.base = base;
  op.lenX = lenX;
  op.lenY = lenY;
  op.sizeX = sizeX;
  op.sizeY = sizeY;
  op.sizeZ = sizeZ;
  return op;
}

hints::AtomOp linear(Kind kind, uint32_t atom, uint64_t base, uint64_t bytes) {
  return block(kind, atom, base, bytes, 1, bytes, 1, 1);
}

hints::AtomOp status(Kind kind, uint32_t atom) {
  hints::AtomOp op;
  op.kind = kind;
  op.atom = atom;
  return op;
}

// The AAM owner of each chunk of the page at `pageBase`, -1 for none.
std::vector<int> pageOwners(const AtomManagementUnit& amu, uint64_t pageBase) {
  std::vector<int> result;
  for (uint64_t c = 0; c < amu.aam().chunksPerPage(); ++c) {
    const auto owner = amu.aam().owner(pageBase + c * amu.aam().chunkBytes());
    result.push_back(owner ? static_cast<int>(*owner) : kNoOwner);
  }
  return result;
}

const std::vector<int> kEmptyPage(8, kNoOwner);

TEST(AtomManagementUnit, A2DTileOwnsTheFirstTwoChunksOfEachRow) {
  AtomManagementUnit amu;
  // 4 rows of 1024 bytes, rows 4096 bytes apart: chunks 0 and 1 of 4 consecutive pages.
  amu.apply(block(Kind::Map, 4, 0x10000, 4096, 64, 1024, 4, 1));
  for (uint64_t row = 0; row < 4; ++row) {
    const std::vector<int> expected{4, 4, kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner,
                                    kNoOwner};
    EXPECT_EQ(pageOwners(amu, 0x10000 + row * 0x1000), expected) << "row " << row;
  }
  EXPECT_EQ(pageOwners(amu, 0xf000), kEmptyPage);
  EXPECT_EQ(pageOwners(amu, 0x14000), kEmptyPage);
  EXPECT_EQ(amu.aam().pagesWithEntries(), 4u);
  const auto stats = amu.stats();
  EXPECT_EQ(stats.maps, 1u);
  EXPECT_EQ(stats.bytesMapped, 4096u);
  EXPECT_EQ(stats.chunksWritten, 8u);
}

TEST(AtomManagementUnit, A2DTileStartingMidChunkOwnsThreeChunksPerRow) {
  AtomManagementUnit amu;
  amu.apply(block(Kind::Map, 4, 0x10100, 4096, 64, 1024, 2, 1));  // 0x100..0x4ff of each row
  EXPECT_EQ(pageOwners(amu, 0x10000),
            (std::vector<int>{4, 4, 4, kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner}));
  EXPECT_EQ(pageOwners(amu, 0x11000),
            (std::vector<int>{4, 4, 4, kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner}));
  EXPECT_EQ(amu.stats().chunksWritten, 6u);
}

TEST(AtomManagementUnit, A3DBlockOwnsOneChunkPerRowOfEachPlane) {
  AtomManagementUnit amu;
  // Rows of 1024 bytes, planes of 4 rows (4096 bytes); 2 planes of 2 rows of 512 bytes.
  amu.apply(block(Kind::Map, 9, 0x100000, 1024, 4, 512, 2, 2));
  const std::vector<int> plane{9, kNoOwner, 9, kNoOwner, kNoOwner, kNoOwner, kNoOwner, kNoOwner};
  EXPECT_EQ(pageOwners(amu, 0x100000), plane);
  EXPECT_EQ(pageOwners(amu, 0x101000), plane);
  EXPECT_EQ(pageOwners(amu, 0x102000), kEmptyPage);
  EXPECT_EQ(amu.stats().bytesMapped, 2048u);
  EXPECT_EQ(amu.stats().chunksWritten, 4u);
}

TEST(AtomManagementUnit, WholePlanesAreOneRun) {
  AtomManagementUnit amu;
  amu.apply(block(Kind::Map, 2, 0x4000, 1024, 2, 1024, 2, 2));  // 4096 contiguous bytes
  EXPECT_EQ(pageOwners(amu, 0x4000), std::vector<int>(8, 2));
  EXPECT_EQ(amu.stats().bytesMapped, 4096u);
}

TEST(AtomManagementUnit, Unmapping2DTileLeavesAnotherAtomsChunks) {
  AtomManagementUnit amu;
  amu.apply(linear(Kind::Map, 1, 0x10000, 0x4000));            // 4 pages to atom 1
  amu.apply(block(Kind::Map, 2, 0x10000, 4096, 64, 512, 4, 1));  // chunk 0 of each page to atom 2
  amu.apply(block(Kind::Unmap, 1, 0x10000, 4096, 64, 1024, 4, 1));
  for (uint64_t row = 0; row < 4; ++row) {
    EXPECT_EQ(pageOwners(amu, 0x10000 + row * 0x1000), (std::vector<int>{2, kNoOwner, 1, 1, 1, 1, 1, 1}))
        << "row " << row;
  }
  const auto stats = amu.stats();
  EXPECT_EQ(stats.maps, 2u);
  EXPECT_EQ(stats.unmaps, 1u);
  EXPECT_EQ(stats.bytesMapped, 0x4000u + 2048u);
  EXPECT_EQ(stats.chunksWritten, 32u + 4u + 4u);
}

TEST(AtomManagementUnit, ALookupFindsOnlyActiveAtoms) {
  AtomManagementUnit amu;
  amu.apply(linear(Kind::Map, 7, 0, 512));
  AtomManagementUnit::Lookup found = amu.lookup(0x10);
  EXPECT_EQ(found.atom, std::nullopt);  // mapped, not active
  EXPECT_FALSE(found.albHit);

  amu.apply(status(Kind::Activate, 7));
  found = amu.lookup(0x1ff);
  EXPECT_EQ(found.atom, 7u);
  EXPECT_TRUE(found.albHit);

  found = amu.lookup(0x200);  // same page, no atom
  EXPECT_EQ(found.atom, std::nullopt);
  EXPECT_TRUE(found.albHit);

  amu.apply(status(Kind::Deactivate, 7));
  EXPECT_EQ(amu.lookup(0x0).atom, std::nullopt);

  amu.apply(status(Kind::Activate, 7));
  amu.apply(linear(Kind::Unmap, 7, 0, 512));
  EXPECT_EQ(amu.lookup(0x0).atom, std::nullopt);  // active, no longer mapped

  const auto stats = amu.stats();
  EXPECT_EQ(stats.lookups, 5u);
  EXPECT_EQ(stats.albHits, 4u);
  EXPECT_EQ(stats.albMisses, 1u);
  EXPECT_EQ(stats.aamReads, 1u);
  EXPECT_EQ(stats.lookupsInactive, 2u);
  EXPECT_EQ(stats.lookupsNoAtom, 2u);
  EXPECT_EQ(stats.activates, 2u);
  EXPECT_EQ(stats.deactivates, 1u);
}

TEST(AtomManagementUnit, AMapDoesNotDisturbTheAlbAndLookupsSeeIt) {
  AtomManagementUnit amu;
  amu.apply(status(Kind::Activate, 1));
  amu.apply(status(Kind::Activate, 2));
  amu.apply(linear(Kind::Map, 1, 0x3000, 0x1000));
  EXPECT_EQ(amu.lookup(0x3000).atom, 1u);               // miss
  amu.apply(linear(Kind::Map, 2, 0x3000, 0x200));       // write-through to the AAM
  const AtomManagementUnit::Lookup found = amu.lookup(0x3000);
  EXPECT_EQ(found.atom, 2u);
  EXPECT_TRUE(found.albHit);
  EXPECT_EQ(amu.lookup(0x3200).atom, 1u);
}

TEST(AtomManagementUnit, TheAlbFollowsPagesAndItsOrganisation) {
  AmuParams params;
  params.albEntries = 4;
  params.albWays = 2;  // 2 sets
  AtomManagementUnit amu(params);
  // Pages 0, 2, 4 share set 0: the third evicts page 0.
  for (uint64_t page : {0, 2, 4, 0}) amu.lookup(page * 4096 + 8);
  amu.lookup(4 * 4096);  // hit
  amu.lookup(1 * 4096);  // set 1: miss
  const auto stats = amu.stats();
  EXPECT_EQ(stats.albMisses, 5u);
  EXPECT_EQ(stats.albHits, 1u);
  EXPECT_EQ(stats.aamReads, 5u);
  EXPECT_EQ(stats.lookupsNoAtom, 6u);
}

TEST(AtomManagementUnit, ReportStatsAddsLookupsAcrossUnitsAndCountsOperationsOnce) {
  AtomManagementUnit amu;
  amu.apply(status(Kind::Activate, 3));
  amu.apply(linear(Kind::Map, 3, 0, 1000));
  amu.lookup(0);
  amu.lookup(4);
  amu.lookup(600);
  amu.lookup(1024);
  nlohmann::json out;
  amu.reportStats(out);
  EXPECT_EQ(out["maps"], 1);
  EXPECT_EQ(out["unmaps"], 0);
  EXPECT_EQ(out["activates"], 1);
  EXPECT_EQ(out["deactivates"], 0);
  EXPECT_EQ(out["bytes_mapped"], 1000);
  EXPECT_EQ(out["chunks_written"], 2);
  EXPECT_EQ(out["lookups"], 4);
  EXPECT_EQ(out["alb_hits"], 3);
  EXPECT_EQ(out["alb_misses"], 1);
  EXPECT_EQ(out["aam_reads"], 1);
  EXPECT_EQ(out["lookups_inactive"], 0);
  EXPECT_EQ(out["lookups_no_atom"], 1);
  amu.reportStats(out);  // a second unit that applied the same operations
  EXPECT_EQ(out["lookups"], 8);
  EXPECT_EQ(out["alb_misses"], 2);
  EXPECT_EQ(out["maps"], 1);  // the program's operations, counted once
  EXPECT_EQ(out["chunks_written"], 2);

  // A kernel boundary: the counts start again, the tables stay.
  amu.resetCounts();
  amu.lookup(8);
  const AtomManagementUnit::Stats after = amu.stats();
  EXPECT_EQ(after.maps, 0u);
  EXPECT_EQ(after.chunksWritten, 0u);
  EXPECT_EQ(after.lookups, 1u);
  EXPECT_EQ(after.albHits, 1u);
  EXPECT_EQ(after.albMisses, 0u);

  nlohmann::json idle;
  AtomManagementUnit().reportStats(idle);
  EXPECT_EQ(idle["lookups"], 0);
  EXPECT_FALSE(idle.contains("alb_hit_rate"));  // a ratio: readers derive it from the counts
}

TEST(AtomManagementUnit, InvalidParametersAndAtomsThrow) {
  EXPECT_THROW(AtomManagementUnit(AmuParams{4096, 1000, 256, 8}), std::invalid_argument);
  EXPECT_THROW(AtomManagementUnit(AmuParams{4096, 8192, 256, 8}), std::invalid_argument);
  EXPECT_THROW(AtomManagementUnit(AmuParams{4096, 512, 100, 8}), std::invalid_argument);
  EXPECT_THROW(AtomManagementUnit(AmuParams{4096, 512, 256, 0}), std::invalid_argument);
  AtomManagementUnit amu;
  EXPECT_THROW(amu.apply(linear(Kind::Map, 256, 0, 512)), std::invalid_argument);
  EXPECT_THROW(amu.apply(status(Kind::Activate, 256)), std::invalid_argument);
  EXPECT_EQ(amu.stats().maps, 0u);
  EXPECT_EQ(amu.stats().activates, 0u);
  EXPECT_EQ(amu.aam().pagesWithEntries(), 0u);
}

}  // namespace
}  // namespace warpsim::mech::xmem
