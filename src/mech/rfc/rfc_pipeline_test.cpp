// The "rfc" model inside the timing model on one hand-written warp whose every operand's level
// is known (entries = 2, FIFO): exact counters without and with the compiler's liveness hints
// (the core "last-reads" pass), and the program's output unchanged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/device.h"

namespace warpsim {
namespace {

// RFC contents after each result, oldest first (entries = 2; rd = two entries).
const char* kKernel = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry probe(.param .u64 pout)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];    // long latency: bypasses the RFC (MRF write, 2 words)
  mov.u32 %r1, %tid.x;          // [r1]
  add.u32 %r2, %r1, 1;          // r1 hit                     [r1 r2]
  add.u32 %r3, %r2, %r1;        // r2, r1 hit (r2's last read) [r2 r3], r1 written back
  add.u32 %r4, %r1, %r3;        // r1 MRF, r3 hit (last reads) [r3 r4], r2 out (dead with hints)
  mul.wide.u32 %rd2, %r4, 4;    // r4 hit                      [rd2], r3 out (dead), r4 written back
  add.s64 %rd3, %rd1, %rd2;     // rd1 MRF, rd2 hit (last)     [rd3], rd2 out (dead)
  st.global.u32 [%rd3], %r4;    // rd3 hit, r4 MRF
  exit;                         // the warp's entries are dropped
}
)";

struct Result {
  nlohmann::json h;
  std::vector<uint32_t> out;
};

Result run(std::vector<std::string> sets) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.config = "gtx480";
  sets.insert(sets.begin(), {"sm.register_file.impl=\"rfc\"", "sm.register_file.entries=2"});
  o.sets = sets;
  runtime::Device gpu(o);
  runtime::Module m = gpu.loadModule(kKernel, "probe.ptx");
  const uint64_t out = gpu.upload(std::vector<uint32_t>(32 * 4, 0));
  runtime::LaunchReport r = gpu.launch(m.kernel("probe"), {1}, {32}, 0, out);
  Result res;
  res.h = (*r.timing)["sm"]["register_file"]["hierarchy"];
  res.out = gpu.download<uint32_t>(out, 32 * 4);
  return res;
}

uint64_t at(const nlohmann::json& h, const char* level, const char* key) { return h[level][key].get<uint64_t>(); }

void expectOutput(const std::vector<uint32_t>& out) {
  // Thread t stores r4 = t + (2t + 1) = 3t + 1 at word 4 * r4 / 4 ... i.e. at index r4.
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[3 * t + 1], 3 * t + 1) << "thread " << t;
}

TEST(RfcPipeline, EveryOperandReadsTheLevelItsHistoryGives) {
  const Result r = run({});
  expectOutput(r.out);
  EXPECT_EQ(at(r.h, "mrf", "operand_reads"), 4u);     // r1, rd1 (2 words), r4
  EXPECT_EQ(at(r.h, "rfc", "operand_reads"), 9u);
  EXPECT_EQ(at(r.h, "rfc", "result_writes"), 8u);     // r1-r4, rd2 and rd3 (2 words each)
  EXPECT_EQ(at(r.h, "mrf", "result_writes"), 2u);     // rd1, bypassed
  EXPECT_EQ(at(r.h, "rfc", "writeback_reads"), 6u);   // r1, r2, r3, r4, rd2
  EXPECT_EQ(at(r.h, "mrf", "writeback_writes"), 6u);
  EXPECT_EQ(r.h["evictions"].get<uint64_t>(), 5u);
  EXPECT_EQ(r.h["bypassed_writes"].get<uint64_t>(), 1u);
  EXPECT_EQ(r.h["instructions"].get<uint64_t>(), 9u);
  EXPECT_EQ(r.h["mrf_operands_per_instruction"], nlohmann::json::array({6, 3, 0, 0}));
  EXPECT_EQ(r.h["dead_drops"].get<uint64_t>(), 0u);
}

TEST(RfcPipeline, LivenessHintsDropDeadValuesInsteadOfWritingThemBack) {
  const Result r = run({"sm.register_file.liveness=true"});
  expectOutput(r.out);
  EXPECT_EQ(r.h["dead_drops"].get<uint64_t>(), 3u);   // r2, r3, rd2
  EXPECT_EQ(at(r.h, "mrf", "writeback_writes"), 2u);  // r1 and r4 are read again later
  EXPECT_EQ(at(r.h, "mrf", "operand_reads"), 4u);     // reads do not change
  EXPECT_EQ(at(r.h, "rfc", "operand_reads"), 9u);
  EXPECT_EQ(r.h["invalid_reads"].get<uint64_t>(), 0u);
}

TEST(RfcPipeline, ReadsAllocateCachesMrfOperands) {
  const Result r = run({"sm.register_file.allocate=\"results-and-reads\""});
  expectOutput(r.out);
  // r1 filled at add r4 (evicting r2); rd1 filled at add.s64 evicts rd2, whose own read then
  // misses and fills, evicting rd1 (the pollution the thesis reports); r4 filled at the store.
  EXPECT_EQ(at(r.h, "rfc", "fill_writes"), 6u);
  EXPECT_EQ(at(r.h, "mrf", "operand_reads"), 6u);     // r1, rd1, rd2 (2 words each for rd), r4
}

}  // namespace
}  // namespace warpsim
