// atom / red on global, shared and generic addresses. Lanes are applied one after another in
// lane order, so contended updates see each other exactly as a serialised atomic unit would.
#include <bit>
#include <cmath>
#include <cstring>

#include "func/alu/lanes.h"
#include "func/executors.h"
#include "func/warp.h"

namespace warpsim::func {
namespace {

using ir::AtomOp;
using ir::Type;

template <class T>
T from(uint64_t v) {
  T x;
  std::memcpy(&x, &v, sizeof(T));
  return x;
}
template <class T>
uint64_t to(T x) {
  uint64_t v = 0;
  std::memcpy(&v, &x, sizeof(T));
  return v;
}

// atom.add.f32 flushes subnormal inputs and results to sign-preserving zero (PTX ISA, atom).
float ftz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// bf16 <-> f32: bf16 is the high half of an f32; rounding to nearest even.
float bf16ToF32(uint16_t h) { return from<float>(uint64_t{h} << 16); }
uint16_t f32ToBf16(float f) {
  uint32_t u = static_cast<uint32_t>(to(f));
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7FFF + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}
uint16_t addF16(uint16_t a, uint16_t b) {
  _Float16 x, y;
  std::memcpy(&x, &a, 2);
  std::memcpy(&y, &b, 2);
  _Float16 r = static_cast<_Float16>(static_cast<float>(x) + static_cast<float>(y));
  uint16_t out;
  std::memcpy(&out, &r, 2);
  return out;
}
uint16_t addBf16(uint16_t a, uint16_t b) { return f32ToBf16(bf16ToF32(a) + bf16ToF32(b)); }

template <class T>
uint64_t addI(uint64_t o, uint64_t b, uint64_t) { return to<T>(static_cast<T>(from<T>(o) + from<T>(b))); }
template <class T>
uint64_t minI(uint64_t o, uint64_t b, uint64_t) { return to<T>(std::min(from<T>(o), from<T>(b))); }
template <class T>
uint64_t maxI(uint64_t o, uint64_t b, uint64_t) { return to<T>(std::max(from<T>(o), from<T>(b))); }
template <class T>
uint64_t andB(uint64_t o, uint64_t b, uint64_t) { return to<T>(static_cast<T>(from<T>(o) & from<T>(b))); }
template <class T>
uint64_t orB(uint64_t o, uint64_t b, uint64_t) { return to<T>(static_cast<T>(from<T>(o) | from<T>(b))); }
template <class T>
uint64_t xorB(uint64_t o, uint64_t b, uint64_t) { return to<T>(static_cast<T>(from<T>(o) ^ from<T>(b))); }
template <class T>
uint64_t exch(uint64_t, uint64_t b, uint64_t) { return to<T>(from<T>(b)); }
template <class T>
uint64_t cas(uint64_t o, uint64_t b, uint64_t c) { return from<T>(o) == from<T>(b) ? to<T>(from<T>(c)) : to<T>(from<T>(o)); }
uint64_t incU32(uint64_t o, uint64_t b, uint64_t) {
  const auto x = static_cast<uint32_t>(o), lim = static_cast<uint32_t>(b);
  return x >= lim ? 0 : x + 1;
}
uint64_t decU32(uint64_t o, uint64_t b, uint64_t) {
  const auto x = static_cast<uint32_t>(o), lim = static_cast<uint32_t>(b);
  return (x == 0 || x > lim) ? lim : x - 1;
}
uint64_t addF32(uint64_t o, uint64_t b, uint64_t) { return to(ftz(ftz(from<float>(o)) + ftz(from<float>(b)))); }
uint64_t addF64(uint64_t o, uint64_t b, uint64_t) { return to(from<double>(o) + from<double>(b)); }
uint64_t addF16x1(uint64_t o, uint64_t b, uint64_t) { return addF16(static_cast<uint16_t>(o), static_cast<uint16_t>(b)); }
uint64_t addF16x2(uint64_t o, uint64_t b, uint64_t) {
  return addF16(static_cast<uint16_t>(o), static_cast<uint16_t>(b)) |
         uint64_t{addF16(static_cast<uint16_t>(o >> 16), static_cast<uint16_t>(b >> 16))} << 16;
}
uint64_t addBf16x1(uint64_t o, uint64_t b, uint64_t) { return addBf16(static_cast<uint16_t>(o), static_cast<uint16_t>(b)); }
uint64_t addBf16x2(uint64_t o, uint64_t b, uint64_t) {
  return addBf16(static_cast<uint16_t>(o), static_cast<uint16_t>(b)) |
         uint64_t{addBf16(static_cast<uint16_t>(o >> 16), static_cast<uint16_t>(b >> 16))} << 16;
}

template <class U, class S>
AtomicFn pick(AtomOp op, bool isSignedType, bool isBitType) {
  switch (op) {
    case AtomOp::Add: return isBitType ? nullptr : addI<U>;
    case AtomOp::Min: return isBitType ? nullptr : (isSignedType ? minI<S> : minI<U>);
    case AtomOp::Max: return isBitType ? nullptr : (isSignedType ? maxI<S> : maxI<U>);
    case AtomOp::And: return andB<U>;
    case AtomOp::Or: return orB<U>;
    case AtomOp::Xor: return xorB<U>;
    case AtomOp::Exch: return exch<U>;
    case AtomOp::Cas: return cas<U>;
    case AtomOp::Inc:
    case AtomOp::Dec: return nullptr;
  }
  return nullptr;
}

}  // namespace

AtomicFn bindAtomic(const ir::Instr& in, std::string* error) {
  const auto op = static_cast<AtomOp>(in.sub);
  const Type t = in.type;
  AtomicFn f = nullptr;
  switch (t) {
    case Type::U32: case Type::S32: case Type::B32:
      if (op == AtomOp::Inc) f = t == Type::U32 ? incU32 : nullptr;
      else if (op == AtomOp::Dec) f = t == Type::U32 ? decU32 : nullptr;
      else f = pick<uint32_t, int32_t>(op, t == Type::S32, t == Type::B32);
      break;
    case Type::U64: case Type::S64: case Type::B64:
      f = pick<uint64_t, int64_t>(op, t == Type::S64, t == Type::B64);
      break;
    case Type::B16: case Type::U16:
      f = op == AtomOp::Cas || op == AtomOp::Exch ? pick<uint16_t, int16_t>(op, false, true) : nullptr;
      break;
    case Type::F32: f = op == AtomOp::Add ? addF32 : (op == AtomOp::Exch ? exch<uint32_t> : nullptr); break;
    case Type::F64: f = op == AtomOp::Add ? addF64 : (op == AtomOp::Exch ? exch<uint64_t> : nullptr); break;
    case Type::F16: f = op == AtomOp::Add ? addF16x1 : nullptr; break;
    case Type::F16x2: f = op == AtomOp::Add ? addF16x2 : nullptr; break;
    case Type::BF16: f = op == AtomOp::Add ? addBf16x1 : nullptr; break;
    case Type::BF16x2: f = op == AtomOp::Add ? addBf16x2 : nullptr; break;
    default: break;
  }
  if (!f && error) *error = "atomic operation on this type";
  return f;
}

// atom: d = old; [a] = op(old, b, c).   red: [a] = op(old, b).
void execAtom(const ir::Instr& in, ExecCtx& ctx) {
  const LinkedInstr& li = linkedOf(in);
  Warp& w = *ctx.warp;
  const bool isAtom = in.op == ir::Op::Atom;
  const unsigned first = isAtom ? 1 : 0;  // index of the address operand
  const bool generic = li.space == ir::Space::Generic;
  const uint64_t base = w.addrBase(li.addr, generic);
  const uint64_t* breg = li.addr.baseReg != ir::kNoReg ? ctx.reg(li.addr.baseReg) : nullptr;
  const uint64_t* bv = ctx.reg(in.ops[first + 1].reg);
  const uint64_t* cv = (in.numDst + in.numSrc > first + 2) ? ctx.reg(in.ops[first + 2].reg) : nullptr;
  uint64_t* d = isAtom && in.ops[0].kind == ir::OperandKind::Reg ? ctx.reg(in.ops[0].reg) : nullptr;
  const uint64_t dmask = lanes::widthMask(li.dstBits[0]);
  const unsigned n = li.accessBytes;
  const uint64_t valueMask = lanes::widthMask(n * 8);
  ExecRecord* rec = ctx.record;
  if (rec) {
    rec->space = li.space;
    rec->accessBytes = li.accessBytes;
    rec->isAtomic = true;
    // The data operands b (and c): a register, or an immediate held in a constant register.
    const ir::Operand* data[2] = {&in.ops[first + 1], cv ? &in.ops[first + 2] : nullptr};
    const uint64_t* values[2] = {bv, cv};
    rec->numStoreRegs = cv ? 2 : 1;
    for (unsigned k = 0; k < rec->numStoreRegs; ++k) {
      const bool isReg = data[k]->kind == ir::OperandKind::Reg;
      rec->storeValues[k] = isReg ? values[k] : nullptr;
      rec->storeImm[k] = isReg ? 0 : values[k][0];
    }
  }
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    const uint64_t issued = base + (breg ? breg[lane] : 0);
    uint64_t a = issued;
    ir::Space space;
    uint8_t* p = w.resolve(li.space, a, n, lane, "atomic", &space);
    if (!p) return;
    uint64_t old = 0;
    std::memcpy(&old, p, n);
    const uint64_t nv = li.atomic(old, bv[lane] & valueMask, cv ? (cv[lane] & valueMask) : 0);
    std::memcpy(p, &nv, n);
    if (d) d[lane] = old & dmask;
    if (rec) {
      rec->addr[lane] = issued;
      rec->laneSpace[lane] = space;
    }
  }
}

}  // namespace warpsim::func
