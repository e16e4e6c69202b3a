// ValueSimilarityProfiler on hand-made records: register widths, masks, local and generic
// stores, immediates, and what is not counted.
#include "profile/value_similarity_profiler.h"

#include <gtest/gtest.h>

namespace warpsim::profile {
namespace {

constexpr uint32_t kAll = 0xFFFFFFFFu;

// Lane values of one register, kept alive while records point at them.
struct Lanes {
  uint64_t v[32] = {};
};

// An instruction with destination register `reg` of `bits` bits.
ir::Instr writing(uint32_t reg, uint8_t bits) {
  ir::Instr in;
  in.op = ir::Op::Add;
  in.numDst = 1;
  in.ops[0].kind = ir::OperandKind::Reg;
  in.ops[0].reg = reg;
  in.ops[0].regBits = bits;
  return in;
}

func::ExecRecord registerWrite(const ir::Instr& in, const Lanes& lanes, uint32_t mask) {
  func::ExecRecord r;
  r.instr = &in;
  r.issueMask = r.execMask = mask;
  r.numDstRegs = 1;
  r.dstRegs[0] = in.ops[0].reg;
  r.dstValues[0] = lanes.v;
  return r;
}

// A st of `elements` elements of `elemBytes` bytes; storeValues[k] nullptr for immediates.
func::ExecRecord store(ir::Space space, unsigned elemBytes,
                       std::initializer_list<const Lanes*> data, uint32_t mask) {
  func::ExecRecord r;
  r.issueMask = r.execMask = mask;
  r.isStore = true;
  r.space = space;
  r.numStoreRegs = static_cast<uint8_t>(data.size());
  r.accessBytes = static_cast<uint8_t>(elemBytes * data.size());
  unsigned k = 0;
  for (const Lanes* d : data) {
    r.storeValues[k] = d != nullptr ? d->v : nullptr;
    r.storeImm[k] = 7;
    ++k;
  }
  for (unsigned lane = 0; lane < 32; ++lane) r.laneSpace[lane] = space;
  return r;
}

SimilarityCounts counts(std::initializer_list<std::pair<WordClass, uint64_t>> nonDivergent,
                        std::initializer_list<std::pair<WordClass, uint64_t>> divergent = {}) {
  SimilarityCounts c;
  for (auto [cls, n] : nonDivergent) c.nonDivergent[static_cast<size_t>(cls)] = n;
  for (auto [cls, n] : divergent) c.divergent[static_cast<size_t>(cls)] = n;
  return c;
}

TEST(ValueSimilarityProfiler, SixtyFourBitPointerIsAffineLowWordAndUniformHighWord) {
  Lanes pointer;
  for (unsigned l = 0; l < 32; ++l) pointer.v[l] = 0x00007F0000001000ull + 8 * l;
  const ir::Instr add = writing(3, 64);
  ValueSimilarityProfiler p;
  p.onExec(registerWrite(add, pointer, kAll));
  EXPECT_EQ(p.stats().registerWrites, counts({{WordClass::Affine, 1}, {WordClass::Uniform, 1}}));
  EXPECT_EQ(p.stats().localStores.total(), 0u);

  // The same lanes in a 32-bit register: one word, the low one.
  const ir::Instr narrow = writing(4, 32);
  ValueSimilarityProfiler q;
  q.onExec(registerWrite(narrow, pointer, kAll));
  EXPECT_EQ(q.stats().registerWrites, counts({{WordClass::Affine, 1}}));
}

TEST(ValueSimilarityProfiler, DivergentWritesCountApart) {
  Lanes constant, tid;
  for (unsigned l = 0; l < 32; ++l) {
    constant.v[l] = l < 16 ? 5 : 0x1234;  // lanes 16..31 kept an older value
    tid.v[l] = l;
  }
  const ir::Instr mov = writing(1, 32);
  ValueSimilarityProfiler p;
  p.onExec(registerWrite(mov, constant, 0x0000FFFFu));
  p.onExec(registerWrite(mov, tid, kAll));
  p.onExec(registerWrite(mov, tid, 0x000000F0u));
  EXPECT_EQ(p.stats().registerWrites,
            counts({{WordClass::Affine, 1}}, {{WordClass::Uniform, 1}, {WordClass::Affine, 1}}));
}

TEST(ValueSimilarityProfiler, PredicateWritesAndEmptyMasksCountNothing) {
  func::ExecRecord setp;
  setp.issueMask = setp.execMask = kAll;
  setp.writesPred = true;
  Lanes tid;
  for (unsigned l = 0; l < 32; ++l) tid.v[l] = l;
  const ir::Instr mov = writing(1, 32);
  ValueSimilarityProfiler p;
  p.onExec(setp);
  p.onExec(registerWrite(mov, tid, 0));  // guard false in every lane
  EXPECT_EQ(p.stats(), ValueSimilarityStats{});
}

TEST(ValueSimilarityProfiler, LocalStoresWithRegistersAndImmediates) {
  Lanes tid, wide, bytes;
  for (unsigned l = 0; l < 32; ++l) {
    tid.v[l] = l;
    wide.v[l] = (uint64_t{(l * l) & 0xFFu} << 32) | 0xABCDEF00u;  // high word: msb3
    bytes.v[l] = 0x100 * l + 9;  // st.u8 keeps the low byte: 9 in every lane
  }
  ValueSimilarityProfiler p;
  p.onExec(store(ir::Space::Local, 4, {&tid, nullptr}, kAll));  // st.local.v2.u32 {tid, 7}
  p.onExec(store(ir::Space::Local, 8, {&wide}, kAll));          // st.local.u64
  p.onExec(store(ir::Space::Local, 1, {&bytes}, 0x0F0F0F0Fu));  // st.local.u8, divergent
  p.onExec(store(ir::Space::Global, 4, {&tid}, kAll));          // not local
  func::ExecRecord atom = store(ir::Space::Local, 4, {&tid}, kAll);
  atom.isStore = false;
  atom.isAtomic = true;
  p.onExec(atom);
  EXPECT_EQ(p.stats().localStores,
            counts({{WordClass::Affine, 1}, {WordClass::Uniform, 2}, {WordClass::Msb3, 1}},
                   {{WordClass::Uniform, 1}}));
  EXPECT_EQ(p.stats().registerWrites.total(), 0u);
}

TEST(ValueSimilarityProfiler, GenericStoresCountTheLanesThatResolvedToLocal) {
  Lanes values;
  for (unsigned l = 0; l < 32; ++l) values.v[l] = l % 2 == 0 ? 100 + l : 0xFFFFFFFFu;
  func::ExecRecord st = store(ir::Space::Generic, 4, {&values}, kAll);
  for (unsigned l = 0; l < 32; ++l) {
    st.laneSpace[l] = l % 2 == 0 ? ir::Space::Local : ir::Space::Global;
  }
  ValueSimilarityProfiler p;
  p.onExec(st);  // even lanes: 100 + lane, affine under a divergent mask
  for (unsigned l = 0; l < 32; ++l) st.laneSpace[l] = ir::Space::Local;
  p.onExec(st);  // all lanes local: the odd lanes' 0xFFFFFFFF makes it random
  for (unsigned l = 0; l < 32; ++l) st.laneSpace[l] = ir::Space::Shared;
  p.onExec(st);  // none local
  EXPECT_EQ(p.stats().localStores,
            counts({{WordClass::Random, 1}}, {{WordClass::Affine, 1}}));
}

TEST(ValueSimilarityProfiler, StatsAdd) {
  ValueSimilarityStats a, b;
  a.registerWrites.nonDivergent[0] = 3;
  a.localStores.divergent[5] = 1;
  b.registerWrites.nonDivergent[0] = 4;
  b.registerWrites.divergent[1] = 2;
  a += b;
  EXPECT_EQ(a.registerWrites.nonDivergent[0], 7u);
  EXPECT_EQ(a.registerWrites.divergent[1], 2u);
  EXPECT_EQ(a.localStores.divergent[5], 1u);
  EXPECT_EQ(a.registerWrites.total(), 9u);
  EXPECT_EQ(a.registerWrites.of(WordClass::Affine, true), 2u);
}

}  // namespace
}  // namespace warpsim::profile
