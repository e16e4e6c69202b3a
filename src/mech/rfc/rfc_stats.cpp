#include "mech/rfc/rfc_stats.h"

#include <nlohmann/json.hpp>

namespace warpsim::mech::rfc {

void LevelCounters::report(nlohmann::json& out) const {
  out["operand_reads"] = operandReads;
  out["result_writes"] = resultWrites;
  out["fill_writes"] = fillWrites;
  out["writeback_reads"] = writebackReads;
  out["writeback_writes"] = writebackWrites;
  out["reads"] = operandReads + writebackReads;
  out["writes"] = resultWrites + fillWrites + writebackWrites;
  out["array_reads"] = arrayReads;
  out["array_writes"] = arrayWrites;
  out["wire_words_private"] = wirePrivate;
  out["wire_words_shared"] = wireShared;
}

void RfcStats::report(nlohmann::json& out) const {
  mrf.report(out["mrf"]);
  rfc.report(out["rfc"]);
  lrf.report(out["lrf"]);
  out["instructions"] = instructions;
  out["mrf_operands_per_instruction"] = {mrfOperandHistogram[0], mrfOperandHistogram[1],
                                         mrfOperandHistogram[2], mrfOperandHistogram[3]};
  out["flushes"] = flushes;
  out["flushed_entries"] = flushedEntries;
  out["evictions"] = evictions;
  out["dead_drops"] = deadDrops;
  out["bypassed_writes"] = bypassedWrites;
  out["partial_write_arounds"] = partialWriteArounds;
  out["shared_reads_from_lrf"] = sharedFromLrf;
  out["invalid_reads"] = invalidReads;
}

}  // namespace warpsim::mech::rfc
