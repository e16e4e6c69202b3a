// Loading by name: `base` chains, overlays and --set applied in order, and the errors of each.
#include <gtest/gtest.h>

#include <algorithm>

#include "config/config.h"
#include "config/test_files.h"

namespace warpsim::config {
namespace {

// The first characters of `s`, as many as `prefix` has (messages that end in a list of names).
std::string startOf(const std::string& s, const std::string& prefix) {
  return s.substr(0, prefix.size());
}

class Layering : public ::testing::Test {
 protected:
  Layering() : env_(dir_.path()) {
    dir_.write("base.toml", "# a base GPU\n[sm]\nmax_warps = 48\nctas = 8\nscheduler = \"gto\"\n");
    dir_.write("child.toml", "base = \"base\"\n[sm]\nctas = 16\n");
    dir_.write("grandchild.toml", "base = \"child\"\n\n[sm]\nscheduler = \"lrr\"\n");
    dir_.write("overlays/first.toml", "[sm]\nctas = 32\nnew_key = 1\n");
    dir_.write("overlays/second.toml", "[sm]\nctas = 64\n");
  }

  // (value, source) of a u32 key after reading it.
  static std::pair<uint32_t, std::string> read(Tree& tree, const std::string& table,
                                               const std::string& key) {
    uint32_t v = tree.section(table).u32(key, 0, "");
    for (const ResolvedKey& r : tree.resolved()) {
      if (r.key == table + "." + key) return {v, r.source};
    }
    return {v, "?"};
  }

  TempConfigDir dir_;
  ScopedConfigPath env_;
};

TEST_F(Layering, BaseChainsApplyBasesFirst) {
  Tree tree = Tree::load("grandchild");
  EXPECT_EQ(tree.name(), "grandchild");
  EXPECT_EQ(read(tree, "sm", "max_warps"), std::make_pair(48u, std::string("base.toml:3")));
  EXPECT_EQ(read(tree, "sm", "ctas"), std::make_pair(16u, std::string("child.toml:3")));
  EXPECT_EQ(tree.section("sm").str("scheduler", "", ""), "lrr");
  EXPECT_EQ(tree.resolved().back().source, "grandchild.toml:4");
  // keys() keeps the order in which keys first appeared (the base's file order).
  EXPECT_EQ(tree.section("sm").keys(),
            (std::vector<std::string>{"max_warps", "ctas", "scheduler"}));
}

TEST_F(Layering, OverlaysThenSetsApplyInOrder) {
  Tree tree = Tree::load("child", {"first", "second"}, {"sm.ctas=128"});
  EXPECT_EQ(read(tree, "sm", "ctas"), std::make_pair(128u, std::string("--set")));

  Tree noSet = Tree::load("child", {"first", "second"});
  EXPECT_EQ(read(noSet, "sm", "ctas"), std::make_pair(64u, std::string("overlays/second.toml:2")));

  Tree reversed = Tree::load("child", {"second", "first"});
  EXPECT_EQ(read(reversed, "sm", "ctas"), std::make_pair(32u, std::string("overlays/first.toml:2")));

  Tree twoSets = Tree::load("child", {}, {"sm.ctas=1", "sm.ctas=2"});
  EXPECT_EQ(read(twoSets, "sm", "ctas"), std::make_pair(2u, std::string("--set")));
}

TEST_F(Layering, OverlayMayAddKeysThatAComponentReads) {
  Tree tree = Tree::load("child", {"first"});
  EXPECT_EQ(read(tree, "sm", "new_key"), std::make_pair(1u, std::string("overlays/first.toml:3")));
}

TEST_F(Layering, NamesAndPathsResolve) {
  Tree byPath = Tree::load(dir_.path() + "/child.toml", {dir_.path() + "/overlays/first.toml"});
  EXPECT_EQ(byPath.name(), "child");
  EXPECT_EQ(read(byPath, "sm", "ctas").second, dir_.path() + "/overlays/first.toml:2");
  EXPECT_EQ(read(byPath, "sm", "max_warps").second, dir_.path() + "/base.toml:3");
}

TEST_F(Layering, BaseIsFoundBesideTheFileFirst) {
  dir_.write("elsewhere/base.toml", "[sm]\nmax_warps = 24\n");
  dir_.write("elsewhere/variant.toml", "base = \"base\"\n");
  Tree tree = Tree::load(dir_.path() + "/elsewhere/variant.toml");
  EXPECT_EQ(read(tree, "sm", "max_warps"),
            std::make_pair(24u, dir_.path() + "/elsewhere/base.toml:2"));
}

TEST_F(Layering, OverlayMayBuildOnAnotherOverlay) {
  dir_.write("overlays/third.toml", "base = \"first\"\n[sm]\nmax_warps = 12\n");
  Tree tree = Tree::load("child", {"third"});
  EXPECT_EQ(read(tree, "sm", "ctas"), std::make_pair(32u, std::string("overlays/first.toml:2")));
  EXPECT_EQ(read(tree, "sm", "max_warps"), std::make_pair(12u, std::string("overlays/third.toml:3")));
}

TEST_F(Layering, UnknownNamesListTheBundledOnes) {
  const std::string base = errorOf([] { Tree::load("nope"); });
  const std::string noBase = "config: error: no configuration named 'nope' (bundled: a100, base, ";
  EXPECT_EQ(startOf(base, noBase), noBase);
  const std::string overlay = errorOf([] { Tree::load("base", {"nope"}); });
  const std::string noOverlay = "config: error: no overlay named 'nope' (bundled: ";
  EXPECT_EQ(startOf(overlay, noOverlay), noOverlay);
  EXPECT_NE(overlay.find(" first, "), std::string::npos);
  EXPECT_EQ(errorOf([] { Tree::load("missing/file.toml"); }),
            "config: error: cannot read configuration file 'missing/file.toml'");
  dir_.write("orphan.toml", "\nbase = \"nope\"\n");
  const std::string orphan = "orphan.toml:2: error: base 'nope' not found (bundled: a100, base, ";
  EXPECT_EQ(startOf(errorOf([] { Tree::load("orphan"); }), orphan), orphan);
}

TEST_F(Layering, BaseCyclesAreErrors) {
  dir_.write("a.toml", "base = \"b\"\n");
  dir_.write("b.toml", "# b\nbase = \"a\"\n");
  EXPECT_EQ(errorOf([] { Tree::load("a"); }),
            "b.toml:2: error: base 'a' makes a cycle: a.toml -> b.toml -> a.toml");
  dir_.write("self.toml", "base = \"self\"\n");
  EXPECT_EQ(errorOf([] { Tree::load("self"); }),
            "self.toml:1: error: base 'self' makes a cycle: self.toml -> self.toml");
}

TEST_F(Layering, LayersMayNotChangeTheKindOfAValue) {
  dir_.write("overlays/kind.toml", "[sm]\n\nmax_warps = \"many\"\n");
  EXPECT_EQ(errorOf([] { Tree::load("base", {"kind"}); }),
            "overlays/kind.toml:3: error: 'sm.max_warps' is a string here but an integer in "
            "base.toml:3");
  // Integers and floats mix: the reader decides.
  dir_.write("overlays/float.toml", "[sm]\nmax_warps = 4.5\n");
  Tree tree = Tree::load("base", {"float"});
  EXPECT_EQ(errorOf([&] { tree.section("sm").u32("max_warps", 0, ""); }),
            "overlays/float.toml:2: error: 'sm.max_warps' must be an integer, not a float");
}

TEST_F(Layering, LayersMayNotTurnTablesIntoValues) {
  dir_.write("overlays/flat.toml", "sm = 3\n");
  EXPECT_EQ(errorOf([] { Tree::load("base", {"flat"}); }),
            "overlays/flat.toml:1: error: 'sm' is a table (base.toml:3); it cannot be set to a value");
  dir_.write("overlays/deep.toml", "[sm.max_warps]\nx = 1\n");
  EXPECT_EQ(errorOf([] { Tree::load("base", {"deep"}); }),
            "overlays/deep.toml:2: error: 'sm.max_warps.x' needs 'sm.max_warps' to be a table, but "
            "base.toml:3 sets it to a value");
}

TEST_F(Layering, FileErrorsNameFileAndLine) {
  dir_.write("syntax.toml", "[sm]\nmax_warps = = 3\n");
  const std::string syntax = "syntax.toml:2: error: Error while parsing";
  EXPECT_EQ(startOf(errorOf([] { Tree::load("syntax"); }), syntax), syntax);
  dir_.write("array.toml", "[sm]\n\nunits = [1, 2]\n");
  EXPECT_EQ(errorOf([] { Tree::load("array"); }),
            "array.toml:3: error: 'sm.units': arrays are not supported in configurations");
  dir_.write("date.toml", "when = 2020-01-01\n");
  EXPECT_EQ(errorOf([] { Tree::load("date"); }),
            "date.toml:1: error: 'when': dates and times are not supported in configurations");
  dir_.write("badbase.toml", "base = 3\n");
  EXPECT_EQ(errorOf([] { Tree::load("badbase"); }),
            "badbase.toml:1: error: 'base' must be a string naming a configuration");
  dir_.write("quoted.toml", "[sm]\n\"max warps\" = 3\n");
  EXPECT_EQ(errorOf([] { Tree::load("quoted"); }),
            "quoted.toml:2: error: key \"max warps\" is not a bare key (letters, digits, '_' and "
            "'-')");
}

TEST_F(Layering, DescriptionKeysAreReadByTheTree) {
  dir_.write("described.toml", "name = \"Test GPU\"\ndescription = \"a test\"\nsource = \"none\"\n");
  Tree tree = Tree::load("described");
  EXPECT_NO_THROW(tree.checkAllUsed());
  ASSERT_EQ(tree.resolved().size(), 3u);
  EXPECT_EQ(tree.resolved()[0].key, "name");
  EXPECT_EQ(tree.resolved()[0].value, "\"Test GPU\"");
}

TEST_F(Layering, SearchPathPutsTheEnvironmentFirst) {
  ScopedConfigPath two(dir_.path() + "::/nowhere");
  std::vector<std::string> dirs = Tree::searchPath(false);
  ASSERT_EQ(dirs.size(), 4u);
  EXPECT_EQ(dirs[0], dir_.path());
  EXPECT_EQ(dirs[1], "/nowhere");
  EXPECT_EQ(dirs[2], std::string(WARPSIM_TEST_CONFIG_DIR));
  EXPECT_EQ(dirs[3], ".");
  std::vector<std::string> overlays = Tree::searchPath(true);
  ASSERT_EQ(overlays.size(), 4u);
  EXPECT_EQ(overlays[0], dir_.path() + "/overlays");
  EXPECT_EQ(overlays[2], std::string(WARPSIM_TEST_CONFIG_DIR) + "/overlays");
  EXPECT_EQ(overlays[3], ".");
}

TEST_F(Layering, ListingDescribesEachFileOnce) {
  dir_.write("gtx480.toml", "description = \"shadows the bundled gtx480\"\n");
  auto configs = Tree::listBundled(false);
  auto find = [&](const std::string& name) {
    for (const auto& [n, d] : configs) {
      if (n == name) return d;
    }
    return std::string("<absent>");
  };
  EXPECT_EQ(find("base"), "a base GPU");                 // first comment line
  EXPECT_EQ(find("gtx480"), "shadows the bundled gtx480");  // `description`, first dir wins
  EXPECT_EQ(find("child"), "");
  EXPECT_NE(find("a100"), "<absent>");                   // the bundled directory follows
  for (size_t i = 1; i < configs.size(); ++i) EXPECT_LT(configs[i - 1].first, configs[i].first);
  auto overlays = Tree::listBundled(true);
  EXPECT_EQ(std::count(overlays.begin(), overlays.end(), std::make_pair(std::string("first"),
                                                                        std::string(""))),
            1);
}

}  // namespace
}  // namespace warpsim::config
