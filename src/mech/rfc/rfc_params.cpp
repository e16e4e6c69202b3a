#include "mech/rfc/rfc_params.h"

#include <string>

namespace warpsim::mech::rfc {

RfcParams readRfcParams(config::Section s, uint32_t partitions) {
  RfcParams p;
  p.geometry = timing::readBankGeometry(s, partitions);
  p.entries = s.u32("entries", 6,
                    "rfc: register-file-cache entries per thread (32 bits each; a 64-bit register takes two)", 1,
                    RegisterCache::kMaxEntries);
  const std::string policy = s.choice("policy", "fifo", {"fifo", "lru"}, "rfc: replacement order of the RFC");
  p.policy = policy == "lru" ? Replacement::Lru : Replacement::Fifo;
  const std::string allocate = s.choice("allocate", "results", {"results", "results-and-reads"},
                                        "rfc: what the RFC allocates: execution results only, or also "
                                        "operands read from the main register file");
  p.readsAllocate = allocate == "results-and-reads";
  p.bypassLongLatency = s.flag("bypass_long_latency", true,
                               "rfc: results of cache-accessing memory instructions bypass the RFC and are "
                               "written to the main register file");
  p.liveness = s.flag("liveness", false,
                      "rfc: compiler liveness hints (the last-reads pass): a value read for the last time is "
                      "dead and never written back");
  p.lrf = s.flag("hardware_lrf", false,
                 "rfc: a one-entry hardware last-result file in front of the RFC (three-level hierarchy)");
  p.tagStageCycles = s.u32("tag_stage_cycles", 1,
                           "rfc: cycles the tag-check stage adds to branch resolution (control instructions)", 0,
                           16);
  return p;
}

}  // namespace warpsim::mech::rfc
