// Device accesses outside allocations and of never-written memory (RunOptions findings, memcheck
// and initcheck): what runs as on a GPU, what is counted, what faults, and the exact first-access
// descriptions.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <vector>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

constexpr uint64_t kFirst = DeviceMemory::kBaseAddress + AllocationLayout::kDriverBytes;

// Every thread reads a[-1] (before the first allocation: the driver's chunk), writes a[n] (just
// past the end, in a's chunk) and reads it back; out[t] = a[-1] + a[n].
const char* kEdges = R"(
.visible .entry edges(.param .u64 a, .param .u32 n, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u32 %r1, [n];
  ld.param.u64 %rd2, [out];
  mov.u32 %r2, %tid.x;
  ld.global.u32 %r3, [%rd1+-4];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r2;
  ld.global.u32 %r4, [%rd4];
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd6, %rd2, %rd5;
  add.u32 %r5, %r3, %r4;
  st.global.u32 [%rd6], %r5;
  ret;
}
)";

TEST(MemoryCheck, AccessesOutsideAllocationsInMappedChunksWorkAndAreCounted) {
  KernelRunner r(ptxModule(kEdges));
  MemoryFindings found;
  r.options.findings = &found;
  const uint64_t a = r.upload(std::vector<uint32_t>{1, 2, 3, 4});
  const uint64_t out = r.upload(std::vector<uint32_t>(4, 0));
  ASSERT_EQ(a, kFirst);
  LaunchResult res = r.launch("edges", {1, 1, 1}, {4, 1, 1}, {a, 4u, out});
  ASSERT_TRUE(res.ok) << res.error;
  // a[-1] reads the driver's (zero) memory; a[4] holds what the last lane stored.
  EXPECT_EQ(r.download<uint32_t>(out, 4), (std::vector<uint32_t>{3, 3, 3, 3}));
  EXPECT_EQ(found.outsideAllocations.count, 12u);  // 4 lanes x (load, store, load)
  EXPECT_EQ(found.outsideAllocations.first,
            "kernel 'edges' CTA (0,0,0) thread (0,0,0) at test.ptx:14: global load of 4 bytes at 0x7f00001ffffc, "
            "4 bytes before the allocation at 0x7f0000200000 of 16 bytes");
  EXPECT_EQ(found.uninitialisedReads.count, 0u);
  // Accesses inside allocations are not findings.
  MemoryFindings none;
  r.options.findings = &none;
  ASSERT_TRUE(r.launch("edges", {1, 1, 1}, {4, 1, 1}, {a + 4, 2u, out}).ok);
  EXPECT_EQ(none.outsideAllocations.count, 0u);
}

TEST(MemoryCheck, MemcheckMakesTheFirstOutsideAccessAFault) {
  KernelRunner r(ptxModule(kEdges));
  MemoryFindings found;
  r.options.findings = &found;
  r.options.memcheck = true;
  const uint64_t a = r.upload(std::vector<uint32_t>{1, 2, 3, 4});
  const uint64_t out = r.upload(std::vector<uint32_t>(4, 0));
  LaunchResult res = r.launch("edges", {1, 1, 1}, {4, 1, 1}, {a, 4u, out});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error,
            "kernel 'edges' CTA (0,0,0) thread (0,0,0) at test.ptx:14: illegal global load of 4 bytes at "
            "0x7f00001ffffc (outside every allocation: 4 bytes before the allocation at 0x7f0000200000 of 16 bytes)");
  EXPECT_EQ(found.outsideAllocations.count, 0u);
}

TEST(MemoryCheck, AccessesOutsideMappedMemoryFaultAsBefore) {
  KernelRunner r(ptxModule(kEdges));
  MemoryFindings found;
  r.options.findings = &found;
  const uint64_t a = r.upload(std::vector<uint32_t>{1, 2, 3, 4});
  const uint64_t out = r.upload(std::vector<uint32_t>(4, 0));
  // a[n] with n = 2 MiB / 4: one byte-chunk past a's chunk, where nothing is mapped.
  LaunchResult res = r.launch("edges", {1, 1, 1}, {4, 1, 1}, {a, uint32_t{1} << 19, out});
  ASSERT_FALSE(res.ok);
  EXPECT_EQ(res.error, fmt::format("kernel 'edges' CTA (0,0,0) thread (0,0,0) at test.ptx:17: illegal global store "
                                   "of 4 bytes at {:#x} (unmapped)",
                                   a + (uint64_t{2} << 20)));
  EXPECT_EQ(found.outsideAllocations.count, 4u);  // the a[-1] loads before it
}

// A register-free address serves the whole warp with one translation; it still counts one access
// per lane.
TEST(MemoryCheck, AUniformAddressCountsEveryLane) {
  KernelRunner r(ptxModule(R"(
.global .align 4 .b8 g[8];
.visible .entry f(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r1, [g+8];
  st.global.u32 [%rd1], %r1;
  ret;
}
)"));
  MemoryFindings found;
  r.options.findings = &found;
  const uint64_t out = r.upload(std::vector<uint32_t>(1, 9));
  ASSERT_TRUE(r.launch("f", {1, 1, 1}, {20, 1, 1}, {out}).ok);
  EXPECT_EQ(r.download<uint32_t>(out, 1)[0], 0u);
  EXPECT_EQ(found.outsideAllocations.count, 20u);
  EXPECT_EQ(found.outsideAllocations.first,
            fmt::format("kernel 'f' CTA (0,0,0) thread (0,0,0) at test.ptx:12: global load of 4 bytes at {:#x}, "
                        "0 bytes after the end of the allocation at {:#x} of 8 bytes",
                        r.symbolAddress("g") + 8, r.symbolAddress("g")));
}

// Thread t reads a[t] (the host wrote a[0..1]), writes a[4 + t] and reads it back, and adds to
// a[8] atomically (never written before: only the first lane's atomic reads garbage).
const char* kInit = R"(
.visible .entry init(.param .u64 a)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
  st.global.u32 [%rd3+16], %r1;
  ld.global.u32 %r3, [%rd3+16];
  atom.global.add.u32 %r4, [%rd1+32], 1;
  ret;
}
)";

TEST(MemoryCheck, InitcheckCountsReadsOfNeverWrittenBytes) {
  KernelRunner r(ptxModule(kInit));
  r.memory.trackInitialisation();
  MemoryFindings found;
  r.options.findings = &found;
  r.options.initcheck = true;
  const uint64_t a = r.memory.allocate(48);
  const uint32_t two[2] = {7, 8};
  r.memory.write(a, two, sizeof two);
  ASSERT_TRUE(r.launch("init", {1, 1, 1}, {4, 1, 1}, {a}).ok);
  EXPECT_EQ(found.uninitialisedReads.count, 3u);  // a[2], a[3], then a[8] once
  EXPECT_EQ(found.uninitialisedReads.first,
            "kernel 'init' CTA (0,0,0) thread (2,0,0) at test.ptx:14: global load of 4 bytes at 0x7f0000200008, "
            "8 bytes into the allocation at 0x7f0000200000 of 48 bytes");
  EXPECT_EQ(found.outsideAllocations.count, 0u);
  EXPECT_EQ(r.download<uint32_t>(a + 32, 1)[0], 4u);
  // Everything the kernel touched is written now; a[2..3] still are not.
  MemoryFindings again;
  r.options.findings = &again;
  ASSERT_TRUE(r.launch("init", {1, 1, 1}, {2, 1, 1}, {a}).ok);
  EXPECT_EQ(again.uninitialisedReads.count, 0u);
  // Without initcheck nothing is looked for.
  MemoryFindings off;
  r.options.findings = &off;
  r.options.initcheck = false;
  ASSERT_TRUE(r.launch("init", {1, 1, 1}, {4, 1, 1}, {a}).ok);
  EXPECT_EQ(off.uninitialisedReads.count, 0u);
}

}  // namespace
}  // namespace warpsim::func
