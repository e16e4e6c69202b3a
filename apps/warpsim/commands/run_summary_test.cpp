// The value-similarity parts of `warpsim run`'s summary: the --detail line, the JSON totals,
// and the overrides --profile-values implies; the resource specification in the header and JSON.
#include "commands/run_summary.h"

#include <gtest/gtest.h>

#include "commands/commands.h"

namespace warpsim::app {
namespace {

runtime::LaunchReport profiled(const char* name) {
  runtime::LaunchReport r;
  r.kernel = name;
  profile::ValueSimilarityStats v;
  v.registerWrites.nonDivergent[static_cast<size_t>(profile::WordClass::Uniform)] = 9;
  v.registerWrites.nonDivergent[static_cast<size_t>(profile::WordClass::Affine)] = 8;
  v.registerWrites.divergent[static_cast<size_t>(profile::WordClass::Uniform)] = 1;
  v.localStores.nonDivergent[static_cast<size_t>(profile::WordClass::Affine)] = 2;
  r.valueSimilarity = v;
  return r;
}

TEST(RunSummary, DetailShowsValueSimilarityShares) {
  RunSummary s;
  s.launches = {profiled("k")};
  const std::string text = formatSummary(s, true);
  EXPECT_NE(text.find("\n    values: registers uniform 55.6% affine 44.4% (5.6% divergent); "
                      "local stores affine 100.0% (0.0% divergent)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(formatSummary(s, false).find("values:"), std::string::npos);

  s.launches[0].valueSimilarity.emplace();  // profiled, nothing written
  EXPECT_NE(formatSummary(s, true).find("\n    values: registers none; local stores none\n"),
            std::string::npos);
  s.launches[0].valueSimilarity.reset();    // not profiled
  EXPECT_EQ(formatSummary(s, true).find("values:"), std::string::npos);
}

TEST(RunSummary, TotalsSumValueSimilarityOverKernels) {
  RunSummary s;
  s.launches = {profiled("a"), profiled("b")};
  const nlohmann::json j = summaryJson(s);
  ASSERT_TRUE(j["totals"].contains("value_similarity"));
  const nlohmann::json& regs = j["totals"]["value_similarity"]["register_writes"];
  EXPECT_EQ(regs["non_divergent"]["uniform"], 18);
  EXPECT_EQ(regs["non_divergent"]["affine"], 16);
  EXPECT_EQ(regs["divergent"]["uniform"], 2);
  EXPECT_EQ(j["totals"]["value_similarity"]["local_stores"]["non_divergent"]["affine"], 4);
  EXPECT_EQ(j["kernels"][1]["value_similarity"]["register_writes"]["non_divergent"]["random"], 0);

  s.launches = {runtime::LaunchReport{}};
  const nlohmann::json off = summaryJson(s);
  EXPECT_FALSE(off["totals"].contains("value_similarity"));
  EXPECT_FALSE(off["kernels"][0].contains("value_similarity"));
}

TEST(RunSummary, SpecificationInHeaderAndJsonOnlyWhenAsked) {
  RunSummary s;
  s.seed = 3;
  s.mode = "functional";
  EXPECT_NE(formatSummary(s, false).find("seed 3, functional mode"), std::string::npos);
  nlohmann::json j = summaryJson(s);
  EXPECT_FALSE(j.contains("threads_per_block"));
  EXPECT_FALSE(j.contains("shared_per_block"));

  s.threadsPerBlock = 128;
  s.sharedPerBlock = 16384;
  EXPECT_NE(formatSummary(s, false)
                .find("seed 3, 128 threads/block, 16384 B shared/block, functional mode"),
            std::string::npos)
      << formatSummary(s, false);
  j = summaryJson(s);
  EXPECT_EQ(j["threads_per_block"], 128);
  EXPECT_EQ(j["shared_per_block"], 16384);
}

TEST(RunSummary, ProfileValuesFlagAddsItsOverrideLast) {
  RunArgs args;
  args.sets = {"sm.scheduler=lrr"};
  EXPECT_EQ(runSets(args), std::vector<std::string>{"sm.scheduler=lrr"});
  args.profileValues = true;
  EXPECT_EQ(runSets(args),
            (std::vector<std::string>{"sm.scheduler=lrr", "profile.value_similarity=true"}));
}

}  // namespace
}  // namespace warpsim::app
