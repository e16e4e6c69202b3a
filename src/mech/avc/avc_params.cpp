#include "mech/avc/avc_params.h"

namespace warpsim::mech::avc {

AvcParams readAvcParams(config::Section s) {
  AvcParams p;
  p.bytes = s.u64("size", p.bytes,
                  "AVC bytes per SM (8 KB per way of 64 lines x 16 vectors); 0: no AVC, the "
                  "L1-only baseline with the same statistics",
                  0, uint64_t{1} << 24);
  p.ways = s.u32("assoc", p.ways, "AVC ways (tree pseudo-LRU)", 1, 64);
  p.encoder = s.choice("encoder", "hardware", {"hardware", "exact"},
                       "affine encoder whose result the AVC stores: hardware (aligned-pair XOR, "
                       "the paper's) or exact (the classifier); the other is run to count "
                       "disagreements") == "exact"
                  ? EncoderMode::Exact
                  : EncoderMode::Hardware;
  p.extraLatency = s.u32("extra_latency", p.extraLatency,
                         "cycles added to every local load when the AVC is present (no decode "
                         "bypass)",
                         0, 100);
  p.writebackClean = s.flag("writeback_clean", p.writebackClean,
                            "write back every valid word of an evicted AVC vector, not only the "
                            "dirty ones");
  p.check = s.flag("check", p.check,
                   "check every local load's value from the AVC/L1/memory state against the "
                   "functional value (statistic check.mismatches)");
  if (p.bytes != 0 && p.bytes % (uint64_t{p.ways} * 128) != 0) {
    throw config::Error("config: error: avc.size = " + std::to_string(p.bytes) +
                        " is not a multiple of avc.assoc x 128 bytes (one line per way and set)");
  }
  return p;
}

}  // namespace warpsim::mech::avc
