// Byte-level helpers shared by the BDI, FPC and C-Pack formats: little-endian values (the GPU's
// byte order, independent of the host's), sign-extension fits, the head byte's format tag, and
// the one-line decode error. Internal to the compression library.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "mech/caba/compression/line_compression.h"

namespace warpsim::mech::caba::format {

// The two top bits of every encoded line's first byte name its format (line_compression.h).
inline constexpr uint8_t kTagShift = 6;
inline constexpr uint8_t kTagBdi = 0;
inline constexpr uint8_t kTagFpc = 1;
inline constexpr uint8_t kTagCPack = 2;
inline constexpr uint8_t headTag(uint8_t head) { return head >> kTagShift; }
inline constexpr uint8_t withTag(uint8_t bits, uint8_t tag) { return bits | uint8_t(tag << kTagShift); }

// A little-endian value of `size` bytes (1 to 8).
inline uint64_t loadLE(const uint8_t* p, unsigned size) {
  uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

inline void storeLE(uint8_t* p, uint64_t v, unsigned size) {
  for (unsigned i = 0; i < size; ++i) p[i] = uint8_t(v >> (8 * i));
}

// The low `bytes` bytes of v (1 to 8) read as a two's-complement number.
inline int64_t signExtend(uint64_t v, unsigned bytes) {
  const unsigned unused = 64 - 8 * bytes;
  return int64_t(v << unused) >> unused;
}

// True when the `bytes`-byte two's-complement number v fits, sign-extended, in `narrow` bytes.
inline bool fitsSigned(uint64_t v, unsigned bytes, unsigned narrow) {
  const int64_t s = signExtend(v, bytes);
  const int64_t limit = int64_t{1} << (8 * narrow - 1);
  return s >= -limit && s < limit;
}

inline uint64_t lowMask(unsigned bytes) { return bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1; }

// Sets *error (when not null) and returns false, so that decoders can `return fail(error, ...)`.
inline bool fail(std::string* error, std::string message) {
  if (error) *error = std::move(message);
  return false;
}

// The result for an encoding of `bytes` bytes: compressible only when it saves a burst;
// otherwise the line is kept as is (bytes = lineBytes, encoding = kUncompressed).
inline CompressedLine resultFor(Algorithm algorithm, uint8_t encoding, uint32_t bytes, uint32_t lineBytes) {
  CompressedLine r;
  r.algorithm = algorithm;
  if (bytes != 0 && burstsFor(bytes) < lineBytes / kBurstBytes) {
    r.compressible = true;
    r.encoding = encoding;
    r.bytes = bytes;
  } else {
    r.bytes = lineBytes;
  }
  r.bursts = burstsFor(r.bytes);
  return r;
}

}  // namespace warpsim::mech::caba::format
