// What a tree reports once read: unknown keys (checkAllUsed) and the resolved TOML (dump).
#include <gtest/gtest.h>

#include "config/config.h"
#include "config/test_files.h"

namespace warpsim::config {
namespace {

TEST(CheckAllUsed, PassesWhenEveryKeyWasRead) {
  Tree tree = Tree::fromString("[sm]\nmax_warps = 48\n[l2]\nways = 16\n", "t.toml");
  tree.section("sm").u32("max_warps", 0, "");
  tree.section("l2").u32("ways", 0, "");
  EXPECT_NO_THROW(tree.checkAllUsed());
}

TEST(CheckAllUsed, NamesTheFirstUnreadKeyInFileOrder) {
  Tree tree = Tree::fromString("[sm]\nmax_warps = 48\nzeta = 1\n\n[l2]\nalpha = 1\n", "t.toml");
  tree.section("sm").u32("max_warps", 0, "");
  EXPECT_EQ(errorOf([&] { tree.checkAllUsed(); }), "t.toml:3: error: unknown key 'sm.zeta'");
  tree.section("sm").u32("zeta", 0, "");
  EXPECT_EQ(errorOf([&] { tree.checkAllUsed(); }), "t.toml:6: error: unknown key 'l2.alpha'");
}

TEST(CheckAllUsed, SuggestsADeclaredKeyOfTheSameTable) {
  Tree tree = Tree::fromString("[sm]\nmax_warp = 48\n", "t.toml");
  tree.section("sm").u32("max_warps", 32, "warp slots");
  tree.section("sm").u32("ctas", 8, "CTA slots");
  tree.section("l1").u32("max_warp", 8, "another table");
  EXPECT_EQ(errorOf([&] { tree.checkAllUsed(); }),
            "t.toml:2: error: unknown key 'sm.max_warp' (did you mean 'sm.max_warps'?)");
  Tree far = Tree::fromString("[sm]\nschedulers = 2\n", "t.toml");
  far.section("sm").u32("ctas", 8, "");
  EXPECT_EQ(errorOf([&] { far.checkAllUsed(); }), "t.toml:2: error: unknown key 'sm.schedulers'");
}

TEST(CheckAllUsed, AnEmptyTreeHasNothingUnread) {
  Tree tree = Tree::fromString("", "t.toml");
  EXPECT_NO_THROW(tree.checkAllUsed());
  EXPECT_TRUE(tree.resolved().empty());
}

TEST(Dump, PrintsEveryKeyWithSourceAndDoc) {
  Tree tree = Tree::fromString(
      "name = \"Test\"\n[sm]\nmax_warps = 48\nscheduler = \"gto\"\n[sm.icache]\nsize = 2048\n"
      "[l2]\nlatency = 120\n",
      "t.toml");
  tree.section("sm").u32("max_warps", 0, "warp slots per SM");
  tree.section("sm.icache").u32("ways", 4, "associativity");
  tree.section("sm").u32("ctas", 8, "CTA slots per SM");
  tree.section("dram").f64("clock", 924.5, "MHz");
  EXPECT_EQ(tree.dump(),
            "# configuration 't.toml': every key with its source and meaning\n"
            "name = \"Test\"  # t.toml:1: name of the simulated GPU\n"
            "\n[sm]\n"
            "max_warps = 48     # t.toml:3: warp slots per SM\n"
            "scheduler = \"gto\"  # t.toml:4\n"
            "ctas = 8           # default: CTA slots per SM\n"
            "\n[sm.icache]\n"
            "size = 2048  # t.toml:6\n"
            "ways = 4     # default: associativity\n"
            "\n[l2]\n"
            "latency = 120  # t.toml:8\n"
            "\n[dram]\n"
            "clock = 924.5  # default: MHz\n");
}

TEST(Dump, ReadsShowTheValueUsed) {
  Tree tree = Tree::fromString("[gpu]\nnum_sms = 15\n", "t.toml");
  tree.section("gpu").u32("num_sms", 1, "SMs");
  const std::string dump = tree.dump();
  EXPECT_NE(dump.find("num_sms = 15  # t.toml:2: SMs\n"), std::string::npos) << dump;
}

// The "key = value" part of every line of a dump (comments and headers dropped).
std::vector<std::string> assignments(const std::string& dump) {
  std::vector<std::string> out;
  size_t start = 0;
  std::string table;
  while (start < dump.size()) {
    size_t end = dump.find('\n', start);
    std::string line = dump.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      table = line;
      continue;
    }
    const size_t comment = line.find("  # ");
    line = line.substr(0, comment);
    line = line.substr(0, line.find_last_not_of(' ') + 1);
    out.push_back(table + " " + line);
  }
  return out;
}

TEST(Dump, IsTomlThatLoadsBackToTheSameValues) {
  Tree tree = Tree::load("fermi-rfh", {"two-level"}, {"sm.max_ctas=4", "name=\"quote \\\" and tab\t\""});
  tree.section("dram").f64("extra", 1e300, "a default read too");
  const std::string dump = tree.dump();
  Tree again = Tree::fromString(dump, "dump.toml");
  again.section("dram").f64("extra", 0, "");
  EXPECT_EQ(assignments(again.dump()), assignments(dump));
  EXPECT_GT(assignments(dump).size(), 100u);
  EXPECT_EQ(again.section("sm").u32("max_ctas", 0, ""), 4u);
  EXPECT_EQ(again.root().str("name", "", ""), "quote \" and tab\t");
}

}  // namespace
}  // namespace warpsim::config
