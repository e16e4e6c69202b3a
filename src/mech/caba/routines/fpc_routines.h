// The assist-warp routines of FPC, CABA segment variant (digest B.5.3), as PTX text that
// warpsim's front end compiles into the assist warp store: one decompression routine (the
// thesis's Algorithm 6) and one compression routine (Algorithm 7) per line size.
//
// How the store is indexed: (FPC, load) -> fpc_decompress, (FPC, store) -> fpc_compress. The
// per-segment codes at the line's head are read by the routine itself, not by the controller:
// a routine per combination of segment patterns would take 8^2 = 64 routines at 64 B and
// 8^4 = 4096 at 128 B, while the segment encoding (every word of a segment shares one pattern)
// is what lets one routine serve every combination, each lane reading its own segment's code.
//
// Decompression (Algorithm 6): the algorithm walks the segments serially because each one has
// its own pattern and layout. Here one warp holds every segment's words at once (a lane per
// word, 8 lanes per segment), so what stays serial is the segment base ("segment_base +=
// segment_size"): a prefix sum of the earlier segments' payload sizes, taken with shuffles
// (one step at 64 B, two at 128 B). Each lane then loads the 32 bits at its payload's bit
// position (two aligned word loads and a funnel shift) and decodes them by its segment's
// pattern: one sign-extending field extract serves zero, sext4, sext8, sext16 and raw (the
// field is as wide as the pattern's payload: 0, 4, 8, 16 or 32 bits), and three predicated
// instructions the halfword-padded, two-sext8-halfwords and repeated-bytes patterns. No lane
// diverges, and the count does not depend on the line: 32 warp-instructions at 64 B, 35 at
// 128 B.
//
// Compression (Algorithm 7): for each pattern in the library's order (fewest payload bytes
// first, ties to the lower code), every lane tests its word and a ballot tells each lane
// whether all 8 words of its segment fit; a segment takes the first pattern it fits (raw when
// none). A warp-wide vote ends the search once every segment has its pattern, so a line of
// small values tests few patterns. The segment bases come from the same prefix sum as in
// decompression; when the total saves no burst, 0xFF goes to the head, otherwise the head
// (codes and the format tag) and every lane's payload bytes are written with byte stores (the
// even lane of a sext4 pair writes both nibbles).
//
// Staging (assist_routines.h): the routine's shared buffer holds the compressed line (its
// exact encoded bytes) at [0, lineBytes) for decompression, the uncompressed line at
// [0, lineBytes) for compression; each writes its result at [lineBytes, 2 lineBytes) in the
// library's format (compression/fpc.h). Live-in: the line's address (the parent's address
// register), read first (the MOVE of the live-in).
// Shared accesses are naturally aligned (fields at odd offsets are read with aligned word
// loads and funnel shifts); byte stores take a 32-bit register (PTX lets a store's source be
// wider than its type: the low byte is stored), so they need no conversion first.
#pragma once
#include <cstdint>
#include <string>

namespace warpsim::mech::caba {

inline constexpr const char* kFpcDecompressName = "fpc_decompress";
inline constexpr const char* kFpcCompressName = "fpc_compress";

// The PTX text of both FPC routines for lines of `lineBytes` (64 or 128; std::invalid_argument
// otherwise), to be concatenated after a PTX module header.
std::string fpcRoutines(uint32_t lineBytes);

// Lanes both routines run on: one per 32-bit word of the line (16 at 64 B, 32 at 128 B), lanes
// 0 to fpcLanes - 1 (the active mask the controller gives).
uint32_t fpcLanes(uint32_t lineBytes);

}  // namespace warpsim::mech::caba
