// ExecRecord::storeValues / storeImm: the data that st, red and atom write, register by register.
#include <gtest/gtest.h>

#include "func/testing/kernel_runner.h"

namespace warpsim::func {
namespace {

using testing::KernelRunner;
using testing::ptxModule;

// One store or atomic as the observer saw it; the lane values are copied because the record's
// pointers are only valid until the warp's next instruction.
struct StoreSeen {
  ir::Op op = ir::Op::Invalid;
  ir::Space space = ir::Space::None;
  uint32_t execMask = 0;
  unsigned numStoreRegs = 0;
  bool isImmediate[4] = {};
  uint64_t imm[4] = {};
  std::vector<uint64_t> lanes[4];
};

struct StoreCapture : ExecObserver {
  std::vector<StoreSeen> seen;
  void onExec(const ExecRecord& r) override {
    if (!r.isStore && !r.isAtomic) return;
    StoreSeen s;
    s.op = r.instr->op;
    s.space = r.space;
    s.execMask = r.execMask;
    s.numStoreRegs = r.numStoreRegs;
    for (unsigned k = 0; k < r.numStoreRegs; ++k) {
      s.isImmediate[k] = r.storeValues[k] == nullptr;
      s.imm[k] = r.storeImm[k];
      if (r.storeValues[k]) s.lanes[k].assign(r.storeValues[k], r.storeValues[k] + 32);
    }
    seen.push_back(std::move(s));
  }
};

const char* kStores = R"(
.visible .entry stores(.param .u64 p)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .local .align 8 .b8 loc[8];
  .shared .align 8 .b64 sh[32];
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  add.u32 %r2, %r1, 100;
  st.global.u32 [%rd3], %r2;
  st.local.v2.u32 [loc], {%r1, 7};
  mul.wide.u32 %rd4, %r1, 8;
  add.s64 %rd5, %rd4, 4294967296;
  mov.u32 %r3, sh;
  shl.b32 %r4, %r1, 3;
  add.u32 %r5, %r3, %r4;
  st.shared.u64 [%r5], %rd5;
  red.global.add.u32 [%rd1+128], 5;
  atom.global.cas.b32 %r6, [%rd1+132], %r1, 9;
  ret;
}
)";

TEST(StoreValues, RegistersAndImmediatesOfStoresAndAtomics) {
  KernelRunner r(ptxModule(kStores));
  uint64_t buf = r.upload(std::vector<uint32_t>(40, 0));
  StoreCapture cap;
  r.options.observer = &cap;
  LaunchResult res = r.launch("stores", {1, 1, 1}, {8, 1, 1}, {buf});
  ASSERT_TRUE(res.ok) << res.error;
  ASSERT_EQ(cap.seen.size(), 5u);

  const StoreSeen& global = cap.seen[0];
  EXPECT_EQ(global.space, ir::Space::Global);
  EXPECT_EQ(global.execMask, 0xFFu);
  ASSERT_EQ(global.numStoreRegs, 1u);
  ASSERT_FALSE(global.isImmediate[0]);
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(global.lanes[0][l], l + 100) << l;

  // {%r1, 7}: a register element and an immediate element.
  const StoreSeen& local = cap.seen[1];
  EXPECT_EQ(local.space, ir::Space::Local);
  ASSERT_EQ(local.numStoreRegs, 2u);
  ASSERT_FALSE(local.isImmediate[0]);
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(local.lanes[0][l], l) << l;
  EXPECT_TRUE(local.isImmediate[1]);
  EXPECT_EQ(local.imm[1], 7u);

  const StoreSeen& shared = cap.seen[2];
  EXPECT_EQ(shared.space, ir::Space::Shared);
  ASSERT_EQ(shared.numStoreRegs, 1u);
  ASSERT_FALSE(shared.isImmediate[0]);
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(shared.lanes[0][l], 0x100000000ull + 8 * l) << l;

  // red [a], 5: the immediate operand b.
  const StoreSeen& red = cap.seen[3];
  EXPECT_EQ(red.op, ir::Op::Red);
  ASSERT_EQ(red.numStoreRegs, 1u);
  EXPECT_TRUE(red.isImmediate[0]);
  EXPECT_EQ(red.imm[0], 5u);

  // atom.cas d, [a], b, c: b is %tid.x, c the immediate 9.
  const StoreSeen& cas = cap.seen[4];
  EXPECT_EQ(cas.op, ir::Op::Atom);
  ASSERT_EQ(cas.numStoreRegs, 2u);
  ASSERT_FALSE(cas.isImmediate[0]);
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(cas.lanes[0][l], l) << l;
  EXPECT_TRUE(cas.isImmediate[1]);
  EXPECT_EQ(cas.imm[1], 9u);

  // What the stores wrote agrees with the values recorded.
  std::vector<uint32_t> out = r.download<uint32_t>(buf, 34);
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(out[l], l + 100) << l;
  EXPECT_EQ(out[32], 40u);  // eight lanes added 5
  EXPECT_EQ(out[33], 9u);   // lane 0 matched the old value 0 and swapped in 9
}

}  // namespace
}  // namespace warpsim::func
