// A GPU of two modules: exact cycles of local and remote loads, the link's bandwidth, the
// placement across kernels, the NUMA counters, and the configuration's checks.
#include <gtest/gtest.h>

#include <string>

#include "timing/mem/mem_params_config.h"
#include "timing/mem/memory_system.h"
#include "timing/mem/testing/harness.h"
#include "timing/mem/zone_placements.h"

namespace warpsim::timing::mem {
namespace {

using testing::Harness;
using testing::kA;  // zone 0 under xor at bit 8 with 2 zones
using testing::record;
using testing::tinyParams;

constexpr uint64_t kB = kA + 0x100;  // zone 1, the same zone-local address as kA

// 2 SMs, 2 channels, 2 modules (SM m and channel m in module m); links of 32 B per cycle (all
// clocks 1 GHz) and 20 cycles.
MemoryParams twoModules() {
  MemoryParams p = tinyParams();
  p.numSms = 2;
  p.dram.channels = 2;
  p.modules = 2;
  p.link.gbps = 32;
  p.link.latency = 20;
  return p;
}

TEST(NumaMemorySystem, PlacementOfTheTestAddresses) {
  XorZonePlacement x(2, 8);
  EXPECT_EQ(x.at(kA).zone, 0u);
  EXPECT_EQ(x.at(kB).zone, 1u);
  EXPECT_EQ(x.at(kA).local, x.at(kB).local);
}

// A remote miss takes the same DRAM time as a local one (the same bank, row and column in its
// zone) plus, each way, one cycle from the crossbar's link port onto the link, the link
// (ceil(bytes / 32) - 1 + 20 cycles) and a second crossbar (serial - 1 + icnt.latency 10):
//   request (8 bytes, 1 flit):      1 + (1 - 1 + 20) + (1 - 1 + 10) = 31
//   reply (136 bytes, 5 flits):     1 + (5 - 1 + 20) + (5 - 1 + 10) = 39
TEST(NumaMemorySystem, RemoteLoadPaysTheLinkBothWays) {
  Harness local(twoModules());
  const Cycle l = local.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1, 0);
  Harness remote(twoModules());
  const Cycle r = remote.latencyOf(record(ir::Op::Ld, ir::Space::Global, kB, 4), 1, 0);
  EXPECT_EQ(r - l, 31u + 39u);
  // From SM 1 it is the other way round.
  Harness other(twoModules());
  EXPECT_EQ(other.latencyOf(record(ir::Op::Ld, ir::Space::Global, kB, 4), 1, 1), l);
}

// One module: the single-chip system, cycle for cycle (the default parameters).
TEST(NumaMemorySystem, OneModuleChangesNothing) {
  MemoryParams p = twoModules();
  p.modules = 1;
  Harness h(p);
  Harness plain(tinyParams());
  EXPECT_EQ(h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1, 0),
            plain.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1, 0));
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_FALSE(s.contains("numa"));
  EXPECT_EQ(h.system().links(), nullptr);
}

// `lines` distinct lines of zone 1, one per lane.
func::ExecRecord zoneOneLines(uint32_t lines) {
  XorZonePlacement x(2, 8);
  func::ExecRecord r = record(ir::Op::Ld, ir::Space::Global, kA, 4, 4, (lines == 32 ? ~0u : (1u << lines) - 1));
  uint64_t a = kA;
  for (uint32_t l = 0; l < lines; ++l) {
    while (x.at(a).zone != 1) a += 128;
    r.addr[l] = a;
    a += 128;
  }
  return r;
}

// Replies of L2 hits from the other module, one 32-byte sector each: 40 bytes on a link of 16
// bytes per cycle, 2.5 cycles apiece, slower than any crossbar port (2 flits: 2 cycles), so 16
// more of them take exactly 40 cycles more. The receiving buffer (module_link.queue) must cover
// the link's latency: with 4 slots, credits come back too slowly and the same traffic takes
// longer (back-pressure across the link).
Cycle remoteHits(uint32_t lines, uint32_t queue) {
  MemoryParams p = twoModules();
  p.link.gbps = 16;
  p.link.queue = queue;
  Harness h(p);
  h.latencyOf(zoneOneLines(lines), 1, 1);  // SM 1 brings the lines into its L2
  const Cycle t = h.latencyOf(zoneOneLines(lines), 2, 0);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["numa"]["link_reply_bytes"], 40 * lines);
  EXPECT_EQ(s["numa"]["link_request_bytes"], 8 * lines);
  EXPECT_EQ(s["numa"]["link_packets"], 2 * lines);
  return t;
}

TEST(NumaMemorySystem, LinkBandwidthBoundsRemoteHits) {
  EXPECT_EQ(remoteHits(32, 64) - remoteHits(16, 64), 40u);
  EXPECT_GT(remoteHits(32, 4) - remoteHits(16, 4), 40u + 16u);
}

TEST(NumaMemorySystem, CountsLocalRemoteZonesAndLinkBytes) {
  Harness h(twoModules());
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1, 0);  // local
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kB, 4), 2, 0);  // remote
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kB, 4), 3, 1);  // local (L2 hit)
  nlohmann::json s;
  h.system().reportStats(s);
  const nlohmann::json& n = s["numa"];
  EXPECT_EQ(n["local_requests"], 2);
  EXPECT_EQ(n["remote_requests"], 1);
  EXPECT_EQ(n["zone_requests"], (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(n["link_request_bytes"], 8);
  EXPECT_EQ(n["link_reply_bytes"], 136);
  EXPECT_EQ(n["link_out_bytes"], (std::vector<uint64_t>{8, 136}));
  EXPECT_EQ(n["link_in_bytes"], (std::vector<uint64_t>{136, 8}));
  EXPECT_EQ(n["link_packets"], 2);
  EXPECT_EQ(n["link_stall_cycles"], 0);
  EXPECT_EQ(n["zone_dram_bytes"], (std::vector<uint64_t>{128, 128}));
  EXPECT_EQ(n["zone_dram_busy_cycles"], (std::vector<uint64_t>{4, 4}));
  EXPECT_EQ(n["zone_dram_cycles"][0], n["zone_dram_cycles"][1]);
  EXPECT_EQ(s["icnt"]["packets"], 3 * 2 + 2);  // the remote pair crosses both crossbars
}

TEST(NumaMemorySystem, FirstTouchHoldsAcrossKernels) {
  MemoryParams p = twoModules();
  p.zones.placement = "first-touch";
  Harness h(p);
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1, 1);  // SM 1 first: zone 1
  h.system().beginKernel();
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA + 0x80, 4), 2, 0);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["numa"]["remote_requests"], 1);
  EXPECT_EQ(s["numa"]["zone_requests"], (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(s["numa"]["first_touch_pages"], (std::vector<uint64_t>{0, 1}));
}

TEST(NumaMemorySystem, InterleaveBitsRangesComeFromWhoeverDrivesThem) {
  MemoryParams p = twoModules();
  p.zones.placement = "interleave-bits";
  Harness h(p);
  auto* placement = dynamic_cast<InterleaveBitsZonePlacement*>(h.system().zonePlacement());
  ASSERT_NE(placement, nullptr);
  const uint64_t base = kA & ~uint64_t{0x3ffff};
  placement->setRanges({{base, 1u << 18, 12}});  // zone = bit 12: kA (bit 12 set) in zone 1
  h.latencyOf(record(ir::Op::Ld, ir::Space::Global, kA, 4), 1, 1);
  nlohmann::json s;
  h.system().reportStats(s);
  EXPECT_EQ(s["numa"]["local_requests"], 1);
}

MemoryParams readParams(const std::string& toml, uint32_t sms, uint32_t modules) {
  config::Tree tree = config::Tree::fromString(toml);
  return readMemoryParams(tree, sms, 1000, modules);
}

TEST(NumaMemorySystem, ConfigurationErrorsAreOneLine) {
  auto message = [](const std::string& toml, uint32_t sms, uint32_t modules) {
    try {
      readParams(toml, sms, modules);
    } catch (const config::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("[dram]\nchannels = 6\n", 8, 4),
            "config: error: dram.channels = 6 is not a multiple of gpu.modules = 4");
  EXPECT_EQ(message("[dram]\nchannels = 8\n", 6, 4),
            "config: error: gpu.num_sms = 6 is not a multiple of gpu.modules = 4");
  const MemoryParams p = readParams(
      "[dram]\nchannels = 8\n[module_link]\ngbps = 100\nlatency = 7\n"
      "[zone_placement]\nimpl = \"first-touch\"\npage_bytes = 4096\n",
      8, 4);
  EXPECT_EQ(p.modules, 4u);
  EXPECT_EQ(p.link.gbps, 100.0);
  EXPECT_EQ(p.link.latency, 7u);
  EXPECT_EQ(p.zones.placement, "first-touch");
  EXPECT_EQ(p.zones.pageBytes, 4096u);
  BaselineMemoryPlugins plugins;
  MemoryParams bad = twoModules();
  bad.zones.placement = "nowhere";
  EXPECT_THROW(MemorySystemImpl(bad, plugins), config::Error);
}

}  // namespace
}  // namespace warpsim::timing::mem
