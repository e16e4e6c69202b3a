#include "sweep/grid.h"

#include <gtest/gtest.h>

#include "sweep/spec_test_support.h"

namespace warpsim::sweep {
namespace {

std::vector<std::string> described(const Spec& spec, const std::vector<Point>& points) {
  std::vector<std::string> names;
  for (const Axis& a : spec.axes) names.push_back(a.name);
  std::vector<std::string> out;
  for (const Point& p : points) out.push_back(describeAxes(names, p.axes));
  return out;
}

TEST(Grid, FirstAxisOutermostValuesInSpecOrderLessExclusions) {
  const Spec spec = parseText(R"([axes]
variant = ["gs", "base"]
workload = ["saxpy", "vecadd", "kmeans"]
seed = [2, 1]
[variants.base]
[variants.gs]
overlays = ["gscalar"]
[[exclude]]
workload = "kmeans"
variant = "gs"
[[exclude]]
workload = ["saxpy", "vecadd"]
seed = 1
variant = "base"
)");
  EXPECT_EQ(described(spec, expandGrid(spec, "v")),
            (std::vector<std::string>{
                "variant=gs workload=saxpy seed=2", "variant=gs workload=saxpy seed=1",
                "variant=gs workload=vecadd seed=2", "variant=gs workload=vecadd seed=1",
                "variant=base workload=saxpy seed=2", "variant=base workload=vecadd seed=2",
                "variant=base workload=kmeans seed=2", "variant=base workload=kmeans seed=1"}));
}

TEST(Grid, ArgumentsComeInAFixedOrderWhateverTheAxisOrder) {
  const Spec spec = parseText(R"([axes]
registers = [32]
seed = [3]
variant = ["gs"]
config = ["v100"]
mode = ["functional"]
size = ["small"]
workload = ["vecadd"]
[axes.set]
"sm.banks" = [4]
"sm.name" = ["a b"]
[variants.gs]
overlays = ["gscalar", "lrr"]
sets = ["x.y=1"]
options = ["--profile-values"]
)");
  const std::vector<Point> points = expandGrid(spec, "v");
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].argv,
            (std::vector<std::string>{"run", "vecadd", "--size", "small", "--mode", "functional",
                                      "--config", "v100", "--seed", "3", "--max-registers", "32",
                                      "--overlay", "gscalar", "--overlay", "lrr", "--set", "x.y=1",
                                      "--set", "sm.banks=4", "--set", "sm.name=\"a b\"",
                                      "--profile-values"}));
}

TEST(Grid, ProgramsGoAfterDoubleDash) {
  const Spec spec = parseText(R"([axes]
program = ["p"]
seed = [5]
[programs.p]
command = ["./p", "--n", "3"]
)");
  EXPECT_EQ(expandGrid(spec, "v")[0].argv,
            (std::vector<std::string>{"run", "--seed", "5", "--", "./p", "--n", "3"}));
}

TEST(Grid, TwoPointsWithTheSameCommandAreAnError) {
  const Spec spec = parseText(R"([axes]
workload = ["vecadd"]
variant = ["a", "b"]
[variants.a]
overlays = ["lrr"]
[variants.b]
overlays = ["lrr"]
)");
  try {
    expandGrid(spec, "v");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "s.toml: error: points workload=vecadd variant=a and workload=vecadd "
                           "variant=b run the same command (give the variants different options)");
  }
}

}  // namespace
}  // namespace warpsim::sweep
