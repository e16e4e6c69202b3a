#include "compiler/spill_code.h"

#include <algorithm>

#include "compiler/code_rebuild.h"
#include "compiler/rematerialise.h"

namespace warpsim::compiler {
namespace {

ir::Type spillType(uint8_t bits) {
  return bits > 64 ? ir::Type::B128 : bits > 32 ? ir::Type::B64 : ir::Type::B32;
}

void servedBy(ir::Instr& in, const ir::Instr& served, ir::Flag flag) {
  in.flags |= flag;
  in.line = served.line;
  in.locFile = served.locFile;
  in.locLine = served.locLine;
}

ir::Operand regOperand(uint32_t reg, uint8_t bits) {
  ir::Operand o;
  o.kind = ir::OperandKind::Reg;
  o.reg = reg;
  o.regBits = bits;
  return o;
}

ir::Operand localAddress(uint32_t offset) {
  ir::Operand o;
  o.kind = ir::OperandKind::Address;
  o.base = ir::AddrBase::FrameLocal;
  o.imm = offset;
  return o;
}

ir::Operand immOperand(FunctionRegisters& regs, int64_t value) {
  ir::Operand o;
  o.kind = ir::OperandKind::Imm;
  o.imm = value;
  o.regBits = 32;
  o.reg = regs.constReg(value);
  return o;
}

ir::Operand predOperand(uint32_t p) {
  ir::Operand o;
  o.kind = ir::OperandKind::Pred;
  o.reg = p;
  o.regBits = 1;
  return o;
}

// selp.u32 t, 1, 0, p
ir::Instr predToValue(FunctionRegisters& regs, uint32_t t, uint32_t p, const ir::Instr& served) {
  ir::Instr in;
  in.op = ir::Op::Selp;
  in.type = ir::Type::U32;
  in.numDst = 1;
  in.numSrc = 3;
  in.ops[0] = regOperand(t, 32);
  in.ops[1] = immOperand(regs, 1);
  in.ops[2] = immOperand(regs, 0);
  in.ops[3] = predOperand(p);
  servedBy(in, served, ir::kSpill);
  return in;
}

// setp.ne.u32 p, t, 0
ir::Instr valueToPred(FunctionRegisters& regs, uint32_t p, uint32_t t, const ir::Instr& served) {
  ir::Instr in;
  in.op = ir::Op::Setp;
  in.cmp = ir::CmpOp::Ne;
  in.type = ir::Type::U32;
  in.numDst = 1;
  in.numSrc = 2;
  in.ops[0] = predOperand(p);
  in.ops[1] = regOperand(t, 32);
  in.ops[2] = immOperand(regs, 0);
  servedBy(in, served, ir::kSpill);
  return in;
}

// The distinct registers of class `cls` marked in `spilled` that `in` references, with
// whether it reads them (a guarded def reads) and writes them.
struct SpilledRef {
  uint32_t reg;
  bool used = false, defined = false;
};
std::vector<SpilledRef> spilledRefs(const ir::Instr& in, RegClass cls, const std::vector<uint8_t>& spilled) {
  std::vector<SpilledRef> out;
  forEachRegRef(in, [&](RegClass c, const uint32_t& r, bool isDef) {
    if (c != cls || r >= spilled.size() || !spilled[r]) return;
    auto it = std::find_if(out.begin(), out.end(), [&](const SpilledRef& s) { return s.reg == r; });
    if (it == out.end()) {
      out.push_back({r});
      it = out.end() - 1;
    }
    if (isDef) {
      it->defined = true;
      if (in.guard != ir::kNoReg) it->used = true;
    } else {
      it->used = true;
    }
  });
  return out;
}

void rename(ir::Instr& in, RegClass cls, uint32_t from, uint32_t to) {
  forEachRegRef(in, [&](RegClass c, uint32_t& r, bool) {
    if (c == cls && r == from) r = to;
  });
}

}  // namespace

uint32_t SpillArea::newSlot(uint32_t bytes) {
  size_ = (size_ + bytes - 1) / bytes * bytes;
  const uint32_t offset = size_;
  size_ += bytes;
  ++slots_;
  align_ = std::max(align_, bytes);
  return offset;
}

uint32_t slotBytes(uint8_t bits) { return bits > 64 ? 16 : bits > 32 ? 8 : 4; }

ir::Instr spillLoad(uint32_t reg, uint8_t bits, uint32_t offset, const ir::Instr& served) {
  ir::Instr in;
  in.op = ir::Op::Ld;
  in.type = spillType(bits);
  in.space = ir::Space::Local;
  in.numDst = 1;
  in.numSrc = 1;
  in.ops[0] = regOperand(reg, bits);
  in.ops[1] = localAddress(offset);
  servedBy(in, served, ir::kSpill);
  return in;
}

ir::Instr spillStore(uint32_t reg, uint8_t bits, uint32_t offset, const ir::Instr& served) {
  ir::Instr in;
  in.op = ir::Op::St;
  in.type = spillType(bits);
  in.space = ir::Space::Local;
  in.numDst = 0;
  in.numSrc = 2;
  in.ops[0] = localAddress(offset);
  in.ops[1] = regOperand(reg, bits);
  servedBy(in, served, ir::kSpill);
  return in;
}

void spillValues(FunctionRegisters& regs, const std::vector<uint32_t>& spilledList, SpillArea& area,
                 std::vector<int64_t>& valueSlot, FunctionAllocation& stats) {
  ir::Function& f = regs.fn();
  std::vector<uint8_t> spilled(regs.count(RegClass::Value), 0);
  for (uint32_t r : spilledList) spilled[r] = 1;
  const std::vector<uint32_t> rematAt = rematerialisableDefs(regs);
  std::vector<ir::Instr> rematDef(spilled.size());
  for (uint32_t r : spilledList)
    if (rematAt[r] != ir::kNoTarget) rematDef[r] = f.code[rematAt[r]];

  std::vector<InstrEdit> edits(f.code.size());
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    const std::vector<SpilledRef> refs = spilledRefs(f.code[i], RegClass::Value, spilled);
    for (const SpilledRef& s : refs) {
      const ir::RegInfo info = f.regs[s.reg];
      const uint8_t bits = info.bits ? info.bits : static_cast<uint8_t>(ir::bits(info.type));
      if (rematAt[s.reg] != ir::kNoTarget) {
        if (rematAt[s.reg] == i) {  // the definition itself: re-computed at each use instead
          edits[i].remove = true;
          continue;
        }
        const uint32_t t = regs.newValueTemp(info.type, bits);
        ir::Instr copy = rematDef[s.reg];
        copy.ops[0].reg = t;
        servedBy(copy, f.code[i], ir::kRemat);
        edits[i].before.push_back(copy);
        rename(f.code[i], RegClass::Value, s.reg, t);
        continue;
      }
      if (valueSlot.size() < spilled.size()) valueSlot.resize(spilled.size(), -1);
      if (valueSlot[s.reg] < 0) valueSlot[s.reg] = area.newSlot(slotBytes(bits));
      const auto offset = static_cast<uint32_t>(valueSlot[s.reg]);
      const uint32_t t = regs.newValueTemp(info.type, bits);
      if (s.used) edits[i].before.push_back(spillLoad(t, bits, offset, f.code[i]));
      if (s.defined) edits[i].after.push_back(spillStore(t, bits, offset, f.code[i]));
      rename(f.code[i], RegClass::Value, s.reg, t);
    }
  }
  rebuildCode(f, edits);
  (void)stats;
}

void spillPredicates(FunctionRegisters& regs, const std::vector<uint32_t>& spilledList, SpillArea& area,
                     std::vector<int64_t>& predSlot, FunctionAllocation& stats) {
  ir::Function& f = regs.fn();
  std::vector<uint8_t> spilled(regs.count(RegClass::Pred), 0);
  for (uint32_t p : spilledList) spilled[p] = 1;
  if (predSlot.size() < spilled.size()) predSlot.resize(spilled.size(), -1);
  std::vector<InstrEdit> edits(f.code.size());
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    const std::vector<SpilledRef> refs = spilledRefs(f.code[i], RegClass::Pred, spilled);
    for (const SpilledRef& s : refs) {
      if (predSlot[s.reg] < 0) predSlot[s.reg] = area.newSlot(4);
      const auto offset = static_cast<uint32_t>(predSlot[s.reg]);
      const uint32_t p = regs.newPredTemp();
      if (s.used) {
        const uint32_t t = regs.newValueTemp(ir::Type::B32, 32);
        edits[i].before.push_back(spillLoad(t, 32, offset, f.code[i]));
        edits[i].before.push_back(valueToPred(regs, p, t, f.code[i]));
      }
      if (s.defined) {
        const uint32_t t = regs.newValueTemp(ir::Type::B32, 32);
        edits[i].after.push_back(predToValue(regs, t, p, f.code[i]));
        edits[i].after.push_back(spillStore(t, 32, offset, f.code[i]));
      }
      rename(f.code[i], RegClass::Pred, s.reg, p);
    }
  }
  rebuildCode(f, edits);
  (void)stats;
}

void finishSpillArea(ir::Function& f, const SpillArea& area, FunctionAllocation& stats) {
  const uint32_t align = area.alignment() > 8 ? 16 : 8;
  stats.spillBase = (f.localBytes + align - 1) / align * align;
  stats.spillBytes = area.bytes();
  stats.spillSlots = area.slots();
  if (area.bytes() > 0) {
    for (ir::Instr& in : f.code) {
      if (!in.has(ir::kSpill) || (in.op != ir::Op::Ld && in.op != ir::Op::St)) continue;
      for (unsigned k = 0; k < in.numDst + in.numSrc; ++k)
        if (in.ops[k].kind == ir::OperandKind::Address && in.ops[k].base == ir::AddrBase::FrameLocal)
          in.ops[k].imm += stats.spillBase;
    }
    f.localBytes = stats.spillBase + area.bytes();
    f.localAlign = std::max(f.localAlign, align);
  }
  stats.spillLoads = stats.spillStores = stats.spillLoadBytes = stats.spillStoreBytes = stats.rematerialised = 0;
  for (const ir::Instr& in : f.code) {
    if (in.has(ir::kRemat)) ++stats.rematerialised;
    if (!in.has(ir::kSpill)) continue;
    if (in.op == ir::Op::Ld) {
      ++stats.spillLoads;
      stats.spillLoadBytes += ir::bytes(in.type);
    } else if (in.op == ir::Op::St) {
      ++stats.spillStores;
      stats.spillStoreBytes += ir::bytes(in.type);
    }
  }
}

}  // namespace warpsim::compiler
