// Test support: a small assist warp store (PTX) shared by the assist-warp tests.
#pragma once

namespace warpsim::timing::testing {

// add_k: every active lane adds live-in k to its word of the staged line.
// skip_odd: the lanes with odd ids branch around the add (a divergent routine).
// spin: never ends.
inline constexpr const char* kAssistStore = R"(
.version 7.0
.target sm_80
.address_size 64

.entry add_k(.param .u32 k)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<2>;
  .shared .align 4 .b8 line[128];
  ld.param.u32 %r1, [k];
  mov.u32 %r2, %tid.x;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, line;
  add.u32 %r3, %r3, %r4;
  ld.shared.u32 %r2, [%r3];
  add.u32 %r2, %r2, %r1;
  st.shared.u32 [%r3], %r2;
  exit;
}

.entry skip_odd()
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .shared .align 4 .b8 line[128];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, line;
  add.u32 %r3, %r3, %r4;
  st.shared.u32 [%r3], %r1;
DONE:
  exit;
}

.entry spin()
{
LOOP:
  bra LOOP;
}
)";

}  // namespace warpsim::timing::testing
