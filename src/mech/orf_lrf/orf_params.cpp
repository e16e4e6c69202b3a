#include "mech/orf_lrf/orf_params.h"

#include <string>

namespace warpsim::mech::orf_lrf {

OrfParams readOrfParams(config::Section s) {
  OrfParams p;
  p.entries = s.u32("entries", 3, "orf-lrf: operand register file entries per thread (32 bits each)", 1, 8);
  const std::string lrf = s.choice("lrf", "none", {"none", "unified", "split"},
                                   "orf-lrf: last result file: none (two levels), unified (one entry per "
                                   "thread) or split (one per operand slot A, B, C)");
  p.lrf = lrf == "split" ? LrfMode::Split : lrf == "unified" ? LrfMode::Unified : LrfMode::None;
  p.readOperands = s.flag("read_operands", true,
                          "orf-lrf: a value read several times in a strand but produced before it is kept "
                          "in the ORF after its first read");
  p.partialRanges = s.flag("partial_ranges", true,
                           "orf-lrf: a value that does not fit gives up its last reads (they use the MRF) "
                           "until it fits");
  p.forwardBranches = s.flag("forward_branches", true,
                             "orf-lrf: values stay in the ORF/LRF across forward branches inside a strand "
                             "(false: within one basic block)");
  auto energy = [&](const char* key, double def, const char* what) {
    return s.f64(key, def, what, 0.0, 1e6);
  };
  p.mrf.read = energy("mrf_read_pj", 15.6, "orf-lrf allocator: MRF read of 128 bits, bank + 1 mm of wire (pJ)");
  p.mrf.write = energy("mrf_write_pj", 18.6, "orf-lrf allocator: MRF write of 128 bits, bank + wire (pJ)");
  p.orf.read = energy("orf_read_pj", 2.72, "orf-lrf allocator: ORF read of 128 bits, bank + 0.2 mm (pJ)");
  p.orf.write = energy("orf_write_pj", 5.92, "orf-lrf allocator: ORF write of 128 bits, bank + wire (pJ)");
  p.lrfEnergy.read = energy("lrf_read_pj", 1.08, "orf-lrf allocator: LRF read of 128 bits, bank + 0.05 mm (pJ)");
  p.lrfEnergy.write = energy("lrf_write_pj", 2.38, "orf-lrf allocator: LRF write of 128 bits, bank + wire (pJ)");
  p.check = s.flag("check", true,
                   "orf-lrf: check every upper-level read against what the entry holds and every MRF read "
                   "against values written only above it (counted as invalid_reads)");
  return p;
}

}  // namespace warpsim::mech::orf_lrf
