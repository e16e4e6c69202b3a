// Tests for abs, neg, min, max and copysign on f32 and f64.
#include <cmath>

#include "func/alu/float_test_support.h"

namespace warpsim::func::testing {
namespace {

using ir::Op;
using ir::Type;

constexpr uint32_t kQNaN = 0x7FC00001u;

uint32_t f32(Op op, std::initializer_list<uint64_t> srcs, uint32_t flags = 0) {
  return static_cast<uint32_t>(run1(op, Type::F32, srcs, {.flags = flags}));
}

TEST(FloatMinMax, NaNOperandsLoseToNumbers) {
  EXPECT_EQ(f32(Op::Min, {kQNaN, f2b(3.0f)}), f2b(3.0f));
  EXPECT_EQ(f32(Op::Min, {f2b(3.0f), kQNaN}), f2b(3.0f));
  EXPECT_EQ(f32(Op::Max, {kQNaN, f2b(-3.0f)}), f2b(-3.0f));
  EXPECT_EQ(f32(Op::Max, {kQNaN, 0xFFC00002u}), 0x7FFFFFFFu);  // two NaNs: canonical NaN
  EXPECT_EQ(run1(Op::Min, Type::F64, {0x7FF8000000000001ull, d2b(2.0)}), d2b(2.0));
  EXPECT_EQ(run1(Op::Max, Type::F64, {0x7FF8000000000001ull, 0x7FF8000000000002ull}),
            0x7FF8000000000001ull);
}

TEST(FloatMinMax, SignedZerosAndOrdering) {
  EXPECT_EQ(f32(Op::Min, {f2b(0.0f), f2b(-0.0f)}), 0x80000000u);
  EXPECT_EQ(f32(Op::Min, {f2b(-0.0f), f2b(0.0f)}), 0x80000000u);
  EXPECT_EQ(f32(Op::Max, {f2b(-0.0f), f2b(0.0f)}), 0u);
  EXPECT_EQ(f32(Op::Max, {f2b(0.0f), f2b(-0.0f)}), 0u);
  EXPECT_EQ(f32(Op::Min, {f2b(-INFINITY), f2b(1.0f)}), f2b(-INFINITY));
  EXPECT_EQ(f32(Op::Max, {f2b(-1.0f), f2b(-2.0f)}), f2b(-1.0f));
  EXPECT_EQ(run1(Op::Min, Type::F64, {d2b(-0.0), d2b(0.0)}), d2b(-0.0));
  EXPECT_EQ(run1(Op::Max, Type::F64, {d2b(5.0), d2b(7.0)}), d2b(7.0));
}

TEST(FloatMinMax, FtzAndThreeInputs) {
  const uint32_t sub = 0x00000010u;
  EXPECT_EQ(f32(Op::Max, {sub, f2b(0.0f)}), sub);
  EXPECT_EQ(f32(Op::Max, {sub, f2b(-0.0f)}, ir::kFtz), 0u);  // both zeros after flushing
  EXPECT_EQ(f32(Op::Min, {0x80000010u, f2b(0.0f)}, ir::kFtz), 0x80000000u);
  EXPECT_EQ(f32(Op::Min, {f2b(3.0f), f2b(2.0f), f2b(5.0f)}), f2b(2.0f));
  EXPECT_EQ(f32(Op::Max, {kQNaN, kQNaN, f2b(5.0f)}), f2b(5.0f));
}

TEST(FloatMinMax, AbsNegCopysign) {
  EXPECT_EQ(f32(Op::Abs, {f2b(-2.5f)}), f2b(2.5f));
  EXPECT_EQ(f32(Op::Abs, {f2b(-0.0f)}), 0u);
  EXPECT_EQ(f32(Op::Neg, {f2b(0.0f)}), 0x80000000u);
  EXPECT_EQ(f32(Op::Neg, {f2b(-INFINITY)}), f2b(INFINITY));
  EXPECT_EQ(f32(Op::Neg, {0x00000003u}), 0x80000003u);
  EXPECT_EQ(f32(Op::Neg, {0x00000003u}, ir::kFtz), 0x80000000u);
  EXPECT_EQ(f32(Op::Abs, {0xFFC00001u}), 0x7FFFFFFFu);  // f32 NaN: canonical
  EXPECT_EQ(run1(Op::Abs, Type::F64, {0xFFF8000000000009ull}),
            0xFFF8000000000009ull);  // f64 NaN: unchanged
  EXPECT_EQ(run1(Op::Neg, Type::F64, {0x7FF0000000000009ull}), 0x7FF0000000000009ull);
  EXPECT_EQ(run1(Op::Neg, Type::F64, {d2b(1.5)}), d2b(-1.5));
  EXPECT_EQ(run1(Op::Abs, Type::F64, {d2b(-1.5)}), d2b(1.5));
  // copysign d, a, b: sign of a, magnitude of b.
  EXPECT_EQ(f32(Op::Copysign, {f2b(-1.0f), f2b(3.0f)}), f2b(-3.0f));
  EXPECT_EQ(f32(Op::Copysign, {f2b(1.0f), f2b(-3.0f)}), f2b(3.0f));
  EXPECT_EQ(run1(Op::Copysign, Type::F64, {d2b(-0.0), d2b(2.0)}), d2b(-2.0));
}

TEST(FloatMinMax, BindErrors) {
  EXPECT_NE(bindErr(Op::Abs, Type::F64, 1, {.flags = ir::kFtz}), "");
  EXPECT_NE(bindErr(Op::Min, Type::F64, 3), "");
  EXPECT_NE(bindErr(Op::Neg, Type::F32, 1, {.round = ir::Round::Rn}), "");
  EXPECT_NE(bindErr(Op::Copysign, Type::F32, 2, {.flags = ir::kFtz}), "");
}

}  // namespace
}  // namespace warpsim::func::testing
