#include "sweep/point_id.h"

#include <gtest/gtest.h>

#include <map>

#include "sweep/grid.h"
#include "sweep/spec_test_support.h"

namespace warpsim::sweep {
namespace {

TEST(PointId, Fnv1aMatchesThePublishedTestVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(PointId, IsTheHashOfVersionAndArgumentsAsSixteenHexDigits) {
  // fnv1a64("0.1.0\0run\0vecadd\0--size\01024\0"), computed independently.
  EXPECT_EQ(pointId({"run", "vecadd", "--size", "1024"}, "0.1.0"), "047960e40e757914");
  EXPECT_EQ(pointId({"run", "vecadd", "--size", "1024"}, "0.1.1"), "1f2cf9f3e4ed73ab");
  // Argument boundaries count.
  EXPECT_NE(pointId({"run", "ab"}, "v"), pointId({"run", "a", "b"}, "v"));
}

std::map<std::string, std::string> idsByAxes(const std::string& text) {
  const Spec spec = parseText(text);
  std::vector<std::string> names;
  for (const Axis& a : spec.axes) names.push_back(a.name);
  std::map<std::string, std::string> out;
  for (const Point& p : expandGrid(spec, "0.1.0")) out[describeAxes(names, p.axes)] = p.id;
  return out;
}

TEST(PointId, AddingValuesToAnAxisLeavesTheOtherPointsAlone) {
  const auto before = idsByAxes(R"([axes]
workload = ["vecadd"]
variant = ["base"]
[variants.base]
[variants.gs]
overlays = ["gscalar"]
)");
  const auto after = idsByAxes(R"([axes]
workload = ["saxpy", "vecadd"]
variant = ["gs", "base"]
[variants.base]
[variants.gs]
overlays = ["gscalar"]
)");
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(before.at("workload=vecadd variant=base"), after.at("workload=vecadd variant=base"));
  EXPECT_EQ(after.at("workload=vecadd variant=base"), "437bb2b25d720612");  // fnv1a64("0.1.0\0run\0vecadd\0")
}

TEST(PointId, ChangingAVariantChangesOnlyItsPoints) {
  const char* head = R"([axes]
workload = ["vecadd"]
variant = ["base", "gs"]
[variants.base]
[variants.gs]
)";
  const auto before = idsByAxes(std::string(head) + "overlays = [\"gscalar\"]\n");
  const auto after = idsByAxes(std::string(head) + "overlays = [\"gscalar\"]\nsets = [\"a.b=1\"]\n");
  EXPECT_EQ(before.at("workload=vecadd variant=base"), after.at("workload=vecadd variant=base"));
  EXPECT_NE(before.at("workload=vecadd variant=gs"), after.at("workload=vecadd variant=gs"));
}

}  // namespace
}  // namespace warpsim::sweep
