// The engine's own executors (memory, atomics, control, barriers, warp-level, special registers,
// address conversion) and the binder that picks one per instruction. Register-to-register
// executors come from func/alu/.
#pragma once
#include <string>

#include "func/exec_context.h"
#include "func/linked_instr.h"

namespace warpsim::func {

// Returns the engine executor for `li` (whose decode fields Program::link has filled), nullptr
// with *error empty when the instruction is not the engine's, or nullptr with *error set to a
// one-line reason when it is but the variant is unsupported. May fill li.atomic.
ExecFn bindEngine(LinkedInstr& li, std::string* error);

// memory (exec_memory.cpp)
void execLoad(const ir::Instr& in, ExecCtx& ctx);
void execStore(const ir::Instr& in, ExecCtx& ctx);
void execNop(const ir::Instr& in, ExecCtx& ctx);
// atomics (exec_atomic.cpp)
void execAtom(const ir::Instr& in, ExecCtx& ctx);
void execAtomVector(const ir::Instr& in, ExecCtx& ctx);  // .v2/.v4/.v8 (global memory)
using AtomicFn = uint64_t (*)(uint64_t old, uint64_t b, uint64_t c);
AtomicFn bindAtomic(const ir::Instr& in, std::string* error);
// control (exec_control.cpp)
void execBra(const ir::Instr& in, ExecCtx& ctx);
void execCall(const ir::Instr& in, ExecCtx& ctx);
void execRet(const ir::Instr& in, ExecCtx& ctx);
void execExit(const ir::Instr& in, ExecCtx& ctx);
void execTrap(const ir::Instr& in, ExecCtx& ctx);
void execBrkpt(const ir::Instr& in, ExecCtx& ctx);
void execBar(const ir::Instr& in, ExecCtx& ctx);
// XMem atom operations issued by a kernel (exec_atom_hint.cpp)
void execAtomHint(const ir::Instr& in, ExecCtx& ctx);
// warp-level (exec_warp.cpp)
void execShfl(const ir::Instr& in, ExecCtx& ctx);
void execVote(const ir::Instr& in, ExecCtx& ctx);
void execMatch(const ir::Instr& in, ExecCtx& ctx);
void execActivemask(const ir::Instr& in, ExecCtx& ctx);
// special registers and addresses (exec_special.cpp)
void execMovSpecial(const ir::Instr& in, ExecCtx& ctx);
void execMovSymbol(const ir::Instr& in, ExecCtx& ctx);
void execCvta(const ir::Instr& in, ExecCtx& ctx);
void execIsspacep(const ir::Instr& in, ExecCtx& ctx);

}  // namespace warpsim::func
