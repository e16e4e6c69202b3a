// Recursive __noinline__ device functions (tests/cuda/recursion.cu) and thread-private arrays
// in local memory with a register cap (tests/cuda/local_array.cu).
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
unsigned long long factorial(unsigned n) { return n <= 1 ? 1ull : n * factorial(n - 1); }

TEST(Calls, RecursiveFibonacciAndFactorialPerThread) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("recursion"));
  const int n = 40;
  std::vector<unsigned> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<unsigned>((i * 7) % 19);  // depth 0..18
  uint64_t dIn = gpu.upload(in), dFib = gpu.malloc(n * 4), dFact = gpu.malloc(n * 8);
  gpu.launch(mod.kernel("recursive_calls"), {2}, {32}, 0, dIn, dFib, dFact, n);
  std::vector<unsigned> fibs = gpu.download<unsigned>(dFib, n);
  std::vector<unsigned long long> facts = gpu.download<unsigned long long>(dFact, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(fibs[i], fib(in[i])) << "fib(" << in[i] << ")";
    EXPECT_EQ(facts[i], factorial(in[i])) << in[i] << "!";
  }
}

TEST(Calls, FactorialWrapsModulo2To64) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("recursion"));
  std::vector<unsigned> in = {21, 22, 1, 0};  // 21! > 2^64
  uint64_t dIn = gpu.upload(in), dFib = gpu.malloc(16), dFact = gpu.malloc(32);
  gpu.launch(mod.kernel("recursive_calls"), {1}, {4}, 0, dIn, dFib, dFact, 4);
  std::vector<unsigned long long> facts = gpu.download<unsigned long long>(dFact, 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(facts[i], factorial(in[i])) << in[i] << "!";
}

TEST(Calls, DynamicallyIndexedPrivateArray) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("local_array"));
  const int n = 200;
  InputGenerator gen(4);
  std::vector<int> idx(n);
  for (int& v : idx) v = static_cast<int>(gen.uniform(0, 1000));
  uint64_t dIdx = gpu.upload(idx), dOut = gpu.malloc(n * 4);
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("local_array"), {blocksFor(n, 64)}, {64}, 0, dIdx, dOut, n);
  std::vector<int> out = gpu.download<int>(dOut, n);
  for (int i = 0; i < n; ++i) {
    int table[32];
    for (int j = 0; j < 32; ++j) table[j] = (i + 1) * j + (j ^ i);
    int acc = 0, p = idx[i] & 31;
    for (int s = 0; s < 16; ++s) {
      acc += table[p];
      table[p] = acc ^ s;
      p = (p * 7 + idx[(i + s) % n]) & 31;
    }
    ASSERT_EQ(out[i], acc) << "thread " << i;
  }
  EXPECT_GT(r.stats.space(ir::Space::Local).instructions, 0u);
}

TEST(Calls, RegisterPressureKernelUnderMaxnreg) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("local_array"));
  const int n = 100;
  InputGenerator gen(8);
  std::vector<float> in(n);
  for (float& v : in) v = gen.dyadic(-1000, 1000, 6);
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(n * 4);
  gpu.launch(mod.kernel("register_pressure"), {2}, {64}, 0, dIn, dOut, n);
  std::vector<float> out = gpu.download<float>(dOut, n);
  for (int i = 0; i < n; ++i) {
    float v[32];
    for (int j = 0; j < 32; ++j) v[j] = in[(i + j) % n] * float(j + 1);
    float s = 0.0f;
    for (int r = 0; r < 4; ++r) {
      for (int j = 0; j < 32; ++j) {
        v[j] = v[j] * 0.5f + v[(j + 13) % 32];  // the product is exact: fma or not, same value
        s += v[j];
      }
    }
    ASSERT_EQ(out[i], s) << "thread " << i;
  }
  EXPECT_EQ(mod.kernel("register_pressure").function().maxnreg, 16u);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

TEST(Calls, CallStackOverflowIsAnErrorNamingTheKernel) {
  runtime::DeviceOptions options = testOptions();
  options.localStackBytes = 16;  // far too small for 18 nested calls
  runtime::Device gpu(options);
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("recursion"));
  uint64_t dIn = gpu.upload(std::vector<unsigned>{18}), dFib = gpu.malloc(4), dFact = gpu.malloc(8);
  try {
    gpu.launch(mod.kernel("recursive_calls"), {1}, {1}, 0, dIn, dFib, dFact, 1);
    FAIL() << "expected a stack overflow";
  } catch (const runtime::LaunchError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("recursive_calls"), std::string::npos) << what;
    EXPECT_NE(what.find("recursion.ptx:"), std::string::npos) << what;
    EXPECT_NE(what.find("stack"), std::string::npos) << what;
  }
  // The default stack holds the same recursion.
  runtime::Device roomy(testOptions());
  runtime::Module again = roomy.loadModuleFile(cudaPtx("recursion"));
  uint64_t in2 = roomy.upload(std::vector<unsigned>{18}), fib2 = roomy.malloc(4), fact2 = roomy.malloc(8);
  roomy.launch(again.kernel("recursive_calls"), {1}, {1}, 0, in2, fib2, fact2, 1);
  EXPECT_EQ(roomy.download<unsigned>(fib2, 1)[0], 2584u);
}

}  // namespace
}  // namespace warpsim::test
