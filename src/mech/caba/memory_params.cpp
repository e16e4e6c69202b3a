#include "mech/caba/memory_params.h"

#include <string>

namespace warpsim::mech::caba {

namespace {

Algorithm algorithmOf(const std::string& name) {
  if (name == "bdi") return Algorithm::BdiCaba;
  if (name == "bdi-full") return Algorithm::Bdi;
  if (name == "fpc") return Algorithm::Fpc;
  if (name == "cpack") return Algorithm::CPack;
  return Algorithm::BestOfAll;
}

}  // namespace

MemoryCompressionParams readMemoryCompressionParams(config::Section s) {
  MemoryCompressionParams p;
  p.algorithm = algorithmOf(s.choice(
      "algorithm", "bdi", {"bdi", "bdi-full", "fpc", "cpack", "best"},
      "line compression: bdi (the assist-warp subset of Base-Delta-Immediate), bdi-full (every "
      "BDI encoding), fpc (segmented Frequent Pattern Compression), cpack (4-entry C-Pack), best "
      "(per line the fewest bursts of bdi, fpc and cpack)"));
  p.placement = s.choice("placement", "l2", {"dram", "l2"},
                         "where lines are held compressed: dram (only DRAM; the L2 holds them "
                         "whole) or l2 (L2 and DRAM, and the reply network carries compressed "
                         "lines)") == "dram"
                    ? Placement::Dram
                    : Placement::L2;
  p.agent = s.choice("agent", "hardware", {"hardware", "assist-warp"},
                     "who decompresses: hardware (dedicated logic at the L2 or memory "
                     "controller, decompress_cycles) or assist-warp (the SM's assist warps, "
                     "sm.assist_warp.impl = \"caba\"; with placement = \"dram\" DRAM fills "
                     "cross compressed and L2 hits plain: the uncompressed-L2 option)") ==
                    "assist-warp"
                ? Agent::AssistWarp
                : Agent::Hardware;
  p.decompressCycles = s.u32("decompress_cycles", p.decompressCycles,
                             "L2 cycles of the dedicated decompressor on a compressed fill or "
                             "reply (0: ideal)",
                             0, 1000);
  p.compressCycles = s.u32("compress_cycles", p.compressCycles,
                           "L2 cycles of the dedicated compressor (write-backs; off the read "
                           "path) (0: ideal)",
                           0, 1000);
  p.metadataCache = s.flag("metadata_cache", p.metadataCache,
                           "cache the per-line burst counts at the memory controller (false: "
                           "every DRAM access reads its metadata from DRAM too)");
  p.metadataCacheBytes = s.u32("metadata_cache_bytes", p.metadataCacheBytes,
                               "metadata cache bytes per memory controller", 64, 1u << 24);
  p.metadataCacheWays = s.u32("metadata_cache_ways", p.metadataCacheWays,
                              "metadata cache ways (LRU)", 1, 64);
  p.metadataLineBytes = s.u32("metadata_line_bytes", p.metadataLineBytes,
                              "metadata cache line bytes (one DRAM burst: 32)", 4, 128);
  p.check = s.flag("check", p.check,
                   "decompress every line the model compresses and compare it with the "
                   "functional memory (statistic check_failures)");
  const uint64_t lineSet = uint64_t{p.metadataCacheWays} * p.metadataLineBytes;
  if (p.metadataCacheBytes % lineSet != 0)
    throw config::Error("config: error: " + s.path() + ".metadata_cache_bytes = " +
                        std::to_string(p.metadataCacheBytes) +
                        " is not a multiple of metadata_cache_ways x metadata_line_bytes (" +
                        std::to_string(lineSet) + ")");
  return p;
}

}  // namespace warpsim::mech::caba
