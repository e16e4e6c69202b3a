// What the software-managed hierarchy's compiler pass decides per instruction and the
// "orf-lrf" register-file model obeys: for every source operand the level it is read from, for
// every destination the levels it is written to, and whether the instruction begins a strand
// (upper-level contents are dead on entry). Operand i is DecodedInstr::src[i] / dst[i].
//
// Published as the annotation table kPlacementTable (one OperandPlacement per instruction).
#pragma once
#include <cstdint>

namespace warpsim::mech::orf_lrf {

inline constexpr const char* kPlacementTable = "orf-lrf";

enum class Level : uint8_t { Mrf = 0, Orf = 1, Lrf = 2 };

struct OperandPlacement {
  Level srcLevel[6] = {};
  uint8_t srcEntry[6] = {};     // ORF entry (first of two for a 64-bit value) or LRF bank
  uint8_t depositMask = 0;      // bit i: src i is read from the MRF and also written to ORF
                                //   entry srcEntry[i] (read-operand allocation)
  Level dstLevel[4] = {};       // Mrf: only the MRF; Orf / Lrf: that level (and the MRF too
                                //   when the dstMrfMask bit is set)
  uint8_t dstEntry[4] = {};
  uint8_t dstMrfMask = 0;       // bit j: dst j is written to the MRF (always when dstLevel is Mrf)
  bool strandStart = false;     // upper-level entries are invalid from here on
};

// Why a strand began (pass statistics).
enum class StrandCause : uint8_t { FunctionEntry, LongLatency, BackwardBranch, LoopHead, Barrier, Call };
inline constexpr unsigned kStrandCauses = 6;

}  // namespace warpsim::mech::orf_lrf
