// Integer, bit-manipulation and floating-point arithmetic opcodes.
#include "ptx/lowering.h"

namespace warpsim::ptx::detail {
namespace {

using ir::Op;
using ir::Type;

// How the operands of an arithmetic opcode are typed.
enum class Shape : uint8_t {
  Same,      // d, a[, b[, c]] all of the instruction type
  Mul,       // mul / mul24: .wide doubles d
  Mad,       // mad / mad24 / madc: .wide doubles d and c
  BitCount,  // popc clz bfind: d is .u32
  Shift,     // shl shr: b is .u32
  Bfe,       // d, a, b(u32), c(u32)
  Bfi,       // d, f, b, c(u32), d(u32)
  Bmsk,      // bmsk.{clamp,wrap}.b32 d, a(u32), b(u32)
  Prmt,      // d, a, b, c (all b32) + mode
  Shf,       // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c(u32)
  Lop3,      // d, a, b, c, immLut
  Dot,       // dp4a / dp2a: .atype.btype
  Testp,     // testp.class.type p, a
};

constexpr uint32_t kRoundFlag = 1u << 31;  // the opcode takes a rounding modifier

struct ArithSpec {
  std::string_view name;
  Op op;
  uint8_t numSrc;
  Shape shape;
  uint32_t allowed;  // ir::Flag bits (and kRoundFlag)
};

constexpr uint32_t F = ir::kFtz, S = ir::kSat, A = ir::kApprox, FU = ir::kFull, CC = ir::kSetsCC,
                   RL = ir::kRelu, R = kRoundFlag;

constexpr ArithSpec kSpecs[] = {
    {"add", Op::Add, 2, Shape::Same, R | F | S | CC},
    {"sub", Op::Sub, 2, Shape::Same, R | F | S | CC},
    {"mul", Op::Mul, 2, Shape::Mul, R | F | S},
    {"mad", Op::Mad, 3, Shape::Mad, R | F | S | CC},
    {"fma", Op::Fma, 3, Shape::Same, R | F | S | RL},
    {"mul24", Op::Mul24, 2, Shape::Mul, 0},
    {"mad24", Op::Mad24, 3, Shape::Mad, S},
    {"sad", Op::Sad, 3, Shape::Same, 0},
    {"div", Op::Div, 2, Shape::Same, R | F | A | FU},
    {"rem", Op::Rem, 2, Shape::Same, 0},
    {"abs", Op::Abs, 1, Shape::Same, F},
    {"neg", Op::Neg, 1, Shape::Same, F},
    {"min", Op::Min, 2, Shape::Same, F | RL},
    {"max", Op::Max, 2, Shape::Same, F | RL},
    {"popc", Op::Popc, 1, Shape::BitCount, 0},
    {"clz", Op::Clz, 1, Shape::BitCount, 0},
    {"bfind", Op::Bfind, 1, Shape::BitCount, 0},
    {"brev", Op::Brev, 1, Shape::Same, 0},
    {"bfe", Op::Bfe, 3, Shape::Bfe, 0},
    {"bfi", Op::Bfi, 4, Shape::Bfi, 0},
    {"bmsk", Op::Bmsk, 2, Shape::Bmsk, 0},
    {"prmt", Op::Prmt, 3, Shape::Prmt, 0},
    {"shl", Op::Shl, 2, Shape::Shift, 0},
    {"shr", Op::Shr, 2, Shape::Shift, 0},
    {"shf", Op::Shf, 3, Shape::Shf, 0},
    {"lop3", Op::Lop3, 4, Shape::Lop3, 0},
    {"and", Op::And, 2, Shape::Same, 0},
    {"or", Op::Or, 2, Shape::Same, 0},
    {"xor", Op::Xor, 2, Shape::Same, 0},
    {"not", Op::Not, 1, Shape::Same, 0},
    {"cnot", Op::Cnot, 1, Shape::Same, 0},
    {"addc", Op::AddC, 2, Shape::Same, CC},
    {"subc", Op::SubC, 2, Shape::Same, CC},
    {"madc", Op::MadC, 3, Shape::Mad, CC},
    {"dp4a", Op::Dp4a, 3, Shape::Dot, 0},
    {"dp2a", Op::Dp2a, 3, Shape::Dot, 0},
    {"rcp", Op::Rcp, 1, Shape::Same, R | F | A},
    {"sqrt", Op::Sqrt, 1, Shape::Same, R | F | A},
    {"rsqrt", Op::Rsqrt, 1, Shape::Same, F | A},
    {"sin", Op::Sin, 1, Shape::Same, F | A},
    {"cos", Op::Cos, 1, Shape::Same, F | A},
    {"lg2", Op::Lg2, 1, Shape::Same, F | A},
    {"ex2", Op::Ex2, 1, Shape::Same, F | A},
    {"tanh", Op::Tanh, 1, Shape::Same, A},
    {"copysign", Op::Copysign, 2, Shape::Same, 0},
    {"testp", Op::Testp, 1, Shape::Testp, 0},
};

bool isLogic(Op op) {
  return op == Op::And || op == Op::Or || op == Op::Xor || op == Op::Not || op == Op::Cnot;
}
bool isFloatOnly(Op op) {
  return op == Op::Fma || (op >= Op::Rcp && op <= Op::Testp);
}

// The same-signedness type of twice the width (for .wide results).
Type widen(Type t) {
  switch (t) {
    case Type::U16: return Type::U32;
    case Type::S16: return Type::S32;
    case Type::U32: return Type::U64;
    case Type::S32: return Type::S64;
    case Type::B16: return Type::B32;
    case Type::B32: return Type::B64;
    default: return Type::None;
  }
}

ir::Operand dstOf(InstrBuilder& b, size_t i, Type t) {
  return t == Type::Pred ? b.dstPred(b.raw(i)) : b.dstReg(b.raw(i), ir::bits(t));
}

}  // namespace

bool lowerArith(InstrBuilder& b) {
  const ArithSpec* spec = nullptr;
  for (const auto& s : kSpecs)
    if (s.name == b.mods.base()) spec = &s;
  if (!spec) return false;
  ir::Instr& in = b.in;
  in.op = spec->op;
  if (spec->allowed & kRoundFlag)
    if (auto r = b.mods.takeRound()) in.round = *r;
  b.takeFlags(spec->allowed);
  const std::string& name = b.opcodeText();

  if (spec->shape == Shape::Mul || spec->shape == Shape::Mad || spec->op == Op::Dp2a) {
    int m = b.mods.takeOneOf({"lo", "hi", "wide"});
    if (m >= 0) in.mulMode = static_cast<ir::MulMode>(m + 1);
  }
  if (spec->shape == Shape::Testp) {
    int c = b.mods.takeOneOf({"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
    if (c < 0) b.fail("'" + name + "' needs a class (.finite, .infinite, .number, .notanumber, .normal, .subnormal)");
    in.sub = static_cast<uint8_t>(c);
  }
  if (spec->shape == Shape::Prmt) {
    int m = b.mods.takeOneOf({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"});
    in.sub = static_cast<uint8_t>(m < 0 ? 0 : m + 1);
  }
  if (spec->shape == Shape::Shf) {
    int d = b.mods.takeOneOf({"l", "r"});
    int w = b.mods.takeOneOf({"wrap", "clamp"});
    if (d < 0 || w < 0) b.fail("'" + name + "' needs a direction (.l/.r) and a mode (.wrap/.clamp)");
    in.sub = static_cast<uint8_t>(d);
    if (w == 1) in.flags |= ir::kClamp;
  }
  if (spec->shape == Shape::Bmsk) {
    int w = b.mods.takeOneOf({"wrap", "clamp"});
    if (w < 0) b.fail("'" + name + "' needs a mode (.clamp/.wrap)");
    if (w == 1) in.flags |= ir::kClamp;
  }
  if (spec->op == Op::Bfind && b.mods.take("shiftamt")) in.flags |= ir::kShiftAmt;
  if (spec->op == Op::Add || spec->op == Op::Atom) b.mods.take("noftz");

  Type t;
  if (spec->shape == Shape::Dot) {
    auto ts = b.types(2);
    t = ts[0];
    in.type2 = ts[1];
    for (Type x : ts)
      if (x != Type::U32 && x != Type::S32) b.fail("'" + name + "' needs .u32 or .s32 types");
    if (spec->op == Op::Dp2a && in.mulMode != ir::MulMode::Lo && in.mulMode != ir::MulMode::Hi)
      b.fail("'" + name + "' needs .lo or .hi");
  } else {
    t = b.oneType();
  }
  in.type = t;
  if (t == Type::B128 || (t == Type::Pred && !isLogic(spec->op)))
    b.fail("invalid type for '" + name + "'");
  if (isFloatOnly(spec->op) && !ir::isFloat(t)) b.fail("'" + name + "' needs a floating-point type");
  bool intOnly = !(spec->op == Op::Add || spec->op == Op::Sub || spec->op == Op::Mul ||
                   spec->op == Op::Mad || spec->op == Op::Div || spec->op == Op::Abs ||
                   spec->op == Op::Neg || spec->op == Op::Min || spec->op == Op::Max ||
                   isFloatOnly(spec->op));
  if (intOnly && ir::isFloat(t)) b.fail("'" + name + "' needs an integer type");
  if (spec->op == Op::Mul || spec->op == Op::Mad) {
    if (ir::isFloat(t) && in.mulMode != ir::MulMode::None)
      b.fail("'" + name + "': .lo/.hi/.wide apply to integer types only");
    if (!ir::isFloat(t) && in.mulMode == ir::MulMode::None)
      b.fail("'" + name + "' needs .lo, .hi or .wide");
  }
  if ((spec->op == Op::Mul24 || spec->op == Op::Mad24 || spec->op == Op::MadC) && in.mulMode != ir::MulMode::Lo &&
      in.mulMode != ir::MulMode::Hi)
    b.fail("'" + name + "' needs .lo or .hi");

  b.expectCount(1 + spec->numSrc);
  Type u32 = Type::U32;
  switch (spec->shape) {
    case Shape::Same:
      b.addDst(dstOf(b, 0, t));
      for (unsigned i = 0; i < spec->numSrc; ++i) b.addSrc(b.src(b.raw(1 + i), t));
      break;
    case Shape::Mul:
    case Shape::Mad: {
      Type wide = t;
      if (in.mulMode == ir::MulMode::Wide) {
        wide = widen(t);
        if (wide == Type::None || !(t == Type::U16 || t == Type::S16 || t == Type::U32 || t == Type::S32))
          b.fail("'" + name + "' needs a 16- or 32-bit integer type");
      }
      b.addDst(b.dstReg(b.raw(0), ir::bits(wide)));
      b.addSrc(b.src(b.raw(1), t));
      b.addSrc(b.src(b.raw(2), t));
      if (spec->shape == Shape::Mad) b.addSrc(b.src(b.raw(3), wide));
      break;
    }
    case Shape::BitCount:
      if (t != Type::B32 && t != Type::B64 && t != Type::U32 && t != Type::U64 && t != Type::S32 &&
          t != Type::S64)
        b.fail("invalid type for '" + name + "'");
      b.addDst(b.dstReg(b.raw(0), 32));
      b.addSrc(b.src(b.raw(1), t));
      break;
    case Shape::Shift:
      b.addDst(b.dstReg(b.raw(0), ir::bits(t)));
      b.addSrc(b.src(b.raw(1), t));
      b.addSrc(b.src(b.raw(2), u32));
      break;
    case Shape::Bfe:
      b.addDst(b.dstReg(b.raw(0), ir::bits(t)));
      b.addSrc(b.src(b.raw(1), t));
      b.addSrc(b.src(b.raw(2), u32));
      b.addSrc(b.src(b.raw(3), u32));
      break;
    case Shape::Bfi:
      b.addDst(b.dstReg(b.raw(0), ir::bits(t)));
      b.addSrc(b.src(b.raw(1), t));
      b.addSrc(b.src(b.raw(2), t));
      b.addSrc(b.src(b.raw(3), u32));
      b.addSrc(b.src(b.raw(4), u32));
      break;
    case Shape::Bmsk:
      if (t != Type::B32) b.fail("'" + name + "' needs .b32");
      b.addDst(b.dstReg(b.raw(0), 32));
      b.addSrc(b.src(b.raw(1), u32));
      b.addSrc(b.src(b.raw(2), u32));
      break;
    case Shape::Prmt:
      if (t != Type::B32) b.fail("'" + name + "' needs .b32");
      b.addDst(b.dstReg(b.raw(0), 32));
      for (unsigned i = 1; i <= 3; ++i) b.addSrc(b.src(b.raw(i), t));
      break;
    case Shape::Shf:
      if (t != Type::B32) b.fail("'" + name + "' needs .b32");
      b.addDst(b.dstReg(b.raw(0), 32));
      b.addSrc(b.src(b.raw(1), t));
      b.addSrc(b.src(b.raw(2), t));
      b.addSrc(b.src(b.raw(3), u32));
      break;
    case Shape::Lop3:
      if (t != Type::B32) b.fail("'" + name + "' needs .b32");
      b.addDst(b.dstReg(b.raw(0), 32));
      for (unsigned i = 1; i <= 3; ++i) b.addSrc(b.src(b.raw(i), t));
      b.addSrc(b.immSrc(b.raw(4), Type::B8));
      break;
    case Shape::Dot:
      b.addDst(b.dstReg(b.raw(0), 32));
      b.addSrc(b.src(b.raw(1), Type::B32));
      b.addSrc(b.src(b.raw(2), Type::B32));
      b.addSrc(b.src(b.raw(3), (t == Type::S32 || in.type2 == Type::S32) ? Type::S32 : Type::U32));
      break;
    case Shape::Testp:
      if (t != Type::F32 && t != Type::F64) b.fail("'" + name + "' needs .f32 or .f64");
      b.addDst(b.dstPred(b.raw(0)));
      b.addSrc(b.src(b.raw(1), t));
      break;
  }
  return true;
}

}  // namespace warpsim::ptx::detail
