// Generic address queries as nvcc emits them (tests/cuda/address_spaces.cu): __isConstant,
// __isShared and __isLocal of pointers into const, global, shared, local memory and a
// __grid_constant__ kernel parameter.
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(AddressSpaces, IsConstantIsSharedIsLocal) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("address_spaces"));
  const int n = 40;
  const uint64_t out = gpu.malloc(n * 4);
  gpu.launch(mod.kernel("_Z12query_spaces6float4Pji"), {1}, {n}, 0, Float4{1, 2, 3, 4}, out, n);
  const std::vector<uint32_t> got = gpu.download<uint32_t>(out, n);
  // bit 0 const, bit 1 shared, bit 2 local; by t % 5: const, global, shared, local, parameter.
  const uint32_t byKind[5] = {1, 0, 2, 4, 0};
  for (int t = 0; t < n; ++t) EXPECT_EQ(got[t], byKind[t % 5]) << "thread " << t;
}

}  // namespace
}  // namespace warpsim::test
