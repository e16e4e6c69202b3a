// 32-bit shared addresses wrap as PTX defines (tests/cuda/shared_wrap.cu): nvcc's strength-reduced
// loop keeps a shared pointer below the array (0xfffffffc when the array sits at shared offset
// 0) and reads [p + 4]; without modulo-2^32 address arithmetic such a read leaves shared memory
// and the launch faults. Checked against a CPU reference in functional and timing mode.
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

constexpr int kBlock = 128;

std::vector<int> windowSums(const std::vector<int>& in, int r) {
  std::vector<int> out(in.size());
  for (size_t b = 0; b < in.size(); b += kBlock) {
    for (int t = 0; t < kBlock; ++t) {
      int sum = 0;
      for (int k = -r; k <= r; ++k) {
        const int j = t + k;
        if (j >= 0 && j < kBlock) sum += in[b + j] * (k + 20);
      }
      out[b + t] = sum;
    }
  }
  return out;
}

void checkWindowSums(runtime::DeviceOptions options) {
  runtime::Device gpu(options);
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("shared_wrap"));
  InputGenerator gen(5);
  std::vector<int> in(3 * kBlock);
  for (int& v : in) v = static_cast<int>(gen.uniform(-1000, 1000));
  const uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(in.size() * sizeof(int));
  for (int r : {1, 3, 15, 40}) {
    runtime::LaunchReport rep = gpu.launch(mod.kernel("window_sum"), {3}, {kBlock}, 0, dIn, dOut, r);
    EXPECT_EQ(gpu.download<int>(dOut, in.size()), windowSums(in, r)) << "radius " << r;
    EXPECT_EQ(rep.memory.outsideAllocations.count, 0u) << "radius " << r;
  }
}

TEST(SharedWrap, NvccsWrappedSharedPointerReadsTheArrayFunctional) { checkWindowSums(testOptions()); }

TEST(SharedWrap, NvccsWrappedSharedPointerReadsTheArrayTiming) {
  runtime::DeviceOptions options = testOptions();
  options.mode = "timing";
  options.config = "v100";
  checkWindowSums(options);
}

}  // namespace
}  // namespace warpsim::test
