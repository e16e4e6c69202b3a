// CABA's assist warp store: the routines of every compression algorithm for one line size,
// compiled once per SM, and the lookup the assist warp controller does when a trigger arrives —
// the decompression routine for a compressed line is chosen by the encoding read from the line's
// head (and, for BestOfAll, the format tag), the compression routine by the algorithm. Routine
// ids are resolved when the store is built, so a trigger does no string work.
#pragma once
#include <cstdint>
#include <vector>

#include "mech/caba/compression/line_compression.h"
#include "timing/sm/assist/assist_routines.h"

namespace warpsim::mech::caba {

struct RoutineChoice {
  uint32_t routine = 0;
  uint32_t activeMask = 0;  // lanes the routine runs on
};

class CabaRoutines {
 public:
  explicit CabaRoutines(uint32_t lineBytes);

  const timing::AssistRoutineStore& store() const { return store_; }
  // Registers per thread of the largest decompression routine (register-allocated).
  uint32_t decompressionRegisters() const { return decompressionRegisters_; }
  // The decompression routine of an encoded line (c.compressible), `encoded` its bytes: BDI's
  // per (encoding, selector mask) from the head byte; FPC's and C-Pack's one each (they read
  // their segment codes or dictionary size themselves); BestOfAll's that of the winner.
  RoutineChoice decompression(const CompressedLine& c, const uint8_t* encoded) const;
  // Direct-Load's routine for a BDI line (c.algorithm BdiCaba): per (encoding, selector mask).
  RoutineChoice directLoad(const uint8_t* encoded) const;
  // The compression routine of `algorithm` (BestOfAll: BDI's; README.md).
  RoutineChoice compression(Algorithm algorithm) const;

 private:
  uint32_t lineBytes_;
  timing::AssistRoutineStore store_;
  std::vector<RoutineChoice> bdiDecompress_;  // [encoding * 2 + mask]
  std::vector<RoutineChoice> bdiDirectLoad_;  // [encoding * 2 + mask]
  RoutineChoice bdiCompress_, fpcDecompress_, fpcCompress_, cpackDecompress_, cpackCompress_;
  uint32_t decompressionRegisters_ = 0;
};

}  // namespace warpsim::mech::caba
