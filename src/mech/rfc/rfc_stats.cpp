#include "mech/rfc/rfc_stats.h"

#include <nlohmann/json.hpp>

namespace warpsim::mech::rfc {

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
