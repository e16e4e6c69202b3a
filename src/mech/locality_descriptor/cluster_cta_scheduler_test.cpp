#include "mech/locality_descriptor/cluster_cta_scheduler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "mech/locality_descriptor/test_descriptors.h"
#include "timing/plugin_registry.h"

namespace warpsim::mech::locality_descriptor {
namespace {

// SMs that hold one CTA each, which retires at the end of the cycle it started in.
class OneAtATime final : public timing::CtaDispatcher {
 public:
  explicit OneAtATime(uint32_t sms) : placed(sms) {}
  uint32_t numSms() const override { return static_cast<uint32_t>(placed.size()); }
  bool canStart(uint32_t) const override { return true; }
  void start(uint32_t cta, uint32_t sm) override { placed[sm].push_back(cta); }
  std::vector<std::vector<uint32_t>> placed;  // CTAs per SM, in start order
};

std::vector<std::vector<uint32_t>> place(ClusterCtaScheduler& s, const timing::ICtaScheduler::Launch& launch,
                                         uint32_t sms) {
  OneAtATime d(sms);
  s.beginLaunch(launch);
  for (timing::Cycle t = 0; s.pending() != 0 && t < 1000; ++t) s.schedule(d, t);
  return d.placed;
}

struct Fixture {
  explicit Fixture(const std::string& mode = "descriptors")
      : tree(config::Tree::fromString("[cta_scheduler]\nclusters = \"" + mode + "\"\n")) {}
  ClusterCtaScheduler make(uint32_t sms) { return ClusterCtaScheduler({&tree, sms}); }
  config::Tree tree;
};

TEST(ClusterCtaScheduler, ClustersOfADescriptorStayOnOneSm) {
  // Grid 4 x 4, C-Tiles (1, 4, 1): 4 column clusters, already >= 2 SMs: no split.
  Fixture f;
  ClusterCtaScheduler s = f.make(2);
  hints::LaunchHints h;
  h.locality.push_back(testing::columnStrips(0x100000));
  timing::ICtaScheduler::Launch launch{16, {4, 4, 1}, &h};
  const auto placed = place(s, launch, 2);
  // Column x holds CTAs x, x + 4, x + 8, x + 12; clusters 0, 2 to SM 0 and 1, 3 to SM 1.
  EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 4, 8, 12, 2, 6, 10, 14}));
  EXPECT_EQ(placed[1], (std::vector<uint32_t>{1, 5, 9, 13, 3, 7, 11, 15}));
}

TEST(ClusterCtaScheduler, AnSmWithNothingLeftTakesTheLastCtaOfAnotherSmsCluster) {
  // 5 SMs: the 4 column C-Tiles are fewer, so Algorithm 1 splits them to (1, 2, 1): 8 clusters,
  // x then y: c0 = {0, 4}, c1 = {1, 5}, c2 = {2, 6}, c3 = {3, 7}, c4 = {8, 12}, c5 = {9, 13},
  // c6 = {10, 14}, c7 = {11, 15}; SM i gets c_i and c_(i+5). Cycles 0 and 1: each SM runs its
  // first cluster. Cycle 2: SMs 0-2 start their second clusters (9, 10, 11); SM 3 has nothing
  // queued and nothing is queued anywhere, so it takes the last CTA of the first largest current
  // cluster (SM 0's 13), SM 4 the next (SM 1's 14). Cycle 3: SM 0 takes SM 2's 15.
  Fixture f;
  ClusterCtaScheduler s = f.make(5);
  hints::LaunchHints h;
  h.locality.push_back(testing::columnStrips(0x100000));
  timing::ICtaScheduler::Launch launch{16, {4, 4, 1}, &h};
  const auto placed = place(s, launch, 5);
  EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 4, 9, 15}));
  EXPECT_EQ(placed[1], (std::vector<uint32_t>{1, 5, 10}));
  EXPECT_EQ(placed[2], (std::vector<uint32_t>{2, 6, 11}));
  EXPECT_EQ(placed[3], (std::vector<uint32_t>{3, 7, 13}));
  EXPECT_EQ(placed[4], (std::vector<uint32_t>{8, 12, 14}));
  nlohmann::json stats;
  s.reportStats(stats);
  EXPECT_EQ(stats["clusters"], 8);
  EXPECT_EQ(stats["cluster_dims"], nlohmann::json::array({1, 2, 1}));
  EXPECT_EQ(stats["clusters_stolen"], 0);
  EXPECT_EQ(stats["ctas_stolen"], 3);
}

TEST(ClusterCtaScheduler, PairsPlaceTwoConsecutiveCtasPerSm) {
  Fixture f("pairs");
  ClusterCtaScheduler s = f.make(3);
  timing::ICtaScheduler::Launch launch{7, {7, 1, 1}, nullptr};
  const auto placed = place(s, launch, 3);
  // Pairs {0,1} {2,3} {4,5} {6} to SMs 0, 1, 2, 0.
  EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 1, 6}));
  EXPECT_EQ(placed[1], (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(placed[2], (std::vector<uint32_t>{4, 5}));
}

TEST(ClusterCtaScheduler, FixedClustersIgnoreTheDescriptors) {
  config::Tree tree = config::Tree::fromString(
      "[cta_scheduler]\nclusters = \"fixed\"\ncluster_x = 2\ncluster_y = 2\n");
  ClusterCtaScheduler s({&tree, 2});
  hints::LaunchHints h;
  h.locality.push_back(testing::columnStrips(0x100000));  // would give columns (1, 4, 1)
  timing::ICtaScheduler::Launch launch{16, {4, 4, 1}, &h};
  const auto placed = place(s, launch, 2);
  // 2 x 2 clusters {0,1,4,5} {2,3,6,7} {8,9,12,13} {10,11,14,15}, dealt to SMs 0, 1, 0, 1.
  EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 1, 4, 5, 8, 9, 12, 13}));
  EXPECT_EQ(placed[1], (std::vector<uint32_t>{2, 3, 6, 7, 10, 11, 14, 15}));
  nlohmann::json stats;
  s.reportStats(stats);
  EXPECT_EQ(stats["cluster_dims"], nlohmann::json::array({2, 2, 1}));
}

TEST(ClusterCtaScheduler, FixedClustersAreClippedToTheGrid) {
  config::Tree tree = config::Tree::fromString(
      "[cta_scheduler]\nclusters = \"fixed\"\ncluster_x = 8\ncluster_z = 4\n");
  ClusterCtaScheduler s({&tree, 2});
  timing::ICtaScheduler::Launch launch{8, {4, 2, 1}, nullptr};
  const auto placed = place(s, launch, 2);
  EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(placed[1], (std::vector<uint32_t>{4, 5, 6, 7}));
  nlohmann::json stats;
  s.reportStats(stats);
  EXPECT_EQ(stats["cluster_dims"], nlohmann::json::array({4, 1, 1}));
}

TEST(ClusterCtaScheduler, OnTwoModulesEachZoneRunsTheCtasOfItsData) {
  // The matrix's rows are 256 bytes: under zone bit 7 (Algorithm 2's choice, every byte local)
  // strips 0 and 1 (bytes 0-127 of each row) lie in zone 0, strips 2 and 3 in zone 1. So the
  // column clusters 0 and 1 run on SM 0 (module 0), 2 and 3 on SM 1 (module 1); on one module
  // they would alternate (0, 2 on SM 0).
  Fixture f;
  ClusterCtaScheduler s({&f.tree, 2, 2});
  hints::LaunchHints h;
  h.locality.push_back(testing::columnStrips(0x100000));
  timing::ICtaScheduler::Launch launch{16, {4, 4, 1}, &h};
  const auto placed = place(s, launch, 2);
  EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 4, 8, 12, 1, 5, 9, 13}));
  EXPECT_EQ(placed[1], (std::vector<uint32_t>{2, 6, 10, 14, 3, 7, 11, 15}));
  ClusterCtaScheduler one({&f.tree, 2, 1});
  EXPECT_EQ(place(one, launch, 2)[0], (std::vector<uint32_t>{0, 4, 8, 12, 2, 6, 10, 14}));
}

TEST(ClusterCtaScheduler, WithoutDescriptorsCtasGoRoundRobin) {
  Fixture f;
  ClusterCtaScheduler s = f.make(3);
  timing::ICtaScheduler::Launch launch{5, {5, 1, 1}, nullptr};
  const auto placed = place(s, launch, 3);
  EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(placed[1], (std::vector<uint32_t>{1, 4}));
  EXPECT_EQ(placed[2], (std::vector<uint32_t>{2}));
}

}  // namespace
}  // namespace warpsim::mech::locality_descriptor
