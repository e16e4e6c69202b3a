#include "timing/mem/mem_params_config.h"

#include <string>

namespace warpsim::timing::mem {

namespace {

Replacement readReplacement(config::Section& s) {
  const std::string r =
      s.choice("replacement", "lru", {"lru", "fifo", "random", "plru"},
               "victim choice: least recently used, first in, random (seeded), or tree "
               "pseudo-LRU (timing/mem/tree_plru.h)");
  if (r == "plru") return Replacement::Plru;
  return r == "fifo" ? Replacement::Fifo : r == "random" ? Replacement::Random : Replacement::Lru;
}

WritePolicy readWritePolicy(config::Section& s, const char* key, const char* def, const char* doc) {
  const std::string w =
      s.choice(key, def,
               {"write-through-no-allocate", "write-through-allocate", "write-back-allocate"}, doc);
  if (w == "write-through-allocate") return WritePolicy::WriteThroughAllocate;
  if (w == "write-back-allocate") return WritePolicy::WriteBackAllocate;
  return WritePolicy::WriteThroughNoAllocate;
}

void readGeometry(config::Section& s, CacheGeometry& g, const char* sizeDoc, bool replacement) {
  g.sizeBytes = s.u64("size", g.sizeBytes, sizeDoc, 0, uint64_t{1} << 40);
  g.assoc = s.u32("assoc", g.assoc, "ways per set", 1, 1024);
  g.lineBytes = s.u32("line", g.lineBytes, "line size in bytes (power of two)", 8, 4096);
  g.sectorBytes = s.u32("sector", g.sectorBytes, "sector size in bytes (power of two)", 4, 4096);
  if (replacement) {
    g.replacement = readReplacement(s);
    g.seed = s.u64("seed", g.seed, "seed of the random replacement", 0);
    if (g.replacement == Replacement::Plru && g.assoc > 64) {
      throw config::Error("config: error: " + s.path() +
                          ".replacement = \"plru\" supports at most 64 ways (assoc = " +
                          std::to_string(g.assoc) + ")");
    }
  }
}

// Compressed capacity: more tags than data ways (cache_tags.h).
void readTagFactor(config::Section& s, CacheGeometry& g) {
  g.tagFactor = s.u32("tag_factor", g.tagFactor,
                      "tags per data way (1, 2 or 4): a set holds up to assoc * tag_factor lines "
                      "whose sizes fit in assoc whole lines (lines held compressed take their "
                      "compressed size)",
                      1, 4);
  if (g.tagFactor == 3)
    throw config::Error("config: error: " + s.path() + ".tag_factor = 3: use 1, 2 or 4");
  g.segmentBytes = s.u32("segment", g.segmentBytes,
                         "bytes of the data segments a compressed line's size is rounded up to "
                         "(with tag_factor > 1; 8 as in the BDI cache)",
                         1, 4096);
  if ((g.segmentBytes & (g.segmentBytes - 1)) != 0 || g.segmentBytes > g.lineBytes)
    throw config::Error("config: error: " + s.path() + ".segment = " +
                        std::to_string(g.segmentBytes) +
                        " must be a power of two no larger than the line");
  if (g.replacement == Replacement::Plru && g.assoc * g.tagFactor > 64)
    throw config::Error("config: error: " + s.path() +
                        ".replacement = \"plru\" supports at most 64 tags per set (assoc * "
                        "tag_factor = " + std::to_string(g.assoc * g.tagFactor) + ")");
}

// Lines of the cache set aside for another use (a mechanism's buffer in dedicated sets): the
// cache keeps the sets they do not touch, whole sets taken.
void reserveLines(config::Section& s, CacheGeometry& g) {
  const uint32_t lines = s.u32("reserved_lines", 0,
                               "lines set aside in dedicated sets for another use (a store "
                               "buffer): the cache has ceil(reserved_lines / assoc) fewer sets",
                               0, 1u << 24);
  if (lines == 0) return;
  const uint32_t sets = (lines + g.assoc - 1) / g.assoc;
  if (sets >= g.sets())
    throw config::Error("config: error: " + s.path() + ".reserved_lines = " +
                        std::to_string(lines) + " leaves no set of the " +
                        std::to_string(g.sets()) + " of the cache");
  g.sizeBytes -= uint64_t{sets} * g.assoc * g.lineBytes;
}

// [module_link] and [zone_placement]: read on every GPU (so that one configuration can be run
// with gpu.modules = 1 for comparison), used only on a GPU of several modules.
void readModules(config::Tree& tree, MemoryParams& p) {
  config::Section l = tree.section("module_link");
  p.link.gbps = l.f64("gbps", p.link.gbps,
                      "bandwidth of each module's link in each direction (out of and into the "
                      "module), GB/s",
                      0.001, 1e6);
  p.link.latency = l.u32("latency", p.link.latency,
                         "interconnect cycles from a packet's last byte on the link to its "
                         "arrival at the other module",
                         1, 100000);
  p.link.queue = l.u32("queue", p.link.queue,
                       "packets per module and network (requests, replies) buffered at the "
                       "receiving end of the links, counting those on their way",
                       1, 4096);
  config::Section z = tree.section("zone_placement");
  p.zones.placement = z.str("impl", p.zones.placement,
                            "which module (NUMA zone) an address lives in (extension point "
                            "zone_placement)");
  p.zones.xorBit = z.u32("xor_bit", p.zones.xorBit,
                         "xor placement: lowest bit of the zone field (8: 256-byte granules)", 0,
                         40);
  p.zones.pageBytes = z.u32("page_bytes", p.zones.pageBytes,
                            "first-touch placement: page size in bytes (power of two)", 128,
                            1u << 30);
}

// [page_placement]: the frame of each page of device memory (one module only).
void readPagePlacement(config::Tree& tree, MemoryParams& p) {
  config::Section s = tree.section("page_placement");
  p.pages.impl = s.str("impl", p.pages.impl,
                       "which physical frame each page of device memory gets (extension point "
                       "page_placement: identity, random, or a mechanism's)");
  p.pages.pageBytes = s.u32("page_bytes", p.pages.pageBytes,
                            "page size in bytes (power of two, at least the address mapping's "
                            "granule)",
                            256, 1u << 30);
  p.pages.seed = s.u64("seed", p.pages.seed, "random placement: seed of its random stream");
}

}  // namespace

MemoryParams readMemoryParams(config::Tree& tree, uint32_t numSms, double coreMhz,
                              uint32_t modules) {
  MemoryParams p;
  p.numSms = numSms;
  p.modules = modules;
  readModules(tree, p);
  readPagePlacement(tree, p);
  p.clocks.coreMhz = coreMhz;
  config::Section clocks = tree.section("clocks");
  p.clocks.icntMhz = clocks.f64("icnt", p.clocks.icntMhz, "interconnect clock in MHz", 1.0, 1e6);
  p.clocks.l2Mhz = clocks.f64("l2", p.clocks.l2Mhz, "L2 clock in MHz", 1.0, 1e6);
  p.clocks.dramMhz =
      clocks.f64("dram", p.clocks.dramMhz,
                 "DRAM command clock in MHz (data moves burst_cycles per 32 B)", 1.0, 1e6);

  config::Section l1 = tree.section("l1");
  L1Params& a = p.l1;
  readGeometry(l1, a.cache, "L1 data cache bytes per SM (0: no L1D)", true);
  reserveLines(l1, a.cache);
  readTagFactor(l1, a.cache);
  a.mshrs = l1.u32("mshrs", a.mshrs, "miss status holding registers per SM", 1, 4096);
  a.mshrMerge = l1.u32("mshr_merge", a.mshrMerge, "requests one MSHR entry holds", 1, 256);
  a.hitLatency = l1.u32("hit_latency", a.hitLatency,
                        "core cycles from the L1 port to data ready on a hit", 0, 100000);
  a.accessCycles = l1.u32("access_cycles", a.accessCycles,
                          "core cycles one L1 or constant access holds the LSU port", 1, 1000);
  a.queueInstructions = l1.u32("queue_instructions", a.queueInstructions,
                               "warp memory instructions waiting for the LSU port", 1, 1024);
  a.globalWrite = readWritePolicy(l1, "global_write", "write-through-no-allocate",
                                  "L1 policy for global stores");
  a.localWrite =
      readWritePolicy(l1, "local_write", "write-back-allocate", "L1 policy for local stores");
  a.countFootprint =
      l1.flag("count_footprint", a.countFootprint,
              "count the distinct lines each SM's L1 sees per kernel (memory.l1d_footprint: the "
              "per-SM working set of CTA-scheduling studies; costs a hash-set insert per access)");
  a.fillLines = l1.choice("fill", "sectors", {"sectors", "line"},
                          "what a miss fetches: the sectors asked for, or the whole line (as "
                          "caches without sectors do)") == "line";
  a.resizeWays = l1.choice("resize", "sets", {"sets", "ways"},
                           "how a per-kernel capacity (a shared-memory carve-out) changes the "
                           "cache: whole sets of `assoc` ways, or whole ways of the configured "
                           "sets (Volta-class L1s: the sets stay, the ways grow)") == "ways";
  a.keepFillForm =
      l1.flag("keep_fill_form", a.keepFillForm,
              "a fill that reaches the SM in a form it transforms (a compressed line) stays in "
              "that form and size in the L1; each hit on it is transformed again (the memory "
              "reply listener, timing/sm_memory.h): cache compression at the L1");
  a.cacheGlobalLoads = l1.flag("cache_global_loads", a.cacheGlobalLoads,
                               "global loads use the L1 (false: they go to L2, as on Kepler)");
  a.policy =
      l1.str("policy", a.policy, "cache policy hooks of the L1 (extension point cache_policy)");
  a.localPath =
      l1.str("local_path", a.localPath,
             "structure beside the L1 for local memory (extension point local_memory_path)");
  a.localLayout = l1.choice("local_layout", "warp-major", {"warp-major", "word-major"},
                            "private words laid out per warp (a warp's words in consecutive "
                            "128-byte blocks) or per word (word k of every warp slot side by side)") ==
                          "word-major"
                      ? LocalLayout::WordMajor
                      : LocalLayout::WarpMajor;

  config::Section sh = tree.section("shared");
  p.shared.banks = sh.u32("banks", p.shared.banks, "shared-memory banks", 1, 1024);
  p.shared.bankBytes = sh.u32("bank_bytes", p.shared.bankBytes, "bytes per bank word", 1, 64);
  p.shared.gather = sh.u32("gather_banks", p.shared.gather,
                           "banks behind each port, gathered up to bank_bytes per cycle (1: one bank per port)", 1, 16);
  p.shared.latency = sh.u32("latency", p.shared.latency,
                            "core cycles from the first pass to data ready", 0, 100000);
  p.shared.passCycles =
      sh.u32("pass_cycles", p.shared.passCycles, "core cycles per pass over the banks", 1, 1000);

  config::Section cc = tree.section("const");
  readGeometry(cc, p.constant.cache, "constant cache bytes per SM", true);
  p.constant.mshrs = cc.u32("mshrs", p.constant.mshrs, "constant-cache MSHRs per SM", 1, 4096);
  p.constant.mshrMerge =
      cc.u32("mshr_merge", p.constant.mshrMerge, "requests one MSHR entry holds", 1, 256);
  p.constant.hitLatency =
      cc.u32("hit_latency", p.constant.hitLatency, "core cycles to data ready on a hit", 0, 100000);
  CacheGeometry& l15 = p.constant.l15;
  l15.sizeBytes = cc.u64("l15_size", l15.sizeBytes,
                         "bytes of the SM's second constant level (L1.5) behind the constant cache; "
                         "0: none (misses go to the L2)",
                         0, uint64_t{1} << 30);
  l15.assoc = cc.u32("l15_assoc", l15.assoc, "L1.5 ways per set", 1, 1024);
  l15.lineBytes = cc.u32("l15_line", l15.lineBytes,
                         "L1.5 line size in bytes (power of two, a multiple of const.line)", 8, 4096);
  l15.sectorBytes = p.constant.cache.lineBytes;  // the L1.5 holds whole constant-cache lines
  p.constant.l15Latency =
      cc.u32("l15_latency", p.constant.l15Latency,
             "core cycles from a constant-cache miss to its fill when the L1.5 holds the line", 0,
             100000);

  config::Section ic = tree.section("icnt");
  p.icnt.latency =
      ic.u32("latency", p.icnt.latency,
             "interconnect cycles from grant to arrival of a one-flit packet", 1, 100000);
  p.icnt.flitBytes = ic.u32("flit_bytes", p.icnt.flitBytes, "bytes per flit", 1, 4096);
  p.icnt.flitsPerCycle =
      ic.u32("flits_per_cycle", p.icnt.flitsPerCycle, "flits per cycle per port", 1, 1024);
  p.icnt.inputQueue =
      ic.u32("input_queue", p.icnt.inputQueue, "packets waiting at each input port", 1, 4096);
  p.icnt.ejectionQueue = ic.u32("ejection_queue", p.icnt.ejectionQueue,
                                "packets at each output port, arrived or on their way", 1, 4096);
  p.icnt.headerBytes = ic.u32("header_bytes", p.icnt.headerBytes,
                              "bytes of address and command per packet", 0, 4096);
  p.icnt.lookahead = ic.u32("lookahead", p.icnt.lookahead,
                            "packets at the front of each input queue an output may take, the "
                            "oldest for it first; 1: the head only, a FIFO",
                            1, p.icnt.inputQueue);

  config::Section l2 = tree.section("l2");
  readGeometry(l2, p.l2.cache, "L2 bytes in total (split evenly over the slices)", true);
  readTagFactor(l2, p.l2.cache);
  p.l2.slicesPerChannel =
      l2.u32("slices_per_channel", p.l2.slicesPerChannel, "L2 slices per memory channel", 1, 64);
  p.l2.partitions = l2.u32("partitions", p.l2.partitions,
                           "partitions of the L2, each with dram.channels / partitions channels "
                           "and their slices, serving gpu.num_sms / partitions SMs (SM s in "
                           "partition s x partitions / num_sms)",
                           1, 64);
  p.l2.farLatency = l2.u32("far_latency", p.l2.farLatency,
                           "interconnect cycles a request or reply between an SM and a slice of "
                           "another partition takes beyond the crossbar's latency, each way",
                           0, 100000);
  p.l2.fillLines = l2.choice("fill", "sectors", {"sectors", "line"},
                             "what a miss fetches from DRAM: the sectors asked for, or the "
                             "whole line (as caches without sectors do)") == "line";
  p.l2.mshrs = l2.u32("mshrs", p.l2.mshrs, "MSHRs per slice", 1, 4096);
  p.l2.mshrMerge = l2.u32("mshr_merge", p.l2.mshrMerge, "requests one MSHR entry holds", 1, 256);
  p.l2.hitLatency = l2.u32("hit_latency", p.l2.hitLatency,
                           "L2 cycles from arrival to the tag lookup and a hit's reply", 0, 100000);
  p.l2.atomicLatency =
      l2.u32("atomic_latency", p.l2.atomicLatency, "L2 cycles of the atomic unit", 1, 100000);
  p.l2.policy =
      l2.str("policy", p.l2.policy, "cache policy hooks of the L2 (extension point cache_policy)");
  p.l2.compression =
      l2.str("compression", p.l2.compression,
             "compression of L2 lines on the DRAM bus (extension point memory_compression)");

  config::Section d = tree.section("dram");
  DramParams& m = p.dram;
  m.channels = d.u32("channels", m.channels, "memory channels (one L2 slice group each)", 1, 4096);
  m.banks = d.u32("banks", m.banks, "banks per channel", 1, 1024);
  m.rowBytes =
      d.u32("row_bytes", m.rowBytes, "bytes per row of a bank (channel-wide)", 64, 1u << 20);
  m.queueDepth = d.u32("queue", m.queueDepth, "requests waiting per channel", 1, 4096);
  m.tRCD = d.u32("t_rcd", m.tRCD, "ACT to column command, DRAM cycles", 0, 10000);
  m.tRP = d.u32("t_rp", m.tRP, "PRE to ACT, DRAM cycles", 0, 10000);
  m.tRAS = d.u32("t_ras", m.tRAS, "ACT to PRE, DRAM cycles", 0, 10000);
  m.tCL = d.u32("t_cl", m.tCL, "read command to data, DRAM cycles", 0, 10000);
  m.tWL = d.u32("t_wl", m.tWL, "write command to data, DRAM cycles", 0, 10000);
  m.tWR = d.u32("t_wr", m.tWR, "end of write data to PRE, DRAM cycles", 0, 10000);
  m.tRRD = d.u32("t_rrd", m.tRRD, "ACT to ACT of different banks, DRAM cycles", 0, 10000);
  m.tRC = d.u32("t_rc", m.tRC, "ACT to ACT of one bank, DRAM cycles", 0, 10000);
  m.tWTR = d.u32("t_wtr", m.tWTR,
                 "end of write data to a RD command of the channel, DRAM cycles (0: not modelled)",
                 0, 10000);
  m.tRTW = d.u32("t_rtw", m.tRTW,
                 "RD command to a WR command of the channel, DRAM cycles (0: not modelled)", 0,
                 10000);
  m.tFAW = d.u32("t_faw", m.tFAW,
                 "window of at most four ACTs per channel, DRAM cycles (0: not modelled)", 0,
                 10000);
  m.tREFI = d.u32("t_refi", m.tREFI,
                  "interval of all-bank refreshes, DRAM cycles (0: refresh not modelled)", 0,
                  10000000);
  m.tRFC = d.u32("t_rfc", m.tRFC,
                 "REF to the next ACT (the channel refreshing), DRAM cycles; read with t_refi > 0",
                 0, 1000000);
  const std::string refresh =
      d.choice("refresh", "all_bank", {"all_bank", "per_bank"},
               "all_bank: the channel refreshes every bank at once for t_rfc every t_refi; "
               "per_bank: one bank at a time, round robin, every t_refi / banks, for t_rfc_pb "
               "(HBM's single-bank refresh), the other banks serving meanwhile");
  m.refresh = refresh == "per_bank" ? DramRefresh::PerBank : DramRefresh::AllBank;
  m.tRFCpb = d.u32("t_rfc_pb", m.tRFCpb,
                   "per-bank refresh: REFpb to the next ACT of its bank, DRAM cycles; read with "
                   "t_refi > 0 and refresh = \"per_bank\"",
                   0, 1000000);
  m.burstCycles =
      d.u32("burst_cycles", m.burstCycles,
            "data-bus cycles per 32-byte burst (32 / (bus bytes x transfers per cycle))", 1, 1000);
  m.returnLatency = d.u32(
      "return_latency", m.returnLatency,
      "DRAM cycles from a read's last burst to its data at the L2 (controller, PHY)", 0, 100000);
  const std::string sched = d.choice("scheduler", "fr-fcfs", {"fr-fcfs", "fcfs"},
                                     "row hits first (fr-fcfs) or strict arrival order (fcfs)");
  m.scheduler = sched == "fcfs" ? DramScheduler::Fcfs : DramScheduler::FrFcfs;
  m.interleaveBytes =
      d.u32("interleave_bytes", m.interleaveBytes,
            "bytes of consecutive addresses per channel: the address mapping's granule, never "
            "split over channels",
            32, 1u << 20);
  m.mapping = d.str("mapping", m.mapping,
                    "address mapping (extension point address_mapping): hash, scheme1..scheme7 "
                    "(DRAMSim2's field orders), permutation, minimalist, or a mechanism's");
  m.idealRowBuffer =
      d.flag("ideal_row_buffer", m.idealRowBuffer,
             "every access is a row-buffer hit: no ACT or PRE, column commands wait only for "
             "the data bus (the upper bound of any row-buffer optimisation)");
  validate(p);
  return p;
}

}  // namespace warpsim::timing::mem
