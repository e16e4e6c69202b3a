// Functional mode simulates the configured GPU as timing mode does (device properties, the SMs
// CTAs are placed on), without building the timing model; its own key functional.warp_quantum;
// programs with diverged barriers and benign races give the same results in both modes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/config.h"
#include "func/device_memory.h"
#include "runtime/device.h"

namespace warpsim::runtime {
namespace {

DeviceOptions options(const std::string& mode, const std::string& config = "",
                      std::vector<std::string> sets = {}) {
  DeviceOptions o;
  o.mode = mode;
  o.config = config;
  o.sets = std::move(sets);
  o.resources = DeviceOptions::Resources::Estimate;
  return o;
}

template <class Body>
std::string errorOf(Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

void expectSameProperties(const GpuProperties& f, const GpuProperties& t, const std::string& what) {
  EXPECT_EQ(f.name, t.name) << what;
  EXPECT_EQ(f.computeMajor, t.computeMajor) << what;
  EXPECT_EQ(f.computeMinor, t.computeMinor) << what;
  EXPECT_EQ(f.numSms, t.numSms) << what;
  EXPECT_EQ(f.warpSize, t.warpSize) << what;
  EXPECT_EQ(f.maxThreadsPerBlock, t.maxThreadsPerBlock) << what;
  EXPECT_EQ(f.maxThreadsPerSm, t.maxThreadsPerSm) << what;
  EXPECT_EQ(f.maxBlocksPerSm, t.maxBlocksPerSm) << what;
  EXPECT_EQ(f.registersPerSm, t.registersPerSm) << what;
  EXPECT_EQ(f.registersPerBlock, t.registersPerBlock) << what;
  EXPECT_EQ(f.sharedBytesPerSm, t.sharedBytesPerSm) << what;
  EXPECT_EQ(f.sharedBytesPerBlock, t.sharedBytesPerBlock) << what;
  EXPECT_EQ(f.l2Bytes, t.l2Bytes) << what;
  EXPECT_EQ(f.clockKhz, t.clockKhz) << what;
  EXPECT_EQ(f.memoryClockKhz, t.memoryClockKhz) << what;
  EXPECT_EQ(f.memoryBusWidthBits, t.memoryBusWidthBits) << what;
  EXPECT_EQ(f.memoryBytes, t.memoryBytes) << what;
}

TEST(FunctionalMode, SimulatesTheDefaultConfigurationWithoutTheTimingModel) {
  Device gpu(options("functional"));
  EXPECT_EQ(gpu.gpu(), nullptr);
  ASSERT_NE(gpu.configTree(), nullptr);
  EXPECT_EQ(gpu.configTree()->name(), kDefaultConfig);
  const GpuProperties& p = gpu.properties();
  EXPECT_EQ(p.name, "NVIDIA GeForce GTX 480");
  EXPECT_EQ(p.numSms, 15u);
  EXPECT_EQ(p.computeMajor, 2u);
  EXPECT_EQ(p.computeMinor, 0u);
  EXPECT_EQ(p.maxThreadsPerSm, 1536u);
  EXPECT_EQ(p.l2Bytes, 786432u);
  EXPECT_EQ(p.memoryBusWidthBits, 768u);
  EXPECT_EQ(p.memoryBytes, 1610612736u);
  EXPECT_EQ(gpu.memory().capacity(), 1610612736u);
}

TEST(FunctionalMode, ReportsTheSamePropertiesAsTimingModeForEveryBundledConfiguration) {
  for (const auto& [name, description] : config::Tree::listBundled(false)) {
    Device functional(options("functional", name)), timing(options("timing", name));
    expectSameProperties(functional.properties(), timing.properties(), name);
  }
  Device functional(options("functional", "v100", {"gpu.num_sms=7"})), timing(options("timing", "v100", {"gpu.num_sms=7"}));
  expectSameProperties(functional.properties(), timing.properties(), "v100 with 7 SMs");
  EXPECT_EQ(functional.properties().numSms, 7u);
}

// Keys a configuration leaves out take the defaults of the components that read them in timing
// mode; functional mode must use the same ones.
TEST(FunctionalMode, UsesTheTimingModelsDefaultsForKeysAConfigurationLeavesOut) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "warpsim_bare_config.toml";
  {
    std::ofstream out(file);
    out << "name = \"bare\"\n[gpu]\nmemory_bytes = 268435456\n";
  }
  Device functional(options("functional", file.string())), timing(options("timing", file.string()));
  std::filesystem::remove(file);
  expectSameProperties(functional.properties(), timing.properties(), "a configuration of defaults");
  EXPECT_EQ(functional.properties().numSms, 15u);
}

// Every CTA reads %nsmid and %smid: the configured GPU's SMs, CTAs placed round robin.
const char* kSmIds = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry smids(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %nsmid;
  mov.u32 %r3, %smid;
  mad.lo.u32 %r2, %r2, 1000, %r3;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

std::vector<uint32_t> smIds(DeviceOptions o) {
  Device gpu(o);
  Module m = gpu.loadModule(kSmIds, "smids.ptx");
  const uint64_t out = gpu.malloc(40 * 4);
  gpu.launch(m.kernel("smids"), {40}, {32}, 0, out);
  return gpu.download<uint32_t>(out, 40);
}

TEST(FunctionalMode, PlacesCtasOnTheConfiguredSms) {
  const std::vector<uint32_t> v = smIds(options("functional"));
  for (uint32_t c = 0; c < 40; ++c) EXPECT_EQ(v[c], 15000 + c % 15) << c;
  DeviceOptions four = options("functional", "a100");
  four.numSms = 4;
  const std::vector<uint32_t> w = smIds(four);
  for (uint32_t c = 0; c < 40; ++c) EXPECT_EQ(w[c], 4000 + c % 4) << c;
  const std::vector<uint32_t> a100 = smIds(options("functional", "a100"));
  EXPECT_EQ(a100[39], 108039u);
}

// counter[blockIdx] += 1 by every thread of 4 warps (load, add, store: a benign race).
const char* kRacy = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry racy(.param .u64 counter)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [counter];
  ld.global.u32 %r1, [%rd1];
  add.u32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

uint32_t racyCount(DeviceOptions o) {
  Device gpu(o);
  Module m = gpu.loadModule(kRacy, "racy.ptx");
  const uint64_t counter = gpu.upload(std::vector<uint32_t>(1, 0));
  gpu.launch(m.kernel("racy"), {1}, {128}, 0, counter);
  return gpu.download<uint32_t>(counter, 1)[0];
}

TEST(FunctionalMode, WarpQuantumKey) {
  EXPECT_EQ(racyCount(options("functional")), 1u);  // one instruction per turn by default
  EXPECT_EQ(racyCount(options("functional", "", {"functional.warp_quantum=4"})), 4u);
  EXPECT_EQ(racyCount(options("functional", "", {"functional.warp_quantum=0"})), 4u);
  EXPECT_EQ(racyCount(options("timing")), 1u);  // the GPU's answer
  // The key belongs to every configuration: timing mode accepts it (and leaves it unused).
  EXPECT_EQ(racyCount(options("timing", "", {"functional.warp_quantum=4"})), 1u);
  EXPECT_EQ(errorOf([] { Device gpu(options("functional", "", {"functional.warp_quanta=2"})); }),
            "config: error: --set 'functional.warp_quanta=2': unknown key 'functional.warp_quanta'");
  EXPECT_EQ(errorOf([] { Device gpu(options("timing", "", {"functional.warp_quanta=2"})); }),
            "config: error: --set 'functional.warp_quanta=2': unknown key 'functional.warp_quanta' (did you mean "
            "'functional.warp_quantum'?)");
  EXPECT_EQ(errorOf([] { Device gpu(options("functional", "", {"functional.warp_quantum=-1"})); }),
            "config: error: --set 'functional.warp_quantum=-1': 'functional.warp_quantum' = -1 is out of range [0, "
            "4294967295] (functional mode: instructions per turn of a CTA's warps, which take turns round robin (0: "
            "each warp runs until it waits or exits))");
}

// The halves of each warp sync at their own bar.sync: the shape of
// tests/cudart/programs/diverged_barrier.cu as nvcc 13 compiles it (bar.sync 0 on both paths).
const char* kHalves = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry halves(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[512];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r1, 2;
  add.u32 %r5, %r3, %r4;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra LOW;
  mul.lo.u32 %r6, %r1, 2;
  st.shared.u32 [%r5], %r6;
  bar.sync 0;
  add.u32 %r7, %r1, 80;
  and.b32 %r7, %r7, 127;
  shl.b32 %r7, %r7, 2;
  add.u32 %r7, %r3, %r7;
  ld.shared.u32 %r8, [%r7];
  add.u32 %r8, %r8, 1000;
  bra.uni JOIN;
LOW:
  st.shared.u32 [%r5], %r1;
  bar.sync 0;
  add.u32 %r7, %r1, 48;
  and.b32 %r7, %r7, 127;
  shl.b32 %r7, %r7, 2;
  add.u32 %r7, %r3, %r7;
  ld.shared.u32 %r8, [%r7];
JOIN:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
}
)";

std::vector<uint32_t> halves(DeviceOptions o) {
  Device gpu(o);
  Module m = gpu.loadModule(kHalves, "halves.ptx");
  const uint64_t out = gpu.malloc(128 * 4);
  gpu.launch(m.kernel("halves"), {1}, {128}, 0, out);
  return gpu.download<uint32_t>(out, 128);
}

TEST(FunctionalMode, DivergedBarrierGivesTheSameResultInBothModes) {
  std::vector<uint32_t> expected(128);
  for (uint32_t t = 0; t < 128; ++t) {
    // Lower halves read buf[(t + 48) % 128], an upper-half slot (2u); upper halves read
    // buf[(t + 80) % 128], a lower-half slot (u), + 1000.
    const uint32_t u = t % 32 < 16 ? (t + 48) % 128 : (t + 80) % 128;
    expected[t] = t % 32 < 16 ? 2 * u : u + 1000;
  }
  EXPECT_EQ(halves(options("functional")), expected);
  EXPECT_EQ(halves(options("functional", "", {"functional.warp_quantum=0"})), expected);
  EXPECT_EQ(halves(options("timing")), expected);
  EXPECT_EQ(halves(options("timing", "v100")), expected);
}

}  // namespace
}  // namespace warpsim::runtime
