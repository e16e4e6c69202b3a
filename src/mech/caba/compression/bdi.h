// Base-Delta-Immediate compression (digest B.5.2): the line as values of 8, 4 or 2 bytes, each
// stored as a signed 1-, 2- or 4-byte delta from one explicit base or from the implicit zero base.
//
// Encoded line: [head][selector mask][base][deltas]
//   head   bits 0-3 the encoding id below, bit 4 "a selector mask follows", bit 5 zero, bits 6-7
//          the BDI format tag (0);
//   mask   only when some value uses the zero base: one bit per value (bit i%8 of byte i/8 set
//          when value i uses the zero base), ceil(n/8) bytes, unused bits zero;
//   base   the explicit base, little-endian, base-size bytes: the first value of the line that
//          does not fit the zero base (0 when every value does);
//   deltas one per value, little-endian two's complement, value = base + sign-extended delta
//          modulo 2^(8 * base size). A value takes the explicit base whenever it fits it, so the
//          mask appears only when some value fits the zero base alone.
// Zeros is the head alone; Repeated is the head and the 8-byte value.
//
// Bdi (full) picks the encoding with the fewest bursts, then the fewest bytes, then the first
// in the id order. BdiCaba is the seed's compression subroutine (Algorithm 2): base sizes 8, 4,
// 2, delta sizes 1, 2, 4 smaller than the base, in that order, the first that fits wins; it keeps
// only the base-delta encodings that can save a burst at the line size even with a mask (all six
// at 128 B; b8d1, b8d2, b4d1 at 64 B; none at 32 B). Zeros and Repeated lines take b8d1, one
// burst like their own encodings.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "mech/caba/compression/line_compression.h"

namespace warpsim::mech::caba {

// Ids follow the original BDI paper's encoding table.
enum class BdiEncoding : uint8_t { Zeros, Repeated, B8D1, B8D2, B8D4, B4D1, B4D2, B2D1 };
inline constexpr unsigned kBdiEncodingCount = 8;

struct BdiShape {
  uint8_t baseBytes = 0;   // 0 for Zeros
  uint8_t deltaBytes = 0;  // 0 for Zeros and Repeated
};
BdiShape bdiShape(BdiEncoding encoding);

// "zeros", "repeated", "b8d1", "b8d2", "b8d4", "b4d1", "b4d2", "b2d1"; "invalid" otherwise.
std::string_view bdiEncodingName(uint8_t id);

// The size of the selector mask (a bit per value) of a line of `values` values.
inline uint32_t bdiMaskBytes(uint32_t values) { return (values + 7) / 8; }

// The encoded size of a line of lineBytes under the encoding, with or without the selector mask.
uint32_t bdiEncodedBytes(BdiEncoding encoding, uint32_t lineBytes, bool withMask);

// Whether BdiCaba keeps the encoding at this line size (see above).
bool bdiCabaKeeps(BdiEncoding encoding, uint32_t lineBytes);

// lineBytes must be supported (the dispatcher checks). out, when not null, receives the encoding
// only when the line is compressible.
CompressedLine compressBdi(const uint8_t* line, uint32_t lineBytes, uint8_t* out, bool cabaSubset);

// in is an encoded line with the BDI tag, 1 <= inBytes < lineBytes (the dispatcher checks).
bool decompressBdi(const uint8_t* in, uint32_t inBytes, uint8_t* line, uint32_t lineBytes,
                   bool cabaSubset, std::string* error);

}  // namespace warpsim::mech::caba
