// Chooses the engine executor of an instruction (see executors.h).
#include "func/executors.h"

namespace warpsim::func {

ExecFn bindEngine(LinkedInstr& li, std::string* error) {
  const ir::Instr& in = li.in;
  switch (in.op) {
    case ir::Op::Ld:
    case ir::Op::Ldu:
    case ir::Op::St:
      if (li.elemBytes == 0 || li.elemBytes > 8 || (in.vec != 1 && in.vec != 2 && in.vec != 4)) {
        *error = "memory access of this type or vector width";
        return nullptr;
      }
      return in.op == ir::Op::St ? execStore : execLoad;
    case ir::Op::Atom:
    case ir::Op::Red:
      li.atomic = bindAtomic(in, error);
      if (!li.atomic) return nullptr;
      return in.vec > 1 ? execAtomVector : execAtom;
    case ir::Op::Prefetch:
    case ir::Op::Membar:
    case ir::Op::Fence:
    case ir::Op::Nanosleep:
      return execNop;
    case ir::Op::Bar: return execBar;
    case ir::Op::Shfl:
      if (ir::bits(in.type) != 32) {
        *error = "shfl on a type other than .b32";
        return nullptr;
      }
      return execShfl;
    case ir::Op::Vote: return execVote;
    case ir::Op::Match:
      if (ir::bits(in.type) != 32 && ir::bits(in.type) != 64) {
        *error = "match on a type other than .b32/.b64";
        return nullptr;
      }
      return execMatch;
    case ir::Op::Activemask: return execActivemask;
    case ir::Op::Bra: return execBra;
    case ir::Op::Call: return execCall;
    case ir::Op::AtomHint: return execAtomHint;
    case ir::Op::Ret: return execRet;
    case ir::Op::Exit: return execExit;
    case ir::Op::Trap: return execTrap;
    case ir::Op::Brkpt: return execBrkpt;
    case ir::Op::Mov:
      if (in.numSrc >= 1 && in.src(0).kind == ir::OperandKind::Special) return execMovSpecial;
      if (in.numSrc >= 1 && in.src(0).kind == ir::OperandKind::Symbol) return execMovSymbol;
      return nullptr;
    case ir::Op::Cvta: return execCvta;
    case ir::Op::Isspacep: return execIsspacep;
    default: return nullptr;
  }
}

}  // namespace warpsim::func
