// Compiler pass "last-reads" (last_reads.h).
#include <algorithm>
#include <bit>

#include <nlohmann/json.hpp>

#include "timing/sm/decoded_program.h"
#include "timing/sm/last_reads.h"

namespace warpsim::timing {

namespace {

using Bits = std::vector<uint64_t>;

bool test(const Bits& b, uint32_t r) { return (b[r >> 6] >> (r & 63)) & 1u; }
void set(Bits& b, uint32_t r) { b[r >> 6] |= uint64_t{1} << (r & 63); }
void clear(Bits& b, uint32_t r) { b[r >> 6] &= ~(uint64_t{1} << (r & 63)); }

// Successors of each block, with the SIMT edges of the header comment added.
std::vector<std::vector<uint32_t>> simtSuccessors(const ir::Function& f) {
  const size_t nb = f.blocks.size();
  std::vector<std::vector<uint32_t>> succs(nb);
  for (size_t b = 0; b < nb; ++b) succs[b] = f.blocks[b].succs;
  std::vector<uint8_t> seen(nb);
  std::vector<uint32_t> stack;
  for (size_t b = 0; b < nb; ++b) {
    const ir::BasicBlock& branch = f.blocks[b];
    if (branch.succs.size() < 2) continue;
    std::fill(seen.begin(), seen.end(), 0);
    stack.assign(branch.succs.begin(), branch.succs.end());
    while (!stack.empty()) {
      const uint32_t x = stack.back();
      stack.pop_back();
      if (x == branch.ipdom || seen[x]) continue;
      seen[x] = 1;
      for (uint32_t s : branch.succs) {
        if (std::find(succs[x].begin(), succs[x].end(), s) == succs[x].end()) succs[x].push_back(s);
      }
      for (uint32_t s : f.blocks[x].succs) stack.push_back(s);
    }
  }
  return succs;
}

// Walks block `b` backwards from `live` (its live-out); fills the table when `table` is set.
void walkBlock(const ir::Function& f, const func::LinkedFunction& lf, uint32_t b, Bits& live,
               AnnotationTable<LastReads>* table, uint32_t function) {
  const ir::BasicBlock& blk = f.blocks[b];
  for (uint32_t pc = blk.last + 1; pc-- > blk.first;) {
    const func::LinkedInstr& li = lf.code[pc];
    const DecodedInstr d = decodeInstr(li);
    if (table) {
      uint8_t dead = 0;
      for (unsigned i = 0; i < d.numSrc; ++i)
        if (!test(live, d.src[i])) dead |= static_cast<uint8_t>(1u << i);
      table->at(function, pc).deadAfter = dead;
    }
    if (li.in.guard == ir::kNoReg) {
      for (unsigned i = 0; i < d.numDst; ++i) clear(live, d.dst[i]);
    }
    for (unsigned i = 0; i < d.numSrc; ++i) set(live, d.src[i]);
  }
}

void computeFunction(const ir::Function& f, const func::LinkedFunction& lf, uint32_t function,
                     AnnotationTable<LastReads>& table) {
  if (f.blocks.empty() || lf.code.empty()) return;
  const size_t words = (std::max<size_t>(lf.numRegs, f.regs.size()) + 63) / 64 + 1;
  const size_t nb = f.blocks.size();
  const std::vector<std::vector<uint32_t>> succs = simtSuccessors(f);
  std::vector<Bits> liveIn(nb, Bits(words, 0));
  Bits live(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      std::fill(live.begin(), live.end(), 0);
      for (uint32_t s : succs[b])
        for (size_t w = 0; w < words; ++w) live[w] |= liveIn[s][w];
      walkBlock(f, lf, static_cast<uint32_t>(b), live, nullptr, function);
      if (live != liveIn[b]) {
        liveIn[b] = live;
        changed = true;
      }
    }
  }
  for (size_t b = 0; b < nb; ++b) {
    std::fill(live.begin(), live.end(), 0);
    for (uint32_t s : succs[b])
      for (size_t w = 0; w < words; ++w) live[w] |= liveIn[s][w];
    walkBlock(f, lf, static_cast<uint32_t>(b), live, &table, function);
  }
}

class LastReadsPass final : public IIrPass {
 public:
  void run(const func::Program& program, uint32_t, nlohmann::json& stats,
           InstructionAnnotations& annotations) override {
    AnnotationTable<LastReads>& table = annotations.add<LastReads>(kLastReads);
    computeLastReads(program, table);
    uint64_t marked = 0;
    for (uint32_t f = 0; f < table.functions(); ++f)
      for (uint32_t pc = 0; pc < table.size(f); ++pc) marked += std::popcount(table.at(f, pc).deadAfter);
    stats["last_read_operands"] = marked;
  }
};

}  // namespace

void computeLastReads(const func::Program& program, AnnotationTable<LastReads>& table) {
  const ir::Module& m = program.module();
  for (uint32_t f = 0; f < table.functions() && f < m.functions.size(); ++f) {
    computeFunction(m.functions[f], program.function(f), f, table);
  }
}

std::unique_ptr<IIrPass> makeLastReadsPass() { return std::make_unique<LastReadsPass>(); }

}  // namespace warpsim::timing
