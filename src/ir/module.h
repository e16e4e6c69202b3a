// A verified PTX module: module-scope symbols and functions of decoded instructions.
// Produced by ptx::parseModule(); immutable afterwards. Analyses (CFG, reconvergence points,
// liveness) are filled in by ir::analyze() as part of parsing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/instr.h"
#include "ir/types.h"

namespace warpsim::ir {

// How a module-scope name is seen by other modules (separate compilation links them, see
// ptx/link.h): None is file scope (internal), Extern declares a name another module defines,
// Weak and Common definitions give way to a Visible one (Common: the largest of several wins).
enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

// A module-scope variable: .global, .const or .shared (extern .shared: dynamic shared memory).
struct Symbol {
  std::string name;
  Space space = Space::None;   // Global, Const or Shared
  Type elemType = Type::None;
  uint64_t size = 0;           // bytes (0 for extern .shared arrays with no size)
  uint32_t align = 1;
  bool isExtern = false;
  Linkage linkage = Linkage::None;  // as declared (the definition's, once defined)
  bool isDynamicShared = false;// extern .shared .b8 name[]
  std::vector<uint8_t> init;   // initial bytes (empty: zero-filled); global/const only
  // Initializers that take the address of another symbol ({ sym, sym+8 } in pointer arrays):
  // at `offset` in `init`, store the generic address of symbols[target] + addend (8 bytes).
  struct AddrInit { uint64_t offset; uint32_t target; int64_t addend; };
  std::vector<AddrInit> addrInits;
  uint32_t line = 0;
};

// A .param declared by a function signature (kernel arguments, .func parameters and returns).
struct Param {
  std::string name;
  Type type = Type::None;
  uint32_t size = 0;   // bytes
  uint32_t align = 1;
  uint32_t offset = 0; // in the kernel argument buffer (entries) or the frame param area (.func)
  bool isPointer = false;  // .ptr attribute seen
};

// A `call` site. Return and argument operands are frame-param offsets in the caller.
struct CallSite {
  uint32_t callee = 0;                 // Module::functions index
  std::vector<uint32_t> retOffsets;    // caller frame-param offsets receiving return values
  std::vector<uint32_t> argOffsets;    // caller frame-param offsets of the arguments
  bool isPrintf = false;               // call to vprintf: the engine prints instead of calling
  // call to one of warpsim's device atom functions: decoded as Op::AtomHint (the callee never
  // runs, so it needs no body)
  bool isAtomHint = false;
  uint32_t line = 0;
};

// A hidden register holding an immediate (or a folded module-symbol address) in every lane.
struct ConstReg {
  uint32_t reg = 0;
  int64_t value = 0;
  uint32_t symbol = kNoSymbol;  // when set, value is an offset added to the symbol's address
};

struct RegInfo {
  std::string name;  // as written, e.g. "%r12", or "" for a constant register
  Type type = Type::None;
  uint8_t bits = 0;
};

// Per-function control-flow analysis.
struct BasicBlock {
  uint32_t first = 0, last = 0;          // instruction index range [first, last]
  std::vector<uint32_t> succs, preds;    // block indices
  // Immediate post-dominator block, computed ignoring paths that end in exit/trap (lanes that
  // stay reconverge where they meet); kNoTarget: the function exit.
  uint32_t ipdom = kNoTarget;
};

struct Function {
  std::string name;
  bool isEntry = false;
  bool isExtern = false;              // declaration only (e.g. vprintf)
  Linkage linkage = Linkage::None;    // as declared (the definition's, once defined)
  uint32_t line = 0;
  std::vector<Param> params;          // formal parameters
  std::vector<Param> rets;            // return parameters (.func only)
  uint32_t kernelParamBytes = 0;      // entries: size of the argument buffer
  uint32_t frameParamBytes = 0;       // per-thread frame param area (formals, rets, callseq)
  uint32_t localBytes = 0;            // per-thread .local frame size (depots, local arrays)
  uint32_t localAlign = 8;
  std::vector<RegInfo> regs;          // value registers; constant registers included
  std::vector<std::string> preds;     // predicate register names
  std::vector<ConstReg> constRegs;
  std::vector<Instr> code;
  std::vector<CallSite> calls;
  // performance directives (0 = absent)
  uint32_t maxntid[3] = {0, 0, 0}, reqntid[3] = {0, 0, 0};
  uint32_t minnctapersm = 0, maxnreg = 0;
  std::vector<std::string> pragmas;

  // Analyses (ir::analyze):
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> blockOf;      // instruction index -> block index
  // For every instruction: the pc where lanes that diverge at it reconverge (first instruction of
  // the immediate post-dominator block of its block); kNoTarget when that is the function exit.
  std::vector<uint32_t> reconvergePc;
  // Liveness: value registers live on entry to each block (bit set, one word per 64 regs).
  std::vector<std::vector<uint64_t>> liveIn;
  uint32_t maxLiveRegs = 0;           // peak number of simultaneously live value registers
};

struct Module {
  std::string sourceName;             // file name or "<string>"
  uint32_t versionMajor = 0, versionMinor = 0;
  uint32_t smTarget = 0;              // e.g. 75, 80, 90
  uint32_t addressSize = 64;
  std::vector<std::string> files;     // .file table; index = file id (0 unused)
  std::vector<Symbol> symbols;
  std::vector<Function> functions;

  int findFunction(const std::string& name) const;  // -1 if absent
  int findSymbol(const std::string& name) const;    // -1 if absent
};

// Build blocks, reconvergence points and liveness for every function.
void analyze(Module& m);

}  // namespace warpsim::ir
