// Separately compiled device code (nvcc -rdc=true, tests/cuda/rdc_main.cu + rdc_lib.cu): the
// kernel calls a __device__ function of the other unit, which calls back into the first, and
// reads its extern __device__ and __constant__ variables; both units print with a string named
// `$str`. Device::loadLinkedModule links them as nvlink would.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_support.h"

namespace warpsim::test {
namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// 1-based line of the first line of `text` that contains `what` (0: none).
uint32_t lineOf(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); ++n)
    if (line.find(what) != std::string::npos) return n;
  return 0;
}

TEST(LinkedUnits, CallsAndVariablesCrossUnits) {
  std::ostringstream printed;
  runtime::DeviceOptions o = testOptions();
  o.printfOutput = &printed;
  runtime::Device gpu(o);
  const std::string main = readText(cudaPtx("rdc_main")), lib = readText(cudaPtx("rdc_lib"));
  runtime::Module mod = gpu.loadLinkedModule({{main, "rdc_main.ptx"}, {lib, "rdc_lib.ptx"}}, "linked.ptx");
  EXPECT_EQ(mod.sourceName(), "linked.ptx");
  EXPECT_EQ(mod.kernelNames(), std::vector<std::string>{"_Z6linkedPii"});
  const int n = 200;
  const uint64_t out = gpu.malloc(n * 4);
  gpu.launch(mod.kernel("_Z6linkedPii"), {blocksFor(n, 64)}, {64}, 0, out, n);
  const std::vector<int> got = gpu.download<int>(out, n);
  const int offsets[4] = {10, 20, 30, 40};
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], (2 * i + 7) * 3 + offsets[i & 3] + 3 + 40) << i;
  EXPECT_EQ(printed.str(), "kernel in the main unit\ncombine in the library unit\n");
  // The host reaches the variables through the linked module; the extern declaration is gone.
  EXPECT_EQ(gpu.download<int>(mod.symbolAddress("offsets"), 4), (std::vector<int>{10, 20, 30, 40}));
  int scale = 5;
  gpu.memcpyHtoD(mod.symbolAddress("scale"), &scale, 4);
  gpu.launch(mod.kernel("_Z6linkedPii"), {1}, {4}, 0, out, 4);
  EXPECT_EQ(gpu.download<int>(out, 1)[0], 7 * 5 + 10 + 5 + 40);
}

TEST(LinkedUnits, AMissingUnitIsAnUnresolvedFunction) {
  runtime::Device gpu(testOptions());
  const std::string main = readText(cudaPtx("rdc_main"));
  const uint32_t line = lineOf(main, ".extern .func  (.param .b32 func_retval0) _Z7combinei");
  ASSERT_NE(line, 0u);
  try {
    gpu.loadLinkedModule({{main, "rdc_main.ptx"}}, "linked.ptx");
    FAIL() << "linked";
  } catch (const runtime::Error& e) {
    EXPECT_EQ(std::string(e.what()), "rdc_main.ptx:" + std::to_string(line) +
                                         ": error: unresolved function '_Z7combinei': no unit "
                                         "defines it (warpsim provides only vprintf)");
  }
}

}  // namespace
}  // namespace warpsim::test
