// Device printf (tests/cuda/device_printf.cu) into a caller-chosen stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

TEST(DevicePrintf, FormatsIntegersFloatsAndStringsPerThread) {
  std::ostringstream printed;
  runtime::DeviceOptions options = testOptions();
  options.printfOutput = &printed;
  runtime::Device gpu(options);
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("device_printf"));
  const int n = 50;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = (i * 7) % 23 - 3;
  uint64_t dValues = gpu.upload(values);
  gpu.launch(mod.kernel("device_printf"), {2}, {32}, 0, dValues, n);

  std::vector<std::string> expect;
  for (int i = 0; i < n; ++i) {
    int v = values[i];
    if (v % 2 != 0) continue;
    expect.push_back(fmt::format("thread {} block {} value {} half {:.2f} {}", i, i / 32, v,
                                 v * 0.5, v > 10 ? "big" : "small"));
  }
  std::vector<std::string> got = lines(printed.str());
  // The order of lines across warps is the engine's schedule; compare as sets.
  std::sort(expect.begin(), expect.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expect);
}

}  // namespace
}  // namespace warpsim::test
