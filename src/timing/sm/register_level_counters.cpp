#include "timing/sm/register_level_counters.h"

#include <nlohmann/json.hpp>

namespace warpsim::timing {

void RegisterLevelCounters::report(nlohmann::json& out) const {
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

}  // namespace warpsim::timing
