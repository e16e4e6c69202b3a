#include "runtime/resource_usage.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace warpsim::runtime {
namespace {

// Output of `ptxas -v` (CUDA 13) for a module with a helper function and two kernels.
const char* kReport = R"(ptxas warning : For entry spills adjusting per thread register count of 16 to lower bound of 24
ptxas info    : 0 bytes gmem
ptxas info    : Function properties for helper
    24 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'spills' for 'sm_80'
ptxas info    : Function properties for spills
    392 bytes stack frame, 668 bytes spill stores, 812 bytes spill loads
ptxas info    : Used 24 registers, used 0 barriers, 392 bytes cumulative stack size, 372 bytes cmem[0]
ptxas info    : Compile time = 43.147 ms
ptxas info    : Compiling entry function 'tiles' for 'sm_80'
ptxas info    : Function properties for tiles
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 2048 bytes smem, 392 bytes cmem[0]
)";

TEST(ResourceUsage, ParsesEveryEntryOfAPtxasReport) {
  auto kernels = parsePtxasReport(kReport);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].first, "spills");
  const ResourceUsage& s = kernels[0].second;
  EXPECT_EQ(s.source, ResourceUsage::Source::Ptxas);
  EXPECT_EQ(s.registers, 24u);
  EXPECT_EQ(s.localBytes, 392u);
  EXPECT_EQ(s.spillStoreBytes, 668u);
  EXPECT_EQ(s.spillLoadBytes, 812u);
  EXPECT_EQ(s.sharedBytes, 0u);
  EXPECT_EQ(s.note, "sm_80");
  EXPECT_EQ(kernels[1].first, "tiles");
  const ResourceUsage& t = kernels[1].second;
  EXPECT_EQ(t.registers, 32u);
  EXPECT_EQ(t.sharedBytes, 2048u);
  EXPECT_EQ(t.barriers, 1u);
  EXPECT_EQ(t.localBytes, 0u);
}

TEST(ResourceUsage, HelperFunctionFramesDoNotLeakIntoKernels) {
  // "helper" is reported before any entry; its 24-byte frame belongs to no kernel.
  auto kernels = parsePtxasReport(
      "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
      "ptxas info    : Function properties for helper\n"
      "    24 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Function properties for k\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 10 registers, 380 bytes cmem[0]\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].second.localBytes, 8u);
  EXPECT_EQ(kernels[0].second.spillStoreBytes, 0u);
  EXPECT_EQ(kernels[0].second.registers, 10u);
}

TEST(ResourceUsage, EmptyOrForeignTextGivesNoKernels) {
  EXPECT_TRUE(parsePtxasReport("").empty());
  EXPECT_TRUE(parsePtxasReport("ptxas fatal : Unresolved extern function 'f'\n").empty());
}

TEST(ResourceUsage, EstimateRoundsLiveRegistersUpToEightWithinLimits) {
  ir::Function f;
  f.name = "k";
  f.maxLiveRegs = 3;
  f.localBytes = 40;
  ResourceUsage u = estimateResources(f, 512, "ptxas not found");
  EXPECT_EQ(u.source, ResourceUsage::Source::Estimate);
  EXPECT_EQ(u.registers, 16u);  // at least 16
  EXPECT_EQ(u.sharedBytes, 512u);
  EXPECT_EQ(u.localBytes, 40u);
  EXPECT_EQ(u.note, "ptxas not found");
  f.maxLiveRegs = 17;
  EXPECT_EQ(estimateResources(f, 0, "").registers, 24u);
  f.maxLiveRegs = 400;
  EXPECT_EQ(estimateResources(f, 0, "").registers, 255u);
  f.maxnreg = 32;
  EXPECT_EQ(estimateResources(f, 0, "").registers, 32u);
}

TEST(ResourceUsage, PtxasCanBeSwitchedOff) {
  const char* old = std::getenv("WARPSIM_PTXAS");
  std::string saved = old != nullptr ? old : "";
  setenv("WARPSIM_PTXAS", "off", 1);
  EXPECT_FALSE(findPtxas().has_value());
  setenv("WARPSIM_PTXAS", "/nonexistent/ptxas", 1);
  EXPECT_FALSE(findPtxas().has_value());
  if (old != nullptr) {
    setenv("WARPSIM_PTXAS", saved.c_str(), 1);
  } else {
    unsetenv("WARPSIM_PTXAS");
  }
}

TEST(ResourceUsage, RunPtxasOnASmallModuleWhenAvailable) {
  std::optional<std::string> ptxas = findPtxas();
  if (!ptxas) GTEST_SKIP() << "ptxas not found";
  PtxasRun run = runPtxas(*ptxas, R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry one(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  .shared .align 4 .b8 buf[256];
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  st.shared.u32 [buf], %r1;
  bar.sync 0;
  ld.shared.u32 %r1, [buf+4];
  st.global.u32 [%rd2], %r1;
  ret;
}
)", 80);
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_EQ(run.kernels.size(), 1u);
  EXPECT_EQ(run.kernels[0].first, "one");
  EXPECT_EQ(run.kernels[0].second.sharedBytes, 256u);
  EXPECT_GT(run.kernels[0].second.registers, 0u);

  PtxasRun bad = runPtxas(*ptxas, ".version 8.0\n.target sm_80\nnonsense\n", 80);
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("ptxas failed for sm_80"), std::string::npos) << bad.error;
  EXPECT_EQ(bad.error.find('\n'), std::string::npos) << bad.error;
}

}  // namespace
}  // namespace warpsim::runtime
