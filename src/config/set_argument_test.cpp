// --set key=value: TOML values, bare words, inline tables, and the errors of each.
#include <gtest/gtest.h>

#include "config/config.h"
#include "config/test_files.h"

namespace warpsim::config {
namespace {

class SetArgument : public ::testing::Test {
 protected:
  SetArgument() : env_(dir_.path()) {
    dir_.write("t.toml", "[sm]\nmax_warps = 48\nscheduler = \"gto\"\n[sm.icache]\nsize = 1\n");
  }
  static Tree with(std::vector<std::string> sets) { return Tree::load("t", {}, sets); }

  TempConfigDir dir_;
  ScopedConfigPath env_;
};

TEST_F(SetArgument, ValuesAreToml) {
  Tree tree = with({"sm.max_warps=32", "sm.ratio = 2.5", "sm.on=true", "sm.hex=0x10",
                    "sm.big=1_000", "sm.quoted=\"two words\""});
  Section sm = tree.section("sm");
  EXPECT_EQ(sm.u32("max_warps", 0, ""), 32u);
  EXPECT_DOUBLE_EQ(sm.f64("ratio", 0, ""), 2.5);
  EXPECT_TRUE(sm.flag("on", false, ""));
  EXPECT_EQ(sm.u32("hex", 0, ""), 16u);
  EXPECT_EQ(sm.u32("big", 0, ""), 1000u);
  EXPECT_EQ(sm.str("quoted", "", ""), "two words");
  EXPECT_EQ(tree.resolved()[0].source, "--set");
}

TEST_F(SetArgument, BareWordsAreStrings) {
  Tree tree = with({"sm.scheduler=two-level", "sm.path=a/b.c", "sm.version=1.2.3"});
  Section sm = tree.section("sm");
  EXPECT_EQ(sm.choice("scheduler", "lrr", {"lrr", "gto", "two-level"}, ""), "two-level");
  EXPECT_EQ(sm.str("path", "", ""), "a/b.c");
  EXPECT_EQ(sm.str("version", "", ""), "1.2.3");
}

TEST_F(SetArgument, InlineTablesSetTheKeysBelow) {
  Tree tree = with({"sm.icache={size = 2, ways = 4}"});
  Section icache = tree.section("sm.icache");
  EXPECT_EQ(icache.u32("size", 0, ""), 2u);
  EXPECT_EQ(icache.u32("ways", 0, ""), 4u);
}

TEST_F(SetArgument, KeysInNoFileAreAllowedUntilCheckAllUsed) {
  Tree tree = with({"sm.foo=1"});
  tree.section("sm").u32("max_warps", 0, "");
  tree.section("sm").str("scheduler", "", "");
  tree.section("sm.icache").u32("size", 0, "");
  EXPECT_EQ(errorOf([&] { tree.checkAllUsed(); }),
            "config: error: --set 'sm.foo=1': unknown key 'sm.foo'");
  Tree declared = with({"sm.foo=1"});
  EXPECT_EQ(declared.section("sm").u32("foo", 0, "declared by a component"), 1u);
}

TEST_F(SetArgument, ErrorsNameTheArgument) {
  EXPECT_EQ(errorOf([] { with({"sm.max_warps=abc"}); }),
            "config: error: --set 'sm.max_warps=abc': 'sm.max_warps' is a string here but an "
            "integer in t.toml:2");
  Tree range = with({"sm.new=100"});
  EXPECT_EQ(errorOf([&] { range.section("sm").u32("new", 0, "slots", 1, 64); }),
            "config: error: --set 'sm.new=100': 'sm.new' = 100 is out of range [1, 64] (slots)");
}

TEST_F(SetArgument, MalformedArgumentsAreErrors) {
  EXPECT_EQ(errorOf([] { with({"sm.max_warps"}); }),
            "config: error: --set 'sm.max_warps': expected key=value");
  EXPECT_EQ(errorOf([] { with({"sm.max_warps="}); }),
            "config: error: --set 'sm.max_warps=': no value after '='");
  EXPECT_EQ(errorOf([] { with({"=3"}); }),
            "config: error: --set '=3': '' is not a key (dotted names of letters, digits, '_' and "
            "'-')");
  EXPECT_EQ(errorOf([] { with({"sm..x=3"}); }),
            "config: error: --set 'sm..x=3': 'sm..x' is not a key (dotted names of letters, "
            "digits, '_' and '-')");
  EXPECT_EQ(errorOf([] { with({"sm.x=[1, 2]"}); }),
            "config: error: --set 'sm.x=[1, 2]': 'sm.x': arrays are not supported in "
            "configurations");
  EXPECT_EQ(errorOf([] { with({"sm.x=1979-05-27"}); }),
            "config: error: --set 'sm.x=1979-05-27': 'sm.x': dates and times are not supported "
            "in configurations");
  EXPECT_EQ(errorOf([] { with({"sm.x=1\ny = 2"}); }),
            "config: error: --set 'sm.x=1\ny = 2': bad value (one TOML value expected)");
  const std::string quote = errorOf([] { with({"sm.x=\"open"}); });
  EXPECT_EQ(quote.substr(0, 41), "config: error: --set 'sm.x=\"open': bad va");
  EXPECT_EQ(errorOf([] { with({"sm=3"}); }),
            "config: error: --set 'sm=3': 'sm' is a table (t.toml:2); it cannot be set to a value");
}

}  // namespace
}  // namespace warpsim::config
