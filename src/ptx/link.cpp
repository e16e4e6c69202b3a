// Linking of separately compiled PTX units (see link.h).
//
// Merged indices are assigned first (definitions in unit order), then declarations and the
// definitions that gave way are mapped onto the definitions chosen, and only then are the chosen
// functions and variables moved into the linked module and their references renumbered. Every
// analysis of a function (blocks, reconvergence points, liveness) is local to it, so renumbering
// module-level indices keeps them valid.
#include "ptx/link.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "ptx/parse_error.h"
#include "ptx/parser.h"

namespace warpsim::ptx {
namespace {

using ir::Linkage;

constexpr uint32_t kUnmapped = 0xFFFFFFFFu;

// An extern .shared array without a size is the kernel's dynamic shared memory: each unit's own.
bool isDynamicShared(const ir::Symbol& s) {
  return s.space == ir::Space::Shared && (s.isDynamicShared || (s.isExtern && s.size == 0));
}

// Kernels are visible to the host by name, with or without .visible.
Linkage linkageOf(const ir::Function& f) { return f.isEntry ? Linkage::Visible : f.linkage; }
bool exported(Linkage l) { return l == Linkage::Visible || l == Linkage::Weak || l == Linkage::Common; }

// The definition an exported name resolves to.
struct Chosen {
  uint32_t unit, index;
  Linkage linkage;
  uint64_t size;  // variables: .common picks the largest
  uint32_t line;
};
using Table = std::unordered_map<std::string, Chosen>;

class Linker {
 public:
  Linker(std::vector<ir::Module>& units, const std::vector<uint32_t>& lineOffsets)
      : units_(units), lineOffsets_(lineOffsets) {}

  ir::Module run(std::string name) {
    ir::Module out;
    out.sourceName = std::move(name);
    out.files.emplace_back();  // file id 0: none
    header(out);
    chooseDefinitions();
    numberDefinitions();
    resolveDeclarations();
    build(out);
    return out;
  }

 private:
  [[noreturn]] void fail(uint32_t unit, uint32_t line, const std::string& message) const {
    throw ParseError(units_[unit].sourceName, line, message);
  }
  std::string where(uint32_t unit, uint32_t line) const {
    return units_[unit].sourceName + ":" + std::to_string(line);
  }

  void header(ir::Module& out) const {
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const ir::Module& m = units_[u];
      if (u > 0 && m.addressSize != out.addressSize)
        fail(u, 1, ".address_size " + std::to_string(m.addressSize) + " differs from " +
                       std::to_string(out.addressSize) + " in " + units_[0].sourceName);
      out.addressSize = m.addressSize;
      if (std::pair(m.versionMajor, m.versionMinor) > std::pair(out.versionMajor, out.versionMinor)) {
        out.versionMajor = m.versionMajor;
        out.versionMinor = m.versionMinor;
      }
      out.smTarget = std::max(out.smTarget, m.smTarget);
    }
  }

  // A .visible definition wins over .weak/.common ones, the largest .common over smaller ones,
  // the first .weak over later ones; two .visible definitions conflict.
  void offer(Table& table, const std::string& name, Chosen c, const char* what) const {
    auto [it, fresh] = table.try_emplace(name, c);
    if (fresh) return;
    Chosen& have = it->second;
    const bool strongHave = have.linkage == Linkage::Visible, strongNew = c.linkage == Linkage::Visible;
    if (strongHave && strongNew)
      fail(c.unit, c.line, std::string(what) + " '" + name + "' is defined twice (also at " +
                               where(have.unit, have.line) + ")");
    const bool biggerCommon = c.linkage == Linkage::Common && have.linkage == Linkage::Common &&
                              c.size > have.size;
    if ((strongNew && !strongHave) || biggerCommon) have = c;
  }

  void chooseDefinitions() {
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const ir::Module& m = units_[u];
      for (uint32_t i = 0; i < m.functions.size(); ++i) {
        const ir::Function& f = m.functions[i];
        if (!f.isExtern && exported(linkageOf(f)))
          offer(functions_, f.name, {u, i, linkageOf(f), 0, f.line}, "function");
      }
      for (uint32_t i = 0; i < m.symbols.size(); ++i) {
        const ir::Symbol& s = m.symbols[i];
        if (!s.isExtern && !isDynamicShared(s) && exported(s.linkage))
          offer(symbols_, s.name, {u, i, s.linkage, s.size, s.line}, "variable");
      }
    }
  }

  static bool isChosen(const Table& table, const std::string& name, uint32_t u, uint32_t i) {
    auto it = table.find(name);
    return it != table.end() && it->second.unit == u && it->second.index == i;
  }

  // Definitions that stay: every unit's own (file scope, dynamic shared) and the chosen ones.
  void numberDefinitions() {
    funcMap_.resize(units_.size());
    symMap_.resize(units_.size());
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const ir::Module& m = units_[u];
      funcMap_[u].assign(m.functions.size(), kUnmapped);
      symMap_[u].assign(m.symbols.size(), kUnmapped);
      for (uint32_t i = 0; i < m.functions.size(); ++i) {
        const ir::Function& f = m.functions[i];
        if (f.isExtern) continue;
        if (!exported(linkageOf(f)) || isChosen(functions_, f.name, u, i)) {
          funcMap_[u][i] = static_cast<uint32_t>(funcOrder_.size());
          funcOrder_.emplace_back(u, i);
        }
      }
      for (uint32_t i = 0; i < m.symbols.size(); ++i) {
        const ir::Symbol& s = m.symbols[i];
        const bool own = isDynamicShared(s) || (!s.isExtern && !exported(s.linkage));
        if (own || (!s.isExtern && isChosen(symbols_, s.name, u, i))) {
          symMap_[u][i] = static_cast<uint32_t>(symOrder_.size());
          symOrder_.emplace_back(u, i);
        }
      }
    }
  }

  // What unit u uses: functions it calls (vprintf is the engine's, the device atom functions are
  // instructions whose callee never runs) and variables it names.
  std::vector<bool> calledIn(uint32_t u) const {
    const ir::Module& m = units_[u];
    std::vector<bool> called(m.functions.size(), false);
    for (const ir::Function& f : m.functions)
      for (const ir::CallSite& c : f.calls)
        if (!c.isPrintf && !c.isAtomHint && c.callee < called.size()) called[c.callee] = true;
    return called;
  }
  std::vector<bool> namedIn(uint32_t u) const {
    const ir::Module& m = units_[u];
    std::vector<bool> named(m.symbols.size(), false);
    auto note = [&](uint32_t s) {
      if (s < named.size()) named[s] = true;
    };
    for (const ir::Function& f : m.functions) {
      for (const ir::ConstReg& c : f.constRegs) note(c.symbol);
      for (const ir::Instr& in : f.code)
        for (unsigned k = 0; k < in.numDst + in.numSrc && k < ir::kMaxOperands; ++k) {
          const ir::Operand& op = in.ops[k];
          if ((op.kind == ir::OperandKind::Address || op.kind == ir::OperandKind::Symbol) &&
              op.base == ir::AddrBase::ModuleSymbol)
            note(op.symbol);
        }
    }
    for (const ir::Symbol& s : m.symbols)
      for (const ir::Symbol::AddrInit& a : s.addrInits) note(a.target);
    return named;
  }

  static bool sameSignature(const std::vector<ir::Param>& a, const std::vector<ir::Param>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const ir::Param& x, const ir::Param& y) { return x.size == y.size; });
  }

  // Declarations (and definitions that gave way) take the chosen definition's index; a used
  // declaration nobody defines is an error, an unused one (or vprintf) stays, once per name.
  void resolveDeclarations() {
    std::unordered_map<std::string, uint32_t> undefinedFuncs, undefinedSyms;
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const ir::Module& m = units_[u];
      const std::vector<bool> called = calledIn(u), named = namedIn(u);
      for (uint32_t i = 0; i < m.functions.size(); ++i) {
        if (funcMap_[u][i] != kUnmapped) continue;
        const ir::Function& f = m.functions[i];
        if (auto it = functions_.find(f.name); it != functions_.end()) {
          const Chosen& c = it->second;
          const ir::Function& def = units_[c.unit].functions[c.index];
          if (def.isEntry != f.isEntry || !sameSignature(def.params, f.params) ||
              !sameSignature(def.rets, f.rets))
            fail(u, f.line, "declaration of '" + f.name + "' does not match its definition at " +
                                where(c.unit, c.line));
          funcMap_[u][i] = funcMap_[c.unit][c.index];
          continue;
        }
        if (called[i]) fail(u, f.line, "unresolved function '" + f.name + "': no unit defines it (warpsim provides only vprintf)");
        auto [it, fresh] = undefinedFuncs.try_emplace(f.name, static_cast<uint32_t>(funcOrder_.size()));
        if (fresh) funcOrder_.emplace_back(u, i);
        funcMap_[u][i] = it->second;
      }
      for (uint32_t i = 0; i < m.symbols.size(); ++i) {
        if (symMap_[u][i] != kUnmapped) continue;
        const ir::Symbol& s = m.symbols[i];
        if (auto it = symbols_.find(s.name); it != symbols_.end()) {
          const Chosen& c = it->second;
          const ir::Symbol& def = units_[c.unit].symbols[c.index];
          if (def.space != s.space)
            fail(u, s.line, "declaration of '" + s.name + "' does not match the state space of its "
                            "definition at " + where(c.unit, c.line));
          symMap_[u][i] = symMap_[c.unit][c.index];
          continue;
        }
        if (named[i]) fail(u, s.line, "unresolved variable '" + s.name + "': no unit defines it");
        auto [it, fresh] = undefinedSyms.try_emplace(s.name, static_cast<uint32_t>(symOrder_.size()));
        if (fresh) symOrder_.emplace_back(u, i);
        symMap_[u][i] = it->second;
      }
    }
  }

  void build(ir::Module& out) {
    std::vector<uint32_t> fileOffset(units_.size());
    for (uint32_t u = 0; u < units_.size(); ++u) {
      fileOffset[u] = static_cast<uint32_t>(out.files.size() - 1);
      const auto& files = units_[u].files;
      for (size_t k = 1; k < files.size(); ++k) out.files.push_back(files[k]);
    }
    out.symbols.reserve(symOrder_.size());
    for (auto [u, i] : symOrder_) {
      ir::Symbol s = std::move(units_[u].symbols[i]);
      s.line += lineOffsets_[u];
      for (ir::Symbol::AddrInit& a : s.addrInits) a.target = symMap_[u][a.target];
      out.symbols.push_back(std::move(s));
    }
    out.functions.reserve(funcOrder_.size());
    for (auto [u, i] : funcOrder_) {
      ir::Function f = std::move(units_[u].functions[i]);
      const uint32_t lines = lineOffsets_[u];
      f.line += lines;
      for (ir::CallSite& c : f.calls) {
        c.callee = funcMap_[u][c.callee];
        c.line += lines;
      }
      for (ir::ConstReg& c : f.constRegs)
        if (c.symbol != ir::kNoSymbol) c.symbol = symMap_[u][c.symbol];
      for (ir::Instr& in : f.code) {
        in.line += lines;
        if (in.locFile != 0) in.locFile += fileOffset[u];
        for (unsigned k = 0; k < in.numDst + in.numSrc && k < ir::kMaxOperands; ++k) {
          ir::Operand& op = in.ops[k];
          if ((op.kind == ir::OperandKind::Address || op.kind == ir::OperandKind::Symbol) &&
              op.base == ir::AddrBase::ModuleSymbol)
            op.symbol = symMap_[u][op.symbol];
        }
      }
      out.functions.push_back(std::move(f));
    }
  }

  std::vector<ir::Module>& units_;
  const std::vector<uint32_t>& lineOffsets_;
  Table functions_, symbols_;
  std::vector<std::vector<uint32_t>> funcMap_, symMap_;  // per unit: index in the linked module
  std::vector<std::pair<uint32_t, uint32_t>> funcOrder_, symOrder_;  // (unit, index) per linked index
};

bool endsLine(std::string_view text) { return text.empty() || text.back() == '\n'; }

}  // namespace

std::string joinUnits(const std::vector<Unit>& units) {
  std::string out;
  for (const Unit& u : units) {
    out += u.text;
    if (!endsLine(u.text)) out += '\n';
  }
  return out;
}

ir::Module parseLinked(const std::vector<Unit>& units, std::string name) {
  std::vector<ir::Module> parsed;
  std::vector<uint32_t> offsets;
  uint32_t lines = 0;
  for (const Unit& u : units) {
    parsed.push_back(parseModule(u.text, u.name));
    offsets.push_back(lines);
    lines += static_cast<uint32_t>(std::count(u.text.begin(), u.text.end(), '\n')) + (endsLine(u.text) ? 0 : 1);
  }
  return linkModules(std::move(parsed), offsets, std::move(name));
}

ir::Module linkModules(std::vector<ir::Module> units, const std::vector<uint32_t>& lineOffsets,
                       std::string name) {
  if (units.empty()) throw ParseError(name, 0, "nothing to link");
  if (lineOffsets.size() != units.size()) throw ParseError(name, 0, "one line offset per unit expected");
  return Linker(units, lineOffsets).run(std::move(name));
}

}  // namespace warpsim::ptx
