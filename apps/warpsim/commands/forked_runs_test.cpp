#include "commands/forked_runs.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpsim::app {
namespace {

TEST(ForkedRuns, ReportsInTaskOrderWhateverOrderTheChildrenEndIn) {
  std::vector<size_t> order;
  std::vector<std::string> results;
  // Earlier tasks take longer: with 4 at a time the later ones end first.
  runForked(
      6, 4,
      [](size_t i) {
        ::usleep(static_cast<useconds_t>((6 - i) * 20000));
        return "task " + std::to_string(i) + " in process " + std::to_string(::getpid());
      },
      [&](size_t i, const ForkedResult& r) {
        order.push_back(i);
        EXPECT_TRUE(r.returned);
        EXPECT_TRUE(WIFEXITED(r.waitStatus) && WEXITSTATUS(r.waitStatus) == 0);
        results.push_back(r.result);
      });
  ASSERT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].rfind("task " + std::to_string(i) + " in process ", 0), 0u) << results[i];
    EXPECT_EQ(results[i].find(" in process " + std::to_string(::getpid())), std::string::npos)
        << "ran in this process: " << results[i];
  }
}

TEST(ForkedRuns, CapturesWhatAChildPrintsAndHowItEnded) {
  std::vector<ForkedResult> got;
  runForked(
      3, 2,
      [](size_t i) -> std::string {
        std::printf("out %zu\n", i);
        std::fprintf(stderr, "err %zu\n", i);
        if (i == 1) throw std::runtime_error("task 1 failed");
        if (i == 2) std::abort();
        return std::string(100000, 'x');  // more than a pipe holds
      },
      [&](size_t, const ForkedResult& r) { got.push_back(r); });
  ASSERT_EQ(got.size(), 3u);
  EXPECT_TRUE(got[0].returned);
  EXPECT_EQ(got[0].result, std::string(100000, 'x'));
  EXPECT_NE(got[0].output.find("out 0\n"), std::string::npos) << got[0].output;
  EXPECT_NE(got[0].output.find("err 0\n"), std::string::npos) << got[0].output;
  EXPECT_FALSE(got[1].returned);
  EXPECT_TRUE(WIFEXITED(got[1].waitStatus) && WEXITSTATUS(got[1].waitStatus) == 1);
  EXPECT_NE(got[1].output.find("task 1 failed"), std::string::npos) << got[1].output;
  EXPECT_TRUE(got[1].result.empty());
  EXPECT_FALSE(got[2].returned);
  EXPECT_TRUE(WIFSIGNALED(got[2].waitStatus) && WTERMSIG(got[2].waitStatus) == SIGABRT);
}

TEST(ForkedRuns, NothingBufferedBeforeTheForkIsPrintedTwice) {
  // Unflushed output of this process must not reach the children's captured output.
  std::printf("buffered before the fork");
  std::string output;
  runForked(
      1, 1, [](size_t) { return std::string(); },
      [&](size_t, const ForkedResult& r) { output = r.output; });
  EXPECT_EQ(output, "");
  std::printf("\n");
}

}  // namespace
}  // namespace warpsim::app
