// FPC (CABA segment variant) encoder and decoder (format in fpc.h).
#include "mech/caba/compression/fpc.h"

#include <algorithm>
#include <string>

#include "mech/caba/compression/line_format.h"

namespace warpsim::mech::caba {
namespace {

using format::loadLE;
using format::storeLE;

constexpr uint32_t kPayload[kFpcPatternCount] = {0, 4, 8, 16, 16, 16, 8, 32};
constexpr std::string_view kFpcPatternNames[kFpcPatternCount] = {
    "zero", "sext4", "sext8", "sext16", "halfword-padded", "two-sext8-halfwords", "repeated-bytes", "raw"};
// Codes by payload size, ties to the lower code: the first a segment fits is its pattern.
constexpr uint8_t kBySize[kFpcPatternCount] = {0, 1, 2, 6, 3, 4, 5, 7};
constexpr uint8_t kCodeBits = 0x07;
constexpr uint8_t kSecondCodeShift = 3;  // a head byte's second code: bits 3-5
constexpr uint32_t kMaxSegments = 128 / kFpcSegmentBytes;

// Segments of a supported line (the bound also tells the compiler the code arrays suffice).
uint32_t segmentsOf(uint32_t lineBytes) { return std::min(lineBytes / kFpcSegmentBytes, kMaxSegments); }

bool fitsSignedBits(uint32_t word, unsigned bits) {
  const int32_t s = int32_t(word);
  const int32_t limit = int32_t{1} << (bits - 1);
  return s >= -limit && s < limit;
}

uint32_t wordAt(const uint8_t* line, uint32_t segment, uint32_t w) {
  return uint32_t(loadLE(line + segment * kFpcSegmentBytes + 4 * w, 4));
}

// The pattern of each segment (the line's encoding is their union).
void choosePatterns(const uint8_t* line, uint32_t segments, uint8_t* codes) {
  for (uint32_t s = 0; s < segments; ++s) {
    uint8_t fits = 0xFF;
    for (uint32_t w = 0; w < kFpcWordsPerSegment; ++w) fits &= fpcPatternsFitting(wordAt(line, s, w));
    for (uint8_t code : kBySize) {
      if (fits >> code & 1u) {
        codes[s] = code;
        break;
      }
    }
  }
}

// The payload of one word under the pattern, little-endian in kPayload / 8 bytes (sext4: 4 bits).
uint32_t payloadOf(uint32_t word, FpcPattern p) {
  switch (p) {
    case FpcPattern::HalfwordPadded: return word >> 16;
    case FpcPattern::TwoSext8Halfwords: return (word & 0xFFu) | ((word >> 16 & 0xFFu) << 8);
    default: return word;  // the low bytes (Zero stores nothing, RepeatedBytes its low byte)
  }
}

uint32_t wordOf(uint32_t payload, FpcPattern p) {
  switch (p) {
    case FpcPattern::Zero: return 0;
    case FpcPattern::Sext4: return uint32_t(int32_t(payload << 28) >> 28);
    case FpcPattern::Sext8: return uint32_t(int32_t(int8_t(payload)));
    case FpcPattern::Sext16: return uint32_t(int32_t(int16_t(payload)));
    case FpcPattern::HalfwordPadded: return payload << 16;
    case FpcPattern::TwoSext8Halfwords:
      return (uint32_t(uint16_t(int16_t(int8_t(payload)))) |
              uint32_t(uint16_t(int16_t(int8_t(payload >> 8)))) << 16);
    case FpcPattern::RepeatedBytes: return (payload & 0xFFu) * 0x01010101u;
    case FpcPattern::Raw: return payload;
  }
  return 0;
}

}  // namespace

uint32_t fpcSegmentBytes(FpcPattern pattern) { return kPayload[unsigned(pattern)]; }

std::string_view fpcPatternName(uint8_t code) { return code < kFpcPatternCount ? kFpcPatternNames[code] : "invalid"; }

uint8_t fpcPatternsFitting(uint32_t word) {
  uint8_t fits = 1u << unsigned(FpcPattern::Raw);
  if (word == 0) fits |= 1u << unsigned(FpcPattern::Zero);
  if (fitsSignedBits(word, 4)) fits |= 1u << unsigned(FpcPattern::Sext4);
  if (fitsSignedBits(word, 8)) fits |= 1u << unsigned(FpcPattern::Sext8);
  if (fitsSignedBits(word, 16)) fits |= 1u << unsigned(FpcPattern::Sext16);
  if ((word & 0xFFFFu) == 0) fits |= 1u << unsigned(FpcPattern::HalfwordPadded);
  const auto halfIsSext8 = [](uint32_t half) { return half < 0x80u || half >= 0xFF80u; };
  if (halfIsSext8(word & 0xFFFFu) && halfIsSext8(word >> 16)) fits |= 1u << unsigned(FpcPattern::TwoSext8Halfwords);
  if (word == (word & 0xFFu) * 0x01010101u) fits |= 1u << unsigned(FpcPattern::RepeatedBytes);
  return fits;
}

CompressedLine compressFpc(const uint8_t* line, uint32_t lineBytes, uint8_t* out) {
  const uint32_t segments = segmentsOf(lineBytes);
  uint8_t codes[kMaxSegments];
  choosePatterns(line, segments, codes);
  uint32_t size = fpcHeadBytes(lineBytes);
  uint8_t used = 0;
  for (uint32_t s = 0; s < segments; ++s) {
    size += kPayload[codes[s]];
    used |= uint8_t(1u << codes[s]);
  }
  const CompressedLine r = format::resultFor(Algorithm::Fpc, used, size, lineBytes);
  if (!r.compressible || !out) return r;

  const uint32_t headBytes = fpcHeadBytes(lineBytes);
  for (uint32_t j = 0; j < headBytes; ++j) out[j] = 0;
  for (uint32_t s = 0; s < segments; ++s) out[s / 2] |= uint8_t(codes[s] << (s % 2 ? kSecondCodeShift : 0));
  out[0] = format::withTag(out[0], format::kTagFpc);
  uint8_t* data = out + headBytes;
  for (uint32_t s = 0; s < segments; ++s) {
    const auto p = FpcPattern(codes[s]);
    if (p == FpcPattern::Sext4) {
      for (uint32_t w = 0; w < kFpcWordsPerSegment; w += 2)
        data[w / 2] = uint8_t((wordAt(line, s, w) & 0xFu) | (wordAt(line, s, w + 1) & 0xFu) << 4);
    } else {
      const unsigned wordBytes = kPayload[codes[s]] / kFpcWordsPerSegment;
      for (uint32_t w = 0; w < kFpcWordsPerSegment; ++w)
        storeLE(data + w * wordBytes, payloadOf(wordAt(line, s, w), p), wordBytes);
    }
    data += kPayload[codes[s]];
  }
  return r;
}

bool decompressFpc(const uint8_t* in, uint32_t inBytes, uint8_t* line, uint32_t lineBytes, std::string* error) {
  const uint32_t segments = segmentsOf(lineBytes);
  const uint32_t headBytes = fpcHeadBytes(lineBytes);
  if (inBytes < headBytes)
    return format::fail(error, "fpc: " + std::to_string(inBytes) + " bytes cannot hold the " +
                                   std::to_string(headBytes) + "-byte head");
  for (uint32_t j = 0; j < headBytes; ++j) {
    const uint8_t headBits = j == 0 ? uint8_t(in[0] & 0x3F) : in[j];
    const uint8_t codeBits = 2 * j + 1 < segments ? 0x3F : 0x07;  // one or two codes in this byte
    if (headBits & ~codeBits) return format::fail(error, "fpc: unused head bits are set in byte " + std::to_string(j));
  }
  uint8_t codes[kMaxSegments];
  uint32_t size = headBytes;
  for (uint32_t s = 0; s < segments; ++s) {
    codes[s] = in[s / 2] >> (s % 2 ? kSecondCodeShift : 0) & kCodeBits;
    size += kPayload[codes[s]];
  }
  if (inBytes != size)
    return format::fail(error, "fpc: the segment patterns take " + std::to_string(size) + " bytes, got " +
                                   std::to_string(inBytes));

  const uint8_t* data = in + headBytes;
  for (uint32_t s = 0; s < segments; ++s) {
    const auto p = FpcPattern(codes[s]);
    const unsigned wordBytes = kPayload[codes[s]] / kFpcWordsPerSegment;
    for (uint32_t w = 0; w < kFpcWordsPerSegment; ++w) {
      uint32_t payload = 0;
      if (p == FpcPattern::Sext4) payload = data[w / 2] >> (w % 2 ? 4 : 0) & 0xFu;
      else payload = uint32_t(loadLE(data + w * wordBytes, wordBytes));
      storeLE(line + s * kFpcSegmentBytes + 4 * w, wordOf(payload, p), 4);
    }
    data += kPayload[codes[s]];
  }
  return true;
}

}  // namespace warpsim::mech::caba
