#include "timing/sm/decoded_program.h"

#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::timing {
namespace {

const char* kMix = R"(
.visible .entry mix(.param .u64 p)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[64];
  ld.param.u64 %rd1, [p];
  add.f32 %f1, %f2, %f3;
  sin.approx.f32 %f1, %f2;
  add.f64 %fd1, %fd2, %fd3;
  ld.global.v2.u32 {%r1, %r2}, [%rd1];
  ld.shared.u32 %r3, [s];
  st.global.u32 [%rd1], %r3;
  setp.lt.u32 %p1, %r1, %r1;
  @%p1 bra DONE;
  membar.gl;
  bar.sync 0;
DONE:
  ret;
}
)";

TEST(DecodedProgram, UnitsRegistersAndFlags) {
  func::testing::KernelRunner k(func::testing::ptxModule(kMix));
  DecodedProgram d;
  d.build(k.program(), 8, 128);
  using F = DecodedInstr;
  EXPECT_EQ(d.at(0, 0).unit, UnitClass::Lsu);
  EXPECT_TRUE(d.at(0, 0).has(F::kLongLatency));
  EXPECT_EQ(d.at(0, 1).unit, UnitClass::Alu);
  EXPECT_EQ(d.at(0, 1).numSrc, 2);
  EXPECT_EQ(d.at(0, 1).numDst, 1);
  EXPECT_EQ(d.at(0, 2).unit, UnitClass::Sfu);
  EXPECT_EQ(d.at(0, 3).unit, UnitClass::Fp64);
  EXPECT_EQ(d.at(0, 4).numDst, 2);   // both vector elements
  EXPECT_TRUE(d.at(0, 4).has(F::kMemory));
  EXPECT_FALSE(d.at(0, 5).has(F::kLongLatency));  // shared
  EXPECT_TRUE(d.at(0, 6).has(F::kStore));
  EXPECT_EQ(d.at(0, 7).numSrc, 1);   // %r1 twice is one read
  EXPECT_EQ(d.at(0, 7).numPredDst, 1);
  EXPECT_EQ(d.at(0, 8).numPredSrc, 1);  // the guard
  EXPECT_TRUE(d.at(0, 8).has(F::kControl));
  EXPECT_TRUE(d.at(0, 9).has(F::kFence));
  EXPECT_TRUE(d.at(0, 10).has(F::kBarrier));
  EXPECT_TRUE(d.at(0, 11).has(F::kDrain));
  EXPECT_EQ(d.base(0), 0u);
  EXPECT_GE(d.maxPreds(), 3u);
}

TEST(DecodedProgram, FunctionsStartOnTheirOwnCacheLine) {
  func::testing::KernelRunner k(func::testing::ptxModule(R"(
.func f()
{
  ret;
}
.visible .entry main()
{
  call f;
  ret;
}
)"));
  DecodedProgram d;
  d.build(k.program(), 8, 128);
  ASSERT_EQ(k.program().module().functions.size(), 2u);
  EXPECT_EQ(d.base(0), 0u);
  EXPECT_EQ(d.base(1), 128u);
  EXPECT_TRUE(d.at(1, 0).has(DecodedInstr::kDrain));
}

}  // namespace
}  // namespace warpsim::timing
