// The assist-warp routines of BDI (digest B.5.2), as PTX text that warpsim's front end compiles
// into the assist warp store: one decompression routine per (encoding, selector mask present),
// as the store is indexed by the encoding read from the line's head, and the compression
// routine of the seed's Algorithm 2 (base sizes 8, 4, 2; delta sizes 1, 2, 4 smaller than the
// base; the first that fits every value wins, tested with a warp-wide vote).
//
// Staging (assist_routines.h): a decompression or compression routine's shared buffer holds the compressed line at
// [0, lineBytes) for decompression, the uncompressed line at [0, lineBytes) for compression;
// each writes its result at [lineBytes, 2 lineBytes) in the library's format
// (compression/bdi.h). Each lane handles one value (two when a line has 64 values). Fields that
// do not sit on word boundaries are read with aligned word loads and funnel shifts, written with
// byte stores. Live-in: the line's address (the parent's address register).
#pragma once
#include <cstdint>
#include <string>

#include "mech/caba/compression/bdi.h"

namespace warpsim::mech::caba {

// "bdi_dec_b8d1", "bdi_dec_b8d1_mask", ...
std::string bdiDecompressName(BdiEncoding encoding, bool mask);
// Direct-Load's routine of an encoding (digest B.9): the coalescer extracts each lane's delta and
// the line's base (and selector bits); the routine adds them. "bdi_load_b8d1", ...
std::string bdiDirectLoadName(BdiEncoding encoding, bool mask);

// What the coalescer hands a Direct-Load routine for an encoded BDI line, staged aligned in its
// buffer: the base at 0 (little-endian, its size), the selector bits of values 0-31 and 32-63 at
// 8 and 12 (zero without a mask), the deltas from kBdiDirectLoadDeltas, each in its size.
// Writes `staging` (room for kBdiDirectLoadDeltas + lineBytes) and returns its length.
inline constexpr uint32_t kBdiDirectLoadDeltas = 16;
uint32_t bdiDirectLoadStaging(const uint8_t* encoded, uint32_t lineBytes, uint8_t* staging);
inline constexpr const char* kBdiCompressName = "bdi_compress";

// The PTX text of every BDI routine for lines of `lineBytes` (64 or 128), to be concatenated
// after a PTX module header.
std::string bdiRoutines(uint32_t lineBytes);

// Lanes a routine runs on: one per value, at most 32.
uint32_t bdiLanes(BdiEncoding encoding, uint32_t lineBytes);

}  // namespace warpsim::mech::caba
