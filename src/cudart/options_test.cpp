#include "cudart/options.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace warpsim::cudart {
namespace {

// The variables the fake environment holds for one test.
std::map<std::string, std::string>* fakeEnvironment = nullptr;

const char* fakeLookup(const char* name) {
  auto it = fakeEnvironment->find(name);
  return it == fakeEnvironment->end() ? nullptr : it->second.c_str();
}

Options parse(std::map<std::string, std::string> vars) {
  fakeEnvironment = &vars;
  Options o = Options::fromEnvironment(fakeLookup);
  fakeEnvironment = nullptr;
  return o;
}

TEST(CudartOptions, Defaults) {
  Options o = parse({});
  EXPECT_EQ(o.mode, "functional");
  EXPECT_EQ(o.config, "");
  EXPECT_TRUE(o.overlays.empty());
  EXPECT_TRUE(o.sets.empty());
  EXPECT_EQ(o.numSms, 0u);
  EXPECT_FALSE(o.quiet);
  EXPECT_TRUE(o.exitOnFault);
  EXPECT_FALSE(o.usePtxas);
}

TEST(CudartOptions, ConfigurationVariables) {
  Options o = parse({{"WARPSIM_MODE", "timing"},
                     {"WARPSIM_CONFIG", "configs/gtx480.toml"},
                     {"WARPSIM_OVERLAYS", "avc;gscalar, rfc"},
                     {"WARPSIM_SET", "sm.count=4; l1.size=32768;;"},
                     {"WARPSIM_SMS", "12"},
                     {"WARPSIM_QUIET", "1"},
                     {"WARPSIM_FAULT", "error"},
                     {"WARPSIM_RESOURCES", "ptxas"}});
  EXPECT_EQ(o.mode, "timing");
  EXPECT_EQ(o.config, "configs/gtx480.toml");
  EXPECT_EQ(o.overlays, (std::vector<std::string>{"avc", "gscalar", "rfc"}));
  EXPECT_EQ(o.sets, (std::vector<std::string>{"sm.count=4", "l1.size=32768"}));
  EXPECT_EQ(o.numSms, 12u);
  EXPECT_TRUE(o.quiet);
  EXPECT_FALSE(o.exitOnFault);
  EXPECT_TRUE(o.usePtxas);
}

TEST(CudartOptions, BadValuesFallBackToDefaults) {
  testing::internal::CaptureStderr();
  Options o = parse({{"WARPSIM_MODE", "cycle"}, {"WARPSIM_SMS", "-3"}, {"WARPSIM_QUIET", "0"}});
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(o.mode, "functional");
  EXPECT_EQ(o.numSms, 0u);
  EXPECT_FALSE(o.quiet);
  EXPECT_NE(err.find("WARPSIM_MODE=cycle is unknown (modes: functional, timing)"),
            std::string::npos);
  EXPECT_NE(err.find("WARPSIM_SMS=-3 is not a whole number"), std::string::npos);
}

TEST(CudartOptions, MemoryChecks) {
  Options off = parse({});
  EXPECT_FALSE(off.memcheck);
  EXPECT_FALSE(off.initcheck);
  Options on = parse({{"WARPSIM_MEMCHECK", "1"}, {"WARPSIM_INITCHECK", "yes"}});
  EXPECT_TRUE(on.memcheck);
  EXPECT_TRUE(on.initcheck);
  Options zero = parse({{"WARPSIM_MEMCHECK", "0"}, {"WARPSIM_INITCHECK", "0"}});
  EXPECT_FALSE(zero.memcheck);
  EXPECT_FALSE(zero.initcheck);
}

TEST(CudartOptions, SplitList) {
  EXPECT_EQ(splitList("a;b", ";"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(splitList(" a = 1 ;; ", ";"), (std::vector<std::string>{"a = 1"}));
  EXPECT_EQ(splitList("x,y;z", ";,"), (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_TRUE(splitList("", ";").empty());
  EXPECT_TRUE(splitList(" ; ", ";").empty());
}

}  // namespace
}  // namespace warpsim::cudart
