// The bundled configurations in configs/: each loads, with every overlay, and each GPU sets the
// same keys as gtx480 (so a key added to one file is not forgotten in the others).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <tuple>

#include "config/config.h"
#include "config/test_files.h"

namespace warpsim::config {
namespace {

// Every value key set in the tree, as full dotted paths.
void collectKeys(Tree& tree, const std::string& path, std::set<std::string>& out) {
  for (const std::string& name : tree.section(path).keys()) {
    const std::string full = path.empty() ? name : path + "." + name;
    if (tree.section(full).keys().empty()) {
      out.insert(full);
    } else {
      collectKeys(tree, full, out);
    }
  }
}

std::set<std::string> keysOf(const std::string& name) {
  Tree tree = Tree::load(name);
  std::set<std::string> keys;
  collectKeys(tree, "", keys);
  return keys;
}

std::vector<std::string> names(bool overlays) {
  std::vector<std::string> out;
  for (const auto& [name, description] : Tree::listBundled(overlays)) out.push_back(name);
  return out;
}

TEST(Bundled, ListsTheGpusAndOverlays) {
  EXPECT_EQ(names(false),
            (std::vector<std::string>{"a100", "fermi-caba", "fermi-rfh", "fermi-unified", "gtx480", "gtx480-hw", "gtx980",
                                      "h100", "k40", "mcm-4gpm", "v100"}));
  // The core's overlays; mechanisms add their own (configs/overlays/<mechanism>*.toml).
  const std::vector<std::string> overlays = names(true);
  for (const char* core : {"fermi-l1-48k", "lrr", "two-level"}) {
    EXPECT_NE(std::find(overlays.begin(), overlays.end(), core), overlays.end()) << core;
  }
  for (bool overlays : {false, true}) {
    for (const auto& [name, description] : Tree::listBundled(overlays)) {
      EXPECT_FALSE(description.empty()) << name;
    }
  }
}

TEST(Bundled, EveryConfigurationLoadsWithEveryOverlay) {
  for (const std::string& gpu : names(false)) {
    EXPECT_NO_THROW(Tree::load(gpu)) << gpu;
    for (const std::string& overlay : names(true)) {
      EXPECT_NO_THROW(Tree::load(gpu, {overlay})) << gpu << " + " << overlay;
    }
    EXPECT_NO_THROW(Tree::load(gpu, names(true))) << gpu << " + all overlays";
  }
}

TEST(Bundled, EveryGpuSetsTheKeysOfGtx480) {
  const std::set<std::string> reference = keysOf("gtx480");
  EXPECT_GT(reference.size(), 100u);
  for (const std::string& gpu : names(false)) {
    const std::set<std::string> keys = keysOf(gpu);
    std::vector<std::string> missing, extra;
    std::set_difference(reference.begin(), reference.end(), keys.begin(), keys.end(),
                        std::back_inserter(missing));
    std::set_difference(keys.begin(), keys.end(), reference.begin(), reference.end(),
                        std::back_inserter(extra));
    // A GPU may price events of its own (energy.extra.*, e.g. fermi-unified's SRAM leakage).
    std::erase_if(extra, [](const std::string& k) { return k.rfind("energy.extra.", 0) == 0; });
    // A GPU of several modules sets gpu.modules and its links' and placement's keys; single-chip
    // GPUs leave them at their defaults (unused with one module).
    std::erase_if(extra, [](const std::string& k) {
      return k == "gpu.modules" || k.rfind("module_link.", 0) == 0 ||
             k.rfind("zone_placement.", 0) == 0;
    });
    EXPECT_TRUE(missing.empty()) << gpu << " lacks " << (missing.empty() ? "" : missing[0]);
    EXPECT_TRUE(extra.empty()) << gpu << " adds " << (extra.empty() ? "" : extra[0]);
  }
}

TEST(Bundled, EveryGpuDescribesItselfAndItsEnergy) {
  const char* kEnergy[] = {"rf_array_read", "rf_array_write", "rf_crossbar_byte", "operand_collector", "alu_lane_op",
                           "sfu_lane_op", "fp64_lane_op", "lsu_lane_op", "icache_access",
                           "l1d_access", "shared_access", "const_access", "l2_access",
                           "icnt_flit", "dram_activate", "dram_read_burst", "dram_write_burst",
                           "static_watts"};
  for (const std::string& gpu : names(false)) {
    Tree tree = Tree::load(gpu);
    Section root = tree.root();
    EXPECT_FALSE(root.str("name", "", "").empty()) << gpu;
    EXPECT_FALSE(root.str("description", "", "").empty()) << gpu;
    EXPECT_FALSE(root.str("source", "", "").empty()) << gpu;
    Section energy = tree.section("energy");
    for (const char* key : kEnergy) {
      // Zero only where a figure includes the event (fermi-unified's 40 pJ per DRAM bit is the
      // whole access, activation included).
      const bool zeroAllowed = gpu == "fermi-unified" && std::string(key) == "dram_activate";
      EXPECT_TRUE(energy.has(key)) << gpu << " energy." << key;
      if (!zeroAllowed) {
        EXPECT_GT(energy.f64(key, -1.0, "", 0.0), 0.0) << gpu << " energy." << key;
      }
    }
  }
}

TEST(Bundled, VariantsInheritFromTheirBase) {
  Tree rfh = Tree::load("fermi-rfh");
  EXPECT_EQ(rfh.section("gpu").u32("num_sms", 0, ""), 16u);
  EXPECT_EQ(rfh.section("l2").u64("size", 0, ""), 786432u);  // gtx480's
  std::vector<ResolvedKey> r = rfh.resolved();
  ASSERT_GE(r.size(), 2u);
  EXPECT_EQ(r[r.size() - 2].source.substr(0, 15), "fermi-rfh.toml:");
  EXPECT_EQ(r.back().source.substr(0, 12), "gtx480.toml:");
}

TEST(Bundled, DramBandwidthMatchesTheSpecifications) {
  // channels x 32-byte bursts / burst_cycles x DRAM clock, in GB/s.
  const std::pair<const char*, double> kSpec[] = {
      {"gtx480", 177.4}, {"gtx480-hw", 177.4}, {"fermi-rfh", 256.0}, {"k40", 288.0}, {"gtx980", 224.0},
      {"v100", 900.0}, {"a100", 1555.0}, {"h100", 3350.0}};
  for (const auto& [gpu, gbps] : kSpec) {
    Tree tree = Tree::load(gpu);
    Section dram = tree.section("dram");
    const double bw = dram.u32("channels", 0, "") * 32.0 / dram.u32("burst_cycles", 0, "") *
                      tree.section("clocks").f64("dram", 0, "") * 1e6 / 1e9;
    EXPECT_NEAR(bw / gbps, 1.0, 0.01) << gpu << ": " << bw << " GB/s";
  }
}

// fermi-unified against the unified-storage study's chapter-7 GPU (digest
// rf-hierarchy-and-unified-memory.md s1.3, s7.5) and its fixed designs.
TEST(Bundled, FermiUnifiedIsTheChapter7Baseline) {
  Tree t = Tree::load("fermi-unified");
  EXPECT_EQ(t.section("gpu").u32("num_sms", 0, ""), 32u);
  Section sm = t.section("sm");
  EXPECT_EQ(sm.u32("registers", 0, "") * 4, 256u * 1024);   // 256/64/64
  EXPECT_EQ(sm.u32("shared_bytes", 0, ""), 64u * 1024);
  EXPECT_EQ(t.section("l1").u64("size", 0, ""), 64u * 1024);
  EXPECT_EQ(t.section("resources").u32("max_registers_per_thread", 0, ""), 64u);
  // 8 bytes per cycle per SM of DRAM bandwidth at the 1 GHz core clock.
  Section dram = t.section("dram");
  const double bytesPerSecond = dram.u32("channels", 0, "") * 32.0 / dram.u32("burst_cycles", 0, "") *
                                t.section("clocks").f64("dram", 0, "") * 1e6;
  EXPECT_NEAR(bytesPerSecond / 32 / (t.section("clocks").f64("core", 0, "") * 1e6), 8.0, 0.05);
  // The fixed designs, RF/L1/shared in KB.
  const std::tuple<const char*, uint32_t, uint32_t, uint32_t> kFixed[] = {
      {"partition-128-32-32", 128, 32, 32},    {"partition-128-64-64", 128, 64, 64},
      {"partition-256-64-64", 256, 64, 64},    {"partition-256-256-256", 256, 256, 256},
      {"partition-512-512-512", 512, 512, 512}, {"limited-16-48", 256, 16, 48},
      {"limited-48-16", 256, 48, 16}};
  for (const auto& [overlay, rf, l1, shared] : kFixed) {
    Tree f = Tree::load("fermi-unified", {overlay});
    EXPECT_EQ(f.section("sm").u32("registers", 0, "") * 4, rf * 1024) << overlay;
    EXPECT_EQ(f.section("l1").u64("size", 0, ""), l1 * 1024u) << overlay;
    EXPECT_EQ(f.section("sm").u32("shared_bytes", 0, ""), shared * 1024) << overlay;
  }
}

// fermi-rfh against the register-file-hierarchy studies' baseline (digest
// rf-hierarchy-and-unified-memory.md s1.1, s1.2 Table 4.4, s2.3 Tables 4.5 and 4.6).
TEST(Bundled, FermiRfhIsTheStudiesBaseline) {
  Tree t = Tree::load("fermi-rfh");
  EXPECT_EQ(t.section("gpu").u32("num_sms", 0, ""), 16u);
  EXPECT_DOUBLE_EQ(t.section("clocks").f64("core", 0, ""), 1000.0);
  Section sm = t.section("sm");
  EXPECT_EQ(sm.u32("max_warps", 0, ""), 32u);
  EXPECT_EQ(sm.u32("max_threads", 0, ""), 1024u);
  EXPECT_EQ(sm.u32("registers", 0, "") * 4, 128u * 1024);   // 128 KB main register file
  EXPECT_EQ(sm.u32("shared_bytes", 0, ""), 64u * 1024);
  EXPECT_EQ(sm.u32("schedulers", 0, ""), 1u);                // one warp instruction per cycle
  Section rf = t.section("sm.register_file");
  EXPECT_EQ(rf.u32("banks", 0, ""), 32u);                    // 32 x 4 KB, 1R + 1W
  EXPECT_EQ(rf.u32("read_ports", 0, ""), 1u);
  EXPECT_EQ(rf.u32("write_ports", 0, ""), 1u);
  EXPECT_EQ(t.section("sm.units.alu").u32("latency", 0, ""), 8u);
  EXPECT_EQ(t.section("sm.units.alu").u32("lanes", 0, ""), 32u);
  EXPECT_EQ(t.section("sm.units.sfu").u32("latency", 0, ""), 20u);
  EXPECT_EQ(t.section("sm.units.sfu").u32("lanes", 0, ""), 8u);  // 8 operations per cycle
  EXPECT_EQ(t.section("l1").u64("size", 0, ""), 64u * 1024);
  EXPECT_EQ(t.section("l1").u32("hit_latency", 0, ""), 20u);
  EXPECT_EQ(t.section("shared").u32("latency", 0, ""), 20u);
  Section e = t.section("energy");
  EXPECT_DOUBLE_EQ(e.f64("rf_array_read", 0, ""), 8.0);      // Table 4.5 MRF, per 128 bits
  EXPECT_DOUBLE_EQ(e.f64("rf_array_write", 0, ""), 11.0);
  EXPECT_DOUBLE_EQ(e.f64("rf_crossbar_byte", 0, ""), 1.9 / 4);  // Table 4.6: 1 mm, per byte
}

}  // namespace
}  // namespace warpsim::config
