#include "mech/zorua/shared_accesses.h"

#include <algorithm>

#include "mech/zorua/value_refs.h"

namespace warpsim::mech::zorua {

namespace {

using Bits = std::vector<uint64_t>;

bool carriesPointer(ir::Op op) {
  switch (op) {
    case ir::Op::Add: case ir::Op::Sub: case ir::Op::Mad: case ir::Op::Mul: case ir::Op::Mul24:
    case ir::Op::Mad24: case ir::Op::AddC: case ir::Op::SubC: case ir::Op::MadC: case ir::Op::Shl:
    case ir::Op::Shr: case ir::Op::And: case ir::Op::Or: case ir::Op::Xor: case ir::Op::Not:
    case ir::Op::Cvt: case ir::Op::Mov: case ir::Op::Cvta: case ir::Op::Selp: case ir::Op::Slct:
    case ir::Op::Min: case ir::Op::Max:
      return true;
    default:
      return false;
  }
}

// Operations that pick one of their sources (a pointer from one, plain data from another).
bool picksASource(ir::Op op) {
  return op == ir::Op::Selp || op == ir::Op::Slct || op == ir::Op::Min || op == ir::Op::Max;
}

bool isMemoryAccess(ir::Op op) {
  return op == ir::Op::Ld || op == ir::Op::St || op == ir::Op::Atom || op == ir::Op::Red;
}

// One source operand: the reaching definitions of its registers, or the variables it names.
struct Source {
  bool isRegister = false;
  std::vector<uint32_t> defs;
  uint64_t symbols = 0;
};

class Analysis {
 public:
  Analysis(const ir::Function& f, const SharedVariables& vars) : f_(f), vars_(vars), consts_(f) {}

  SharedAccesses run() {
    const auto n = static_cast<uint32_t>(f_.code.size());
    SharedAccesses out;
    out.access.assign(n, 0);
    if (n == 0 || f_.blocks.empty()) return out;
    collectDefinitions();
    collectSources();
    propagate();
    for (uint32_t pc = 0; pc < n; ++pc) {
      const ir::Instr& in = f_.code[pc];
      if (!isMemoryAccess(in.op) || address_[pc] < 0) continue;
      bool unknown = false;
      if (resolve(pc, out.access[pc], unknown)) {
        ++out.accesses;
        if (unknown) ++out.unknown;
      }
    }
    return out;
  }

 private:
  uint64_t symbolBit(uint32_t symbol) const {
    if (symbol >= vars_.bitOfSymbol.size() || vars_.bitOfSymbol[symbol] == SharedVariables::kNone) return 0;
    return uint64_t{1} << vars_.bitOfSymbol[symbol];
  }

  void collectDefinitions() {
    defsAt_.resize(f_.code.size());
    defsOfReg_.resize(f_.regs.size());
    for (uint32_t pc = 0; pc < f_.code.size(); ++pc) {
      forEachValueRef(f_, consts_, f_.code[pc], [&](uint32_t r, unsigned, bool isDef) {
        if (!isDef) return;
        const auto id = static_cast<uint32_t>(defPc_.size());
        defPc_.push_back(pc);
        defsAt_[pc].push_back(id);
        defsOfReg_[r].push_back(id);
        defReg_.push_back(r);
      });
    }
  }

  // The sources of every pointer-carrying definition and the address of every memory access,
  // with the definitions that reach them (forward reaching definitions over the CFG).
  void collectSources() {
    const size_t nb = f_.blocks.size(), nd = defPc_.size(), words = nd / 64 + 1;
    auto apply = [&](Bits& cur, uint32_t pc) {
      const bool guarded = f_.code[pc].guard != ir::kNoReg;  // a guarded write kills nothing
      for (uint32_t d : defsAt_[pc]) {
        if (!guarded)
          for (uint32_t o : defsOfReg_[defReg_[d]]) cur[o >> 6] &= ~(uint64_t{1} << (o & 63));
      }
      for (uint32_t d : defsAt_[pc]) cur[d >> 6] |= uint64_t{1} << (d & 63);
    };
    std::vector<Bits> out(nb, Bits(words, 0)), in(nb, Bits(words, 0));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 0; b < nb; ++b) {
        Bits cur(words, 0);
        for (uint32_t p : f_.blocks[b].preds)
          for (size_t w = 0; w < words; ++w) cur[w] |= out[p][w];
        in[b] = cur;
        for (uint32_t pc = f_.blocks[b].first; pc <= f_.blocks[b].last; ++pc) apply(cur, pc);
        if (cur != out[b]) {
          out[b] = std::move(cur);
          changed = true;
        }
      }
    }
    sources_.resize(f_.code.size());
    address_.assign(f_.code.size(), -1);
    for (size_t b = 0; b < nb; ++b) {
      Bits cur = in[b];
      for (uint32_t pc = f_.blocks[b].first; pc <= f_.blocks[b].last; ++pc) {
        const ir::Instr& ins = f_.code[pc];
        if ((carriesPointer(ins.op) && !defsAt_[pc].empty()) || isMemoryAccess(ins.op)) gather(pc, cur);
        apply(cur, pc);
      }
    }
  }

  void addReaching(Source& s, uint32_t r, const Bits& cur) const {
    if (r == ir::kNoReg) return;
    if (consts_.constant(r)) {
      if (r < consts_.symbol.size() && consts_.symbol[r] != ir::kNoSymbol) s.symbols |= symbolBit(consts_.symbol[r]);
      return;
    }
    s.isRegister = true;
    for (uint32_t d : defsOfReg_[r])
      if ((cur[d >> 6] >> (d & 63)) & 1u) s.defs.push_back(d);
  }

  void gather(uint32_t pc, const Bits& cur) {
    const ir::Instr& in = f_.code[pc];
    const unsigned total = std::min<unsigned>(in.numDst + in.numSrc, ir::kMaxOperands);
    for (unsigned k = 0; k < total; ++k) {
      const ir::Operand& op = in.ops[k];
      Source s;
      if (op.kind == ir::OperandKind::Address) {
        if (op.base == ir::AddrBase::ModuleSymbol) s.symbols |= symbolBit(op.symbol);
        addReaching(s, op.reg, cur);
        if (address_[pc] < 0) address_[pc] = static_cast<int32_t>(sources_[pc].size());
        sources_[pc].push_back(std::move(s));
        continue;
      }
      if (k < in.numDst) continue;
      switch (op.kind) {
        case ir::OperandKind::Reg:
        case ir::OperandKind::Imm:
          addReaching(s, op.reg, cur);
          break;
        case ir::OperandKind::Symbol:
          if (op.base == ir::AddrBase::ModuleSymbol) s.symbols |= symbolBit(op.symbol);
          break;
        case ir::OperandKind::Vector:
          for (unsigned e = 0; e < op.count && e < 4; ++e) addReaching(s, op.vec[e], cur);
          break;
        default:
          continue;  // predicates and special registers carry no pointer
      }
      sources_[pc].push_back(std::move(s));
    }
  }

  uint64_t varsOf(const Source& s) const {
    uint64_t v = s.symbols;
    for (uint32_t d : s.defs) v |= vars_of_[d];
    return v;
  }
  // Reaching definitions of both kinds: a symbol-derived pointer on one path, plain data on another.
  bool mixed(const Source& s) const {
    bool pointer = false, plain = false;
    for (uint32_t d : s.defs) (vars_of_[d] != 0 ? pointer : plain) = true;
    return pointer && plain;
  }
  bool unknownOf(const Source& s) const {
    for (uint32_t d : s.defs)
      if (unknown_[d]) return true;
    return mixed(s);
  }

  // Symbols first (a union: monotone), then the undetermined flag given the final symbols.
  void propagate() {
    vars_of_.assign(defPc_.size(), 0);
    unknown_.assign(defPc_.size(), 0);
    std::vector<uint32_t> carriers;
    for (uint32_t pc = 0; pc < f_.code.size(); ++pc)
      if (carriesPointer(f_.code[pc].op) && !defsAt_[pc].empty()) carriers.push_back(pc);
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t pc : carriers) {
        uint64_t v = 0;
        for (const Source& s : sources_[pc]) v |= varsOf(s);
        for (uint32_t d : defsAt_[pc]) {
          if ((vars_of_[d] | v) == vars_of_[d]) continue;
          vars_of_[d] |= v;
          changed = true;
        }
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t pc : carriers) {
        const ir::Instr& in = f_.code[pc];
        bool u = false, pointer = false, plain = false;
        for (const Source& s : sources_[pc]) {
          u = u || unknownOf(s);
          (varsOf(s) != 0 ? pointer : plain) = true;
        }
        if (picksASource(in.op) && pointer && plain) u = true;
        const bool toGeneric = in.op == ir::Op::Cvta && !in.has(ir::kToSpace) && in.space == ir::Space::Shared;
        for (uint32_t d : defsAt_[pc]) {
          const bool ud = u || (toGeneric && vars_of_[d] == 0);
          if (!ud || unknown_[d]) continue;
          unknown_[d] = 1;
          changed = true;
        }
      }
    }
  }

  // The variables access `pc` touches; false when it is not a shared access.
  bool resolve(uint32_t pc, uint64_t& access, bool& unknown) const {
    const ir::Instr& in = f_.code[pc];
    const Source& a = sources_[pc][static_cast<size_t>(address_[pc])];
    const bool shared = in.space == ir::Space::Shared;
    const bool generic = in.space == ir::Space::Generic || in.space == ir::Space::None;
    if (!shared && !generic) return false;
    uint64_t direct = a.symbols, through = 0;
    bool undetermined = false;
    if (a.isRegister) {
      for (uint32_t d : a.defs) through |= vars_of_[d];
      undetermined = unknownOf(a);
    }
    if (direct != 0) {  // [symbol + register]: the register is an offset into the symbol
      access = direct | through;
      return true;
    }
    if (generic && through == 0 && !undetermined) return false;  // not a shared pointer
    if (through != 0 && !undetermined) {
      access = through;
      return true;
    }
    access = vars_.all;
    unknown = true;
    return true;
  }

  const ir::Function& f_;
  const SharedVariables& vars_;
  ConstantRegisters consts_;
  std::vector<uint32_t> defPc_, defReg_;
  std::vector<std::vector<uint32_t>> defsAt_, defsOfReg_;
  std::vector<std::vector<Source>> sources_;
  std::vector<int32_t> address_;
  std::vector<uint64_t> vars_of_;
  std::vector<uint8_t> unknown_;
};

}  // namespace

SharedAccesses findSharedAccesses(const ir::Function& f, const SharedVariables& vars) {
  return Analysis(f, vars).run();
}

}  // namespace warpsim::mech::zorua
