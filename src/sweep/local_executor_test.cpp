// The local executor against a fake simulator: a shell script that behaves as its workload
// argument says (pass, verify, error, kill, stop), so every way a run can end is exercised in
// milliseconds.
#include "sweep/local_executor.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sweep/point_job.h"
#include "sweep/result.h"

namespace warpsim::sweep {
namespace {

namespace fs = std::filesystem;

const char* kFakeWarpsim = R"(#!/bin/sh
# fake warpsim: run WORKLOAD ... --stats FILE -q
stats=""
prev=""
for a in "$@"; do
  [ "$prev" = "--stats" ] && stats=$a
  prev=$a
done
case $2 in
  pass) echo '{"totals":{"cycles":42}}' > "$stats"; echo "a warning" >&2; exit 0 ;;
  verify) echo '{"totals":{"cycles":7}}' > "$stats"; echo "mismatch at 3" >&2; exit 3 ;;
  error) echo "line one" >&2; echo "config: error: unknown key 'x'" >&2; exit 1 ;;
  kill) echo "dying" >&2; kill -9 $$ ;;
  stop) kill -TERM $PPID; sleep 5; exit 0 ;;
esac
)";

struct TempDir {
  fs::path path;
  TempDir() {
    char pattern[] = "/tmp/sweep_executor_test.XXXXXX";
    path = mkdtemp(pattern);
  }
  ~TempDir() { fs::remove_all(path); }
};

Point point(const std::string& workload) {
  Point p;
  p.id = "00000000" + std::string(8 - workload.size(), '0') + workload;
  p.axes = {AxisValue{workload}};
  p.argv = {"run", workload};
  return p;
}

std::string fakeWarpsim(const fs::path& dir) {
  const fs::path script = dir / "fake-warpsim";
  std::ofstream(script) << kFakeWarpsim;
  chmod(script.c_str(), 0755);
  return script.string();
}

TEST(LocalExecutor, RecordsEveryWayARunEnds) {
  TempDir tmp;
  const OutDir dir(tmp.path / "out");
  const std::vector<Point> points{point("pass"), point("verify"), point("error"), point("kill")};
  std::vector<const Point*> todo;
  for (const Point& p : points) todo.push_back(&p);
  char buffer[4096] = {};
  std::FILE* log = fmemopen(buffer, sizeof buffer, "w");
  Progress progress(log, false, {"workload"}, ProgressCounts{0, 0, 0, 4}, 4);
  const LocalOutcome outcome =
      runLocally(dir, todo, LocalOptions{fakeWarpsim(tmp.path), 2}, progress);
  std::fclose(log);
  EXPECT_FALSE(outcome.interrupted);
  EXPECT_EQ(outcome.passed, 1u);
  EXPECT_EQ(outcome.failed, 3u);

  const auto pass = readResult(dir.result(points[0].id));
  ASSERT_TRUE(pass);
  EXPECT_EQ(pass->status, Status::Pass);
  EXPECT_EQ(pass->argv, points[0].argv);
  EXPECT_EQ(pass->stderrTail, std::vector<std::string>{"a warning"});
  EXPECT_TRUE(fs::exists(dir.stats(points[0].id)));

  const auto verify = readResult(dir.result(points[1].id));
  ASSERT_TRUE(verify);
  EXPECT_EQ(verify->status, Status::VerifyFailed);
  EXPECT_TRUE(fs::exists(dir.stats(points[1].id)));  // kept: the statistics are still of use

  const auto error = readResult(dir.result(points[2].id));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->status, Status::Fail);
  EXPECT_EQ(error->exitStatus, 1);
  EXPECT_EQ(error->stderrTail,
            (std::vector<std::string>{"line one", "config: error: unknown key 'x'"}));
  EXPECT_FALSE(fs::exists(dir.stats(points[2].id)));

  const auto killed = readResult(dir.result(points[3].id));
  ASSERT_TRUE(killed);
  EXPECT_EQ(killed->signal, 9);
  EXPECT_EQ(killed->reason, "killed by signal 9");

  for (const Point& p : points) {  // no temporary file left behind
    for (const auto& e : fs::directory_iterator(dir.pointDir(p.id))) {
      EXPECT_NE(e.path().extension(), ".tmp") << e.path();
    }
  }
  EXPECT_NE(std::string(buffer).find("pass 0."), std::string::npos) << buffer;
}

TEST(LocalExecutor, StopSignalKillsTheRunsInFlightAndLeavesThemWithoutResult) {
  TempDir tmp;
  const OutDir dir(tmp.path / "out");
  const std::vector<Point> points{point("pass"), point("stop"), point("error")};
  std::vector<const Point*> todo;
  for (const Point& p : points) todo.push_back(&p);
  std::FILE* log = std::fopen("/dev/null", "w");
  Progress progress(log, false, {"workload"}, ProgressCounts{0, 0, 0, 3}, 3);
  // One at a time: "pass" finishes, "stop" sends SIGTERM to the executor and sleeps.
  const LocalOutcome outcome =
      runLocally(dir, todo, LocalOptions{fakeWarpsim(tmp.path), 1}, progress);
  std::fclose(log);
  EXPECT_TRUE(outcome.interrupted);
  EXPECT_TRUE(readResult(dir.result(points[0].id)));
  EXPECT_FALSE(fs::exists(dir.result(points[1].id)));
  EXPECT_FALSE(fs::exists(temporaryName(dir.stderrLog(points[1].id))));
  EXPECT_FALSE(fs::exists(dir.pointDir(points[2].id)));  // never started
}

TEST(LocalExecutor, StatsAndQuietGoBeforeAProgramsCommandLine) {
  Point p;
  p.argv = {"run", "--seed", "1", "--", "./app", "--stats"};
  EXPECT_EQ(pointCommand(p, "s.json"),
            (std::vector<std::string>{"run", "--seed", "1", "--stats", "s.json", "-q", "--",
                                      "./app", "--stats"}));
  p.argv = {"run", "vecadd"};
  EXPECT_EQ(pointCommand(p, "s.json"),
            (std::vector<std::string>{"run", "vecadd", "--stats", "s.json", "-q"}));
}

}  // namespace
}  // namespace warpsim::sweep
