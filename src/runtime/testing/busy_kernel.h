// A compute-bound test kernel for Device tests: thread i of the grid writes
// out[i] = x after `rounds` steps of x = x * 1664525 + 1013904223 from x = i + seed.
#pragma once
#include <cstdint>
#include <cstring>

#include "runtime/device.h"

namespace warpsim::runtime::testing {

inline constexpr const char* kBusyPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry busy(.param .u64 pout, .param .u32 pseed, .param .u32 prounds)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [pout];
  ld.param.u32 %r1, [pseed];
  ld.param.u32 %r2, [prounds];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  add.s32 %r7, %r6, %r1;
  mov.u32 %r8, 0;
LOOP:
  mad.lo.s32 %r7, %r7, 1664525, 1013904223;
  add.s32 %r8, %r8, 1;
  setp.lt.u32 %p1, %r8, %r2;
  @%p1 bra LOOP;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";

// What thread `i` writes.
inline uint32_t busyValue(uint32_t i, uint32_t seed, uint32_t rounds) {
  uint32_t x = i + seed;
  for (uint32_t r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
  return x;
}

// A launch of `ctas` CTAs of `block` threads of the busy kernel `k`.
inline func::LaunchConfig busyLaunch(const Kernel& k, uint32_t ctas, uint32_t block, uint64_t out,
                                     uint32_t seed, uint32_t rounds) {
  func::LaunchConfig c;
  c.grid = {ctas, 1, 1};
  c.block = {block, 1, 1};
  c.params.resize(k.function().kernelParamBytes);
  std::memcpy(c.params.data(), &out, 8);
  std::memcpy(c.params.data() + 8, &seed, 4);
  std::memcpy(c.params.data() + 12, &rounds, 4);
  return c;
}

}  // namespace warpsim::runtime::testing
