// Memory opcodes: ld ldu st atom red prefetch.
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

// atom d, [a], b[, c]  /  red [a], b
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
  b.mods.take("noftz");
  b.mods.takeIgnorable();
  in.type = b.oneType();
  checkDataType(b, in.type);
  if (ir::bits(in.type) < 16 || (ir::bits(in.type) == 16 && aop != ir::AtomOp::Cas && !ir::isFloat(in.type)))
    b.fail("unsupported type in '" + b.opcodeText() + "'");
  if (ir::isFloat(in.type) && aop != ir::AtomOp::Add && aop != ir::AtomOp::Exch &&
      aop != ir::AtomOp::Min && aop != ir::AtomOp::Max && aop != ir::AtomOp::Cas)
    b.fail("invalid floating-point atomic '" + b.opcodeText() + "'");
  size_t n = aop == ir::AtomOp::Cas ? 4 : 3;
  if (isRed) --n;
  b.expectCount(n);
  size_t i = 0;
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
