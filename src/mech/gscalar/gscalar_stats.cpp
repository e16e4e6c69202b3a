#include "mech/gscalar/gscalar_stats.h"

#include <nlohmann/json.hpp>

namespace warpsim::mech::gscalar {

Category categoryOf(Scalarity s, ScalarClass cls) {
  switch (s) {
    case Scalarity::Full:
      return cls == ScalarClass::Sfu ? Category::FullSfu : cls == ScalarClass::Mem ? Category::FullMem : Category::FullAlu;
    case Scalarity::HalfLow: case Scalarity::HalfHigh: case Scalarity::HalfBoth: return Category::Half;
    case Scalarity::Divergent: return Category::Divergent;
    default: return Category::kCount;
  }
}

void GScalarStats::addCost(const AccessCost& c, bool isRead) {
  (isRead ? arrayReads : arrayWrites) += c.arrays;
  crossbarBytes += c.crossbarBytes;
  if (c.metadata) ++(isRead ? metadataReads : metadataWrites);
  if (c.scalarRf) ++(isRead ? scalarRfReads : scalarRfWrites);
  if (c.decompressed) ++(isRead ? decompressions : compressions);
}

namespace {
nlohmann::json categories(const uint64_t* v) {
  return {{"full_alu", v[0]}, {"full_sfu", v[1]}, {"full_mem", v[2]}, {"half", v[3]}, {"divergent", v[4]}};
}
}  // namespace

void GScalarStats::report(nlohmann::json& out) const {
  out["array_reads"] = arrayReads;
  out["array_writes"] = arrayWrites;
  out["crossbar_bytes"] = crossbarBytes;
  out["metadata_reads"] = metadataReads;
  out["metadata_writes"] = metadataWrites;
  out["scalar_rf_reads"] = scalarRfReads;
  out["scalar_rf_writes"] = scalarRfWrites;
  out["compressions"] = compressions;
  out["decompressions"] = decompressions;
  out["special_moves"] = specialMoves;
  const uint64_t* r = operandReads;
  out["operand_reads"] = {{"scalar", r[0]}, {"bytes3", r[1]}, {"bytes2", r[2]},
                          {"bytes1", r[3]}, {"bytes0", r[4]}, {"divergent", r[5]}};
  out["compression"] = {{"uncompressed_bytes", uncompressedBytes}, {"array_bytes", arrayBytes},
                        {"base_bytes", baseBytes}, {"metadata_bytes", metadataBits / 8}};
  out["instructions"] = {{"total", instructions}, {"divergent", divergent}, {"alu", alu},
                         {"sfu", sfu},           {"mem", mem},             {"other", other}};
  out["scalar_executed"] = categories(executed);
  // Fig. 9's cumulative steps: ALU scalar, + SFU and memory, + half-warp, + divergent.
  const uint64_t* e = executed;
  out["scalar_executed_cumulative"] = {{"alu", e[0]}, {"all", e[0] + e[1] + e[2]},
                                       {"half", e[0] + e[1] + e[2] + e[3]},
                                       {"divergent", e[0] + e[1] + e[2] + e[3] + e[4]}};
  out["scalar_detected"] = categories(detected);
  out["scalar_oracle"] = categories(oracle);
}

}  // namespace warpsim::mech::gscalar
