#include "sweep/result.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <csignal>

namespace warpsim::sweep {
namespace {

int exited(int code) { return code << 8; }  // a wait status as waitpid reports it

TEST(Result, ClassifiesHowARunEnded) {
  const PointResult pass = classify("a", exited(0), true);
  EXPECT_EQ(pass.status, Status::Pass);
  EXPECT_EQ(pass.reason, "");
  const PointResult noStats = classify("a", exited(0), false);
  EXPECT_EQ(noStats.status, Status::Fail);
  EXPECT_EQ(noStats.reason, "no statistics written");
  const PointResult verify = classify("a", exited(3), true);
  EXPECT_EQ(verify.status, Status::VerifyFailed);
  EXPECT_EQ(verify.exitStatus, 3);
  const PointResult error = classify("a", exited(1), false);
  EXPECT_EQ(error.status, Status::Fail);
  EXPECT_EQ(error.reason, "exit status 1");
  const PointResult killed = classify("a", SIGKILL, false);  // the wait status of a SIGKILL death
  EXPECT_EQ(killed.status, Status::Fail);
  EXPECT_EQ(killed.signal, 9);
  EXPECT_EQ(killed.exitStatus, 137);
  EXPECT_EQ(killed.reason, "killed by signal 9");
}

TEST(Result, StatusNamesRoundTrip) {
  for (Status s : {Status::Pass, Status::VerifyFailed, Status::Fail}) {
    EXPECT_EQ(parseStatus(statusName(s)), s);
  }
  EXPECT_EQ(parseStatus("passed"), std::nullopt);
}

TEST(Result, LastLines) {
  EXPECT_EQ(lastLines("a\nb\nc\n", 2), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(lastLines("a\nb\nc", 5), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(lastLines("", 5), std::vector<std::string>{});
  EXPECT_EQ(lastLines("\n\nx\n", 3), (std::vector<std::string>{"", "", "x"}));
}

TEST(Result, JsonRoundTripThroughAFile) {
  PointResult r = classify("0123456789abcdef", SIGKILL, false);
  r.wallSeconds = 1.5;
  r.host = "node7";
  r.argv = {"run", "vecadd"};
  r.stderrTail = {"last words"};
  const std::string path = ::testing::TempDir() + "/result_roundtrip.json";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(resultJson(r).dump(2).c_str(), f);
    std::fclose(f);
  }
  EXPECT_EQ(resultJson(r).dump(),
            R"({"id":"0123456789abcdef","status":"fail","exit_status":137,"signal":9,)"
            R"("reason":"killed by signal 9","wall_seconds":1.5,"host":"node7",)"
            R"("argv":["run","vecadd"],"stderr_tail":["last words"]})");
  const std::optional<PointResult> back = readResult(path);
  ASSERT_TRUE(back);
  EXPECT_EQ(resultJson(*back), resultJson(r));
  EXPECT_FALSE(readResult(path + ".absent"));
}

}  // namespace
}  // namespace warpsim::sweep
