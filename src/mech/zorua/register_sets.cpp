#include "mech/zorua/register_sets.h"

#include <algorithm>
#include <bit>
#include <string>

#include "mech/zorua/value_refs.h"

namespace warpsim::mech::zorua {

namespace {

using Bits = std::vector<uint64_t>;

void setBit(Bits& b, uint32_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }
void clearBit(Bits& b, uint32_t i) { b[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
template <class Fn>
void forEachBit(const Bits& b, Fn&& fn) {
  for (size_t w = 0; w < b.size(); ++w)
    for (uint64_t x = b[w]; x != 0; x &= x - 1) fn(static_cast<uint32_t>(w * 64 + std::countr_zero(x)));
}

// What the liveness tracks: physical 32-bit registers, or virtual registers.
struct Items {
  uint32_t count = 0;
  std::vector<std::vector<uint32_t>> uses, defs;  // per instruction
  std::vector<uint32_t> width;                    // virtual: 32-bit registers of each item
};

uint32_t physicalCount(const ir::Function& f, const ConstantRegisters& consts) {
  uint32_t n = 0;
  while (n < f.regs.size() && !consts.constant(n)) ++n;
  return n;
}

Items collectItems(const ir::Function& f, bool physical) {
  const ConstantRegisters consts(f);
  Items items;
  const auto n = static_cast<uint32_t>(f.code.size());
  items.uses.resize(n);
  items.defs.resize(n);
  if (physical) {
    items.count = physicalCount(f, consts);
  } else {
    items.count = static_cast<uint32_t>(f.regs.size());
    items.width.assign(items.count, 1);
    for (uint32_t r = 0; r < items.count; ++r) items.width[r] = widthUnits(refBits(f, r, 0));
  }
  for (uint32_t pc = 0; pc < n; ++pc) {
    forEachValueRef(f, consts, f.code[pc], [&](uint32_t r, unsigned bits, bool isDef) {
      auto& list = isDef ? items.defs[pc] : items.uses[pc];
      if (physical) {
        for (uint32_t u = r; u < r + widthUnits(bits) && u < items.count; ++u) list.push_back(u);
      } else {
        list.push_back(r);
        items.width[r] = std::max(items.width[r], widthUnits(bits));
      }
    });
  }
  return items;
}

// Live-out sets of every block over the CFG with the regions' SIMT edges.
std::vector<Bits> liveOutSets(const ir::Function& f, const DivergentRegions& regions, const Items& items,
                              size_t words) {
  const size_t nb = f.blocks.size();
  std::vector<std::vector<uint32_t>> succs(nb);
  for (size_t b = 0; b < nb; ++b) succs[b] = f.blocks[b].succs;
  for (const DivergentRegion& region : regions.regions) {
    for (uint32_t x : region.blocks)
      for (uint32_t s : f.blocks[region.branchBlock].succs)
        if (std::find(succs[x].begin(), succs[x].end(), s) == succs[x].end()) succs[x].push_back(s);
  }
  std::vector<Bits> gen(nb, Bits(words, 0)), kill(nb, Bits(words, 0));
  for (size_t b = 0; b < nb; ++b) {
    for (uint32_t pc = f.blocks[b].last + 1; pc-- > f.blocks[b].first;) {
      if (f.code[pc].guard == ir::kNoReg) {  // a guarded write may not happen: it kills nothing
        for (uint32_t d : items.defs[pc]) {
          clearBit(gen[b], d);
          setBit(kill[b], d);
        }
      }
      for (uint32_t u : items.uses[pc]) setBit(gen[b], u);
    }
  }
  std::vector<Bits> liveIn(nb, Bits(words, 0)), liveOut(nb, Bits(words, 0));
  Bits in(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      Bits& out = liveOut[b];
      for (uint32_t s : succs[b])
        for (size_t w = 0; w < words; ++w) out[w] |= liveIn[s][w];
      for (size_t w = 0; w < words; ++w) in[w] = gen[b][w] | (out[w] & ~kill[b][w]);
      if (in != liveIn[b]) {
        liveIn[b] = in;
        changed = true;
      }
    }
  }
  return liveOut;
}

// Calls fn(pc, held, after) for every instruction: held = registers live into it or written by
// it, after = registers live out of it.
template <class Fn>
void walkInstructions(const ir::Function& f, const Items& items, const std::vector<Bits>& liveOut, Fn&& fn) {
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    Bits live = liveOut[b];
    for (uint32_t pc = f.blocks[b].last + 1; pc-- > f.blocks[b].first;) {
      const Bits after = live;
      if (f.code[pc].guard == ir::kNoReg)
        for (uint32_t d : items.defs[pc]) clearBit(live, d);
      for (uint32_t u : items.uses[pc]) setBit(live, u);
      Bits held = live;
      for (uint32_t d : items.defs[pc]) setBit(held, d);
      fn(pc, held, after);
    }
  }
}

// Virtual registers onto 32-bit registers: the lowest aligned free run, in first-reference order.
std::vector<uint32_t> placeVirtual(const ir::Function& f, const Items& items, const std::vector<Bits>& liveOut,
                                   size_t words, uint32_t& used) {
  const uint32_t n = items.count;
  std::vector<Bits> interferes(n, Bits(words, 0));
  auto interfere = [&](uint32_t a, const Bits& with) {
    forEachBit(with, [&](uint32_t b) {
      if (a == b) return;
      setBit(interferes[a], b);
      setBit(interferes[b], a);
    });
  };
  walkInstructions(f, items, liveOut, [&](uint32_t pc, const Bits&, const Bits& after) {
    if (items.defs[pc].empty()) return;
    Bits with = after;
    for (uint32_t d : items.defs[pc]) setBit(with, d);
    for (uint32_t d : items.defs[pc]) interfere(d, with);
  });
  if (!f.blocks.empty()) {  // registers read before any write: live together at the entry
    Bits entry(words, 0);
    walkInstructions(f, items, liveOut, [&](uint32_t pc, const Bits& held, const Bits&) {
      if (pc == f.blocks[0].first) entry = held;
    });
    forEachBit(entry, [&](uint32_t a) { interfere(a, entry); });
  }

  std::vector<uint32_t> firstRef(n, UINT32_MAX);
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    for (uint32_t r : items.uses[pc]) firstRef[r] = std::min(firstRef[r], pc);
    for (uint32_t r : items.defs[pc]) firstRef[r] = std::min(firstRef[r], pc);
  }
  std::vector<uint32_t> order;
  for (uint32_t r = 0; r < n; ++r)
    if (firstRef[r] != UINT32_MAX) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return firstRef[a] < firstRef[b]; });

  uint32_t bound = 4;
  for (uint32_t r : order) bound += items.width[r] * 2;
  std::vector<uint32_t> base(n, UINT32_MAX);
  std::vector<uint8_t> busy(bound, 0);
  std::vector<uint32_t> touched;
  used = 0;
  for (uint32_t r : order) {
    touched.clear();
    forEachBit(interferes[r], [&](uint32_t o) {
      if (base[o] == UINT32_MAX) return;
      for (uint32_t u = base[o]; u < base[o] + items.width[o]; ++u) {
        busy[u] = 1;
        touched.push_back(u);
      }
    });
    const uint32_t w = items.width[r];
    uint32_t at = 0;
    for (;; at += w) {
      bool free = true;
      for (uint32_t u = at; u < at + w; ++u) free = free && busy[u] == 0;
      if (free) break;
    }
    base[r] = at;
    used = std::max(used, at + w);
    for (uint32_t u : touched) busy[u] = 0;
  }
  return base;
}

}  // namespace

bool hasPhysicalRegisters(const ir::Function& f) {
  const ConstantRegisters consts(f);
  const uint32_t n = physicalCount(f, consts);
  for (uint32_t r = 0; r < f.regs.size(); ++r) {
    if (r >= n) {
      if (!consts.constant(r)) return false;  // a register after the constants: not the allocator's
      continue;
    }
    if (f.regs[r].name != "%R" + std::to_string(r)) return false;
  }
  return true;
}

RegisterNeeds analyzeRegisters(const ir::Function& f, const DivergentRegions& regions) {
  RegisterNeeds out;
  const auto n = static_cast<uint32_t>(f.code.size());
  out.liveCount.assign(n, 0);
  out.liveSets.assign(n, 0);
  out.instructionSets.assign(n, 0);
  if (n == 0 || f.blocks.empty()) return out;
  out.physical = hasPhysicalRegisters(f);
  const Items items = collectItems(f, out.physical);
  const size_t words = (items.count + 63) / 64 + 1;
  const std::vector<Bits> liveOut = liveOutSets(f, regions, items, words);

  // Per item: its 32-bit registers' count and sets.
  std::vector<uint32_t> units(items.count, 1);
  std::vector<uint64_t> sets(items.count, 0);
  std::vector<uint32_t> placement;
  if (out.physical) {
    out.registers = items.count;
    for (uint32_t u = 0; u < items.count; ++u) sets[u] = setBitOf(u);
  } else {
    placement = placeVirtual(f, items, liveOut, words, out.registers);
    for (uint32_t r = 0; r < items.count; ++r) {
      if (placement[r] == UINT32_MAX) continue;
      units[r] = items.width[r];
      for (uint32_t u = placement[r]; u < placement[r] + units[r]; ++u) sets[r] |= setBitOf(u);
    }
  }

  // Virtual registers: count the 32-bit registers their placement occupies (a result may take
  // the register of a source read for the last time by the same instruction).
  std::vector<uint32_t> base;
  if (!out.physical) base = std::move(placement);
  Bits occupied(out.registers / 64 + 1, 0);
  walkInstructions(f, items, liveOut, [&](uint32_t pc, const Bits& held, const Bits&) {
    uint32_t count = 0;
    uint64_t s = 0;
    std::fill(occupied.begin(), occupied.end(), 0);
    forEachBit(held, [&](uint32_t i) {
      s |= sets[i];
      if (out.physical) {
        ++count;
        return;
      }
      for (uint32_t u = base[i]; u < base[i] + units[i]; ++u) {
        if ((occupied[u >> 6] >> (u & 63)) & 1u) continue;
        setBit(occupied, u);
        ++count;
      }
    });
    out.liveCount[pc] = count;
    out.liveSets[pc] = s;
    uint64_t own = 0;
    for (uint32_t i : items.uses[pc]) own |= sets[i];
    for (uint32_t i : items.defs[pc]) own |= sets[i];
    out.instructionSets[pc] = own;
    out.maxLive = std::max(out.maxLive, count);
  });
  return out;
}

}  // namespace warpsim::mech::zorua
