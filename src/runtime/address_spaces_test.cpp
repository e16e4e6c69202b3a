// isspacep on every window, through a loaded module: the module's .const variables share one
// block of device memory (ModuleState::placeConstBank), so isspacep.const is true exactly for
// their addresses, even with a .global variable declared between them; the const data and the
// kernel parameters lie in the global window; .param means the kernel's parameters in a .func.
#include <gtest/gtest.h>

#include <string>

#include "runtime/device.h"

namespace warpsim::runtime {
namespace {

// Bits of the answer for one generic address.
enum : uint32_t {
  kConst = 1, kGlobal = 2, kShared = 4, kLocal = 8, kParam = 16, kParamEntry = 32, kSharedCta = 64,
  kSharedCluster = 128,
};

// Code that writes the isspacep answers for the address in %rd10 to out[slot].
std::string query(unsigned slot) {
  static const char* kSpaces[] = {"const", "global", "shared", "local", "param", "param::entry",
                                  "shared::cta", "shared::cluster"};
  std::string s = "  mov.u32 %r1, 0;\n";
  for (unsigned b = 0; b < 8; ++b) {
    s += std::string("  isspacep.") + kSpaces[b] + " %p1, %rd10;\n";
    s += "  selp.u32 %r2, " + std::to_string(1u << b) + ", 0, %p1;\n  or.b32 %r1, %r1, %r2;\n";
  }
  s += "  st.global.u32 [%rd1+" + std::to_string(4 * slot) + "], %r1;\n";
  return s;
}

std::string moduleText() {
  std::string t = R"(.version 8.0
.target sm_80
.address_size 64
.const .align 4 .b32 c1[2] = {1, 2};
.global .align 4 .b32 g1;
.const .align 8 .b64 c2;
.visible .func (.param .b32 r) paramInFunc(.param .b64 a)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [a];
  isspacep.param %p1, %rd1;
  selp.u32 %r1, 1, 0, %p1;
  st.param.b32 [r], %r1;
  ret;
}
.visible .entry spaces(.param .u64 out, .param .u64 foreign)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<12>;
  .shared .align 4 .b8 sbuf[8];
  .local .align 4 .b8 depot[8];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [foreign];
)";
  const char* addresses[] = {
      "  mov.u64 %rd10, c1;\n  cvta.const.u64 %rd10, %rd10;\n",        // 0
      "  mov.u64 %rd10, c1+4;\n  cvta.const.u64 %rd10, %rd10;\n",      // 1
      "  mov.u64 %rd10, c2;\n  cvta.const.u64 %rd10, %rd10;\n",        // 2
      "  mov.u64 %rd10, c2+8;\n  cvta.const.u64 %rd10, %rd10;\n",      // 3: the end of the bank
      "  mov.u64 %rd10, c1;\n  cvta.const.u64 %rd10, %rd10;\n  sub.s64 %rd10, %rd10, 1;\n",  // 4
      "  mov.u64 %rd10, g1;\n  cvta.global.u64 %rd10, %rd10;\n",       // 5
      "  mov.u64 %rd10, %rd2;\n",                                       // 6: another module's const
      "  mov.u64 %rd10, sbuf;\n  cvta.shared.u64 %rd10, %rd10;\n",     // 7
      "  mov.u64 %rd10, depot;\n  cvta.local.u64 %rd10, %rd10;\n",     // 8
      "  mov.u64 %rd10, foreign;\n  cvta.param.u64 %rd10, %rd10;\n",   // 9
      "  mov.u64 %rd10, %rd1;\n",                                       // 10: a cudaMalloc'd buffer
  };
  for (unsigned k = 0; k < 11; ++k) t += addresses[k] + query(k);
  // The kernel parameter's address, tested inside a .func.
  t += R"(  mov.u64 %rd10, out;
  cvta.param.u64 %rd10, %rd10;
  {
  .param .b64 pa;
  st.param.b64 [pa], %rd10;
  .param .b32 pr;
  call.uni (pr), paramInFunc, (pa);
  ld.param.b32 %r3, [pr];
  }
  st.global.u32 [%rd1+44], %r3;
  ret;
}
)";
  return t;
}

TEST(AddressSpaces, IsspacepOnEveryWindow) {
  DeviceOptions o;
  o.mode = "functional";
  o.resources = DeviceOptions::Resources::Estimate;
  Device gpu(o);
  Module other = gpu.loadModule(".version 8.0\n.target sm_80\n.address_size 64\n"
                                ".const .align 4 .b32 elsewhere[4];\n", "other.ptx");
  Module mod = gpu.loadModule(moduleText(), "spaces.ptx");
  // One bank: c1 at its start, c2 after it at 8-byte alignment; g1 elsewhere.
  const uint64_t c1 = mod.symbolAddress("c1"), c2 = mod.symbolAddress("c2");
  EXPECT_EQ(c2, c1 + 8);
  const uint64_t g1 = mod.symbolAddress("g1");
  EXPECT_TRUE(g1 + 4 <= c1 || g1 >= c2 + 8);
  EXPECT_EQ(gpu.download<uint32_t>(c1, 2), (std::vector<uint32_t>{1, 2}));

  const uint64_t out = gpu.malloc(12 * 4);
  gpu.launch(mod.kernel("spaces"), {1}, {1}, 0, out, other.symbolAddress("elsewhere"));
  const std::vector<uint32_t> got = gpu.download<uint32_t>(out, 12);
  const std::vector<uint32_t> want = {
      kConst | kGlobal, kConst | kGlobal, kConst | kGlobal,
      kGlobal,                         // one past the bank
      kGlobal,                         // one before it
      kGlobal,                         // a .global variable
      kGlobal,                         // another module's bank: its own module knows it
      kShared | kSharedCta | kSharedCluster,
      kLocal,
      kGlobal | kParam | kParamEntry,  // the .param window lies in the .global one
      kGlobal,
      1,                               // .param in a .func: the kernel's parameters
  };
  EXPECT_EQ(got, want);
}

TEST(AddressSpaces, ModuleWithoutConstDataHasAnEmptyBank) {
  DeviceOptions o;
  o.mode = "functional";
  o.resources = DeviceOptions::Resources::Estimate;
  Device gpu(o);
  Module mod = gpu.loadModule(R"(.version 8.0
.target sm_80
.address_size 64
.global .align 4 .b32 g;
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, g;
  isspacep.const %p1, %rd2;
  selp.u32 %r1, 1, 0, %p1;
  st.global.u32 [%rd1], %r1;
  isspacep.const %p1, 0;
  selp.u32 %r1, 1, 0, %p1;
  st.global.u32 [%rd1+4], %r1;
  ret;
}
)", "noconst.ptx");
  const uint64_t out = gpu.malloc(8);
  gpu.memset(out, 0xFF, 8);
  gpu.launch(mod.kernel("k"), {1}, {1}, 0, out);
  EXPECT_EQ(gpu.download<uint32_t>(out, 2), (std::vector<uint32_t>{0, 0}));
}

}  // namespace
}  // namespace warpsim::runtime
