// C-Pack, CABA variant (digest B.5.4): the line as 32-bit words, each one of four patterns against
// a dictionary of at most 4 words, so that every word's code has the same size and all words are
// coded in parallel.
//   code pattern  word                                             mismatch byte
//   0    zzzz     zero                                             no
//   1    zzzx     only the least significant byte non-zero         yes (that byte)
//   2    mmmm     equal to dictionary entry i                      no
//   3    mmmx     equal to entry i except the least significant    yes (that byte)
// The dictionary is built serially: the first word that no pattern covers yet becomes the next
// entry, up to 4; a line with a word still uncovered is not compressible. A word takes the first
// of zzzz, mmmm, zzzx, mmmx it fits (an entry's upper bytes are never all zero, so zzzx and the
// matches never compete).
//
// Encoded line: [head][dictionary][codes][mismatch bytes]
//   head        bits 0-2 the number of entries (0-4), bits 3-5 zero, bits 6-7 the C-Pack format
//               tag (2);
//   dictionary  the entries, 4 bytes each, little-endian;
//   codes       4 bits per word (bits 0-1 the pattern, bits 2-3 the entry index, zero for zzzz
//               and zzzx), word 2i in the low nibble of byte i, 2i+1 in the high nibble;
//   mismatch    one byte per zzzx or mmmx word, in word order.
// Size: 1 + 4 * entries + words / 2 + mismatches.
// CompressedLine::encoding is the set of patterns used: bit p set when some word uses code p.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "mech/caba/compression/line_compression.h"

namespace warpsim::mech::caba {

enum class CPackPattern : uint8_t { Zzzz, Zzzx, Mmmm, Mmmx };
inline constexpr unsigned kCPackPatternCount = 4;
inline constexpr unsigned kCPackDictionaryEntries = 4;

// "zzzz", "zzzx", "mmmm", "mmmx"; "invalid" otherwise.
std::string_view cpackPatternName(uint8_t code);

// lineBytes must be supported (the dispatcher checks). out, when not null, receives the encoding
// only when the line is compressible.
CompressedLine compressCPack(const uint8_t* line, uint32_t lineBytes, uint8_t* out);

// in is an encoded line with the C-Pack tag, 1 <= inBytes < lineBytes (the dispatcher checks).
bool decompressCPack(const uint8_t* in, uint32_t inBytes, uint8_t* line, uint32_t lineBytes, std::string* error);

}  // namespace warpsim::mech::caba
