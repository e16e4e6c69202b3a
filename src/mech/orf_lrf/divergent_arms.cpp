#include "mech/orf_lrf/divergent_arms.h"

#include <algorithm>

namespace warpsim::mech::orf_lrf {

namespace {
constexpr uint32_t kNoStart = UINT32_MAX;
}  // namespace

DivergentArms::DivergentArms(const FunctionCode& f, const Strands& s) : fn_(*f.ir) {
  const size_t nb = fn_.blocks.size();
  inRegion_.assign(nb, {});
  firstStart_.assign(nb, kNoStart);
  if (nb == 0) return;
  const size_t words = (nb + 63) / 64;
  for (uint32_t pc : s.start) {
    if (pc < fn_.blockOf.size()) {
      uint32_t& first = firstStart_[fn_.blockOf[pc]];
      first = std::min(first, pc);
    } else if (fallsOffTheEnd()) {  // the linker's sentinel `ret` (func/program.cpp) after the
      uint32_t& first = firstStart_[nb - 1];  // last block, which the lanes that fall through run
      first = std::min(first, pc);
    }
  }
  std::vector<uint32_t> stack;
  for (uint32_t bi = 0; bi < nb; ++bi) {
    const ir::BasicBlock& blk = fn_.blocks[bi];
    std::vector<uint32_t> succs = blk.succs;
    std::sort(succs.begin(), succs.end());
    succs.erase(std::unique(succs.begin(), succs.end()), succs.end());
    if (succs.size() < 2) continue;
    const uint32_t stop = blk.ipdom;  // kNoTarget: reconverges at the function exit
    Branch b{blk.last, {}, {}, {}, Bits(words, 0), -1};
    bool anyStart = false;
    for (uint32_t succ : succs) {
      Bits arm(words, 0), clean(words, 0);
      bool start = false;
      if (succ != stop) {
        // Every block the arm reaches, and those it enters along paths without a start.
        stack.assign(1, succ);
        mark(arm, succ);
        while (!stack.empty()) {
          const uint32_t x = stack.back();
          stack.pop_back();
          start = start || firstStart_[x] != kNoStart;
          for (uint32_t y : fn_.blocks[x].succs) {
            if (y == stop || test(arm, y)) continue;
            mark(arm, y);
            stack.push_back(y);
          }
        }
        stack.assign(1, succ);
        mark(clean, succ);
        while (!stack.empty()) {
          const uint32_t x = stack.back();
          stack.pop_back();
          if (firstStart_[x] != kNoStart) continue;  // leaving x passes its start
          for (uint32_t y : fn_.blocks[x].succs) {
            if (y == stop || test(clean, y)) continue;
            mark(clean, y);
            stack.push_back(y);
          }
        }
      }
      if (succs.size() == 2 && blk.last + 1 < fn_.blockOf.size() && fn_.blockOf[blk.last + 1] == succ) {
        b.fallThrough = static_cast<int>(b.arms.size());
      }
      for (size_t w = 0; w < words; ++w) b.region[w] |= arm[w];
      b.arms.push_back(std::move(arm));
      b.clean.push_back(std::move(clean));
      b.armStart.push_back(start ? 1 : 0);
      anyStart = anyStart || start;
    }
    if (!anyStart) continue;  // nothing the arms run can invalidate an entry
    const auto index = static_cast<uint32_t>(branches_.size());
    for (uint32_t x = 0; x < nb; ++x)
      if (test(b.region, x)) inRegion_[x].push_back(index);
    branches_.push_back(std::move(b));
  }
  // Blocks are in pc order: so are branches_ (startBetween searches them by pc).
}

bool DivergentArms::fallsOffTheEnd() const {
  const ir::Instr& last = fn_.code[fn_.blocks.back().last];
  if (last.guard != ir::kNoReg) return true;
  return last.op != ir::Op::Bra && last.op != ir::Op::Ret && last.op != ir::Op::Exit && last.op != ir::Op::Trap;
}

bool DivergentArms::cleanlyIn(const Branch& b, size_t arm, uint32_t pc) const {
  const uint32_t blk = fn_.blockOf[pc];
  return test(b.clean[arm], blk) && pc < firstStart_[blk];
}

bool DivergentArms::otherArmStarts(const Branch& b, uint32_t block) const {
  size_t holding = 0;
  for (const Bits& arm : b.arms) holding += test(arm, block) ? 1 : 0;
  for (size_t a = 0; a < b.arms.size(); ++a) {
    if (b.armStart[a] && (holding != 1 || !test(b.arms[a], block))) return true;
  }
  return false;
}

bool DivergentArms::unsafeAcross(const Branch& b, uint32_t r) const {
  if (b.fallThrough < 0) {
    size_t holding = 0, arm = 0;
    for (size_t a = 0; a < b.arms.size(); ++a)
      if (cleanlyIn(b, a, r)) ++holding, arm = a;
    for (size_t a = 0; a < b.arms.size(); ++a)
      if (b.armStart[a] && (holding != 1 || a != arm)) return true;
    return false;
  }
  const auto f = static_cast<size_t>(b.fallThrough), t = 1 - f;
  if (cleanlyIn(b, t, r)) return b.armStart[f] != 0;  // the taken lanes run after F
  if (cleanlyIn(b, f, r)) return false;               // the fall-through lanes run first
  return b.armStart[f] != 0 || b.armStart[t] != 0;    // after the reconvergence
}

bool DivergentArms::unsafeAround(const Branch& b, uint32_t d) const {
  const uint32_t bd = fn_.blockOf[d];
  if (b.fallThrough < 0) return otherArmStarts(b, bd);
  const auto f = static_cast<size_t>(b.fallThrough), t = 1 - f;
  return test(b.arms[f], bd) && b.armStart[t] != 0;  // T runs after F's d, before r
}

bool DivergentArms::startBetween(uint32_t d, uint32_t r) const {
  if (branches_.empty()) return false;
  if (r >= fn_.blockOf.size()) return true;  // the sentinel reads nothing; be safe all the same
  const uint32_t bd = fn_.blockOf[d], br = fn_.blockOf[r];
  // A branch in [d, r) runs after d.
  auto it = std::lower_bound(branches_.begin(), branches_.end(), d,
                             [](const Branch& b, uint32_t pc) { return b.pc < pc; });
  for (; it != branches_.end() && it->pc < r; ++it)
    if (unsafeAcross(*it, r)) return true;
  // d inside the arms of another branch, r past them.
  for (uint32_t i : inRegion_[bd]) {
    const Branch& b = branches_[i];
    if (b.pc >= d && b.pc < r) continue;  // done above
    if (!test(b.region, br) && unsafeAround(b, d)) return true;
  }
  return false;
}

}  // namespace warpsim::mech::orf_lrf
