#include "mech/orf_lrf/allocation.h"

#include <algorithm>
#include <queue>

#include "mech/orf_lrf/divergent_arms.h"
#include "mech/orf_lrf/dominance.h"
#include "mech/orf_lrf/entry_intervals.h"

namespace warpsim::mech::orf_lrf {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

using Bits = std::vector<uint64_t>;
bool test(const Bits& b, size_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }
void set(Bits& b, size_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }
void reset(Bits& b, size_t i) { b[i >> 6] &= ~(uint64_t{1} << (i & 63)); }

bool privateUnit(timing::UnitClass u) { return u == timing::UnitClass::Alu || u == timing::UnitClass::Fp64; }

struct Read {
  uint32_t pc;
  uint8_t operand;
};

struct Def {
  uint32_t pc, reg;
  uint8_t operand, words;
  bool guarded;
  bool liveOut = false;          // some read of it cannot use an upper level
  bool partial = false;          // gave up reads to fit
  std::vector<Read> reads;       // reads that can use an upper level, in pc order
};

struct Candidate {
  double priority = 0;
  uint32_t start = 0, index = 0;  // index into defs (write) or groups (read operand)
  bool readOperand = false;
  bool operator<(const Candidate& o) const {  // max-heap: higher priority, then earlier, first
    if (priority != o.priority) return priority < o.priority;
    if (start != o.start) return start > o.start;
    if (readOperand != o.readOperand) return readOperand;
    return index > o.index;
  }
};

struct ReadGroup {
  uint32_t reg;
  uint8_t words;
  Read first;
  std::vector<Read> later;       // reads served from the ORF after the deposit, in pc order
};

class FunctionAllocator {
 public:
  FunctionAllocator(const FunctionCode& f, const Strands& s, const OrfParams& p, OperandPlacement* out,
                    AllocationCounts& c)
      : f_(f), s_(s), p_(p), out_(out), c_(c), dom_(*f.ir), arms_(f, s) {}

  void run() {
    collectDefsAndReads();
    const size_t strands = s_.start.size();
    for (size_t k = 0; k < strands; ++k) allocateStrand(static_cast<uint32_t>(k));
    for (size_t k = 0; k < strands; ++k) out_[s_.start[k]].strandStart = true;
  }

 private:
  uint32_t strandEnd(uint32_t k) const {
    return k + 1 < s_.start.size() ? s_.start[k + 1] : static_cast<uint32_t>(f_.code.size());
  }

  // Reaching definitions (with one entry pseudo-definition per register) tie each read to the
  // definitions that may have produced its value.
  void collectDefsAndReads() {
    const ir::Function& fn = *f_.ir;
    const size_t n = f_.code.size();
    defAt_.assign(n * 4, kNone);
    uint32_t regs = static_cast<uint32_t>(fn.regs.size());
    for (uint32_t pc = 0; pc < n; ++pc) {
      const timing::DecodedInstr& d = f_.code[pc];
      for (unsigned j = 0; j < d.numDst; ++j) {
        regs = std::max(regs, d.dst[j] + 1);
        defAt_[pc * 4 + j] = static_cast<uint32_t>(defs_.size());
        defs_.push_back(Def{pc, d.dst[j], static_cast<uint8_t>(j), static_cast<uint8_t>((d.dstWide >> j & 1u) + 1),
                            f_.guarded[pc] != 0});
      }
      for (unsigned i = 0; i < d.numSrc; ++i) regs = std::max(regs, d.src[i] + 1);
    }
    const size_t nd = defs_.size(), total = nd + regs, words = (total + 63) / 64 + 1;
    std::vector<std::vector<uint32_t>> defsOf(regs);
    for (uint32_t i = 0; i < nd; ++i) defsOf[defs_[i].reg].push_back(i);
    auto apply = [&](Bits& cur, uint32_t pc) {
      const timing::DecodedInstr& d = f_.code[pc];
      for (unsigned j = 0; j < d.numDst; ++j) {
        const uint32_t id = defAt_[pc * 4 + j], r = d.dst[j];
        if (!f_.guarded[pc]) {
          for (uint32_t o : defsOf[r]) reset(cur, o);
          reset(cur, nd + r);
        }
        set(cur, id);
      }
    };
    const size_t nb = fn.blocks.size();
    std::vector<Bits> in(nb, Bits(words, 0)), out(nb, Bits(words, 0));
    if (nb > 0)
      for (uint32_t r = 0; r < regs; ++r) set(in[0], nd + r);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 0; b < nb; ++b) {
        Bits cur = b == 0 ? in[0] : Bits(words, 0);
        for (uint32_t p : fn.blocks[b].preds)
          for (size_t w = 0; w < words; ++w) cur[w] |= out[p][w];
        if (b == 0)
          for (uint32_t r = 0; r < regs; ++r) set(cur, nd + r);
        in[b] = cur;
        for (uint32_t pc = fn.blocks[b].first; pc <= fn.blocks[b].last; ++pc) apply(cur, pc);
        if (cur != out[b]) {
          out[b] = std::move(cur);
          changed = true;
        }
      }
    }
    reaching_.assign(n * 6, {});
    for (size_t b = 0; b < nb; ++b) {
      Bits cur = in[b];
      for (uint32_t pc = fn.blocks[b].first; pc <= fn.blocks[b].last; ++pc) {
        const timing::DecodedInstr& d = f_.code[pc];
        for (unsigned i = 0; i < d.numSrc; ++i) {
          const uint32_t r = d.src[i];
          std::vector<uint32_t>& rd = reaching_[pc * 6 + i];
          for (uint32_t o : defsOf[r])
            if (test(cur, o)) rd.push_back(o);
          if (test(cur, nd + r)) rd.push_back(kNone);  // the value from before the function
          ++c_.reads;
          classifyRead(pc, static_cast<uint8_t>(i), rd);
        }
        apply(cur, pc);
      }
    }
    for (Def& d : defs_) std::sort(d.reads.begin(), d.reads.end(), [](const Read& a, const Read& b) { return a.pc < b.pc; });
  }

  void classifyRead(uint32_t pc, uint8_t operand, const std::vector<uint32_t>& rd) {
    if (rd.size() == 1 && rd[0] != kNone) {
      Def& d = defs_[rd[0]];
      const bool sameStrand = s_.strandOf[d.pc] == s_.strandOf[pc];
      const bool reach = p_.forwardBranches ? dom_.dominates(d.pc, pc) && !arms_.startBetween(d.pc, pc)
                                            : dom_.sameBlock(d.pc, pc) && d.pc < pc;
      if (!d.guarded && sameStrand && d.pc < pc && reach) {
        d.reads.push_back({pc, operand});
        return;
      }
    }
    for (uint32_t id : rd)
      if (id != kNone) defs_[id].liveOut = true;
  }

  double writeSavings(const Def& d, size_t reads, bool liveOut, const AccessEnergy& up) const {
    double s = static_cast<double>(reads) * (p_.mrf.read - up.read) - up.write;
    if (!liveOut) s += p_.mrf.write;
    return s * d.words;
  }

  // Reads of the strand's values produced before it, grouped per register behind a first read
  // that dominates the others.
  void collectReadGroups(uint32_t k) {
    groups_.clear();
    const uint32_t begin = s_.start[k], end = strandEnd(k);
    std::vector<uint8_t> taken(size_t{end - begin} * 6, 0);
    for (uint32_t pc = begin; pc < end; ++pc) {
      const timing::DecodedInstr& d = f_.code[pc];
      for (unsigned i = 0; i < d.numSrc; ++i) {
        if (taken[(pc - begin) * 6 + i] || f_.guarded[pc] || !external(pc, i, begin, end)) continue;
        ReadGroup g{d.src[i], static_cast<uint8_t>((d.srcWide >> i & 1u) + 1), {pc, static_cast<uint8_t>(i)}, {}};
        for (uint32_t q = pc + 1; q < end; ++q) {
          const timing::DecodedInstr& e = f_.code[q];
          for (unsigned j = 0; j < e.numSrc; ++j) {
            if (e.src[j] != g.reg || taken[(q - begin) * 6 + j] || !external(q, j, begin, end)) continue;
            const bool reach = p_.forwardBranches ? dom_.dominates(pc, q) && !arms_.startBetween(pc, q)
                                                  : dom_.sameBlock(pc, q);
            if (!reach || reaching_[q * 6 + j] != reaching_[pc * 6 + i]) continue;
            g.later.push_back({q, static_cast<uint8_t>(j)});
            taken[(q - begin) * 6 + j] = 1;
          }
        }
        taken[(pc - begin) * 6 + i] = 1;
        if (!g.later.empty()) groups_.push_back(std::move(g));
      }
    }
  }
  // No definition reaching the read lies in the strand [begin, end).
  bool external(uint32_t pc, unsigned i, uint32_t begin, uint32_t end) const {
    for (uint32_t id : reaching_[pc * 6 + i])
      if (id != kNone && defs_[id].pc >= begin && defs_[id].pc < end) return false;
    return true;
  }

  void allocateStrand(uint32_t k) {
    const uint32_t begin = s_.start[k], end = strandEnd(k);
    std::vector<uint32_t> local;
    for (uint32_t pc = begin; pc < end; ++pc)
      for (unsigned j = 0; j < f_.code[pc].numDst; ++j) {
        const uint32_t id = defAt_[pc * 4 + j];
        if (!defs_[id].guarded) {
          local.push_back(id);
          ++c_.values;
        }
      }
    std::vector<uint8_t> placed(defs_.size(), 0);
    if (p_.lrf != LrfMode::None) allocateLrf(local, placed);
    if (p_.readOperands) collectReadGroups(k);
    else groups_.clear();
    allocateOrf(local, placed);
  }

  // LRF eligibility and bank: ALU producer and readers, 32-bit, and with a split LRF one operand
  // slot (A, B or C) for every read.
  uint32_t lrfBank(const Def& d) const {
    if (d.words != 1 || d.reads.empty() || !privateUnit(f_.code[d.pc].unit)) return kNone;
    const uint8_t slot = d.reads.front().operand;
    for (const Read& r : d.reads) {
      if (!privateUnit(f_.code[r.pc].unit)) return kNone;
      if (p_.lrf == LrfMode::Split && (r.operand != slot || slot > 2)) return kNone;
    }
    return p_.lrf == LrfMode::Split ? slot : 0;
  }

  void allocateLrf(const std::vector<uint32_t>& local, std::vector<uint8_t>& placed) {
    EntryIntervals banks(p_.lrf == LrfMode::Split ? 3 : 1);
    std::priority_queue<Candidate> pq;
    for (uint32_t id : local) {
      const Def& d = defs_[id];
      if (lrfBank(d) == kNone) continue;
      const double s = writeSavings(d, d.reads.size(), d.liveOut, p_.lrfEnergy);
      if (s <= 0) continue;
      pq.push({s / std::max<uint32_t>(d.reads.back().pc - d.pc, 1), d.pc, id, false});
    }
    while (!pq.empty()) {
      const Def& d = defs_[pq.top().index];
      pq.pop();
      const uint32_t bank = lrfBank(d), end = d.reads.back().pc;
      if (!banks.free(bank, d.pc, end)) continue;
      banks.take(bank, d.pc, end, 1);
      place(d, Level::Lrf, bank);
      placed[&d - defs_.data()] = 1;
      ++c_.lrfValues;
    }
  }

  void allocateOrf(const std::vector<uint32_t>& local, std::vector<uint8_t>& placed) {
    EntryIntervals orf(p_.entries);
    std::priority_queue<Candidate> pq;
    auto pushDef = [&](uint32_t id) {
      Def& d = defs_[id];
      if (d.reads.empty()) return;
      const double s = writeSavings(d, d.reads.size(), d.liveOut, p_.orf);
      if (s > 0) pq.push({s / std::max<uint32_t>(d.reads.back().pc - d.pc, 1), d.pc, id, false});
    };
    auto pushGroup = [&](uint32_t g) {
      const ReadGroup& r = groups_[g];
      if (r.later.empty()) return;
      const double s = (static_cast<double>(r.later.size()) * (p_.mrf.read - p_.orf.read) - p_.orf.write) * r.words;
      if (s > 0) pq.push({s / std::max<uint32_t>(r.later.back().pc - r.first.pc, 1), r.first.pc, g, true});
    };
    for (uint32_t id : local)
      if (!placed[id]) pushDef(id);
    for (uint32_t g = 0; g < groups_.size(); ++g) pushGroup(g);
    while (!pq.empty()) {
      const Candidate c = pq.top();
      pq.pop();
      if (c.readOperand) {
        ReadGroup& g = groups_[c.index];
        const uint32_t e = orf.fit(g.first.pc, g.later.back().pc, g.words);
        if (e != kNoEntry) {
          orf.take(e, g.first.pc, g.later.back().pc, g.words);
          OperandPlacement& first = out_[g.first.pc];
          first.depositMask |= static_cast<uint8_t>(1u << g.first.operand);
          first.srcEntry[g.first.operand] = static_cast<uint8_t>(e);
          for (const Read& r : g.later) setSource(r, Level::Orf, e);
          ++c_.readOperandGroups;
        } else if (p_.partialRanges) {
          g.later.pop_back();
          pushGroup(c.index);
        }
        continue;
      }
      Def& d = defs_[c.index];
      const uint32_t e = orf.fit(d.pc, d.reads.back().pc, d.words);
      if (e != kNoEntry) {
        orf.take(e, d.pc, d.reads.back().pc, d.words);
        place(d, Level::Orf, e);
        ++c_.orfValues;
        if (d.partial) ++c_.partialRanges;
      } else if (p_.partialRanges) {
        d.reads.pop_back();  // the dropped read uses the MRF: the value must be written there
        d.liveOut = true;
        d.partial = true;
        pushDef(c.index);
      }
    }
  }

  void setSource(const Read& r, Level level, uint32_t entry) {
    out_[r.pc].srcLevel[r.operand] = level;
    out_[r.pc].srcEntry[r.operand] = static_cast<uint8_t>(entry);
    ++c_.upperReads;
  }

  void place(const Def& d, Level level, uint32_t entry) {
    OperandPlacement& o = out_[d.pc];
    o.dstLevel[d.operand] = level;
    o.dstEntry[d.operand] = static_cast<uint8_t>(entry);
    if (d.liveOut) {
      o.dstMrfMask |= static_cast<uint8_t>(1u << d.operand);
      ++c_.dualWrites;
    } else {
      o.dstMrfMask &= static_cast<uint8_t>(~(1u << d.operand));
    }
    for (const Read& r : d.reads) setSource(r, level, entry);
  }

  const FunctionCode& f_;
  const Strands& s_;
  const OrfParams& p_;
  OperandPlacement* out_;
  AllocationCounts& c_;
  Dominance dom_;
  DivergentArms arms_;
  std::vector<Def> defs_;
  std::vector<uint32_t> defAt_;                   // pc * 4 + dst -> def id
  std::vector<std::vector<uint32_t>> reaching_;   // pc * 6 + src -> def ids (kNone: entry value)
  std::vector<ReadGroup> groups_;
};

}  // namespace

void allocateFunction(const FunctionCode& f, const Strands& strands, const OrfParams& params,
                      OperandPlacement* out, AllocationCounts& counts) {
  for (size_t pc = 0; pc < f.code.size(); ++pc) {
    out[pc] = OperandPlacement{};
    out[pc].dstMrfMask = 0xF;
  }
  if (f.code.empty()) return;
  FunctionAllocator(f, strands, params, out, counts).run();
}

}  // namespace warpsim::mech::orf_lrf
