#include "compiler/physical_rewrite.h"

#include <algorithm>
#include <string>

#include "compiler/code_rebuild.h"
#include "compiler/liveness_points.h"

namespace warpsim::compiler {
namespace {

bool savesAround(const ir::Module& m, const ir::Function& f, const ir::Instr& in) {
  if (in.op != ir::Op::Call || in.target >= f.calls.size()) return false;
  const ir::CallSite& site = f.calls[in.target];
  if (site.isPrintf || site.callee >= m.functions.size()) return false;
  return !m.functions[site.callee].isExtern;
}

// Calls fn(instruction index, live-after set) for every call that needs saves.
template <class Fn>
void forEachSavedCall(const ir::Module& m, const FunctionRegisters& regs, RegClass cls, Fn&& fn) {
  const ir::Function& f = regs.fn();
  const ClassLiveness L = computeClassLiveness(regs, cls);
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    Bits live = L.liveOut[b];
    for (uint32_t i = f.blocks[b].last + 1; i-- > f.blocks[b].first;) {
      const ir::Instr& in = f.code[i];
      if (savesAround(m, f, in)) fn(i, live);
      stepBackward(live, instrRefs(in, cls, regs), in);
    }
  }
}

}  // namespace

std::vector<uint32_t> predicatesLiveAcrossCalls(const ir::Module& m, const FunctionRegisters& regs) {
  std::vector<uint8_t> mark(regs.count(RegClass::Pred), 0);
  forEachSavedCall(m, regs, RegClass::Pred, [&](uint32_t, const Bits& live) {
    forEachBit(live, [&](uint32_t p) { mark[p] = 1; });
  });
  std::vector<uint32_t> out;
  for (uint32_t p = 0; p < mark.size(); ++p)
    if (mark[p]) out.push_back(p);
  return out;
}

void insertCallSaves(const ir::Module& m, FunctionRegisters& regs, SpillArea& area,
                     std::vector<int64_t>& valueSlot, FunctionAllocation& stats) {
  ir::Function& f = regs.fn();
  std::vector<InstrEdit> edits(f.code.size());
  bool any = false;
  if (valueSlot.size() < regs.count(RegClass::Value)) valueSlot.resize(regs.count(RegClass::Value), -1);
  // Blocks are walked in order and live sets ascending, so slots are given deterministically.
  forEachSavedCall(m, regs, RegClass::Value, [&](uint32_t i, const Bits& live) {
    forEachBit(live, [&](uint32_t v) {
      const ir::RegInfo& info = f.regs[v];
      const uint8_t bits = info.bits ? info.bits : static_cast<uint8_t>(ir::bits(info.type));
      if (valueSlot[v] < 0) valueSlot[v] = area.newSlot(slotBytes(bits));
      const auto offset = static_cast<uint32_t>(valueSlot[v]);
      edits[i].before.push_back(spillStore(v, bits, offset, f.code[i]));
      edits[i].after.push_back(spillLoad(v, bits, offset, f.code[i]));
      ++stats.callSaves;
      any = true;
    });
  });
  if (any) rebuildCode(f, edits);
}

void rewriteToPhysical(FunctionRegisters& regs, const std::vector<int32_t>& valueColour,
                       const std::vector<int32_t>& predColour, FunctionAllocation& stats) {
  ir::Function& f = regs.fn();
  // Moves whose two registers got the same register vanish.
  std::vector<InstrEdit> edits(f.code.size());
  bool anyRemoved = false;
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    uint32_t d, s;
    if (plainMove(f.code[i], regs, d, s) && valueColour[d] >= 0 && valueColour[d] == valueColour[s]) {
      edits[i].remove = true;
      ++stats.coalescedMoves;
      anyRemoved = true;
    }
  }
  if (anyRemoved) rebuildCode(f, edits);

  uint32_t numRegs = 0, numPreds = 0;
  for (const ir::Instr& in : f.code)
    forEachRegRef(in, [&](RegClass c, const uint32_t& r, bool) {
      if (!regs.allocatable(c, r)) return;
      if (c == RegClass::Value) numRegs = std::max<uint32_t>(numRegs, valueColour[r] + regs.width(c, r));
      else numPreds = std::max<uint32_t>(numPreds, predColour[r] + 1);
    });
  std::vector<uint32_t> constIndex(f.regs.size(), ir::kNoReg);
  for (size_t k = 0; k < f.constRegs.size(); ++k) constIndex[f.constRegs[k].reg] = numRegs + static_cast<uint32_t>(k);
  for (ir::Instr& in : f.code)
    forEachRegRef(in, [&](RegClass c, uint32_t& r, bool) {
      if (c == RegClass::Pred) r = static_cast<uint32_t>(predColour[r]);
      else if (regs.allocatable(c, r)) r = static_cast<uint32_t>(valueColour[r]);
      else r = constIndex[r];
    });

  std::vector<ir::RegInfo> physical;
  physical.reserve(numRegs + f.constRegs.size());
  for (uint32_t r = 0; r < numRegs; ++r) physical.push_back({"%R" + std::to_string(r), ir::Type::B32, 32});
  for (ir::ConstReg& c : f.constRegs) {
    ir::RegInfo info = f.regs[c.reg];
    info.name = "";
    physical.push_back(info);
    c.reg = constIndex[c.reg];
  }
  f.regs = std::move(physical);
  f.preds.clear();
  for (uint32_t p = 0; p < numPreds; ++p) f.preds.push_back("%P" + std::to_string(p));
  stats.registers = numRegs;
  stats.predicates = numPreds;
}

}  // namespace warpsim::compiler
