#include "sweep/progress.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace warpsim::sweep {
namespace {

TEST(Progress, Durations) {
  EXPECT_EQ(formatDuration(0.04), "0.0 s");
  EXPECT_EQ(formatDuration(59.94), "59.9 s");
  EXPECT_EQ(formatDuration(187), "3m07s");
  EXPECT_EQ(formatDuration(7500), "2h05m");
}

TEST(Progress, TerminalLine) {
  ProgressCounts c{12, 1, 4, 40};
  EXPECT_EQ(progressLine(c, 83, 190),
            "sweep: 12 passed, 1 failed, 4 running, 40 points; 1m23s, about 3m10s left");
  EXPECT_EQ(progressLine(c, 2, -1, "pending"),
            "sweep: 12 passed, 1 failed, 4 pending, 40 points; 2.0 s");
}

TEST(Progress, OneLinePerFinishedPointWhenNotATerminal) {
  char buffer[1024] = {};
  std::FILE* out = fmemopen(buffer, sizeof buffer, "w");
  Progress p(out, false, {"workload", "seed"}, ProgressCounts{3, 0, 0, 5}, 2);
  Point point;
  point.id = "00000000000000ab";
  point.axes = {AxisValue{"vecadd"}, AxisValue{"1", AxisValue::Kind::Integer}};
  PointResult r;
  r.status = Status::Pass;
  r.wallSeconds = 1.25;
  p.started();
  p.finished(point, r);
  r.status = Status::VerifyFailed;
  r.reason = "verification failed";
  p.finished(point, r);
  std::fclose(out);
  EXPECT_STREQ(buffer,
               "[1/2] pass 1.2 s 00000000000000ab workload=vecadd seed=1\n"
               "[2/2] verify-failed 1.2 s 00000000000000ab workload=vecadd seed=1 (verification "
               "failed)\n");
  EXPECT_EQ(p.counts().passed, 4u);
  EXPECT_EQ(p.counts().failed, 1u);
  EXPECT_EQ(p.finishedThisRun(), 2u);
}

}  // namespace
}  // namespace warpsim::sweep
