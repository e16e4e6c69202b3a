// Linking: fold module-symbol addresses, lay out shared memory per kernel, decode what the
// engine's executors need, and bind an executor to every instruction.
#include "func/program.h"

#include <algorithm>

#include <fmt/format.h>

#include "func/alu/alu.h"
#include "func/executors.h"
#include "ir/atom_hint.h"
#include "ir/liveness.h"

namespace warpsim::func {
namespace {

bool isDynamicShared(const ir::Symbol& s) { return s.isDynamicShared || (s.isExtern && s.size == 0); }

// Module symbols of the shared space that function `f` names directly.
std::vector<uint32_t> sharedSymbolsUsed(const ir::Module& m, const ir::Function& f) {
  std::vector<uint32_t> out;
  auto note = [&](uint32_t sym) {
    if (sym < m.symbols.size() && m.symbols[sym].space == ir::Space::Shared) out.push_back(sym);
  };
  for (const ir::Instr& in : f.code)
    for (unsigned k = 0; k < in.numDst + in.numSrc && k < ir::kMaxOperands; ++k) {
      const ir::Operand& op = in.ops[k];
      if ((op.kind == ir::OperandKind::Address || op.kind == ir::OperandKind::Symbol) &&
          op.base == ir::AddrBase::ModuleSymbol)
        note(op.symbol);
    }
  for (const ir::ConstReg& c : f.constRegs)
    if (c.symbol != ir::kNoSymbol) note(c.symbol);
  return out;
}

std::vector<SharedLayout> layOutShared(const ir::Module& m) {
  const size_t nf = m.functions.size();
  std::vector<std::vector<uint32_t>> direct(nf);
  for (size_t f = 0; f < nf; ++f) direct[f] = sharedSymbolsUsed(m, m.functions[f]);
  std::vector<SharedLayout> layouts(nf);
  for (size_t root = 0; root < nf; ++root) {
    // Everything reachable through calls from `root`.
    std::vector<bool> seen(nf, false), used(m.symbols.size(), false);
    std::vector<size_t> work{root};
    seen[root] = true;
    while (!work.empty()) {
      const size_t f = work.back();
      work.pop_back();
      for (uint32_t s : direct[f]) used[s] = true;
      for (const ir::CallSite& c : m.functions[f].calls)
        if (!c.isPrintf && c.callee < nf && !seen[c.callee]) {
          seen[c.callee] = true;
          work.push_back(c.callee);
        }
    }
    SharedLayout& L = layouts[root];
    L.symbolOffset.assign(m.symbols.size(), SharedLayout::kUnplaced);
    uint64_t offset = 0;
    uint32_t dynAlign = 16;
    for (size_t s = 0; s < m.symbols.size(); ++s) {
      if (!used[s]) continue;
      const ir::Symbol& sym = m.symbols[s];
      if (isDynamicShared(sym)) {
        dynAlign = std::max(dynAlign, sym.align);
        continue;
      }
      const uint64_t a = std::max<uint32_t>(sym.align, 1);
      offset = (offset + a - 1) / a * a;
      L.symbolOffset[s] = static_cast<uint32_t>(offset);
      offset += sym.size;
    }
    L.staticBytes = static_cast<uint32_t>(offset);
    L.dynamicBase = static_cast<uint32_t>((offset + dynAlign - 1) / dynAlign * dynAlign);
    for (size_t s = 0; s < m.symbols.size(); ++s)
      if (used[s] && isDynamicShared(m.symbols[s])) L.symbolOffset[s] = L.dynamicBase;
  }
  return layouts;
}

class Linker {
 public:
  Linker(const ir::Module& m, const std::vector<uint64_t>& addrs) : m_(m), addrs_(addrs) {}

  LinkedFunction linkFunction(const ir::Function& f) {
    LinkedFunction lf;
    lf.numRegs = static_cast<uint32_t>(f.regs.size());
    lf.numPreds = static_cast<uint32_t>(f.preds.size());
    lf.frameParamBytes = f.frameParamBytes;
    lf.localBytes = f.localBytes;
    lf.localAlign = std::max<uint32_t>(f.localAlign, 1);
    if (f.isExtern) return lf;

    isConst_.assign(f.regs.size(), false);
    lf.regTemplate.assign(size_t{lf.numRegs} * kWarpSize, 0);
    for (const ir::ConstReg& c : f.constRegs) {
      if (c.reg >= lf.numRegs) fail(f.line, fmt::format("constant register {} out of range", c.reg));
      isConst_[c.reg] = true;
      uint64_t v = static_cast<uint64_t>(c.value);
      if (c.symbol != ir::kNoSymbol) {
        if (symbolSpace(c.symbol, f.line) == ir::Space::Shared) {
          lf.sharedConsts.push_back({c.reg, c.symbol, c.value});
          continue;
        }
        v += symbolAddress(c.symbol, f.line);
      }
      const unsigned bits = f.regs[c.reg].bits;
      if (bits > 0 && bits < 64) v &= (uint64_t{1} << bits) - 1;
      std::fill_n(lf.regTemplate.begin() + static_cast<ptrdiff_t>(size_t{c.reg} * kWarpSize), kWarpSize, v);
    }

    lf.code.reserve(f.code.size() + 1);
    for (uint32_t pc = 0; pc < f.code.size(); ++pc) lf.code.push_back(linkInstr(f, pc));
    // Falling off the end of a function returns: a sentinel `ret` keeps the step loop free of
    // bounds checks.
    LinkedInstr sentinel;
    sentinel.in.op = ir::Op::Ret;
    sentinel.in.line = f.code.empty() ? f.line : f.code.back().line;
    sentinel.fn = execRet;
    lf.code.push_back(sentinel);
    return lf;
  }

 private:
  [[noreturn]] void fail(uint32_t line, const std::string& what) const {
    throw LinkError(fmt::format("{}:{}: error: {}", m_.sourceName, line, what));
  }
  ir::Space symbolSpace(uint32_t sym, uint32_t line) const {
    if (sym >= m_.symbols.size()) fail(line, fmt::format("reference to unknown symbol #{}", sym));
    return m_.symbols[sym].space;
  }
  uint64_t symbolAddress(uint32_t sym, uint32_t line) const {
    if (sym >= addrs_.size() || addrs_[sym] == 0)
      fail(line, fmt::format("symbol '{}' has no device address", m_.symbols[sym].name));
    return addrs_[sym];
  }
  unsigned regBits(const ir::Function& f, uint32_t r, unsigned fallback) const {
    if (r == ir::kNoReg || r >= f.regs.size() || f.regs[r].bits == 0) return fallback;
    return f.regs[r].bits;
  }

  // Folds global/const symbol addresses into the operand; decodes the address base.
  AddrDecode decodeAddress(ir::Operand& op, uint32_t line) {
    AddrDecode d;
    d.baseReg = op.kind == ir::OperandKind::Address ? op.reg : ir::kNoReg;
    switch (op.base) {
      case ir::AddrBase::None: break;
      case ir::AddrBase::ModuleSymbol:
        if (symbolSpace(op.symbol, line) == ir::Space::Shared) {
          d.kind = AddrKind::SharedSymbol;
          d.symbol = op.symbol;
        } else {
          op.imm += static_cast<int64_t>(symbolAddress(op.symbol, line));
          op.base = ir::AddrBase::None;
        }
        break;
      case ir::AddrBase::KernelParam: d.kind = AddrKind::KernelParam; break;
      case ir::AddrBase::FrameParam: d.kind = AddrKind::FrameParam; break;
      case ir::AddrBase::FrameLocal: d.kind = AddrKind::FrameLocal; break;
    }
    d.offset = op.imm;
    return d;
  }

  void checkCall(const ir::Function& f, const ir::Instr& in) const {
    if (in.target >= f.calls.size()) fail(in.line, "call without a call site");
    const ir::CallSite& site = f.calls[in.target];
    auto fits = [](uint32_t off, uint32_t size, uint32_t area) { return uint64_t{off} + size <= area; };
    if (site.isPrintf) {
      for (uint32_t off : site.argOffsets)
        if (!fits(off, 8, f.frameParamBytes)) fail(in.line, "vprintf argument outside the parameter area");
      for (uint32_t off : site.retOffsets)
        if (!fits(off, 4, f.frameParamBytes)) fail(in.line, "vprintf result outside the parameter area");
      return;
    }
    if (site.callee >= m_.functions.size()) fail(in.line, "call to an unknown function");
    const ir::Function& g = m_.functions[site.callee];
    if (g.isExtern)
      fail(in.line, fmt::format("call to '{}', which has no body (only vprintf is provided)", g.name));
    if (site.argOffsets.size() != g.params.size() || site.retOffsets.size() > g.rets.size())
      fail(in.line, fmt::format("call to '{}' passes {} arguments and {} results; it takes {} and {}", g.name,
                                site.argOffsets.size(), site.retOffsets.size(), g.params.size(), g.rets.size()));
    for (size_t i = 0; i < g.params.size(); ++i)
      if (!fits(site.argOffsets[i], g.params[i].size, f.frameParamBytes) ||
          !fits(g.params[i].offset, g.params[i].size, g.frameParamBytes))
        fail(in.line, fmt::format("argument {} of the call to '{}' lies outside a parameter area", i, g.name));
    for (size_t i = 0; i < site.retOffsets.size(); ++i)
      if (!fits(site.retOffsets[i], g.rets[i].size, f.frameParamBytes) ||
          !fits(g.rets[i].offset, g.rets[i].size, g.frameParamBytes))
        fail(in.line, fmt::format("result {} of the call to '{}' lies outside a parameter area", i, g.name));
  }

  // atom_hint: the arguments it reads lie in the caller's frame-param area (the parser checked
  // the callee's declaration against ir/atom_hint.h).
  void checkAtomHint(const ir::Function& f, const ir::Instr& in) const {
    if (in.target >= f.calls.size()) fail(in.line, "atom_hint without a call site");
    if (in.sub > static_cast<uint8_t>(ir::AtomHintOp::Deactivate)) fail(in.line, "atom_hint of an unknown kind");
    const ir::CallSite& site = f.calls[in.target];
    const std::span<const uint8_t> params = ir::atomHintParams(static_cast<ir::AtomHintOp>(in.sub));
    if (site.argOffsets.size() != params.size())
      fail(in.line, fmt::format("atom_hint passes {} arguments; it takes {}", site.argOffsets.size(), params.size()));
    for (size_t i = 0; i < params.size(); ++i)
      if (uint64_t{site.argOffsets[i]} + params[i] > f.frameParamBytes)
        fail(in.line, fmt::format("argument {} of atom_hint lies outside the parameter area", i));
  }

  LinkedInstr linkInstr(const ir::Function& f, uint32_t pc) {
    LinkedInstr li;
    li.in = f.code[pc];
    ir::Instr& in = li.in;
    li.reconvergePc = pc < f.reconvergePc.size() ? f.reconvergePc[pc] : ir::kNoTarget;

    // Address operands and symbol values.
    int addrIndex = -1;
    switch (in.op) {
      case ir::Op::Ld: case ir::Op::Ldu: case ir::Op::Atom: addrIndex = in.numDst; break;
      case ir::Op::St: case ir::Op::Red: case ir::Op::Prefetch: addrIndex = 0; break;
      default: break;
    }
    for (unsigned k = 0; k < in.numDst + in.numSrc && k < ir::kMaxOperands; ++k) {
      ir::Operand& op = in.ops[k];
      if (op.kind != ir::OperandKind::Address && op.kind != ir::OperandKind::Symbol) continue;
      AddrDecode d = decodeAddress(op, in.line);
      if (static_cast<int>(k) == addrIndex || op.kind == ir::OperandKind::Symbol) li.addr = d;
    }
    if (addrIndex >= 0) {
      li.space = in.space == ir::Space::None ? ir::Space::Generic : in.space;
      const unsigned eb = ir::bytes(in.type);
      li.elemBytes = static_cast<uint8_t>(eb);
      li.accessBytes = static_cast<uint8_t>(eb * std::max<unsigned>(in.vec, 1));  // ld/st/atom .vN
    }
    if (in.op == ir::Op::Call) checkCall(f, in);
    if (in.op == ir::Op::AtomHint) checkAtomHint(f, in);
    if (in.op == ir::Op::Bra && in.target >= f.code.size()) fail(in.line, "branch target out of range");

    // Destination widths and the registers an ExecRecord reports.
    if (in.numDst > 0) {
      const ir::Operand& d = in.ops[0];
      const unsigned fallback = std::max<unsigned>(ir::bits(in.type), 8);
      if (d.kind == ir::OperandKind::Vector) {
        for (unsigned k = 0; k < 4; ++k)
          li.dstBits[k] = static_cast<uint8_t>(regBits(f, d.vec[k], d.regBits ? d.regBits : fallback));
      } else {
        li.dstBits[0] = static_cast<uint8_t>(d.regBits ? d.regBits : regBits(f, d.reg, fallback));
      }
    }
    const ir::RegUses u = ir::regUses(in);
    for (unsigned k = 0; k < u.numDefs && li.numDstRegs < 4; ++k)
      if (u.defs[k] < isConst_.size() && !isConst_[u.defs[k]]) li.dstRegs[li.numDstRegs++] = u.defs[k];
    for (unsigned k = 0; k < u.numUses && li.numSrcRegs < 6; ++k)
      if (u.uses[k] < isConst_.size() && !isConst_[u.uses[k]]) li.srcRegs[li.numSrcRegs++] = u.uses[k];
    for (unsigned k = 0; k < in.numDst; ++k)
      if (in.ops[k].kind == ir::OperandKind::Pred) li.writesPred = true;

    bind(li);
    return li;
  }

  void bind(LinkedInstr& li) const {
    const ir::Instr& in = li.in;
    std::string err;
    ExecFn fn = bindEngine(li, &err);
    if (!fn && !err.empty()) fail(in.line, fmt::format("unsupported {} in '{}'", err, ir::opName(in.op)));
    if (!fn) fn = bindIntAlu(in, &err);
    if (!fn && err.empty()) fn = bindFloatAlu(in, &err);
    if (!fn) {
      if (err.empty()) err = fmt::format("unsupported instruction '{}'", ir::opName(in.op));
      fail(in.line, err);
    }
    li.fn = fn;
  }

  const ir::Module& m_;
  const std::vector<uint64_t>& addrs_;
  std::vector<bool> isConst_;
};

}  // namespace

Program Program::link(const ir::Module& m, const std::vector<uint64_t>& symbolAddress) {
  Program p;
  p.module_ = m;
  p.layouts_ = layOutShared(p.module_);
  Linker linker(p.module_, symbolAddress);
  p.functions_.reserve(p.module_.functions.size());
  for (const ir::Function& f : p.module_.functions) p.functions_.push_back(linker.linkFunction(f));
  for (size_t i = 0; i < m.symbols.size() && i < symbolAddress.size(); ++i) {
    const ir::Symbol& s = m.symbols[i];
    if (s.space != ir::Space::Const || symbolAddress[i] == 0) continue;
    const uint64_t end = symbolAddress[i] + std::max<uint64_t>(s.size, 1);
    AddressRange& w = p.constWindow_;
    w.begin = w.end == 0 ? symbolAddress[i] : std::min(w.begin, symbolAddress[i]);
    w.end = std::max(w.end, end);
  }
  return p;
}

int Program::findKernel(const std::string& name) const {
  for (size_t i = 0; i < module_.functions.size(); ++i)
    if (module_.functions[i].isEntry && module_.functions[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace warpsim::func
