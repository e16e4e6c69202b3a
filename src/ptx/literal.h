// PTX numeric literals and their conversion to the bits of a typed operand.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "ir/types.h"

namespace warpsim::ptx {

struct Literal {
  enum class Kind : uint8_t { Int, F32Bits, F64Bits, Decimal };
  Kind kind = Kind::Int;
  uint64_t bits = 0;     // Int: two's complement value; F32Bits/F64Bits: the bit pattern
  double value = 0.0;    // Decimal
  bool negative = false; // Int: written with a leading '-' (selects signed int->float conversion)

  Literal negated() const;
};

// The bits of `lit` as a value of type `t` (in the low bits(t) bits, zeros above), or nullopt
// with *why set when the literal cannot be used for that type (a decimal float for an integer
// type, any literal for .pred, ...).
std::optional<uint64_t> literalBits(const Literal& lit, ir::Type t, std::string* why);

// IEEE conversions with round-to-nearest-even (used for f16/bf16 immediates).
uint16_t floatToHalfBits(float f);
uint16_t floatToBf16Bits(float f);

}  // namespace warpsim::ptx
