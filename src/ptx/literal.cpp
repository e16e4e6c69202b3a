#include "ptx/literal.h"

#include <cmath>
#include <cstring>

namespace warpsim::ptx {
namespace {

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t doubleBits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double bitsDouble(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
uint64_t lowMask(unsigned bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }

// The literal's numeric value as a double (for float targets).
double asDouble(const Literal& lit) {
  switch (lit.kind) {
    case Literal::Kind::Int:
      return lit.negative ? static_cast<double>(static_cast<int64_t>(lit.bits))
                          : static_cast<double>(lit.bits);
    case Literal::Kind::F32Bits: return bitsFloat(static_cast<uint32_t>(lit.bits));
    case Literal::Kind::F64Bits: return bitsDouble(lit.bits);
    case Literal::Kind::Decimal: return lit.value;
  }
  return 0.0;
}

}  // namespace

Literal Literal::negated() const {
  Literal r = *this;
  switch (kind) {
    case Kind::Int: r.bits = ~bits + 1; r.negative = !negative; break;
    case Kind::F32Bits: r.bits = bits ^ 0x80000000u; break;
    case Kind::F64Bits: r.bits = bits ^ 0x8000000000000000ull; break;
    case Kind::Decimal: r.value = -value; break;
  }
  return r;
}

uint16_t floatToHalfBits(float f) {
  uint32_t x = floatBits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xFFu;
  uint32_t man = x & 0x7FFFFFu;
  if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u : 0u));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000u;
    unsigned shift = static_cast<unsigned>(14 - e);
    uint32_t half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  uint32_t rem = man & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;  // may carry into the exponent
  return static_cast<uint16_t>(sign | half);
}

uint16_t floatToBf16Bits(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu))
    return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

std::optional<uint64_t> literalBits(const Literal& lit, ir::Type t, std::string* why) {
  using ir::Type;
  unsigned width = ir::bits(t);
  switch (t) {
    case Type::F32:
      if (lit.kind == Literal::Kind::F32Bits) return lit.bits & 0xFFFFFFFFu;
      return floatBits(static_cast<float>(asDouble(lit)));
    case Type::F64:
      if (lit.kind == Literal::Kind::F64Bits) return lit.bits;
      return doubleBits(asDouble(lit));
    case Type::F16: return floatToHalfBits(static_cast<float>(asDouble(lit)));
    case Type::BF16: return floatToBf16Bits(static_cast<float>(asDouble(lit)));
    case Type::F16x2: case Type::BF16x2:
      if (lit.kind == Literal::Kind::Int) return lit.bits & 0xFFFFFFFFu;
      *why = "a floating-point literal cannot be used for a packed half type";
      return std::nullopt;
    case Type::Pred: case Type::None: case Type::B128:
      *why = "an immediate cannot be used here";
      return std::nullopt;
    default: break;
  }
  // Integer and bit types.
  switch (lit.kind) {
    case Literal::Kind::Int: return lit.bits & lowMask(width);
    case Literal::Kind::F32Bits:
      if (width < 32) break;
      return lit.bits & 0xFFFFFFFFu;  // a bit pattern: kept as written
    case Literal::Kind::F64Bits:
      if (width < 64) break;
      return lit.bits;
    case Literal::Kind::Decimal:
      *why = "a floating-point literal cannot be used for an integer type";
      return std::nullopt;
  }
  *why = "floating-point literal wider than the operand type";
  return std::nullopt;
}

}  // namespace warpsim::ptx
