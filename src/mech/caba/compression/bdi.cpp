// BDI encoder and decoder (format in bdi.h).
#include "mech/caba/compression/bdi.h"

#include <string>

#include "mech/caba/compression/line_format.h"

namespace warpsim::mech::caba {
namespace {

using format::fitsSigned;
using format::loadLE;
using format::lowMask;
using format::storeLE;

constexpr uint8_t kIdBits = 0x0F;
constexpr uint8_t kMaskFollows = 0x10;
constexpr uint8_t kReservedBit = 0x20;

constexpr BdiShape kShapes[kBdiEncodingCount] = {{0, 0}, {8, 0}, {8, 1}, {8, 2},
                                                 {8, 4}, {4, 1}, {4, 2}, {2, 1}};
constexpr std::string_view kEncodingNames[kBdiEncodingCount] = {
    "zeros", "repeated", "b8d1", "b8d2", "b8d4", "b4d1", "b4d2", "b2d1"};

bool isBaseDelta(BdiEncoding e) { return kShapes[unsigned(e)].deltaBytes != 0; }

bool allZero(const uint8_t* line, uint32_t lineBytes) {
  for (uint32_t i = 0; i < lineBytes; ++i)
    if (line[i] != 0) return false;
  return true;
}

bool allRepeated(const uint8_t* line, uint32_t lineBytes) {
  const uint64_t first = loadLE(line, 8);
  for (uint32_t at = 8; at < lineBytes; at += 8)
    if (loadLE(line + at, 8) != first) return false;
  return true;
}

// Encodes the line under a base-delta encoding; returns its size, or 0 when some value fits
// neither base. Writes the encoding when out is not null.
uint32_t encodeBaseDelta(const uint8_t* line, uint32_t lineBytes, BdiEncoding e, uint8_t* out) {
  const unsigned k = kShapes[unsigned(e)].baseBytes;
  const unsigned d = kShapes[unsigned(e)].deltaBytes;
  const uint32_t n = lineBytes / k;
  const uint64_t valueMask = lowMask(k);

  uint64_t base = 0;  // the first value that does not fit the zero base
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t v = loadLE(line + i * k, k);
    if (!fitsSigned(v, k, d)) {
      base = v;
      break;
    }
  }
  bool usesZeroBase = false;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t v = loadLE(line + i * k, k);
    if (fitsSigned((v - base) & valueMask, k, d)) continue;
    if (!fitsSigned(v, k, d)) return 0;
    usesZeroBase = true;
  }
  const uint32_t selectorBytes = usesZeroBase ? bdiMaskBytes(n) : 0;
  const uint32_t size = 1 + selectorBytes + k + n * d;
  if (!out) return size;

  out[0] = format::withTag(uint8_t(uint8_t(e) | (usesZeroBase ? kMaskFollows : 0)), format::kTagBdi);
  uint8_t* selectors = out + 1;
  for (uint32_t b = 0; b < selectorBytes; ++b) selectors[b] = 0;
  storeLE(out + 1 + selectorBytes, base, k);
  uint8_t* deltas = out + 1 + selectorBytes + k;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t v = loadLE(line + i * k, k);
    uint64_t delta = (v - base) & valueMask;
    if (!fitsSigned(delta, k, d)) {  // fits the zero base (checked above)
      selectors[i / 8] |= uint8_t(1u << (i % 8));
      delta = v;
    }
    storeLE(deltas + i * d, delta, d);
  }
  return size;
}

// The size of the line under the encoding, or 0 when it does not fit.
uint32_t encode(const uint8_t* line, uint32_t lineBytes, BdiEncoding e, uint8_t* out) {
  switch (e) {
    case BdiEncoding::Zeros:
      if (!allZero(line, lineBytes)) return 0;
      if (out) out[0] = format::withTag(uint8_t(e), format::kTagBdi);
      return 1;
    case BdiEncoding::Repeated:
      if (!allRepeated(line, lineBytes)) return 0;
      if (out) {
        out[0] = format::withTag(uint8_t(e), format::kTagBdi);
        for (unsigned i = 0; i < 8; ++i) out[1 + i] = line[i];
      }
      return 9;
    default:
      return encodeBaseDelta(line, lineBytes, e, out);
  }
}

}  // namespace

BdiShape bdiShape(BdiEncoding encoding) { return kShapes[unsigned(encoding)]; }

std::string_view bdiEncodingName(uint8_t id) { return id < kBdiEncodingCount ? kEncodingNames[id] : "invalid"; }

uint32_t bdiEncodedBytes(BdiEncoding encoding, uint32_t lineBytes, bool withMask) {
  const BdiShape s = kShapes[unsigned(encoding)];
  if (encoding == BdiEncoding::Zeros) return 1;
  if (encoding == BdiEncoding::Repeated) return 1 + 8;
  const uint32_t n = lineBytes / s.baseBytes;
  return 1 + (withMask ? bdiMaskBytes(n) : 0) + s.baseBytes + n * s.deltaBytes;
}

bool bdiCabaKeeps(BdiEncoding encoding, uint32_t lineBytes) {
  return isBaseDelta(encoding) &&
         burstsFor(bdiEncodedBytes(encoding, lineBytes, true)) < lineBytes / kBurstBytes;
}

CompressedLine compressBdi(const uint8_t* line, uint32_t lineBytes, uint8_t* out, bool cabaSubset) {
  const Algorithm algorithm = cabaSubset ? Algorithm::BdiCaba : Algorithm::Bdi;
  uint32_t bestBytes = 0;
  BdiEncoding best = BdiEncoding::Zeros;
  for (unsigned id = 0; id < kBdiEncodingCount; ++id) {
    const auto e = BdiEncoding(id);
    if (cabaSubset && !bdiCabaKeeps(e, lineBytes)) continue;
    const uint32_t size = encode(line, lineBytes, e, nullptr);
    if (size == 0) continue;
    if (cabaSubset) {  // the seed's search: the first encoding that fits
      bestBytes = size;
      best = e;
      break;
    }
    if (bestBytes == 0 || burstsFor(size) < burstsFor(bestBytes) ||
        (burstsFor(size) == burstsFor(bestBytes) && size < bestBytes)) {
      bestBytes = size;
      best = e;
    }
  }
  const CompressedLine r = format::resultFor(algorithm, uint8_t(best), bestBytes, lineBytes);
  if (r.compressible && out) encode(line, lineBytes, best, out);
  return r;
}

bool decompressBdi(const uint8_t* in, uint32_t inBytes, uint8_t* line, uint32_t lineBytes,
                   bool cabaSubset, std::string* error) {
  const uint8_t head = in[0];
  const uint8_t id = head & kIdBits;
  const bool hasMask = (head & kMaskFollows) != 0;
  if (head & kReservedBit) return format::fail(error, "bdi: reserved head bit 5 is set");
  if (id >= kBdiEncodingCount)
    return format::fail(error, "bdi: encoding id " + std::to_string(id) + " is not a BDI encoding");
  const auto e = BdiEncoding(id);
  const std::string name(kEncodingNames[id]);
  if (cabaSubset && !bdiCabaKeeps(e, lineBytes))
    return format::fail(error, "bdi-caba: encoding " + name + " is not kept at " +
                                   std::to_string(lineBytes) + "-byte lines");
  if (hasMask && !isBaseDelta(e))
    return format::fail(error, "bdi: encoding " + name + " takes no selector mask");
  const uint32_t expected = bdiEncodedBytes(e, lineBytes, hasMask);
  if (inBytes != expected)
    return format::fail(error, "bdi: encoding " + name + (hasMask ? " with a selector mask" : "") +
                                   " takes " + std::to_string(expected) + " bytes, got " +
                                   std::to_string(inBytes));

  if (e == BdiEncoding::Zeros) {
    for (uint32_t i = 0; i < lineBytes; ++i) line[i] = 0;
    return true;
  }
  if (e == BdiEncoding::Repeated) {
    for (uint32_t i = 0; i < lineBytes; ++i) line[i] = in[1 + i % 8];
    return true;
  }
  const unsigned k = kShapes[id].baseBytes;
  const unsigned d = kShapes[id].deltaBytes;
  const uint32_t n = lineBytes / k;
  const uint32_t selectorBytes = hasMask ? bdiMaskBytes(n) : 0;
  const uint8_t* selectors = in + 1;
  if (hasMask && n % 8 != 0 && (selectors[selectorBytes - 1] >> (n % 8)) != 0)
    return format::fail(error, "bdi: selector bits past the last value are set");
  const uint64_t base = loadLE(in + 1 + selectorBytes, k);
  const uint8_t* deltas = in + 1 + selectorBytes + k;
  const uint64_t valueMask = lowMask(k);
  for (uint32_t i = 0; i < n; ++i) {
    const bool zeroBase = hasMask && (selectors[i / 8] >> (i % 8) & 1u);
    const uint64_t delta = uint64_t(format::signExtend(loadLE(deltas + i * d, d), d));
    storeLE(line + i * k, ((zeroBase ? 0 : base) + delta) & valueMask, k);
  }
  return true;
}

}  // namespace warpsim::mech::caba
