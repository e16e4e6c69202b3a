// The decoded PTX instruction: every field an executor needs, resolved once at parse time.
//
// Conventions (the contract between ptx/ (producer) and func/ (consumer)):
//  * ops[0 .. numDst) are destinations, ops[numDst .. numDst+numSrc) are sources, in PTX order.
//    Exceptions, documented per opcode below: st/red have no destination; call and atom_hint
//    keep their operands in Function::calls[callIndex]; bra keeps its target in `target`.
//  * Every immediate source is an Operand{kind=Imm} whose `imm` holds the bits, already converted
//    to the instruction's operand type (0f3F800000 and 1.0 give the same bits for .f32), AND whose
//    `reg` names a hidden constant register that holds the same bits in all 32 lanes (see
//    Function::constRegs). Executors may therefore read every Reg/Imm source as a register.
//  * A register holds its value in the low `bits(type)` bits and zeros above (a 32-bit -1 is
//    0x00000000FFFFFFFF in the 64-bit lane slot). Writers keep this invariant for their dst
//    register's declared width (Operand::regBits).
//  * Predicates live in their own index space (one 32-bit lane mask per predicate register).
#pragma once
#include <cstdint>

#include "ir/types.h"

namespace warpsim::ir {

enum class Op : uint8_t {
  Invalid,
  // integer and bit (also float where the PTX opcode is shared: add sub mul mad div abs neg min max)
  Add, Sub, Mul, Mad, Mul24, Mad24, Sad, Div, Rem, Abs, Neg, Min, Max,
  Popc, Clz, Bfind, Brev, Bfe, Bfi, Bmsk, Prmt, Shl, Shr, Shf, Lop3, And, Or, Xor, Not, Cnot,
  AddC, SubC, MadC, Dp4a, Dp2a,
  // floating point only
  Fma, Rcp, Sqrt, Rsqrt, Sin, Cos, Lg2, Ex2, Tanh, Copysign, Testp,
  // data movement and conversion
  Mov, Cvt, Cvta, Isspacep,
  // comparison and selection
  Setp, Set, Selp, Slct,
  // memory
  Ld, Ldu, St, Atom, Red, Prefetch,
  // synchronisation and warp-level
  Bar, Membar, Fence, Shfl, Vote, Match, Activemask,
  // control
  Bra, Call, Ret, Exit, Trap, Brkpt, Nanosleep,
  // a call to one of warpsim's device atom functions (include/warpsim/xmem.h), decoded as XMem's
  // ATOM_MAP / ATOM_UNMAP / ATOM_ACTIVATE / ATOM_DEACTIVATE instruction: sub is an AtomHintOp;
  // like call, its operands are in Function::calls[target] (the frame-param offsets of the
  // arguments), and the callee's body never runs
  AtomHint,
  Count_
};

// Broad class of an instruction, for statistics and for the timing model's unit selection.
enum class OpClass : uint8_t {
  IntAlu, IntMul, FpAlu, Fp64, Sfu, Half, Conversion, Move, Predicate,
  Load, Store, Atomic, Barrier, WarpSync, Control, Misc,
};

enum class Round : uint8_t { None, Rn, Rna, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rs };

enum class CmpOp : uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
};
enum class BoolOp : uint8_t { None, And, Or, Xor };
// mul/mad: .lo .hi .wide
enum class MulMode : uint8_t { None, Lo, Hi, Wide };

// Op-specific sub-operation, stored in Instr::sub. Which enum applies depends on Instr::op.
enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, Cas, Exch, And, Or, Xor };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
enum class MatchMode : uint8_t { Any, All };
// bar.sync / barrier.sync (Sync), bar.arrive / barrier.arrive (Arrive), bar.red.{popc,and,or}
enum class BarOp : uint8_t { Sync, Arrive, RedPopc, RedAnd, RedOr };
// prmt modes: default (no mode) and .f4e .b4e .rc8 .ecl .ecr .rc16
enum class PrmtMode : uint8_t { Default, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
// testp classes
enum class TestpClass : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };
// shf direction (wrap/clamp is a flag)
enum class ShfDir : uint8_t { Left, Right };
// atom_hint (Instr::sub): which of warpsim's device atom functions was called (ptx/atom_calls.h).
// The maps take map_or_unmap as their last argument, so Map* is ATOM_MAP or ATOM_UNMAP per lane.
enum class AtomHintOp : uint8_t { Map, Map2D, Map3D, Activate, Deactivate };
// membar / fence scope (Instr::sub). bar.warp.sync is lowered to Op::Fence with one source (mask).
enum class FenceScope : uint8_t { Cta, Gpu, Sys, Cluster };

// Instruction flags (Instr::flags bit set).
enum Flag : uint32_t {
  kFtz = 1u << 0,
  kSat = 1u << 1,
  kApprox = 1u << 2,
  kFull = 1u << 3,
  kSetsCC = 1u << 4,      // .cc: writes the carry flag
  kUni = 1u << 5,         // bra.uni / call.uni
  kRelu = 1u << 6,
  kShiftAmt = 1u << 7,    // bfind.shiftamt
  kClamp = 1u << 8,       // shf.clamp, bmsk.clamp (else .wrap)
  kNonCoherent = 1u << 9, // ld.global.nc
  kVolatile = 1u << 10,
  kToSpace = 1u << 11,    // cvta.to.<space> (generic -> space); absent: space -> generic
  kAligned = 1u << 12,    // bar.sync.aligned / barrier.sync.aligned
  kHasBarCount = 1u << 13,// bar with explicit thread count operand
  kNoFtzSub = 1u << 14,   // reserved
  kPartial = 1u << 15,    // reserved
  kSpill = 1u << 16,      // inserted by register allocation: a spill or call-save ld/st.local
  kRemat = 1u << 17,      // inserted by register allocation: a value re-computed before a use
  kNoFtz = 1u << 18,      // atom/red .noftz: subnormal inputs and results are kept
  kL2Only = 1u << 19,     // ld .cg / .cv: cached in the L2, not the L1 (PTX cache operators)
};

enum class SpecialReg : uint8_t {
  Tid, Ntid, Ctaid, Nctaid, LaneId, WarpId, NWarpId, SmId, NSmId, GridId,
  LaneMaskEq, LaneMaskLe, LaneMaskLt, LaneMaskGe, LaneMaskGt,
  Clock, Clock64, GlobalTimer, GlobalTimerLo, GlobalTimerHi,
  DynamicSmemSize, TotalSmemSize, AggrSmemSize, ClusterCtaRank, ClusterNctarank, Pm0,
  EnvReg,  // %envregN (comp = N)
};

enum class OperandKind : uint8_t {
  None,
  Reg,      // value register: reg
  Pred,     // predicate register: reg (index in the predicate space), negate for !%p
  Imm,      // immediate: imm (bits), reg (hidden constant register)
  Special,  // special register: sreg, comp (0..2 for .x/.y/.z)
  Address,  // [base + symbol + imm]: reg (base register or kNoReg), base (what the symbol is), imm
  Vector,   // {a, b, c, d}: count, vec[] (register indices; kNoReg for the sink `_`)
  Symbol,   // the address of a symbol as a value (mov %rd, sym): base, imm (offset in its space)
  Sink,     // `_` as a scalar destination
};

// What an address (or symbol value) is relative to. The lowering folds function-scope symbols
// into `imm`; module-scope symbols keep their id in `symbol` until the loader folds in the address.
enum class AddrBase : uint8_t {
  None,         // absolute (register and/or immediate only)
  ModuleSymbol, // module-scope .global/.const/.shared variable `symbol`; imm is the offset into it
  KernelParam,  // offset into the kernel argument buffer
  FrameParam,   // offset into the current call frame's per-thread param area
  FrameLocal,   // offset from the current call frame's base in per-thread local memory
};

inline constexpr uint32_t kNoReg = 0xFFFFFFFFu;
inline constexpr uint32_t kNoSymbol = 0xFFFFFFFFu;
inline constexpr uint32_t kNoTarget = 0xFFFFFFFFu;

struct Operand {
  OperandKind kind = OperandKind::None;
  bool negate = false;        // Pred sources: !%p
  uint8_t regBits = 0;        // Reg: declared width of the register (8/16/32/64)
  uint8_t count = 0;          // Vector: number of elements (2 or 4)
  SpecialReg sreg = SpecialReg::Tid;
  uint8_t comp = 0;           // Special: 0 = .x, 1 = .y, 2 = .z (and N for %envregN)
  AddrBase base = AddrBase::None;
  uint32_t reg = kNoReg;      // see OperandKind
  uint32_t symbol = kNoSymbol;// Address/Symbol with base == ModuleSymbol: Module::symbols index
  uint32_t vec[4] = {kNoReg, kNoReg, kNoReg, kNoReg};
  int64_t imm = 0;            // Imm bits; Address/Symbol byte offset
};

inline constexpr unsigned kMaxOperands = 6;

struct Instr {
  Op op = Op::Invalid;
  Type type = Type::None;   // the instruction type (.s32 in add.s32; destination type of cvt;
                            // comparison type of setp; source type of mul.wide.s32)
  Type type2 = Type::None;  // second type: cvt source, set/slct comparison type, cvta/atom n/a
  Space space = Space::None;// ld/st/atom/red/prefetch/cvta/isspacep
  Round round = Round::None;
  CmpOp cmp = CmpOp::None;
  BoolOp boolOp = BoolOp::None;  // setp/set combine with a predicate
  MulMode mulMode = MulMode::None;
  uint8_t sub = 0;          // AtomOp / ShflMode / VoteMode / MatchMode / BarOp / PrmtMode /
                            // TestpClass / ShfDir / FenceScope / AtomHintOp, depending on op
  uint8_t vec = 1;          // ld/st/ldu .v2/.v4, atom/red .v2/.v4/.v8 element count. A .v8
                            // atom/red splits each data vector into two Vector operands of four
  uint8_t numDst = 0;
  uint8_t numSrc = 0;
  uint32_t flags = 0;       // Flag bits
  uint32_t guard = kNoReg;  // guard predicate register, kNoReg when unguarded
  bool guardNegate = false; // @!%p
  uint32_t target = kNoTarget;  // bra: instruction index in the function; call, atom_hint:
                                // index into Function::calls
  uint32_t line = 0;        // line in the PTX text
  uint32_t locFile = 0;     // last .loc before this instruction: file id (0 = none) and line
  uint32_t locLine = 0;
  Operand ops[kMaxOperands];

  const Operand& dst(unsigned i = 0) const { return ops[i]; }
  const Operand& src(unsigned i) const { return ops[numDst + i]; }
  bool has(Flag f) const { return (flags & f) != 0; }
};

// Opcode name as written in PTX ("add", "ld", ...), for messages and statistics.
const char* opName(Op op);
// Broad class for statistics and unit selection.
OpClass opClass(const Instr& in);
const char* opClassName(OpClass c);

}  // namespace warpsim::ir
