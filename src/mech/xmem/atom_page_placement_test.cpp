#include "mech/xmem/atom_page_placement.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "hints/launch_hints.h"
#include "timing/mem/hash_address_mapping.h"

namespace warpsim::mech::xmem {
namespace {

using hints::AtomOp;
using timing::mem::HashAddressMapping;

constexpr uint64_t kBase = func::DeviceMemory::kBaseAddress;
constexpr uint64_t kPage = 4096;

// One channel, 4 banks, rows of one page: frame f is row-buffer unit n = base / 4096 + f (the
// base is a multiple of 4 pages), row n / 4, bank (n % 4) XOR (row % 4) = (f % 4) ^ (f / 4 % 4):
//   frames  0- 3: banks 0 1 2 3    frames  4- 7: 1 0 3 2
//   frames  8-11: 2 3 0 1          frames 12-15: 3 2 1 0
struct Fixture {
  HashAddressMapping mapping{1, 4, 4096, 256};
  std::unique_ptr<AtomPagePlacement> placement;
  hints::LaunchHints hints;

  explicit Fixture(uint64_t frames, AtomPlacementOptions options = {}) {
    timing::mem::IPagePlacement::Context c;
    c.space.pageBytes = kPage;
    c.space.frames = frames;
    c.physical = &mapping;
    c.channels = 1;
    c.banks = 4;
    placement = std::make_unique<AtomPagePlacement>(c, options);
  }
  uint32_t atom(hints::AtomPattern pattern, uint8_t intensity) {
    hints::AtomAttributes a;
    a.pattern = pattern;
    a.strideBytes = pattern == hints::AtomPattern::Regular ? 4 : 0;
    a.intensity = intensity;
    hints.atoms.attributes.push_back(a);
    return static_cast<uint32_t>(hints.atoms.attributes.size() - 1);
  }
  void map(uint32_t atom, uint64_t firstPage, uint64_t pages) {
    ops.push_back(AtomOp{AtomOp::Kind::Map, atom, kBase + firstPage * kPage, pages * kPage, 1, pages * kPage, 1, 1});
  }
  void launch() {
    hints.atoms.history.push_back(std::make_shared<const std::vector<AtomOp>>(ops));
    hints.atoms.newOps = ops.size();
    ops.clear();
    placement->beginLaunch(&hints);
  }
  uint64_t place(uint64_t page) { return placement->frameFor(page, kBase + page * kPage + 100); }
  std::vector<AtomOp> ops;
};

TEST(AtomPagePlacement, ColoursAreTheBanksOfTheAddressMapping) {
  Fixture f(16);
  const uint32_t expected[16] = {0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0};
  for (uint64_t frame = 0; frame < 16; ++frame) EXPECT_EQ(f.placement->colourOf(frame), expected[frame]) << frame;
}

TEST(AtomPagePlacement, IsolatesIntenseRegularAtomsAndSpreadsTheRestOverTheOtherBanks) {
  Fixture f(16);
  const uint32_t hot = f.atom(hints::AtomPattern::Regular, 200);
  const uint32_t warm = f.atom(hints::AtomPattern::Regular, 150);
  const uint32_t graph = f.atom(hints::AtomPattern::Irregular, 250);
  f.map(hot, 0, 3);
  f.map(graph, 3, 3);
  f.map(warm, 6, 1);
  f.launch();
  // Half of the 4 banks reserved, one each for the two REGULAR atoms, the most intense first.
  EXPECT_EQ(f.placement->isolatedBanks(hot), std::vector<uint32_t>({0}));
  EXPECT_EQ(f.placement->isolatedBanks(warm), std::vector<uint32_t>({1}));
  EXPECT_TRUE(f.placement->isolatedBanks(graph).empty());
  EXPECT_EQ(f.placement->sharedBanks(), std::vector<uint32_t>({2, 3}));
  // hot: the bank-0 frames in order; graph: banks 2, 3, 2; warm: bank 1; a page of no atom: the
  // shared round robin goes on (bank 3).
  EXPECT_EQ(f.place(0), 0u);
  EXPECT_EQ(f.place(1), 5u);
  EXPECT_EQ(f.place(3), 2u);
  EXPECT_EQ(f.place(4), 3u);
  EXPECT_EQ(f.place(5), 7u);
  EXPECT_EQ(f.place(2), 10u);
  EXPECT_EQ(f.place(6), 1u);
  EXPECT_EQ(f.place(9), 6u);
  nlohmann::json stats;
  f.placement->reportStats(stats);
  EXPECT_EQ(stats["isolated_pages"], 4);
  EXPECT_EQ(stats["spread_pages"], 3);
  EXPECT_EQ(stats["unannotated_pages"], 1);
  EXPECT_EQ(stats["fallback_pages"], 0);
  EXPECT_EQ(stats["atoms"][0]["pages"], 3);
  EXPECT_EQ(stats["atoms"][1]["pages"], 1);
  EXPECT_EQ(stats["atoms"][2]["pages"], 3);
}

TEST(AtomPagePlacement, AColourWithNoFreeFrameFallsBackToAnyFreeFrame) {
  Fixture f(16);
  const uint32_t hot = f.atom(hints::AtomPattern::Regular, 128);
  f.map(hot, 0, 6);
  f.launch();
  // Bank 0 is reserved for hot (round(4 x 0.5) = 2 banks, split over one atom: banks 0 and 1).
  EXPECT_EQ(f.placement->isolatedBanks(hot), std::vector<uint32_t>({0, 1}));
  // Banks 0, 1, 0, 1, ...: frames 0, 1, 5, 4, 10, 11; then 15 (bank 0) and 14 (bank 1) are left.
  const uint64_t expected[6] = {0, 1, 5, 4, 10, 11};
  for (uint64_t p = 0; p < 6; ++p) EXPECT_EQ(f.place(p), expected[p]) << p;
  f.map(hot, 6, 3);
  f.launch();
  EXPECT_EQ(f.place(6), 15u);
  EXPECT_EQ(f.place(7), 14u);
  EXPECT_EQ(f.place(8), 2u);  // banks 0 and 1 are full: the first free frame
  nlohmann::json stats;
  f.placement->reportStats(stats);
  EXPECT_EQ(stats["isolated_pages"], 3);
  EXPECT_EQ(stats["fallback_pages"], 1);
}

TEST(AtomPagePlacement, WithoutAtomsEveryPageIsSpreadOverEveryBank) {
  Fixture f(16);
  f.launch();
  EXPECT_EQ(f.placement->sharedBanks(), std::vector<uint32_t>({0, 1, 2, 3}));
  const uint64_t expected[5] = {0, 1, 2, 3, 5};
  for (uint64_t p = 0; p < 5; ++p) EXPECT_EQ(f.place(p), expected[p]) << p;
}

TEST(AtomPagePlacement, ColdOrIrregularAtomsAreNotIsolated) {
  Fixture f(16);  // isolate_min_intensity 128
  const uint32_t cold = f.atom(hints::AtomPattern::Regular, 127);
  const uint32_t random = f.atom(hints::AtomPattern::NonDeterministic, 255);
  f.map(cold, 0, 1);
  f.map(random, 1, 1);
  f.launch();
  EXPECT_TRUE(f.placement->isolatedBanks(cold).empty());
  EXPECT_TRUE(f.placement->isolatedBanks(random).empty());
  EXPECT_EQ(f.placement->sharedBanks().size(), 4u);
}

}  // namespace
}  // namespace warpsim::mech::xmem
