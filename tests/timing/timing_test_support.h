// Helpers of the timing-model tests: devices in timing mode and small hand-written kernels.
#pragma once
#include <string>
#include <vector>

#include "runtime/device.h"

namespace warpsim::test {

// A timing-mode device on `config` with `sets` (resources estimated: no ptxas per module).
inline runtime::DeviceOptions timingOptions(const std::string& config = "gtx480",
                                            std::vector<std::string> sets = {}) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.mode = "timing";
  o.config = config;
  o.sets = std::move(sets);
  return o;
}

// Runs `body`, expecting an exception derived from std::exception; returns its message.
template <class Body>
std::string errorOf(Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The lines of a multi-line message.
inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

// c[i] = a[i] + b[i] for i < n (one thread per element).
inline const char* kVectorAdd = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<11>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u32 %r2, [n];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r1, %r3, %r4, %r5;
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd2;
  cvta.to.global.u64 %rd6, %rd3;
  mul.wide.s32 %rd7, %r1, 4;
  add.s64 %rd8, %rd4, %rd7;
  add.s64 %rd9, %rd5, %rd7;
  add.s64 %rd10, %rd6, %rd7;
  ld.global.f32 %f1, [%rd8];
  ld.global.f32 %f2, [%rd9];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd10], %f3;
DONE:
  ret;
}
)";

}  // namespace warpsim::test
