// atom / red on global, shared and generic addresses. Lanes are applied one after another in
// lane order, so contended updates see each other exactly as a serialised atomic unit would.
// A vector atom/red (.v2/.v4/.v8, global memory only) is one atomic per element: PTX guarantees
// atomicity per element, not for the vector, and each lane applies its elements in order.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "func/address_space.h"
#include "func/alu/half.h"
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

// atom.add.f32 flushes subnormal inputs and results to sign-preserving zero on global memory
// (PTX ISA, atom).
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

// atom.add.f32 on shared memory, and with .noftz: subnormals are kept.
uint64_t addF32Exact(uint64_t o, uint64_t b, uint64_t) { return to(from<float>(o) + from<float>(b)); }

// Floating-point min/max as the non-atomic min/max instructions compute them (PTX ISA, min):
// a NaN operand yields the other one, two NaNs the canonical NaN, -0.0 < +0.0. Subnormals are
// kept (.noftz). bf16 and f16 values compare exactly as floats.
template <fp::Format F, bool Min>
uint16_t minMaxHalf(uint16_t a, uint16_t b) {
  const bool nanA = fp::isNaN<F>(a), nanB = fp::isNaN<F>(b);
  if (nanA && nanB) return static_cast<uint16_t>(fp::FormatInfo<F>::kCanonicalNaN);
  if (nanA) return b;
  if (nanB) return a;
  const float x = fp::toFloat<F>(a), y = fp::toFloat<F>(b);
  if (x == y) return ((a & fp::FormatInfo<F>::kSign) != 0) == Min ? a : b;  // +0 vs -0
  return (x < y) == Min ? a : b;
}
// The stored value is the old one, b the operand: min(old, b).
template <fp::Format F, bool Min>
uint64_t minMax1(uint64_t o, uint64_t b, uint64_t) {
  return minMaxHalf<F, Min>(static_cast<uint16_t>(o), static_cast<uint16_t>(b));
}
template <fp::Format F, bool Min>
uint64_t minMax2(uint64_t o, uint64_t b, uint64_t) {
  return minMaxHalf<F, Min>(static_cast<uint16_t>(o), static_cast<uint16_t>(b)) |
         uint64_t{minMaxHalf<F, Min>(static_cast<uint16_t>(o >> 16), static_cast<uint16_t>(b >> 16))} << 16;
}
template <fp::Format F, bool Packed>
AtomicFn pickHalf(AtomOp op, AtomicFn add) {
  switch (op) {
    case AtomOp::Add: return add;
    case AtomOp::Min: return Packed ? minMax2<F, true> : minMax1<F, true>;
    case AtomOp::Max: return Packed ? minMax2<F, false> : minMax1<F, false>;
    default: return nullptr;
  }
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
    case Type::F32:
      f = op == AtomOp::Add ? (in.has(ir::kNoFtz) ? addF32Exact : addF32)
                            : (op == AtomOp::Exch ? exch<uint32_t> : nullptr);
      break;
    case Type::F64: f = op == AtomOp::Add ? addF64 : (op == AtomOp::Exch ? exch<uint64_t> : nullptr); break;
    case Type::F16: f = pickHalf<fp::kF16, false>(op, addF16x1); break;
    case Type::F16x2: f = pickHalf<fp::kF16, true>(op, addF16x2); break;
    case Type::BF16: f = pickHalf<fp::kBf16, false>(op, addBf16x1); break;
    case Type::BF16x2: f = pickHalf<fp::kBf16, true>(op, addBf16x2); break;
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
  // atom.add.f32 flushes subnormals on global memory only (PTX ISA, atom).
  const AtomicFn sharedFn = li.atomic == addF32 ? addF32Exact : li.atomic;
  const uint64_t spaceMask = addressMask(li.space);  // shared addresses are 32-bit
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
    const uint64_t issued = (base + (breg ? breg[lane] : 0)) & spaceMask;
    uint64_t a = issued;
    ir::Space space;
    uint8_t* p = w.resolve(li.space, a, n, lane, "atomic", &space);
    if (!p) return;
    uint64_t old = 0;
    std::memcpy(&old, p, n);
    const AtomicFn fn = space == ir::Space::Shared ? sharedFn : li.atomic;
    const uint64_t nv = fn(old, bv[lane] & valueMask, cv ? (cv[lane] & valueMask) : 0);
    std::memcpy(p, &nv, n);
    if (d) d[lane] = old & dmask;
    if (rec) {
      rec->addr[lane] = issued;
      rec->laneSpace[lane] = space;
    }
  }
}

// Vector atom {d...}, [a], {b...} / red [a], {b...}: element k of a lane's vector is updated
// with b_k at a + k * elemBytes. A .v8 holds each data vector in two operands of four.
void execAtomVector(const ir::Instr& in, ExecCtx& ctx) {
  const LinkedInstr& li = linkedOf(in);
  Warp& w = *ctx.warp;
  const bool isAtom = in.op == ir::Op::Atom;
  const unsigned count = in.vec;
  const unsigned eb = li.elemBytes;
  const ir::Operand* bOps = &in.ops[in.numDst + 1];
  const uint64_t* b[8];
  uint64_t* d[8] = {};
  for (unsigned k = 0; k < count; ++k) {
    b[k] = ctx.reg(bOps[k / 4].vec[k % 4]);
    const uint32_t dr = isAtom ? in.ops[k / 4].vec[k % 4] : ir::kNoReg;
    d[k] = dr != ir::kNoReg ? ctx.reg(dr) : nullptr;  // `_` elements are not written
  }
  const bool generic = li.space == ir::Space::Generic;
  const uint64_t base = w.addrBase(li.addr, generic);
  const uint64_t* breg = li.addr.baseReg != ir::kNoReg ? ctx.reg(li.addr.baseReg) : nullptr;
  const uint64_t elemMask = lanes::widthMask(eb * 8);  // data registers are exactly this wide
  ExecRecord* rec = ctx.record;
  if (rec) {
    rec->space = li.space;
    rec->accessBytes = li.accessBytes;
    rec->isAtomic = true;
    // The record holds four data elements: a .v8 reports its first four. An element that is
    // not among the instruction's source registers (constants excluded, the address base and
    // these elements come first) is an immediate in its hidden constant register.
    rec->numStoreRegs = static_cast<uint8_t>(std::min(count, 4u));
    for (unsigned k = 0; k < rec->numStoreRegs; ++k) {
      const uint32_t reg = bOps[0].vec[k];
      const bool isReg = std::find(li.srcRegs, li.srcRegs + li.numSrcRegs, reg) != li.srcRegs + li.numSrcRegs;
      rec->storeValues[k] = isReg ? b[k] : nullptr;
      rec->storeImm[k] = isReg ? 0 : b[k][0];
    }
  }
  for (uint32_t m = ctx.mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    const uint64_t issued = base + (breg ? breg[lane] : 0);
    if (generic && genericSpace(issued) != ir::Space::Global) {
      w.fault(lane, fmt::format("illegal vector atomic of {} bytes at generic address {:#x} (not global "
                                "memory: vector atomics reach global memory only)",
                                li.accessBytes, issued));
      return;
    }
    uint64_t a = issued;
    ir::Space space;
    uint8_t* p = w.resolve(li.space, a, li.accessBytes, lane, "atomic", &space);
    if (!p) return;
    for (unsigned k = 0; k < count; ++k) {
      uint64_t old = 0;
      std::memcpy(&old, p + k * eb, eb);
      const uint64_t nv = li.atomic(old, b[k][lane] & elemMask, 0);
      std::memcpy(p + k * eb, &nv, eb);
      if (d[k]) d[k][lane] = old;
    }
    if (rec) {
      rec->addr[lane] = issued;
      rec->laneSpace[lane] = space;
    }
  }
}

}  // namespace warpsim::func
