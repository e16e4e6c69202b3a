// The host API itself: memory operations, independent devices, module loading from text,
// resource usage from ptxas and from the estimate.
#include <gtest/gtest.h>

#include <cstdlib>

#include "func/device_memory.h"
#include "runtime/resource_usage.h"
#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(DeviceApi, CopiesAndMemsetRoundTrip) {
  runtime::Device gpu(testOptions());
  std::vector<uint32_t> host(1000);
  for (uint32_t i = 0; i < 1000; ++i) host[i] = i * 2654435761u;
  uint64_t a = gpu.upload(host), b = gpu.malloc(4000);
  gpu.memcpyDtoD(b, a, 4000);
  EXPECT_EQ(gpu.download<uint32_t>(b, 1000), host);
  gpu.memset(b + 400, 0xab, 8);
  std::vector<uint32_t> back = gpu.download<uint32_t>(b, 1000);
  EXPECT_EQ(back[99], host[99]);
  EXPECT_EQ(back[100], 0xababababu);
  EXPECT_EQ(back[101], 0xababababu);
  EXPECT_EQ(back[102], host[102]);
  gpu.free(a);
  gpu.free(b);
}

TEST(DeviceApi, TwoDevicesInOneProcessAreIndependent) {
  runtime::Device first(testOptions()), second(testOptions());
  runtime::Module m1 = first.loadModuleFile(cudaPtx("vector_add"));
  runtime::Module m2 = second.loadModuleFile(cudaPtx("vector_add"));
  const int n = 64;
  uint64_t a1 = first.upload(std::vector<float>(n, 1.0f)), b1 = first.upload(std::vector<float>(n, 2.0f));
  uint64_t c1 = first.malloc(n * 4);
  uint64_t a2 = second.upload(std::vector<float>(n, 10.0f)), b2 = second.upload(std::vector<float>(n, 20.0f));
  uint64_t c2 = second.malloc(n * 4);
  // The same addresses may come back from both devices: memory is per device.
  first.launch(m1.kernel("vector_add"), {1}, {64}, 0, a1, b1, c1, n);
  second.launch(m2.kernel("vector_add"), {1}, {64}, 0, a2, b2, c2, n);
  EXPECT_EQ(first.download<float>(c1, n), std::vector<float>(n, 3.0f));
  EXPECT_EQ(second.download<float>(c2, n), std::vector<float>(n, 30.0f));
}

TEST(DeviceApi, ModuleFromTextAndMovedModuleKeepsKernelHandlesValid) {
  runtime::Device gpu(testOptions());
  const char* ptx = R"(.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 answer = 42;
.visible .entry store_answer(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [answer];
  st.global.u32 [%rd2], %r1;
  ret;
}
)";
  runtime::Module original = gpu.loadModule(ptx, "answer.ptx");
  runtime::Kernel k = original.kernel("store_answer");
  runtime::Module moved = std::move(original);
  EXPECT_EQ(moved.sourceName(), "answer.ptx");
  EXPECT_EQ(moved.kernelNames(), std::vector<std::string>{"store_answer"});
  uint64_t out = gpu.malloc(4);
  gpu.launch(k, {1}, {1}, 0, out);
  EXPECT_EQ(gpu.download<uint32_t>(out, 1)[0], 42u);
  EXPECT_EQ(moved.symbolSize("answer"), 4u);
}

TEST(DeviceApi, ModuleVariablesAreReleasedWithTheModule) {
  runtime::Device gpu(testOptions());
  uint64_t before = gpu.memory().used();
  {
    runtime::Module mod = gpu.loadModuleFile(cudaPtx("const_globals"));
    EXPECT_GT(gpu.memory().used(), before);
  }
  EXPECT_EQ(gpu.memory().used(), before);
}

TEST(DeviceApi, EstimatedResourcesFollowTheDocumentedRule) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("matmul_tiled"));
  runtime::Kernel k = mod.kernel("matmul_tiled");
  const runtime::ResourceUsage& u = k.resources();
  EXPECT_EQ(u.source, runtime::ResourceUsage::Source::Estimate);
  EXPECT_EQ(u.sharedBytes, 2u * 16 * 16 * 4);  // two 16x16 float tiles
  EXPECT_EQ(u.registers % 8, 0u);
  EXPECT_GE(u.registers, 16u);
  EXPECT_GE(u.registers, k.function().maxLiveRegs);
  EXPECT_EQ(u.localBytes, 0u);
  runtime::Module local = gpu.loadModuleFile(cudaPtx("local_array"));
  EXPECT_EQ(local.kernel("local_array").resources().localBytes, 128u);  // int table[32]
}

TEST(DeviceApi, PtxasResourcesWhenAvailable) {
  if (!runtime::findPtxas()) GTEST_SKIP() << "ptxas not found: resource usage is estimated";
  runtime::Device gpu;  // default: ptxas when available
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("local_array"));
  const runtime::ResourceUsage& spill = mod.kernel("register_pressure").resources();
  ASSERT_EQ(spill.source, runtime::ResourceUsage::Source::Ptxas) << spill.note;
  EXPECT_EQ(spill.note, "sm_80");
  // .maxnreg 16 is raised to the sm_80 minimum of 24; 32 live floats must spill.
  EXPECT_LE(spill.registers, 24u);
  EXPECT_GT(spill.spillStoreBytes, 0u);
  EXPECT_GT(spill.localBytes, 0u);
  const runtime::ResourceUsage& array = mod.kernel("local_array").resources();
  EXPECT_GE(array.localBytes, 128u);
  runtime::Module tiles = gpu.loadModuleFile(cudaPtx("matmul_tiled"));
  EXPECT_EQ(tiles.kernel("matmul_tiled").resources().sharedBytes, 2048u);
}

}  // namespace
}  // namespace warpsim::test
