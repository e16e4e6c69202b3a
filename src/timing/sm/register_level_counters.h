// Counters of one level of a register-file hierarchy (a main register file, a register file
// cache, an operand register file, a last-result file), shared by the hierarchy models in
// src/mech/. Accesses are counted in 32-bit warp registers ("words": a 64-bit register is two);
// array counts are 128-bit SRAM array (or flip-flop bank) activations, 8 per full warp register,
// the unit of the register-file-hierarchy studies' per-access energies; wire counts are 32-bit
// lane words moved, split by datapath (private: the ALUs beside a lane's upper-level banks;
// shared: SFU, load/store).
#pragma once
#include <bit>
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "timing/sm/banked_register_file.h"

namespace warpsim::timing {

struct RegisterLevelCounters {
  uint64_t operandReads = 0;     // operands an instruction read here
  uint64_t resultWrites = 0;     // execution results written here
  uint64_t fillWrites = 0;       // values copied in from another level
  uint64_t writebackReads = 0;   // values read out to be written to a lower level
  uint64_t writebackWrites = 0;  // values written here from an upper level
  uint64_t arrayReads = 0, arrayWrites = 0;
  uint64_t wirePrivate = 0, wireShared = 0;

  // An operand read of `words` registers: every array of the register, every lane's word moved.
  void read(unsigned words, bool shared) {
    operandReads += words;
    arrayReads += 8 * words;
    (shared ? wireShared : wirePrivate) += 32 * words;
  }
  // A result written to the lanes of `mask`.
  void result(unsigned words, uint32_t mask, bool shared) {
    resultWrites += words;
    arrayWrites += laneSlicedArrays(mask) * words;
    (shared ? wireShared : wirePrivate) += static_cast<unsigned>(std::popcount(mask)) * words;
  }
  // Fills `out` with operand_reads, result_writes, fill_writes, writeback_reads,
  // writeback_writes, reads, writes (totals), array_reads, array_writes, wire_words_private,
  // wire_words_shared.
  void report(nlohmann::json& out) const;
};

}  // namespace warpsim::timing
