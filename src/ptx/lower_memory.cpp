// Memory opcodes: ld ldu st atom red prefetch.
#include <string>

#include "ptx/lowering.h"

namespace warpsim::ptx::detail {
namespace {

using ir::Op;
using ir::Type;

// State space word (param is refined by InstrBuilder::address); Generic when absent.
void takeSpace(InstrBuilder& b) {
  auto s = b.mods.takeSpace();
  b.in.space = s ? *s : ir::Space::Generic;
}

void checkDataType(InstrBuilder& b, Type t) {
  if (t == Type::Pred || t == Type::B128) b.fail("unsupported type in '" + b.opcodeText() + "'");
}

// ld / ldu: d or {d...}, [a]
void lowerLoad(InstrBuilder& b, bool isLdu) {
  ir::Instr& in = b.in;
  in.op = isLdu ? Op::Ldu : Op::Ld;
  if (b.mods.take("volatile")) in.flags |= ir::kVolatile;
  takeSpace(b);
  if (b.mods.take("nc")) {
    if (in.space != ir::Space::Global) b.fail("'" + b.opcodeText() + "': .nc needs .global");
    in.flags |= ir::kNonCoherent;
  }
  // Cache operators: .cg (cache globally) and .cv (fetch again) leave the L1 out; .ca, .cs, .lu
  // and the L1::/L2:: eviction hints are accepted and not modelled (takeIgnorable).
  if (b.mods.take("cg") || b.mods.take("cv")) in.flags |= ir::kL2Only;
  in.vec = static_cast<uint8_t>(b.mods.takeVector());
  b.mods.takeIgnorable();
  in.type = b.oneType();
  checkDataType(b, in.type);
  b.expectCount(2);
  const RawOperand& d = b.raw(0);
  ir::Operand dst = in.vec > 1 ? b.vector(d, in.type, in.vec, true, Width::AtLeast)
                               : b.dstReg(d, ir::bits(in.type), Width::AtLeast, false);
  ir::Operand addr = b.address(b.raw(1));
  b.addDst(dst);
  b.addSrc(addr);
}

// st [a], b or {b...}
void lowerStore(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::St;
  if (b.mods.take("volatile")) in.flags |= ir::kVolatile;
  takeSpace(b);
  in.vec = static_cast<uint8_t>(b.mods.takeVector());
  b.mods.takeIgnorable();
  in.type = b.oneType();
  checkDataType(b, in.type);
  b.expectCount(2);
  ir::Operand addr = b.address(b.raw(0));
  if (in.space == ir::Space::KernelParam) b.fail("'" + b.opcodeText() + "': kernel parameters are read-only");
  b.addSrc(addr);
  const RawOperand& v = b.raw(1);
  b.addSrc(in.vec > 1 ? b.vector(v, in.type, in.vec, false, Width::AtLeast)
                      : b.src(v, in.type, Width::AtLeast));
}

// The module must target `sm` or higher for `what` (as ptxas checks .target).
void requireTarget(InstrBuilder& b, uint32_t sm, const char* what) {
  const uint32_t target = b.parser().m_.smTarget;
  if (target < sm)
    b.fail("'" + b.opcodeText() + "': " + what + " requires .target sm_" + std::to_string(sm) +
           " or higher (the module targets sm_" + std::to_string(target) + ")");
}

bool isHalfType(Type t) {
  return t == Type::F16 || t == Type::BF16 || t == Type::F16x2 || t == Type::BF16x2;
}

// The vector forms (PTX ISA 8.1, sm_90; .global or generic addresses of global memory):
//   .v2 .v4      .f32            .add
//   .v2 .v4 .v8  .f16 .bf16      .add .min .max  (.noftz)
//   .v2 .v4      .f16x2 .bf16x2  .add .min .max  (.noftz)
void checkVectorAtomic(InstrBuilder& b, ir::AtomOp op, unsigned vec) {
  const Type t = b.in.type;
  const bool half = t == Type::F16 || t == Type::BF16;
  if (t != Type::F32 && !isHalfType(t))
    b.fail("'" + b.opcodeText() + "': a vector atomic takes .f32, .f16, .bf16, .f16x2 or .bf16x2");
  if (b.in.space != ir::Space::Global && b.in.space != ir::Space::Generic)
    b.fail("'" + b.opcodeText() + "': a vector atomic needs the .global space");
  if (vec == 8 && !half)
    b.fail("'" + b.opcodeText() + "': .v8 takes .f16 or .bf16 (the vector is at most 128 bits)");
  if (op != ir::AtomOp::Add && (t == Type::F32 || (op != ir::AtomOp::Min && op != ir::AtomOp::Max)))
    b.fail("'" + b.opcodeText() + "': a vector atomic of ." + ir::typeName(t) + " does only " +
           (t == Type::F32 ? ".add" : ".add, .min and .max"));
  requireTarget(b, 90, "a vector atomic");
}

// Destination or source data of a vector atomic: {e0, ..., eN-1} with elements exactly as wide
// as the type. A .v8 is split into two operands of four elements (an Operand holds four).
void addAtomicVector(InstrBuilder& b, const RawOperand& r, unsigned vec, bool isDst) {
  const Type t = b.in.type;
  if (vec <= 4) {
    const ir::Operand o = b.vector(r, t, vec, isDst, Width::Exact);
    isDst ? b.addDst(o) : b.addSrc(o);
    return;
  }
  if (r.kind == RawOperand::Kind::Vector && r.elems.size() != vec)
    b.vector(r, t, vec, isDst, Width::Exact);  // reports the element count
  for (unsigned half = 0; half < 2; ++half) {
    RawOperand part = r;
    if (r.kind == RawOperand::Kind::Vector)
      part.elems.assign(r.elems.begin() + half * 4, r.elems.begin() + half * 4 + 4);
    const ir::Operand o = b.vector(part, t, 4, isDst, Width::Exact);
    isDst ? b.addDst(o) : b.addSrc(o);
  }
}

// atom d, [a], b[, c]  /  red [a], b          scalar
// atom {d...}, [a], {b...}  /  red [a], {b...}  vector (.v2/.v4/.v8, see checkVectorAtomic)
void lowerAtomic(InstrBuilder& b, bool isRed) {
  ir::Instr& in = b.in;
  in.op = isRed ? Op::Red : Op::Atom;
  takeSpace(b);
  if (in.space != ir::Space::Generic && in.space != ir::Space::Global && in.space != ir::Space::Shared)
    b.fail("'" + b.opcodeText() + "' needs the .global or .shared space");
  int op = b.mods.takeOneOf({"add", "min", "max", "inc", "dec", "cas", "exch", "and", "or", "xor"});
  if (op < 0) b.fail("'" + b.opcodeText() + "' needs an operation (.add, .cas, ...)");
  in.sub = static_cast<uint8_t>(op);
  auto aop = static_cast<ir::AtomOp>(op);
  if (isRed && (aop == ir::AtomOp::Cas || aop == ir::AtomOp::Exch))
    b.fail("'" + b.opcodeText() + "': red has no ." + (aop == ir::AtomOp::Cas ? "cas" : "exch"));
  const int v = b.mods.takeOneOf({"v2", "v4", "v8"});
  const unsigned vec = v < 0 ? 1u : 2u << v;
  in.vec = static_cast<uint8_t>(vec);
  const bool noftz = b.mods.take("noftz");
  b.mods.takeIgnorable();
  in.type = b.oneType();
  checkDataType(b, in.type);
  const bool minMax = aop == ir::AtomOp::Min || aop == ir::AtomOp::Max;
  if (ir::bits(in.type) < 16 || (ir::bits(in.type) == 16 && aop != ir::AtomOp::Cas && !ir::isFloat(in.type)))
    b.fail("unsupported type in '" + b.opcodeText() + "'");
  if (ir::isFloat(in.type) && aop != ir::AtomOp::Add && aop != ir::AtomOp::Exch && !minMax &&
      aop != ir::AtomOp::Cas)
    b.fail("invalid floating-point atomic '" + b.opcodeText() + "'");
  // Floating-point .min/.max exist only for the half types, and only in the vector forms.
  if (ir::isFloat(in.type) && minMax && !isHalfType(in.type))
    b.fail("'" + b.opcodeText() + "': .min and .max take .u32, .s32, .u64, .s64, or .f16, .bf16, "
           ".f16x2, .bf16x2 in a vector form");
  if (ir::isFloat(in.type) && minMax && vec == 1)
    b.fail("'" + b.opcodeText() + "': floating-point .min and .max need a vector qualifier (.v2, .v4, .v8)");
  if (isHalfType(in.type) && (aop == ir::AtomOp::Add || minMax) && !noftz)
    b.fail("'" + b.opcodeText() + "': ." + ir::typeName(in.type) + " needs .noftz");
  if (noftz) {
    if (!(isHalfType(in.type) || in.type == Type::F32) || !(aop == ir::AtomOp::Add || minMax))
      b.fail("'" + b.opcodeText() + "': .noftz applies to .add, .min and .max of floating-point types");
    // atom.add.noftz.f32 keeps subnormals on global memory too (PTX ISA 9.4).
    if (in.type == Type::F32) requireTarget(b, 90, ".noftz on .f32");
    in.flags |= ir::kNoFtz;
  }
  if (vec > 1) checkVectorAtomic(b, aop, vec);
  size_t n = aop == ir::AtomOp::Cas ? 4 : 3;
  if (isRed) --n;
  b.expectCount(n);
  size_t i = 0;
  if (vec > 1) {
    if (!isRed) addAtomicVector(b, b.raw(i++), vec, true);
    b.addSrc(b.address(b.raw(i++)));
    addAtomicVector(b, b.raw(i++), vec, false);
    return;
  }
  if (!isRed) b.addDst(b.dstReg(b.raw(i++), ir::bits(in.type), Width::Exact, true));
  b.addSrc(b.address(b.raw(i++)));
  b.addSrc(b.src(b.raw(i++), in.type));
  if (aop == ir::AtomOp::Cas) b.addSrc(b.src(b.raw(i++), in.type));
}

// prefetch[.space].level [a]
void lowerPrefetch(InstrBuilder& b) {
  ir::Instr& in = b.in;
  in.op = Op::Prefetch;
  takeSpace(b);
  if (in.space != ir::Space::Generic && in.space != ir::Space::Global && in.space != ir::Space::Local)
    b.fail("'" + b.opcodeText() + "' needs the .global or .local space");
  b.mods.takeOneOf({"L1", "L2"});
  b.mods.takeIgnorable();
  b.expectCount(1);
  b.addSrc(b.address(b.raw(0)));
}

}  // namespace

bool lowerMemory(InstrBuilder& b) {
  std::string_view base = b.mods.base();
  if (base == "ld") lowerLoad(b, false);
  else if (base == "ldu") lowerLoad(b, true);
  else if (base == "st") lowerStore(b);
  else if (base == "atom") lowerAtomic(b, false);
  else if (base == "red") lowerAtomic(b, true);
  else if (base == "prefetch") lowerPrefetch(b);
  else return false;
  return true;
}

}  // namespace warpsim::ptx::detail
