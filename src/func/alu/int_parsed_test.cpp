// The integer executors against the PTX front end's output: every integer instruction of the
// bundled nvcc-generated PTX binds, and a parsed straight-line kernel computes exact values.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "func/alu/alu.h"
#include "ptx/parser.h"

namespace warpsim::func {
namespace {

std::filesystem::path ptxTestData() {
  // This file is src/func/alu/int_parsed_test.cpp; the PTX corpus is src/ptx/testdata.
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "ptx" /
         "testdata";
}

TEST(IntAluOnParsedPtx, EveryClaimedInstructionOfBundledPtxBinds) {
  unsigned files = 0, bound = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ptxTestData())) {
    if (entry.path().extension() != ".ptx") continue;
    ++files;
    ir::Module m = ptx::parseFile(entry.path().string());
    for (const ir::Function& f : m.functions) {
      for (const ir::Instr& in : f.code) {
        std::string err;
        ExecFn fn = bindIntAlu(in, &err);
        EXPECT_TRUE(fn != nullptr || err.empty())
            << entry.path().filename().string() << ":" << in.line << ": " << err;
        if (fn != nullptr) ++bound;
      }
    }
  }
  EXPECT_GT(files, 0u);
  EXPECT_GT(bound, 100u);
}

// Runs a parsed function's straight-line code (no branches or memory) on one warp.
class ParsedKernel {
 public:
  explicit ParsedKernel(const std::string& body) {
    std::string text =
        ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n" + body + "}\n";
    module_ = ptx::parseModule(text, "int_parsed_test");
    fn_ = &module_.functions.at(0);
    regs_.assign(fn_->regs.size() * kWarpSize, 0);
    preds_.assign(fn_->preds.size() + 1, 0);
    for (const ir::ConstReg& c : fn_->constRegs) {
      for (unsigned l = 0; l < kWarpSize; ++l) regs_[c.reg * kWarpSize + l] = static_cast<uint64_t>(c.value);
    }
  }

  void run(uint32_t mask = kFullMask) {
    for (const ir::Instr& in : fn_->code) {
      if (in.op == ir::Op::Ret || in.op == ir::Op::Exit) break;
      std::string err;
      ExecFn fn = bindIntAlu(in, &err);
      ASSERT_NE(fn, nullptr) << "line " << in.line << ": " << err;
      ExecCtx ctx;
      ctx.regs = regs_.data();
      ctx.preds = preds_.data();
      ctx.carry = carry_;
      uint32_t exec = mask;
      if (in.guard != ir::kNoReg) exec &= in.guardNegate ? ~preds_[in.guard] : preds_[in.guard];
      ctx.mask = exec;
      fn(in, ctx);
      carry_ = ctx.carry;
    }
  }

  uint64_t reg(const std::string& name, unsigned lane = 0) const {
    for (size_t r = 0; r < fn_->regs.size(); ++r) {
      if (fn_->regs[r].name == name) return regs_[r * kWarpSize + lane];
    }
    ADD_FAILURE() << "no register " << name;
    return 0;
  }
  bool pred(const std::string& name, unsigned lane = 0) const {
    for (size_t p = 0; p < fn_->preds.size(); ++p) {
      if (fn_->preds[p] == name) return (preds_[p] >> lane) & 1u;
    }
    ADD_FAILURE() << "no predicate " << name;
    return false;
  }

 private:
  ir::Module module_;
  const ir::Function* fn_ = nullptr;
  std::vector<uint64_t> regs_;
  std::vector<uint32_t> preds_;
  uint32_t carry_ = 0;
};

TEST(IntAluOnParsedPtx, StraightLineIntegerKernel) {
  ParsedKernel k(R"(
  .reg .pred %p<4>;
  .reg .b16 %rs<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, -7;
  mov.u32 %r2, 3;
  div.s32 %r3, %r1, %r2;
  rem.s32 %r4, %r1, %r2;
  mul.wide.s32 %rd1, %r1, %r2;
  mad.lo.s32 %r5, %r1, %r2, 100;
  shl.b32 %r6, %r2, 33;
  shr.s32 %r7, %r1, 1;
  setp.lt.s32 %p1|%p2, %r1, %r2;
  selp.b32 %r8, 11, 22, %p2;
  and.pred %p3, %p1, %p2;
  mov.b64 %rd2, {%r2, %r1};
  mov.b64 {%r9, %r10}, %rd2;
  add.cc.u32 %r11, %r1, %r2;
  addc.u32 %r12, 0, 0;
  prmt.b32 %r13, %r1, %r2, 0x3210;
  bfe.s32 %r14, %r1, 1, 3;
  lop3.b32 %r15, %r1, %r2, %r4, 0x96;
  mov.b32 %r16, 0x00020001;
  mov.b32 {%rs1, %rs2}, %r16;
  @%p1 add.s32 %r17, %r2, 1;
  @!%p1 add.s32 %r18, %r2, 1;
  popc.b64 %r19, %rd2;
  ret;
)");
  k.run();
  EXPECT_EQ(k.reg("%r3"), 0xFFFFFFFEu);            // -7 / 3 = -2
  EXPECT_EQ(k.reg("%r4"), 0xFFFFFFFFu);            // -7 % 3 = -1
  EXPECT_EQ(k.reg("%rd1"), 0xFFFFFFFFFFFFFFEBull); // -21
  EXPECT_EQ(k.reg("%r5"), 79u);                    // -21 + 100
  EXPECT_EQ(k.reg("%r6"), 0u);                     // shift beyond width
  EXPECT_EQ(k.reg("%r7"), 0xFFFFFFFCu);            // -7 >> 1 = -4
  EXPECT_TRUE(k.pred("%p1"));
  EXPECT_FALSE(k.pred("%p2"));
  EXPECT_EQ(k.reg("%r8"), 22u);
  EXPECT_FALSE(k.pred("%p3"));
  EXPECT_EQ(k.reg("%rd2"), 0xFFFFFFF900000003ull);
  EXPECT_EQ(k.reg("%r9"), 3u);
  EXPECT_EQ(k.reg("%r10"), 0xFFFFFFF9u);
  EXPECT_EQ(k.reg("%r11"), 0xFFFFFFFCu);           // -7 + 3, no carry out
  EXPECT_EQ(k.reg("%r12"), 0u);
  EXPECT_EQ(k.reg("%r13"), 0xFFFFFFF9u);
  EXPECT_EQ(k.reg("%r14"), 0xFFFFFFFCu);           // bits 3..1 of ...11001 = 100 -> -4
  EXPECT_EQ(k.reg("%r15"), (0xFFFFFFF9u ^ 3u ^ 0xFFFFFFFFu));
  EXPECT_EQ(k.reg("%rs1"), 1u);
  EXPECT_EQ(k.reg("%rs2"), 2u);
  EXPECT_EQ(k.reg("%r17"), 4u);
  EXPECT_EQ(k.reg("%r18"), 0u);
  EXPECT_EQ(k.reg("%r19"), 2u + 30u);
}

// bmsk as CUB and Thrust emit it (bit-field masks for radix digits).
TEST(IntAluOnParsedPtx, BitMasks) {
  ParsedKernel k(R"(
  .reg .b32 %r<8>;
  mov.u32 %r1, 4;
  mov.u32 %r2, 40;
  bmsk.clamp.b32 %r3, %r1, 8;
  bmsk.wrap.b32 %r4, 1, 2;
  bmsk.clamp.b32 %r5, %r1, %r2;
  bmsk.wrap.b32 %r6, %r1, %r2;
  bmsk.clamp.b32 %r7, %r2, %r1;
  ret;
)");
  k.run();
  EXPECT_EQ(k.reg("%r3"), 0xFF0u);
  EXPECT_EQ(k.reg("%r4"), 0x6u);
  EXPECT_EQ(k.reg("%r5"), 0xFFFFFFF0u);  // width 40 clamps: to the top
  EXPECT_EQ(k.reg("%r6"), 0xFF0u);       // width 40 wraps to 8
  EXPECT_EQ(k.reg("%r7"), 0u);           // start 40 clamps: empty
}

}  // namespace
}  // namespace warpsim::func
