// Frequent Pattern Compression, CABA segment variant (digest B.5.3): the line as 32-bit words in
// segments of 8 words (32 bytes, one burst of uncompressed data); every word of a segment is
// stored under one pattern, the one with the fewest bytes that all eight words fit (ties to the
// lower code). The patterns are the original FPC's, with the zero run replaced by a zero segment.
//
// Encoded line: [head][segment 0 data][segment 1 data]...
//   head  ceil(segments / 2) bytes; byte j holds the 3-bit code of segment 2j in bits 0-2 and
//         of segment 2j+1 in bits 3-5; bits 6-7 of byte 0 are the FPC format tag (1), every other
//         head bit is zero. 1 byte at 32 and 64 B lines, 2 at 128 B.
//   data  per segment, its 8 words in order, little-endian, each cut to its pattern's payload:
//     code pattern              word fits when                      payload per segment
//     0    zero                 word == 0                           0 B
//     1    sext4                a sign-extended 4-bit value         4 B (word 2i: low nibble
//                                                                        of byte i, 2i+1 high)
//     2    sext8                a sign-extended byte                8 B
//     3    sext16               a sign-extended halfword            16 B
//     4    halfword-padded      low halfword zero (payload: high)   16 B
//     5    two-sext8-halfwords  each halfword a sign-extended byte  16 B (low half's byte, then
//                                                                        the high half's)
//     6    repeated-bytes       four equal bytes                    8 B
//     7    raw                  always                              32 B
// CompressedLine::encoding is the set of patterns used: bit p set when some segment uses code p.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "mech/caba/compression/line_compression.h"

namespace warpsim::mech::caba {

enum class FpcPattern : uint8_t { Zero, Sext4, Sext8, Sext16, HalfwordPadded, TwoSext8Halfwords, RepeatedBytes, Raw };
inline constexpr unsigned kFpcPatternCount = 8;
inline constexpr uint32_t kFpcSegmentBytes = 32;
inline constexpr uint32_t kFpcWordsPerSegment = kFpcSegmentBytes / 4;

// Payload bytes of one segment under the pattern.
uint32_t fpcSegmentBytes(FpcPattern pattern);

// Head bytes at this line size.
inline constexpr uint32_t fpcHeadBytes(uint32_t lineBytes) { return (lineBytes / kFpcSegmentBytes + 1) / 2; }

// The set of patterns a word fits: bit p set when the word fits code p (bit 7 always set). A
// segment's candidates are the intersection of its words' sets.
uint8_t fpcPatternsFitting(uint32_t word);

// "zero", "sext4", "sext8", "sext16", "halfword-padded", "two-sext8-halfwords",
// "repeated-bytes", "raw"; "invalid" otherwise.
std::string_view fpcPatternName(uint8_t code);

// lineBytes must be supported (the dispatcher checks). out, when not null, receives the encoding
// only when the line is compressible.
CompressedLine compressFpc(const uint8_t* line, uint32_t lineBytes, uint8_t* out);

// in is an encoded line with the FPC tag, 1 <= inBytes < lineBytes (the dispatcher checks).
bool decompressFpc(const uint8_t* in, uint32_t inBytes, uint8_t* line, uint32_t lineBytes, std::string* error);

}  // namespace warpsim::mech::caba
