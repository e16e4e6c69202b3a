// The memory system as the GPU sees it: statistics, idleness and next events, skipping idle
// time, back-pressure, several SMs, clock domains, and construction from a configuration.
#include "timing/mem/memory_system.h"

#include <gtest/gtest.h>

#include "timing/mem/cache_tags.h"
#include "timing/mem/mem_params_config.h"
#include "timing/mem/testing/memory_config.h"
#include "timing/mem/testing/harness.h"

namespace warpsim::timing::mem {
namespace {

using testing::Harness;
using testing::kA;
using testing::record;
using testing::tinyParams;

TEST(MemorySystem, ReportsEveryCounterByName) {
  Harness h(tinyParams());
  nlohmann::json s;
  h.system().reportStats(s);
  const std::vector<std::string> cache = {
      "accesses",  "hits",       "misses", "sector_misses", "mshr_merges", "mshr_full_stalls",
      "evictions", "writebacks", "reads",  "writes",        "atomics", "form_hits",
      "pinned_evictions", "pin_resets", "prefetches", "prefetch_hits", "prefetch_late",
      "prefetch_unused"};
  for (const char* level : {"l1d", "l2"}) {
    ASSERT_TRUE(s.contains(level));
    EXPECT_EQ(s[level].size(), cache.size());
    for (const auto& k : cache) EXPECT_TRUE(s[level].contains(k)) << level << "." << k;
  }
  for (const char* k : {"accesses", "bank_conflict_replays", "conflicted_accesses"})
    EXPECT_TRUE(s["shared"].contains(k)) << k;
  for (const char* k : {"arbitration_stalls", "arbitration_accesses"})
    EXPECT_EQ(s["storage_banks"].value(k, -1), 0) << k;  // no banks shared with registers
  for (const char* k : {"accesses", "hits", "misses"}) EXPECT_TRUE(s["const"].contains(k));
  for (const char* k : {"packets", "flits", "stall_cycles"}) EXPECT_TRUE(s["icnt"].contains(k));
  for (const char* k : {"activates", "precharges", "read_bursts", "write_bursts", "row_hits",
                        "row_misses", "busy_cycles", "cycles", "refreshes", "refresh_cycles"}) {
    EXPECT_TRUE(s["dram"].contains(k)) << k;
  }
  EXPECT_EQ(s.size(), 7u);  // no plug-in objects for the baselines
}

TEST(MemorySystem, CountsTrafficOfOneMiss) {
  Harness h(tinyParams());
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["icnt"]["packets"], 2);
  EXPECT_EQ(s["icnt"]["flits"], 1 + 5);
  EXPECT_EQ(s["l2"]["misses"], 1);
  EXPECT_EQ(s["l2"]["reads"], 1);
  EXPECT_EQ(s["dram"]["activates"], 1);
  EXPECT_EQ(s["dram"]["busy_cycles"], 4);
  // The run ended after the core cycle at 74: DRAM cycles 0..74 have elapsed.
  EXPECT_EQ(s["dram"]["cycles"], 75);
}

// Functional warming (kernel sampling): the L2 holds the warmed sectors, as if the accesses had
// been served, with no packet, DRAM command or counter; a load of them is then an L2 hit.
TEST(MemorySystem, WarmedSectorsAreL2HitsWithoutTrafficOrCounters) {
  Harness cold(tinyParams()), warmed(tinyParams());
  warmed.system().warm(kA, 4, false);
  warmed.system().warm(kA + 4096, 64, true);  // two sectors, written
  nlohmann::json s;
  warmed.system().reportStats(s);
  EXPECT_EQ(s["l2"]["accesses"], 0);
  EXPECT_EQ(s["icnt"]["packets"], 0);
  EXPECT_EQ(s["dram"]["activates"], 0);
  const uint64_t miss = cold.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 0), 1);
  const uint64_t hit = warmed.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 0), 1);
  EXPECT_LT(hit, miss);
  warmed.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA + 4096 + 32, 0), 2);
  s = nlohmann::json();
  warmed.system().reportStats(s);
  EXPECT_EQ(s["l2"]["hits"], 2) << s["l2"].dump();
  EXPECT_EQ(s["l2"]["misses"], 0);
  EXPECT_EQ(s["dram"]["read_bursts"], 0);
  // A sector of the written line that was not warmed is still missing.
  warmed.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA + 4096 + 64, 0), 3);
  s = nlohmann::json();
  warmed.system().reportStats(s);
  EXPECT_EQ(s["l2"]["sector_misses"], 1);
  EXPECT_EQ(s["dram"]["read_bursts"], 1);
}

TEST(MemorySystem, IdleAndNextEvents) {
  Harness h(tinyParams());
  EXPECT_TRUE(h.system().idle());
  EXPECT_EQ(h.system().nextEventPs(0), kNever);
  h.issue(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1);
  EXPECT_FALSE(h.system().idle());
  EXPECT_EQ(h.unit().nextEvent(0), 0u);
  h.step();                                     // cycle 0: the Read enters the network
  EXPECT_EQ(h.unit().nextEvent(1), kNever);     // the SM waits for memory only
  EXPECT_EQ(h.system().nextEventPs(0), 1000u);  // the interconnect grants at cycle 1
  h.step();
  EXPECT_EQ(h.system().nextEventPs(1000), 11000u);  // the packet arrives at 11
  h.runUntil(1);
  EXPECT_TRUE(h.system().idle());
  EXPECT_EQ(h.system().nextEventPs(h.now() * 1000), kNever);
}

// Drives the system like the GPU's loop with idle-cycle skipping: the same completion cycles
// as stepping every cycle.
TEST(MemorySystem, SkippingIdleTimeGivesTheSameCycles) {
  auto run = [](bool skip) {
    BaselineMemoryPlugins plugins;
    MemorySystemImpl sys(tinyParams(), plugins);
    std::vector<Cycle> done;
    const func::ExecRecord loads[3] = {record(ir::Op::Ld, ir::Space::Global, kA, 4),
                                       record(ir::Op::Ld, ir::Space::Global, kA + 8192, 4),
                                       record(ir::Op::St, ir::Space::Global, kA + 256, 4)};
    Cycle now = 0;
    uint32_t next = 0;
    while (done.size() < 3 && now < 10000) {
      sys.advanceTo(now * 1000);
      if (next < 3 && now >= 40 * next) sys.unit(0).accept(loads[next], next, now), ++next;
      sys.unit(0).cycle(now);
      uint32_t token;
      while (sys.unit(0).popCompleted(token)) done.push_back(now);
      Cycle step = now + 1;
      if (skip) {
        Cycle earliest =
            std::min<Cycle>(sys.unit(0).nextEvent(now + 1), next < 3 ? 40 * next : kNever);
        const uint64_t ps = sys.nextEventPs(now * 1000);
        if (ps != kNever) earliest = std::min<Cycle>(earliest, (ps + 999) / 1000);
        step = std::max(step, earliest);
      }
      now = step;
    }
    return done;
  };
  const auto stepped = run(false);
  ASSERT_EQ(stepped.size(), 3u);
  EXPECT_EQ(run(true), stepped);
}

TEST(MemorySystem, BackPressureReachesTheSm) {
  MemoryParams p = tinyParams();
  p.icnt.inputQueue = 1;
  p.icnt.ejectionQueue = 1;
  p.l1.queueInstructions = 1;
  p.l2.mshrs = 1;
  Harness h(p);
  // One instruction waits for the port: the next is refused until it has started.
  const auto first = record(ir::Op::Ld, ir::Space::Global, kA, 4);
  h.issue(first, 0);
  EXPECT_FALSE(h.unit().canAccept(first));
  h.step();
  EXPECT_TRUE(h.unit().canAccept(first));
  // Misses to distinct lines: the L2 (one MSHR) stalls, its pipeline and the ejection queue
  // fill, the SM's input port stays full and the SM stops accepting.
  uint32_t token = 1;
  Cycle refused = 0;
  while (token < 40 && h.now() < 5000) {
    const auto r = record(ir::Op::Ld, ir::Space::Global, kA + 128 * token, 4);
    if (h.unit().canAccept(r)) {
      h.issue(r, token++);
    } else {
      ++refused;
    }
    h.step();
  }
  h.drain();
  for (uint32_t t = 0; t < token; ++t) EXPECT_TRUE(h.completed(t)) << t;
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_GT(refused, 0u);
  EXPECT_GT(s["icnt"]["stall_cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(s["l2"]["mshr_full_stalls"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["l2"]["misses"], 40);
  EXPECT_TRUE(h.system().idle());
}

// An SM whose instructions are all done may stop cycling (the GPU skips idle SMs) while the
// acknowledgements of its stores are still on their way: the memory system takes them, so they
// neither keep the SM busy nor block replies to other SMs.
TEST(MemorySystem, AcknowledgementsOfAnSmThatStoppedCyclingAreTaken) {
  MemoryParams p = tinyParams();
  p.numSms = 2;
  p.icnt.ejectionQueue = 1;
  p.icnt.inputQueue = 2;
  BaselineMemoryPlugins plugins;
  MemorySystemImpl sys(p, plugins);
  Cycle now = 0;
  uint32_t done0 = 0, done1 = 0, issued0 = 0, issued1 = 0;
  for (; now < 5000 && done1 < 20; ++now) {
    sys.advanceTo(now * 1000);
    if (issued0 < 20) {
      const auto st = record(ir::Op::St, ir::Space::Global, kA + 128 * issued0, 4);
      if (sys.unit(0).canAccept(st)) sys.unit(0).accept(st, issued0++, now);
    }
    if (issued0 < 20 || done0 < 20) {  // SM 0 cycles only while it has instructions
      sys.unit(0).cycle(now);
      for (uint32_t t; sys.unit(0).popCompleted(t);) ++done0;
    }
    if (issued1 < 20) {
      const auto ld = record(ir::Op::Ld, ir::Space::Global, kA + 65536 + 128 * issued1, 4);
      if (sys.unit(1).canAccept(ld)) sys.unit(1).accept(ld, issued1++, now);
    }
    sys.unit(1).cycle(now);
    for (uint32_t t; sys.unit(1).popCompleted(t);) ++done1;
  }
  EXPECT_EQ(done0, 20u);
  EXPECT_EQ(done1, 20u);
  for (; now < 10000 && !sys.idle(); ++now) {
    sys.advanceTo(now * 1000);
    sys.unit(1).cycle(now);
  }
  EXPECT_TRUE(sys.unit(0).idle());
  EXPECT_TRUE(sys.idle());
}

TEST(MemorySystem, SmsShareTheL2) {
  MemoryParams p = tinyParams();
  p.numSms = 2;
  Harness h(p);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1, 0), 74u);
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 2, 1), 46u);
}

TEST(MemorySystem, IsDeterministic) {
  auto run = [] {
    MemoryParams p = tinyParams();
    p.numSms = 2;
    p.dram.channels = 2;
    p.l2.cache.sizeBytes = 2 * 2 * 128 * 2;  // 2 slices x 2 ways x 2 sets: evictions
    p.l2.cache.assoc = 2;
    Harness h(p);
    for (uint32_t i = 0; i < 24; ++i) {
      const auto r = record(i % 3 == 2 ? ir::Op::St : ir::Op::Ld, ir::Space::Global, kA + 384 * i,
                            4 + 4 * (i % 2));
      while (!h.unit(i % 2).canAccept(r)) h.step();
      h.issue(r, i, i % 2);
      h.step();
    }
    h.drain();
    nlohmann::json s;
    h.system().reportStats(s);
    s["end"] = h.now();
    return s;
  };
  const nlohmann::json a = run();
  EXPECT_EQ(a, run());
  EXPECT_GT(a["l2"]["evictions"].get<uint64_t>(), 0u);
}

TEST(MemorySystem, FermiDefaults) {
  MemoryParams p;  // GTX 480 defaults: core and icnt 1400 MHz, L2 700, DRAM 924
  p.numSms = 1;
  Harness h(p);
  const auto load = record(ir::Op::Ld, ir::Space::Global, kA, 4);
  const Cycle dram = h.latencyOf(load, 1);
  const Cycle l1 = h.latencyOf(load, 2);
  h.system().beginKernel();
  const Cycle l2 = h.latencyOf(load, 3);
  EXPECT_EQ(l1, 20u);
  // L2 hit: 2 x 8 icnt cycles + 100 L2 cycles (200 core cycles) + 4 flits of serialisation and
  // the crossings between the 1400 and 700 MHz clocks (one cycle more or less with the phase of
  // the 700 MHz clock at issue: this one starts on an odd core cycle).
  EXPECT_EQ(l2, 222u);
  // DRAM: tRCD + tCL + 4 bursts + 100 return cycles = 128 DRAM cycles at 924 MHz (194 core
  // cycles) more, plus crossings.
  EXPECT_EQ(dram, 419u);
}

TEST(MemorySystem, ReadsItsConfiguration) {
  config::Tree tree = config::Tree::fromString(
      "[clocks]\nl2 = 1000.0\n[l1]\nsize = 32768\nreplacement = \"fifo\"\n"
      "[dram]\nchannels = 4\nt_cl = 10\n[l2]\nsize = 262144\n");
  const MemoryParams p = readMemoryParams(tree, 3, 1400);
  EXPECT_EQ(p.numSms, 3u);
  EXPECT_EQ(p.l1.cache.sizeBytes, 32768u);
  EXPECT_EQ(p.l1.cache.replacement, Replacement::Fifo);
  EXPECT_EQ(p.dram.channels, 4u);
  EXPECT_EQ(p.dram.tCL, 10u);
  EXPECT_EQ(p.dram.tRCD, 12u);
  EXPECT_EQ(p.clocks.l2Mhz, 1000.0);
  EXPECT_NO_THROW(tree.checkAllUsed());

  MemorySystemContext c;
  c.tree = &tree;
  c.numSms = 3;
  c.coreClockMhz = 1400;
  auto sys = makeMemorySystem(c);
  nlohmann::json s;
  sys->reportStats(s);
  EXPECT_TRUE(s.contains("dram"));
}

TEST(MemorySystem, BadParametersAreOneLineErrors) {
  const auto error = testing::memoryConfigError;
  EXPECT_EQ(error("[l1]\nline = 96\n"), "config: error: l1.line = 96 must be a power of two");
  EXPECT_EQ(error("[l2]\nsize = 1000\n"),
            "config: error: l2.size = 1000 is not a multiple of slices x assoc x line = 12288");
  EXPECT_EQ(error("[l1]\nline = 256\n"), "config: error: l1.line must not exceed l2.line");
  EXPECT_NE(error("[l1]\nreplacement = \"mru\"\n").find("replacement"), std::string::npos);
  EXPECT_EQ(error("[l1]\nsize = 2048\nassoc = 4\nline = 128\nreserved_lines = 16\n"),
            "config: error: l1.reserved_lines = 16 leaves no set of the 4 of the cache");
  EXPECT_EQ(error("[l2]\ntag_factor = 3\n"), "config: error: l2.tag_factor = 3: use 1, 2 or 4");
  EXPECT_NE(error("[l1]\ntag_factor = 8\n").find("l1.tag_factor"), std::string::npos);
  EXPECT_EQ(error("[l2]\nassoc = 32\nsize = 786432\nreplacement = \"plru\"\ntag_factor = 4\n"),
            "config: error: l2.replacement = \"plru\" supports at most 64 tags per set (assoc * "
            "tag_factor = 128)");
  EXPECT_NE(error("[icnt]\ninput_queue = 4\nlookahead = 5\n")
                .find("'icnt.lookahead' = 5 is out of range [1, 4]"),
            std::string::npos);
  EXPECT_NE(error("[icnt]\nlookahead = 0\n").find("'icnt.lookahead' = 0 is out of range [1, 8]"),
            std::string::npos);
  EXPECT_EQ(error(""), "");
}

TEST(MemorySystem, IcntLookaheadIsAtMostTheInputQueue) {
  const auto read = testing::memoryParamsOf;
  EXPECT_EQ(read("[icnt]\ninput_queue = 4\nlookahead = 4\n").icnt.lookahead, 4u);
  EXPECT_EQ(read("").icnt.lookahead, 1u);
  // Parameters built in code meet the same check as the configuration key.
  MemoryParams p;
  p.icnt.inputQueue = 4;
  p.icnt.lookahead = 5;
  try {
    validate(p);
    ADD_FAILURE() << "no error";
  } catch (const config::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "config: error: icnt.lookahead = 5 must be in [1, icnt.input_queue = 4]");
  }
}

TEST(MemorySystem, TagFactorsGiveSetsMoreTagsThanDataWays) {
  config::Tree tree = config::Tree::fromString(
      "[l1]\ntag_factor = 2\nkeep_fill_form = true\n[l2]\ntag_factor = 4\n");
  const MemoryParams p = readMemoryParams(tree, 15, 1400);
  EXPECT_EQ(p.l1.cache.tagFactor, 2u);
  EXPECT_TRUE(p.l1.keepFillForm);
  EXPECT_EQ(p.l2.cache.tagFactor, 4u);
  EXPECT_EQ(p.l2.cache.sets(), 384u);  // 768 KB of 16 ways: the data and its sets unchanged
  CacheTags l2(p.l2.cache);
  EXPECT_EQ(l2.ways(), 64u);
  EXPECT_EQ(l2.dataSegments(), 256u);  // 16 lines of 16 8-byte segments
}

TEST(MemorySystem, ReservedLinesTakeWholeSetsFromTheL1) {
  // 16 KB, 4 ways of 128 B: 32 sets; 16 lines take 4 of them, 17 lines 5.
  config::Tree tree = config::Tree::fromString(
      "[l1]\nsize = 16384\nassoc = 4\nline = 128\nreserved_lines = 16\n");
  EXPECT_EQ(readMemoryParams(tree, 15, 1400).l1.cache.sets(), 28u);
  EXPECT_EQ(readMemoryParams(tree, 15, 1400).l1.cache.sizeBytes, 14336u);
  config::Tree odd = config::Tree::fromString(
      "[l1]\nsize = 16384\nassoc = 4\nline = 128\nreserved_lines = 17\n");
  EXPECT_EQ(readMemoryParams(odd, 15, 1400).l1.cache.sets(), 27u);
}

}  // namespace
}  // namespace warpsim::timing::mem
