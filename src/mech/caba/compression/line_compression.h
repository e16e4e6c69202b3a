// Line compression for CABA (digest B.5, B.6): pure functions from a cache line's bytes to its
// compressed form and back, under BDI (full and CABA subset), FPC and C-Pack in their CABA
// variants, or the best of the three per line. The memory system calls compress() on every line
// it moves to learn how many 32-byte DRAM bursts the line costs; decompress() exists to prove the
// formats are lossless (tests, fuzzing) and to decode what an assist warp would decode.
//
// Formats, encodings and every choice where the papers are silent: README.md in this folder.
//
// Contract:
//   - Line sizes are 32, 64 or 128 bytes (128 is the simulator's L2 line, 64 the papers' examples).
//     compress() throws std::invalid_argument for any other size; decompress() returns false.
//   - A line is compressed only when the encoding saves at least one burst; otherwise it is kept
//     as is: bytes == lineBytes, and out (when given) receives a copy of the line.
//   - Every encoded line (bytes < lineBytes) starts with a head byte whose two top bits name the
//     algorithm's format (BDI 0, FPC 1, C-Pack 2), so a BestOfAll line decodes without a side
//     channel and a line handed to the wrong decoder is rejected.
//   - decompress() takes exactly what compress() produced: inBytes == the encoded size, or
//     inBytes == lineBytes for a line stored uncompressed (the memory's per-line metadata, not the
//     bytes, says which; an encoded line is always shorter than lineBytes). It never reads past
//     in[inBytes) nor writes past line[lineBytes), whatever the input, and rejects anything
//     malformed with false and a one-line reason in *error (when error is not null).
//   - compress() with out == nullptr allocates nothing. Buffers must not overlap.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace warpsim::mech::caba {

enum class Algorithm : uint8_t { Bdi, BdiCaba, Fpc, CPack, BestOfAll };

inline constexpr uint32_t kBurstBytes = 32;        // one GDDR5 burst (digest B.6)
inline constexpr uint8_t kUncompressed = 0xFF;     // CompressedLine::encoding of a line kept as is

struct CompressedLine {
  bool compressible = false;             // true when it saves at least one 32-byte burst
  Algorithm algorithm = Algorithm::Bdi;  // for BestOfAll: the algorithm that won (BdiCaba, Fpc or
                                         // CPack), or BestOfAll itself when none compresses
  uint8_t encoding = kUncompressed;      // algorithm-specific id (README.md); kUncompressed when
                                         // not compressible
  uint32_t bytes = 0;                    // compressed size including its head metadata;
                                         // lineBytes when not compressible
  uint32_t bursts = 0;                   // ceil(bytes / 32), at most lineBytes / 32
  bool operator==(const CompressedLine&) const = default;
};

// True for the supported line sizes: 32, 64 and 128 bytes.
bool isSupportedLineSize(uint32_t lineBytes);

// ceil(bytes / 32).
inline constexpr uint32_t burstsFor(uint32_t bytes) { return (bytes + kBurstBytes - 1) / kBurstBytes; }

// Compresses line[0, lineBytes). When out is not null (capacity lineBytes) it receives the
// encoded bytes, or a copy of the line when the line is not compressible.
CompressedLine compress(Algorithm algorithm, const uint8_t* line, uint32_t lineBytes, uint8_t* out);

// Rebuilds line[0, lineBytes) from in[0, inBytes). For BestOfAll the winner is read from the head.
bool decompress(Algorithm algorithm, const uint8_t* in, uint32_t inBytes, uint8_t* line,
                uint32_t lineBytes, std::string* error);

// "bdi", "bdi-caba", "fpc", "cpack", "best-of-all".
std::string_view algorithmName(Algorithm algorithm);

// The name of a CompressedLine's encoding under its algorithm field, for statistics: e.g.
// "b8d1" (BDI), "zero+sext8" (FPC: the segment patterns used), "zzzx+mmmm" (C-Pack: the word
// patterns used), "uncompressed" (kUncompressed, any algorithm); "invalid" for an id the
// algorithm never produces.
std::string encodingName(Algorithm algorithm, uint8_t encoding);

}  // namespace warpsim::mech::caba
