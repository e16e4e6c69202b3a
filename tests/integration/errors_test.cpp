// Error paths through the host API: malformed PTX, an unsupported opcode, an out-of-bounds
// access, argument mismatches, unknown names, the instruction limit. Every message is one line
// naming what and where.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

// Runs `body`, expecting runtime::Error; returns its message.
template <class Body>
std::string errorOf(Body&& body) {
  try {
    body();
  } catch (const runtime::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no runtime::Error thrown";
  return "";
}

const char* kMalformed = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry broken(.param .u64 p)
{
  .reg .b32 %r<3>;
  add.s32 %r1, %r2 %r3;
  ret;
}
)";

const char* kUnsupported = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry uses_redux(.param .u64 p)
{
  .reg .b32 %r<3>;
  mov.u32 %r1, %tid.x;
  redux.sync.add.u32 %r2, %r1, 0xffffffff;
  ret;
}
)";

const char* kOutOfBounds = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry oob(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

TEST(Errors, MalformedPtxNamesFileAndLine) {
  TempFile file("broken.ptx", kMalformed);
  const std::string& path = file.path();
  runtime::Device gpu(testOptions());
  std::string what = errorOf([&] { gpu.loadModuleFile(path); });
  EXPECT_EQ(what.rfind(path + ":7: error:", 0), 0u) << what;
  EXPECT_FALSE(contains(what, "\n")) << what;
}

TEST(Errors, UnsupportedOpcodeNamesFileLineAndOpcode) {
  runtime::Device gpu(testOptions());
  std::string what = errorOf([&] { gpu.loadModule(kUnsupported, "redux.ptx"); });
  EXPECT_EQ(what.rfind("redux.ptx:8: error:", 0), 0u) << what;
  EXPECT_TRUE(contains(what, "redux")) << what;
  EXPECT_FALSE(contains(what, "\n")) << what;
}

TEST(Errors, OutOfBoundsStoreNamesKernelThreadLineAndAddress) {
  runtime::DeviceOptions options = testOptions();
  options.memcheck = true;  // past the end is still mapped memory: only memcheck faults there
  runtime::Device gpu(options);
  runtime::Module mod = gpu.loadModule(kOutOfBounds, "oob.ptx");
  uint64_t buffer = gpu.malloc(64);  // room for 16 threads; the 17th writes past the end
  try {
    gpu.launch(mod.kernel("oob"), {1}, {32}, 0, buffer);
    FAIL() << "expected an out-of-bounds fault";
  } catch (const runtime::LaunchError& e) {
    std::string what = e.what();
    EXPECT_TRUE(contains(what, "kernel 'oob'")) << what;
    EXPECT_TRUE(contains(what, "oob.ptx:13")) << what;
    EXPECT_TRUE(contains(what, "(16,0,0)")) << what;  // the first thread past the buffer
    EXPECT_TRUE(contains(what, fmt::format("0x{:x}", buffer + 64))) << what;
    EXPECT_FALSE(contains(what, "\n")) << what;
  }
  // The in-bounds threads' stores are not required to have happened; the device stays usable.
  EXPECT_NO_THROW(gpu.launch(mod.kernel("oob"), {1}, {16}, 0, buffer));
  std::vector<uint32_t> v = gpu.download<uint32_t>(buffer, 16);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(v[i], i);
}

TEST(Errors, RunReportsFaultWithoutThrowing) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModule(kOutOfBounds, "oob.ptx");
  func::LaunchConfig config;
  config.grid = {1};
  config.block = {32};
  config.params = runtime::packArgs(mod.kernel("oob").function(), uint64_t{0});  // null pointer
  runtime::LaunchReport r = gpu.run(mod.kernel("oob"), config);
  EXPECT_FALSE(r.result.ok);
  EXPECT_TRUE(contains(r.result.error, "oob.ptx:13")) << r.result.error;
}

TEST(Errors, ArgumentCountSizeAndKindAreChecked) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("vector_add"));
  runtime::Kernel saxpy = mod.kernel("saxpy");  // (int n, float alpha, const float*, float*)
  uint64_t p = gpu.malloc(16);
  std::string few = errorOf([&] { gpu.launch(saxpy, {1}, {32}, 0, 4, 2.0f, p); });
  EXPECT_EQ(few, "kernel 'saxpy': takes 4 arguments, given 3");
  std::string many = errorOf([&] { gpu.launch(saxpy, {1}, {32}, 0, 4, 2.0f, p, p, p); });
  EXPECT_EQ(many, "kernel 'saxpy': takes 4 arguments, given more");
  std::string size = errorOf([&] { gpu.launch(saxpy, {1}, {32}, 0, int64_t{4}, 2.0f, p, p); });
  EXPECT_EQ(size, "kernel 'saxpy': argument 1 (saxpy_param_0) is 4 bytes, given 8 bytes");
  std::string kind = errorOf([&] { gpu.launch(saxpy, {1}, {32}, 0, 4, 2, p, p); });
  EXPECT_EQ(kind, "kernel 'saxpy': argument 2 (saxpy_param_1) is floating-point, given an integer");
  std::string pointer = errorOf([&] { gpu.launch(saxpy, {1}, {32}, 0, 4, 2.0f, 1.0, p); });
  EXPECT_EQ(pointer,
            "kernel 'saxpy': argument 3 (saxpy_param_2) is an integer, given a floating-point value");
}

TEST(Errors, UnknownKernelAndSymbolListWhatExists) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("vector_add"));
  std::string kernel = errorOf([&] { mod.kernel("vector_sub"); });
  EXPECT_TRUE(contains(kernel, "no kernel 'vector_sub' (kernels: vector_add, saxpy)")) << kernel;
  std::string symbol = errorOf([&] { mod.symbolAddress("nothing"); });
  EXPECT_TRUE(contains(symbol, "no module variable 'nothing'")) << symbol;
  std::string file = errorOf([&] { gpu.loadModuleFile("/nonexistent/x.ptx"); });
  EXPECT_EQ(file, "/nonexistent/x.ptx: error: cannot open file");
}

TEST(Errors, MemoryOperationsNameTheAddress) {
  runtime::Device gpu(testOptions());
  uint64_t p = gpu.malloc(100);
  std::vector<uint8_t> host(200);
  std::string over = errorOf([&] { gpu.memcpyHtoD(p, host.data(), 200); });
  EXPECT_TRUE(contains(over, fmt::format("0x{:x}", p))) << over;
  std::string freeTwice = errorOf([&] {
    gpu.free(p);
    gpu.free(p);
  });
  EXPECT_TRUE(contains(freeTwice, fmt::format("0x{:x}", p))) << freeTwice;
  runtime::DeviceOptions small = testOptions();
  small.memoryBytes = 1 << 20;
  runtime::Device tiny(small);
  std::string full = errorOf([&] { tiny.malloc(2 << 20); });
  EXPECT_TRUE(contains(full, "out of device memory")) << full;
}

TEST(Errors, InstructionLimitStopsARunawayLaunch) {
  runtime::DeviceOptions options = testOptions();
  options.maxWarpInstructions = 1000;
  runtime::Device gpu(options);
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("bench_kernels"));
  uint64_t out = gpu.malloc(32 * 4);
  try {
    gpu.launch(mod.kernel("compute_loop"), {1}, {32}, 0, out, 100000);
    FAIL() << "expected the instruction limit to stop the launch";
  } catch (const runtime::LaunchError& e) {
    EXPECT_TRUE(contains(e.what(), "compute_loop")) << e.what();
  }
}

}  // namespace
}  // namespace warpsim::test
