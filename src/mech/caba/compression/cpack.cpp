// C-Pack (CABA variant) encoder and decoder (format in cpack.h).
#include "mech/caba/compression/cpack.h"

#include <string>

#include "mech/caba/compression/line_format.h"

namespace warpsim::mech::caba {
namespace {

using format::loadLE;
using format::storeLE;

constexpr uint32_t kMaxWords = 128 / 4;
constexpr uint8_t kEntryBits = 0x07;
constexpr uint8_t kReservedBits = 0x38;
constexpr uint32_t kUpperBytes = 0xFFFFFF00u;
constexpr std::string_view kCPackPatternNames[kCPackPatternCount] = {"zzzz", "zzzx", "mmmm",
                                                                     "mmmx"};

bool hasMismatchByte(CPackPattern p) { return p == CPackPattern::Zzzx || p == CPackPattern::Mmmx; }

struct Dictionary {
  uint32_t entries[kCPackDictionaryEntries] = {};
  unsigned size = 0;
};

// A word's 4-bit code against the dictionary, or -1 when no pattern covers it.
int codeOf(uint32_t word, const Dictionary& dict) {
  if (word == 0) return int(CPackPattern::Zzzz);
  for (unsigned i = 0; i < dict.size; ++i)
    if (word == dict.entries[i]) return int(CPackPattern::Mmmm) | int(i << 2);
  if ((word & kUpperBytes) == 0) return int(CPackPattern::Zzzx);
  for (unsigned i = 0; i < dict.size; ++i)
    if ((word & kUpperBytes) == (dict.entries[i] & kUpperBytes)) return int(CPackPattern::Mmmx) | int(i << 2);
  return -1;
}

}  // namespace

std::string_view cpackPatternName(uint8_t code) { return code < kCPackPatternCount ? kCPackPatternNames[code] : "invalid"; }

CompressedLine compressCPack(const uint8_t* line, uint32_t lineBytes, uint8_t* out) {
  const uint32_t n = lineBytes / 4;
  // Serial dictionary build: an uncovered word becomes the next entry. One pass suffices, since
  // entries only ever cover more words and the words before the current one are all covered.
  Dictionary dict;
  uint8_t codes[kMaxWords];
  uint32_t mismatches = 0;
  uint8_t used = 0;
  for (uint32_t w = 0; w < n; ++w) {
    const uint32_t word = uint32_t(loadLE(line + 4 * w, 4));
    int code = codeOf(word, dict);
    if (code < 0) {
      if (dict.size == kCPackDictionaryEntries) return format::resultFor(Algorithm::CPack, 0, 0, lineBytes);
      dict.entries[dict.size++] = word;
      code = codeOf(word, dict);
    }
    codes[w] = uint8_t(code);
    mismatches += hasMismatchByte(CPackPattern(code & 3)) ? 1 : 0;
    used |= uint8_t(1u << (code & 3));
  }
  const uint32_t codeBytes = n / 2;
  const uint32_t size = 1 + 4 * dict.size + codeBytes + mismatches;
  const CompressedLine r = format::resultFor(Algorithm::CPack, used, size, lineBytes);
  if (!r.compressible || !out) return r;

  out[0] = format::withTag(uint8_t(dict.size), format::kTagCPack);
  for (unsigned i = 0; i < dict.size; ++i) storeLE(out + 1 + 4 * i, dict.entries[i], 4);
  uint8_t* codeOut = out + 1 + 4 * dict.size;
  uint8_t* mismatchOut = codeOut + codeBytes;
  for (uint32_t w = 0; w < n; w += 2) codeOut[w / 2] = uint8_t(codes[w] | codes[w + 1] << 4);
  for (uint32_t w = 0; w < n; ++w)
    if (hasMismatchByte(CPackPattern(codes[w] & 3))) *mismatchOut++ = line[4 * w];
  return r;
}

bool decompressCPack(const uint8_t* in, uint32_t inBytes, uint8_t* line, uint32_t lineBytes, std::string* error) {
  const uint32_t n = lineBytes / 4;
  const uint8_t head = in[0];
  if (head & kReservedBits) return format::fail(error, "cpack: reserved head bits 3-5 are set");
  const unsigned entries = head & kEntryBits;
  if (entries > kCPackDictionaryEntries)
    return format::fail(error, "cpack: " + std::to_string(entries) + " dictionary entries, at most 4");
  const uint32_t codeStart = 1 + 4 * entries;
  const uint32_t codeBytes = n / 2;
  if (inBytes < codeStart + codeBytes)
    return format::fail(error, "cpack: " + std::to_string(inBytes) + " bytes cannot hold " + std::to_string(entries) +
                                   " entries and " + std::to_string(n) + " word codes");
  uint32_t mismatches = 0;
  for (uint32_t w = 0; w < n; ++w) {
    const uint8_t code = in[codeStart + w / 2] >> (w % 2 ? 4 : 0) & 0xFu;
    const auto p = CPackPattern(code & 3);
    const unsigned index = code >> 2;
    const bool matches = p == CPackPattern::Mmmm || p == CPackPattern::Mmmx;
    if (matches ? index >= entries : index != 0)
      return format::fail(error, "cpack: word " + std::to_string(w) + " (" + std::string(kCPackPatternNames[code & 3]) +
                                     ") has dictionary index " + std::to_string(index) + " with " +
                                     std::to_string(entries) + " entries");
    mismatches += hasMismatchByte(p) ? 1 : 0;
  }
  const uint32_t size = codeStart + codeBytes + mismatches;
  if (inBytes != size)
    return format::fail(error, "cpack: the word codes take " + std::to_string(size) + " bytes, got " +
                                   std::to_string(inBytes));

  const uint8_t* mismatch = in + codeStart + codeBytes;
  for (uint32_t w = 0; w < n; ++w) {
    const uint8_t code = in[codeStart + w / 2] >> (w % 2 ? 4 : 0) & 0xFu;
    const uint32_t entry = code >> 2 < entries ? uint32_t(loadLE(in + 1 + 4 * (code >> 2), 4)) : 0;
    uint32_t word = 0;
    switch (CPackPattern(code & 3)) {
      case CPackPattern::Zzzz: word = 0; break;
      case CPackPattern::Zzzx: word = *mismatch++; break;
      case CPackPattern::Mmmm: word = entry; break;
      case CPackPattern::Mmmx: word = (entry & kUpperBytes) | *mismatch++; break;
    }
    storeLE(line + 4 * w, word, 4);
  }
  return true;
}

}  // namespace warpsim::mech::caba
