// Counters of the "rfc" register-file model, per level (docs/stats.md, README.md). Accesses are
// counted in 32-bit warp registers ("words": a 64-bit register is two); array counts are 128-bit
// SRAM array (or flip-flop bank) activations, 8 per full warp register, the unit of the thesis's
// Table 4.5 energies; wire counts are 32-bit lane words moved, split by datapath (private: the
// ALUs beside the lane's upper-level banks; shared: SFU, load/store).
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

namespace warpsim::mech::rfc {

struct LevelCounters {
  uint64_t operandReads = 0;     // operands an instruction read here
  uint64_t resultWrites = 0;     // execution results written here
  uint64_t fillWrites = 0;       // values copied in from another level (reads allocate, LRF evictions)
  uint64_t writebackReads = 0;   // values read out to be written to a lower level
  uint64_t writebackWrites = 0;  // values written here from an upper level (MRF only)
  uint64_t arrayReads = 0, arrayWrites = 0;
  uint64_t wirePrivate = 0, wireShared = 0;

  void report(nlohmann::json& out) const;
};

struct RfcStats {
  LevelCounters mrf, rfc, lrf;
  uint64_t instructions = 0;
  uint64_t mrfOperandHistogram[4] = {};  // instructions reading 0, 1, 2, 3+ operands from the MRF
  uint64_t flushes = 0;                  // deschedules and call/return frame changes
  uint64_t flushedEntries = 0;           // entries those flushes emptied
  uint64_t evictions = 0;                // capacity evictions out of the RFC
  uint64_t deadDrops = 0;                // dirty values dropped without write-back (dead)
  uint64_t bypassedWrites = 0;           // long-latency results written straight to the MRF
  uint64_t partialWriteArounds = 0;      // partial-warp results of uncached registers, to the MRF
  uint64_t sharedFromLrf = 0;            // shared-datapath reads of an LRF value (moved to the RFC)
  uint64_t invalidReads = 0;             // MRF reads of a value a liveness hint dropped (must be 0)

  void report(nlohmann::json& out) const;
};

}  // namespace warpsim::mech::rfc
