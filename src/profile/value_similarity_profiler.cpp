#include "profile/value_similarity_profiler.h"

#include <bit>

#include "func/exec_context.h"

namespace warpsim::profile {

namespace {

// Whether destination register `reg` of `in` is declared 64 bits wide (two 32-bit registers
// of the register file). Unknown registers count as one word.
bool isWide(const ir::Instr* in, uint32_t reg) {
  if (in == nullptr) return false;
  for (unsigned k = 0; k < in->numDst && k < ir::kMaxOperands; ++k) {
    const ir::Operand& op = in->ops[k];
    if (op.kind == ir::OperandKind::Reg && op.reg == reg) return op.regBits == 64;
    if (op.kind == ir::OperandKind::Vector) {
      for (unsigned e = 0; e < op.count && e < 4; ++e) {
        if (op.vec[e] == reg) return op.regBits == 64;
      }
    }
  }
  return false;
}

std::array<uint64_t, kNumWordClasses>& row(SimilarityCounts& c, uint32_t lanes) {
  return lanes == func::kFullMask ? c.nonDivergent : c.divergent;
}

// Counts one word per lane: bits [shift, shift + 32) of values[lane] & keep, over `lanes`.
void countWord(SimilarityCounts& c, const uint64_t* values, unsigned shift, uint64_t keep,
               uint32_t lanes) {
  uint32_t words[32];
  for (unsigned lane = 0; lane < 32; ++lane) {
    words[lane] = static_cast<uint32_t>((values[lane] & keep) >> shift);
  }
  ++row(c, lanes)[static_cast<size_t>(classifyWords(words, lanes))];
}

}  // namespace

uint64_t SimilarityCounts::total() const {
  uint64_t n = 0;
  for (size_t c = 0; c < kNumWordClasses; ++c) n += nonDivergent[c] + divergent[c];
  return n;
}

SimilarityCounts& SimilarityCounts::operator+=(const SimilarityCounts& other) {
  for (size_t c = 0; c < kNumWordClasses; ++c) {
    nonDivergent[c] += other.nonDivergent[c];
    divergent[c] += other.divergent[c];
  }
  return *this;
}

ValueSimilarityStats& ValueSimilarityStats::operator+=(const ValueSimilarityStats& other) {
  registerWrites += other.registerWrites;
  localStores += other.localStores;
  spillStores += other.spillStores;
  return *this;
}

void ValueSimilarityProfiler::onExec(const func::ExecRecord& r) {
  if (r.execMask == 0) return;  // nothing was written
  if (r.numDstRegs != 0) countRegisterWrites(r);
  if (r.isStore && !r.isAtomic && r.numStoreRegs != 0) countLocalStores(r);
}

void ValueSimilarityProfiler::countRegisterWrites(const func::ExecRecord& r) {
  for (unsigned i = 0; i < r.numDstRegs; ++i) {
    const uint64_t* values = r.dstValues[i];
    countWord(stats_.registerWrites, values, 0, ~uint64_t{0}, r.execMask);
    if (isWide(r.instr, r.dstRegs[i])) {
      countWord(stats_.registerWrites, values, 32, ~uint64_t{0}, r.execMask);
    }
  }
}

void ValueSimilarityProfiler::countLocalStores(const func::ExecRecord& r) {
  uint32_t lanes = 0;
  if (r.space == ir::Space::Local) {
    lanes = r.execMask;
  } else if (r.space == ir::Space::Generic) {
    for (uint32_t m = r.execMask; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      if (r.laneSpace[lane] == ir::Space::Local) lanes |= 1u << lane;
    }
  }
  if (lanes == 0) return;
  countStoreData(r, lanes, stats_.localStores);
  if (r.instr != nullptr && r.instr->has(ir::kSpill)) countStoreData(r, lanes, stats_.spillStores);
}

void ValueSimilarityProfiler::countStoreData(const func::ExecRecord& r, uint32_t lanes,
                                             SimilarityCounts& counts) {
  const unsigned elemBytes = r.accessBytes / r.numStoreRegs;
  const unsigned words = elemBytes > 4 ? 2 : 1;
  const uint64_t keep = elemBytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * elemBytes)) - 1;
  for (unsigned k = 0; k < r.numStoreRegs; ++k) {
    if (r.storeValues[k] == nullptr) {  // an immediate: the same word in every lane
      row(counts, lanes)[static_cast<size_t>(WordClass::Uniform)] += words;
      continue;
    }
    countWord(counts, r.storeValues[k], 0, keep, lanes);
    if (words == 2) countWord(counts, r.storeValues[k], 32, keep, lanes);
  }
}

}  // namespace warpsim::profile
