// A kernel exactly as nvcc emits it, through parser, linker and engine.
#include <gtest/gtest.h>
#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {
using testing::KernelRunner;

TEST(EndToEnd, VectorAddAsEmittedByNvcc) {
  std::string text = R"(
.version 9.0
.target sm_80
.address_size 64
.visible .entry vector_add(
	.param .u64 vector_add_param_0,
	.param .u64 vector_add_param_1,
	.param .u64 vector_add_param_2,
	.param .u32 vector_add_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<11>;
	ld.param.u64 	%rd1, [vector_add_param_0];
	ld.param.u64 	%rd2, [vector_add_param_1];
	ld.param.u64 	%rd3, [vector_add_param_2];
	ld.param.u32 	%r2, [vector_add_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	cvta.to.global.u64 	%rd7, %rd2;
	add.s64 	%rd8, %rd7, %rd5;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd6];
	add.f32 	%f3, %f2, %f1;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd10, %rd9, %rd5;
	st.global.f32 	[%rd10], %f3;
$L__BB0_2:
	ret;
}
)";
  KernelRunner r(text);
  const int n = 1000;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) { a[i] = i; b[i] = 2 * i; }
  uint64_t da = r.upload(a), db = r.upload(b), dc = r.upload(std::vector<float>(n));
  LaunchResult res = r.launch("vector_add", {4, 1, 1}, {256, 1, 1}, {da, db, dc, n});
  ASSERT_TRUE(res.ok) << res.error;
  auto c = r.download<float>(dc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], 3.0f * i) << i;
}

}  // namespace
}  // namespace warpsim::func
