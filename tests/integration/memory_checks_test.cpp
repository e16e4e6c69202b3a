// Device memory through the host API: an access before the first allocation works as on a GPU
// with one warning line per launch (exact text), DeviceOptions::memcheck makes it a fault, and
// DeviceOptions::initcheck reports reads of memory the host, module loading or a kernel never
// wrote, in functional and timing mode alike.
#include <gtest/gtest.h>

#include <sstream>

#include "runtime/error.h"
#include "test_support.h"

namespace warpsim::test {
namespace {

// out[t] = a[t - cols] + a[t] + counter (a module variable, zero from loading).
const char* kEdge = R"(.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 counter;
.visible .entry edge(.param .u64 a, .param .u32 cols, .param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [a];
  ld.param.u32 %r1, [cols];
  ld.param.u64 %rd2, [out];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  neg.s32 %r3, %r1;
  mul.wide.s32 %rd5, %r3, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.u32 %r4, [%rd6];
  ld.global.u32 %r5, [%rd4];
  ld.global.u32 %r6, [counter];
  add.s64 %rd7, %rd2, %rd3;
  add.u32 %r7, %r4, %r5;
  add.u32 %r8, %r7, %r6;
  st.global.u32 [%rd7], %r8;
  ret;
}
)";

struct EdgeRun {
  std::ostringstream notices;
  runtime::Device gpu;
  uint64_t a, out;
  runtime::Module mod;
  explicit EdgeRun(runtime::DeviceOptions options)
      : gpu([&] {
          options.notices = &notices;
          return options;
        }()),
        a(gpu.malloc(32)),  // the first allocation: before the module's variable
        out(gpu.malloc(32)),
        mod(gpu.loadModule(kEdge, "edge.ptx")) {}
  runtime::LaunchReport run(uint32_t cols) { return gpu.launch(mod.kernel("edge"), {1}, {8}, 0, a, cols, out); }
};

runtime::DeviceOptions timingOptions() {
  runtime::DeviceOptions o = testOptions();
  o.mode = "timing";
  o.config = "a100";
  return o;
}

const char* kBeforeFirst =
    "kernel 'edge' CTA (0,0,0) thread (0,0,0) at edge.ptx:18: global load of 4 bytes at 0x7f00001ffff0, 16 bytes "
    "before the allocation at 0x7f0000200000 of 32 bytes";

void readsBeforeTheFirstAllocation(runtime::DeviceOptions options) {
  EdgeRun s(options);
  ASSERT_EQ(s.a, 0x7f0000200000u);
  s.gpu.memcpyHtoD(s.a, std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}.data(), 32);
  runtime::LaunchReport r = s.run(4);  // threads 0..3 read a[-4..-1]: the driver's zeros
  EXPECT_EQ(s.gpu.download<int>(s.out, 8), (std::vector<int>{1, 2, 3, 4, 6, 8, 10, 12}));
  EXPECT_EQ(r.memory.outsideAllocations.count, 4u);
  EXPECT_EQ(r.memory.outsideAllocations.first, kBeforeFirst);
  EXPECT_EQ(s.notices.str(),
            std::string("warpsim: warning: 4 device memory accesses outside every allocation (a GPU lets them through "
                        "inside its mapped pages; --memcheck or WARPSIM_MEMCHECK=1 makes each an error); the first: ") +
                kBeforeFirst + "\n");
  // A launch that stays inside its allocations says nothing.
  s.notices.str("");
  EXPECT_EQ(s.run(0).memory.outsideAllocations.count, 0u);
  EXPECT_EQ(s.notices.str(), "");
}

TEST(MemoryChecks, ReadBeforeTheFirstAllocationWorksWithOneWarningFunctional) {
  readsBeforeTheFirstAllocation(testOptions());
}
TEST(MemoryChecks, ReadBeforeTheFirstAllocationWorksWithOneWarningTiming) {
  readsBeforeTheFirstAllocation(timingOptions());
}

TEST(MemoryChecks, MemcheckMakesItAFault) {
  for (runtime::DeviceOptions options : {testOptions(), timingOptions()}) {
    options.memcheck = true;
    EdgeRun s(options);
    try {
      s.run(4);
      FAIL() << "expected a fault under memcheck";
    } catch (const runtime::LaunchError& e) {
      EXPECT_EQ(std::string(e.what()),
                "kernel 'edge' CTA (0,0,0) thread (0,0,0) at edge.ptx:18: illegal global load of 4 bytes at "
                "0x7f00001ffff0 (outside every allocation: 16 bytes before the allocation at 0x7f0000200000 of 32 "
                "bytes)");
    }
    EXPECT_EQ(s.notices.str(), "");
  }
}

void initcheck(runtime::DeviceOptions options) {
  options.initcheck = true;
  EdgeRun s(options);
  s.gpu.memcpyHtoD(s.a, std::vector<int>{1, 2, 3, 4}.data(), 16);  // a[4..7] never written
  runtime::LaunchReport r = s.run(0);
  EXPECT_EQ(r.memory.uninitialisedReads.count, 8u);  // threads 4..7, two loads each; counter is not
  const std::string first =
      "kernel 'edge' CTA (0,0,0) thread (4,0,0) at edge.ptx:18: global load of 4 bytes at 0x7f0000200010, 16 bytes "
      "into the allocation at 0x7f0000200000 of 32 bytes";
  EXPECT_EQ(r.memory.uninitialisedReads.first, first);
  EXPECT_EQ(s.notices.str(), "warpsim: error: initcheck: 8 reads of uninitialised device memory; the first: " +
                                 first + "\n");
  // The kernel's stores to `out` and a memset initialise the rest.
  s.gpu.memset(s.a + 16, 0, 16);
  s.notices.str("");
  EXPECT_EQ(s.run(0).memory.uninitialisedReads.count, 0u);
  EXPECT_EQ(s.notices.str(), "");
  EXPECT_EQ(s.gpu.download<int>(s.out, 8), (std::vector<int>{2, 4, 6, 8, 0, 0, 0, 0}));
}

TEST(MemoryChecks, InitcheckReportsReadsOfNeverWrittenMemoryFunctional) { initcheck(testOptions()); }
TEST(MemoryChecks, InitcheckReportsReadsOfNeverWrittenMemoryTiming) { initcheck(timingOptions()); }

}  // namespace
}  // namespace warpsim::test
