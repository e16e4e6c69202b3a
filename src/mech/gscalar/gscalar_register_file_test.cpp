// The "gscalar" register-file model inside the timing model: one hand-made warp whose every
// instruction's scalar category, special move and gated lanes are known, run with the
// verification mode on (every read checked against the uncompressed shadow, every scalar
// result checked uniform), each category switched off in turn, and the comparators.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/device.h"

namespace warpsim {
namespace {

// One warp of 32 threads; comments give each instruction's decision under G-Scalar.
const char* kKernel = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry probe(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];    // full mem: no register source
  mov.u32 %r1, %tid.x;          // vector: tid differs per lane
  mov.u32 %r2, 7;               // full alu: immediate only
  add.u32 %r3, %r2, 5;          // full alu
  cvt.rn.f32.u32 %f1, %r3;      // full alu
  ex2.approx.f32 %f2, %f1;      // full sfu
  add.u32 %r4, %r1, %r3;        // vector: %r1 is 0..31
  setp.lt.u32 %p1, %r1, 8;      // vector
  @%p1 add.u32 %r5, %r3, 1;     // divergent scalar (lanes 0-7; %r3 is a full scalar)
  @%p1 mov.u32 %r3, %r4;        // vector, divergent; %r3 is compressed: one special move
  mul.wide.u32 %rd2, %r1, 4;    // vector
  add.s64 %rd3, %rd1, %rd2;     // vector
  st.global.u32 [%rd3], %r3;    // vector mem
  exit;                         // never scalar (control)
}
)";

struct Result {
  nlohmann::json rf, units;
  std::vector<uint32_t> out;
  uint64_t cycles = 0;
};

// One warp of `ptx`'s kernel `kernel(uint32_t* out)` on gtx480 with `overlays` and `sets`.
Result launch(const char* ptx, const char* kernel, const std::vector<std::string>& overlays,
              const std::vector<std::string>& sets) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.config = "gtx480";
  o.overlays = overlays;
  o.sets = sets;
  runtime::Device gpu(o);
  runtime::Module m = gpu.loadModule(ptx, std::string(kernel) + ".ptx");
  const uint64_t out = gpu.upload(std::vector<uint32_t>(32, 0));
  runtime::LaunchReport r = gpu.launch(m.kernel(kernel), {1}, {32}, 0, out);
  Result res;
  res.rf = (*r.timing)["sm"]["register_file"];
  res.units = (*r.timing)["sm"]["units"];
  res.out = gpu.download<uint32_t>(out, 32);
  res.cycles = r.cycles;
  return res;
}

// The probe with the verification mode on.
Result run(const std::vector<std::string>& overlays, std::vector<std::string> sets) {
  sets.push_back("sm.register_file.verify=true");
  return launch(kKernel, "probe", overlays, sets);
}

std::vector<uint32_t> expectedOut() {
  std::vector<uint32_t> e(32);
  for (uint32_t t = 0; t < 32; ++t) e[t] = t < 8 ? t + 12 : 12;
  return e;
}

uint64_t at(const nlohmann::json& j, const char* group, const char* key) { return j[group][key].get<uint64_t>(); }

TEST(GScalarRegisterFile, EveryCategoryOnAHandMadeWarp) {
  const Result r = run({"gscalar"}, {});
  EXPECT_EQ(r.out, expectedOut());
  EXPECT_EQ(at(r.rf, "instructions", "total"), 14u);
  EXPECT_EQ(at(r.rf, "instructions", "divergent"), 2u);
  EXPECT_EQ(at(r.rf, "instructions", "sfu"), 1u);
  EXPECT_EQ(at(r.rf, "instructions", "mem"), 2u);
  EXPECT_EQ(at(r.rf, "instructions", "other"), 1u);  // exit
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_alu"), 3u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_sfu"), 1u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_mem"), 1u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "half"), 0u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "divergent"), 1u);
  EXPECT_EQ(at(r.rf, "scalar_executed_cumulative", "alu"), 3u);
  EXPECT_EQ(at(r.rf, "scalar_executed_cumulative", "all"), 5u);
  EXPECT_EQ(at(r.rf, "scalar_executed_cumulative", "divergent"), 6u);
  // The oracle agrees here: no value is scalar that the metadata misses.
  EXPECT_EQ(r.rf["scalar_oracle"], r.rf["scalar_executed"]);
  EXPECT_EQ(r.rf["special_moves"].get<uint64_t>(), 1u);
  // Gated lanes: 3 full alu x 31 + the divergent add (8 active, 1 runs) = 100; sfu 31; lsu 31.
  EXPECT_EQ(r.units["alu_gated_lane_ops"].get<uint64_t>(), 3u * 31 + 7);
  EXPECT_EQ(r.units["sfu_gated_lane_ops"].get<uint64_t>(), 31u);
  EXPECT_EQ(r.units["lsu_gated_lane_ops"].get<uint64_t>(), 31u);
}

TEST(GScalarRegisterFile, CategorySwitchesGateExecutionNotDetection) {
  const Result r = run({"gscalar"}, {"sm.register_file.scalar_sfu=false", "sm.register_file.divergent_scalar=false"});
  EXPECT_EQ(r.out, expectedOut());
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_sfu"), 0u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "divergent"), 0u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_alu"), 3u);
  EXPECT_EQ(at(r.rf, "scalar_detected", "full_sfu"), 1u);
  EXPECT_EQ(at(r.rf, "scalar_detected", "divergent"), 1u);
  EXPECT_EQ(r.units["sfu_gated_lane_ops"].get<uint64_t>(), 0u);
}

TEST(GScalarRegisterFile, AluOnlyScalarRegisterFileComparator) {
  const Result r = run({"gscalar-alu-scalar"}, {});
  EXPECT_EQ(r.out, expectedOut());
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_alu"), 3u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_sfu"), 0u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "full_mem"), 0u);
  EXPECT_EQ(at(r.rf, "scalar_executed", "divergent"), 0u);
  EXPECT_GT(r.rf["scalar_rf_reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.rf["metadata_reads"].get<uint64_t>(), 0u);
}

TEST(GScalarRegisterFile, BdiComparatorCompressesWithoutScalarExecution) {
  const Result r = run({"gscalar-bdi"}, {});
  EXPECT_EQ(r.out, expectedOut());
  for (const char* c : {"full_alu", "full_sfu", "full_mem", "half", "divergent"})
    EXPECT_EQ(at(r.rf, "scalar_executed", c), 0u) << c;
  EXPECT_LT(at(r.rf, "compression", "array_bytes"), at(r.rf, "compression", "uncompressed_bytes"));
  EXPECT_EQ(r.units["alu_gated_lane_ops"].get<uint64_t>(), 0u);
}

// The added pipeline stages cost cycles on a dependent chain; the baseline does not have them.
TEST(GScalarRegisterFile, ExtraCyclesLengthenADependentChain) {
  EXPECT_GT(launch(kKernel, "probe", {"gscalar"}, {}).cycles, launch(kKernel, "probe", {}, {}).cycles);
}

// Two scalar sources of one instruction: in the prior design's single scalar bank they are read
// one after the other (a bank conflict); in their own banks they are not.
const char* kTwoScalars = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry two(.param .u64 pout)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, 3;
  mov.u32 %r2, 4;
  add.u32 %r3, %r1, %r2;
  mov.u32 %r4, %tid.x;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  exit;
}
)";

uint64_t conflictsWith(bool singleBank) {
  const Result r = launch(kTwoScalars, "two", {"gscalar-alu-scalar"},
                          {std::string("sm.register_file.scalar_rf_single_bank=") + (singleBank ? "true" : "false")});
  EXPECT_EQ(r.out, std::vector<uint32_t>(32, 7u));
  return r.rf["bank_conflicts"].get<uint64_t>();
}

TEST(GScalarRegisterFile, WordComparatorsSingleScalarBankSerialisesScalarReads) {
  EXPECT_EQ(conflictsWith(false), 0u);
  EXPECT_EQ(conflictsWith(true), 1u);
}

}  // namespace
}  // namespace warpsim
