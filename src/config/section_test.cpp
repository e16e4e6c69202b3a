// Typed reads of a Section: values, defaults, ranges, choices, kinds, and what they record.
#include <gtest/gtest.h>

#include "config/config.h"
#include "config/test_files.h"

namespace warpsim::config {
namespace {

const char* kSm = R"(# test GPU
[sm]
max_warps = 48
scheduler = "gto"
clock_ratio = 1.5
whole_float = 2
sub_cores = false
negative = -3

[sm.icache]
size = 16384
)";

TEST(Section, ReadsValuesOfEveryKind) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  Section sm = tree.section("sm");
  EXPECT_EQ(sm.u32("max_warps", 1, "warp slots"), 48u);
  EXPECT_EQ(sm.u64("max_warps", 1, "warp slots"), 48u);
  EXPECT_EQ(sm.i64("negative", 0, "a negative number"), -3);
  EXPECT_EQ(sm.choice("scheduler", "lrr", {"lrr", "gto"}, "policy"), "gto");
  EXPECT_EQ(sm.str("scheduler", "", "policy"), "gto");
  EXPECT_DOUBLE_EQ(sm.f64("clock_ratio", 1.0, "ratio"), 1.5);
  EXPECT_DOUBLE_EQ(sm.f64("whole_float", 1.0, "an integer read as a float"), 2.0);
  EXPECT_FALSE(sm.flag("sub_cores", true, "sub-cores"));
  EXPECT_EQ(sm.sub("icache").u32("size", 0, "bytes"), 16384u);
  EXPECT_EQ(tree.section("sm.icache").u32("size", 0, "bytes"), 16384u);
}

TEST(Section, AbsentKeysGiveTheDefault) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  Section sm = tree.section("sm");
  EXPECT_EQ(sm.u32("ctas", 8, "CTA slots"), 8u);
  EXPECT_EQ(sm.str("name", "x", "a name"), "x");
  EXPECT_TRUE(sm.flag("absent", true, "a flag"));
  EXPECT_DOUBLE_EQ(sm.f64("absent_f", 0.25, "a float"), 0.25);
  EXPECT_EQ(sm.choice("policy", "lrr", {"lrr", "gto"}, "policy"), "lrr");
  EXPECT_EQ(tree.section("l2").u32("ways", 16, "ways"), 16u);
}

TEST(Section, RecordsEveryReadOnceInReadOrder) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  Section sm = tree.section("sm");
  sm.u32("max_warps", 1, "warp slots per SM", 1, 64);
  sm.u32("ctas", 8, "CTA slots per SM");
  sm.u32("max_warps", 7, "read again");
  sm.flag("sub_cores", true, "sub-cores");
  std::vector<ResolvedKey> r = tree.resolved();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].key, "sm.max_warps");
  EXPECT_EQ(r[0].value, "48");
  EXPECT_EQ(r[0].doc, "warp slots per SM");
  EXPECT_EQ(r[0].source, "t.toml:3");
  EXPECT_EQ(r[1].key, "sm.ctas");
  EXPECT_EQ(r[1].value, "8");
  EXPECT_EQ(r[1].source, "default");
  EXPECT_EQ(r[2].key, "sm.sub_cores");
  EXPECT_EQ(r[2].value, "false");
}

TEST(Section, ResolvedValuesAreTomlLiterals) {
  Tree tree = Tree::fromString("a = 1.5\nb = \"x\\\"y\"\nc = 1e300\nd = 3.0\n", "t.toml");
  Section root = tree.root();
  root.f64("a", 0, "");
  root.str("b", "", "");
  root.f64("c", 0, "");
  root.f64("d", 0, "");
  root.f64("e", 0.1, "");
  root.str("f", "tab\there", "");
  std::vector<ResolvedKey> r = tree.resolved();
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0].value, "1.5");
  EXPECT_EQ(r[1].value, "\"x\\\"y\"");
  EXPECT_EQ(r[2].value, "1e+300");
  EXPECT_EQ(r[3].value, "3.0");
  EXPECT_EQ(r[4].value, "0.1");
  EXPECT_EQ(r[5].value, "\"tab\\there\"");
}

TEST(Section, RangeErrorsNameFileLineAndDoc) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  Section sm = tree.section("sm");
  EXPECT_EQ(errorOf([&] { sm.u32("max_warps", 1, "warp slots per SM", 1, 32); }),
            "t.toml:3: error: 'sm.max_warps' = 48 is out of range [1, 32] (warp slots per SM)");
  EXPECT_EQ(errorOf([&] { sm.u32("negative", 1, "n"); }),
            "t.toml:8: error: 'sm.negative' = -3 is out of range [0, 4294967295] (n)");
  EXPECT_EQ(errorOf([&] { sm.u64("negative", 1, "n"); }),
            "t.toml:8: error: 'sm.negative' = -3 is out of range [0, 18446744073709551615] (n)");
  EXPECT_EQ(errorOf([&] { sm.i64("negative", 1, "n", -2, 5); }),
            "t.toml:8: error: 'sm.negative' = -3 is out of range [-2, 5] (n)");
  EXPECT_EQ(errorOf([&] { sm.f64("clock_ratio", 1, "ratio", 0.0, 1.0); }),
            "t.toml:5: error: 'sm.clock_ratio' = 1.5 is out of range [0.0, 1.0] (ratio)");
  EXPECT_EQ(errorOf([&] { sm.f64("clock_ratio", 1, "ratio", 2.0); }),
            "t.toml:5: error: 'sm.clock_ratio' = 1.5 is out of range [2.0, inf] (ratio)");
  EXPECT_EQ(errorOf([&] { sm.u32("max_warps", 1, "") ; sm.u32("max_warps", 1, "", 49); }),
            "t.toml:3: error: 'sm.max_warps' = 48 is out of range [49, 4294967295]");
}

TEST(Section, OutOfU32RangeIsAnError) {
  Tree tree = Tree::fromString("big = 4294967296\n", "t.toml");
  EXPECT_EQ(errorOf([&] { tree.root().u32("big", 0, "b"); }),
            "t.toml:1: error: 'big' = 4294967296 is out of range [0, 4294967295] (b)");
  EXPECT_EQ(tree.root().u64("big", 0, "b"), 4294967296u);
}

TEST(Section, NanIsOutOfEveryRange) {
  Tree tree = Tree::fromString("x = nan\n", "t.toml");
  EXPECT_EQ(errorOf([&] { tree.root().f64("x", 0, "a ratio"); }),
            "t.toml:1: error: 'x' = nan is out of range [-inf, inf] (a ratio)");
}

TEST(Section, ChoiceErrorsListTheChoices) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  EXPECT_EQ(errorOf([&] {
              tree.section("sm").choice("scheduler", "lrr", {"lrr", "two-level"}, "issue policy");
            }),
            "t.toml:4: error: 'sm.scheduler' = \"gto\" is not one of lrr, two-level (issue policy)");
}

TEST(Section, KindErrorsNameBothKinds) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  Section sm = tree.section("sm");
  EXPECT_EQ(errorOf([&] { sm.u32("scheduler", 1, ""); }),
            "t.toml:4: error: 'sm.scheduler' must be an integer, not a string");
  EXPECT_EQ(errorOf([&] { sm.u32("clock_ratio", 1, ""); }),
            "t.toml:5: error: 'sm.clock_ratio' must be an integer, not a float");
  EXPECT_EQ(errorOf([&] { sm.str("max_warps", "", ""); }),
            "t.toml:3: error: 'sm.max_warps' must be a string, not an integer");
  EXPECT_EQ(errorOf([&] { sm.choice("sub_cores", "a", {"a"}, ""); }),
            "t.toml:7: error: 'sm.sub_cores' must be a string, not a boolean");
  EXPECT_EQ(errorOf([&] { sm.flag("max_warps", false, ""); }),
            "t.toml:3: error: 'sm.max_warps' must be a boolean, not an integer");
  EXPECT_EQ(errorOf([&] { sm.f64("scheduler", 0, ""); }),
            "t.toml:4: error: 'sm.scheduler' must be a float, not a string");
  EXPECT_EQ(errorOf([&] { sm.u32("icache", 0, ""); }),
            "t.toml:11: error: 'sm.icache' is a table, but it is read as an integer");
}

TEST(Section, KeysListValuesAndTablesInFileOrder) {
  Tree tree = Tree::fromString("[b]\nz = 1\n[b.t]\nx = 1\n[b.s]\ny = 2\n", "t.toml");
  EXPECT_EQ(tree.root().keys(), (std::vector<std::string>{"b"}));
  EXPECT_EQ(tree.section("b").keys(), (std::vector<std::string>{"z", "t", "s"}));
  EXPECT_EQ(tree.section("b.s").keys(), (std::vector<std::string>{"y"}));
  EXPECT_TRUE(tree.section("nothing").keys().empty());
}

TEST(Section, HasSeesValuesAndTables) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  Section sm = tree.section("sm");
  EXPECT_TRUE(sm.has("max_warps"));
  EXPECT_TRUE(sm.has("icache"));
  EXPECT_FALSE(sm.has("icach"));
  EXPECT_TRUE(tree.root().has("sm"));
  EXPECT_EQ(sm.path(), "sm");
  EXPECT_EQ(sm.sub("icache").path(), "sm.icache");
  EXPECT_EQ(tree.root().sub("sm").path(), "sm");
}

// word(): a name or a whole number, as text, checked by the caller's rule.
TEST(Section, WordsAreNamesOrWholeNumbers) {
  Tree tree = Tree::fromString(kSm, "t.toml");
  Section sm = tree.section("sm");
  auto any = [](const std::string&) { return std::string(); };
  auto notGto = [](const std::string& t) { return t == "gto" ? "gto is not allowed" : ""; };
  EXPECT_EQ(sm.word("scheduler", "lrr", "policy", any), "gto");
  EXPECT_EQ(sm.word("max_warps", "1", "warps", any), "48");
  EXPECT_EQ(sm.word("absent", "minimal", "doc", any), "minimal");
  EXPECT_EQ(errorOf([&] { sm.word("scheduler", "lrr", "policy", notGto); }),
            "t.toml:4: error: 'sm.scheduler' = \"gto\": gto is not allowed");
  EXPECT_EQ(errorOf([&] { sm.word("clock_ratio", "1", "ratio", any); }),
            "t.toml:5: error: 'sm.clock_ratio' must be a name or a whole number, not a float");
  EXPECT_EQ(errorOf([&] { sm.word("sub_cores", "1", "flag", any); }),
            "t.toml:7: error: 'sm.sub_cores' must be a name or a whole number, not a boolean");
}

}  // namespace
}  // namespace warpsim::config
