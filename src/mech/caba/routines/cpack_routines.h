// The assist-warp routines of C-Pack, CABA variant (digest B.5.4), as PTX text that warpsim's
// front end compiles into the assist warp store: one decompression routine (the thesis's
// Algorithm 8) and one compression routine (Algorithm 9) per line size.
//
// How the store is indexed: (C-Pack, load) -> cpack_decompress, (C-Pack, store) ->
// cpack_compress. The only layout parameter at the head is the number of dictionary entries
// (0-4), which moves the codes and the mismatch bytes by 4 bytes per entry: the routine reads it
// and adds it to its addresses (one instruction), so one routine serves every line rather than
// one per entry count.
//
// Decompression (Algorithm 8): each lane reads its word's 4-bit code (the codes start at byte
// 1 + 4 entries: always 1 mod 4, so a lane's nibble is in one aligned word); the lanes whose
// pattern matches a dictionary entry load it (two aligned words and a funnel shift: the entries
// start at byte 1), the lanes whose pattern has a mismatch byte load it (its index: the number
// of earlier lanes with one, from a ballot and a population count) and insert it as the low
// byte. Each load runs with the active mask its pattern sets (predicated), no lane diverges,
// and the count does not depend on the line: 32 warp-instructions.
//
// Compression (Algorithm 9): zero and narrow words (zzzz, zzzx) are covered from the start;
// serially, the first word still uncovered (a ballot, then brev + clz) becomes the next
// dictionary entry, is broadcast with a shuffle, and every lane tests it for a match of its
// upper three bytes (mmmm or mmmx) in parallel; after at most 4 entries, a word still uncovered
// leaves the line uncompressed (0xFF at the head), as does a size that saves no burst.
// Otherwise the head, each entry (written by the lane whose word it is), the codes (the even
// lane of each pair writes both nibbles) and the mismatch bytes (at their ballot index) are
// written with byte stores: the library's exact bytes (compression/cpack.h).
//
// Staging (assist_routines.h): the routine's shared buffer holds the compressed line (its
// exact encoded bytes) at [0, lineBytes) for decompression, the uncompressed line at
// [0, lineBytes) for compression; each writes its result at [lineBytes, 2 lineBytes). Live-in:
// the line's address (the parent's address register), read first (the MOVE of the live-in).
// Shared accesses are naturally aligned (fields at odd offsets are read with aligned word
// loads and funnel shifts); byte stores take a 32-bit register (PTX lets a store's source be
// wider than its type: the low byte is stored), so they need no conversion first.
#pragma once
#include <cstdint>
#include <string>

namespace warpsim::mech::caba {

inline constexpr const char* kCPackDecompressName = "cpack_decompress";
inline constexpr const char* kCPackCompressName = "cpack_compress";

// The PTX text of both C-Pack routines for lines of `lineBytes` (64 or 128;
// std::invalid_argument otherwise), to be concatenated after a PTX module header.
std::string cpackRoutines(uint32_t lineBytes);

// Lanes both routines run on: one per 32-bit word of the line (16 at 64 B, 32 at 128 B), lanes
// 0 to cpackLanes - 1 (the active mask the controller gives).
uint32_t cpackLanes(uint32_t lineBytes);

}  // namespace warpsim::mech::caba
