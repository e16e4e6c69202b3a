// The profile.value_similarity switch: exact counts of a small kernel through the Device in
// functional and timing mode, the JSON fields, and the switch's errors.
#include <gtest/gtest.h>

#include "runtime/device.h"
#include "runtime/report_json.h"

namespace warpsim::runtime {
namespace {

// Two warps. Every warp writes the 64-bit parameter (uniform low and high words), tid and
// tid * 4 (affine), tid * 4 widened (affine low word, zero high word) and the address
// parameter + tid * 4 (affine low, uniform high), and stores tid to local memory (affine).
// Lanes 8..31 of warp 0 then write the constant 77 after a divergent branch; warp 1 writes it
// with all lanes. setp writes only a predicate and is not counted.
const char* kKernel = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry values(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .local .align 4 .b8 slot[4];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  cvt.u64.u32 %rd2, %r2;
  add.s64 %rd3, %rd1, %rd2;
  st.local.u32 [slot], %r1;
  st.global.u32 [%rd3], %r1;
  setp.lt.u32 %p1, %r1, 8;
  @%p1 bra DONE;
  mov.u32 %r3, 77;
DONE:
  ret;
}
)";

nlohmann::json classes(uint64_t uniform, uint64_t affine) {
  return {{"uniform", uniform}, {"affine", affine}, {"msb3", 0},
          {"msb2", 0},          {"msb1", 0},        {"random", 0}};
}

// The counts of one launch of kValues with 64 threads.
nlohmann::json expectedCounts() {
  return {{"register_writes",
           {{"non_divergent", classes(2 * 4 + 1, 2 * 4)}, {"divergent", classes(1, 0)}}},
          {"local_stores", {{"non_divergent", classes(0, 2)}, {"divergent", classes(0, 0)}}},
          {"spill_stores", {{"non_divergent", classes(0, 0)}, {"divergent", classes(0, 0)}}}};
}

LaunchReport runValues(DeviceOptions options) {
  options.resources = DeviceOptions::Resources::Estimate;
  Device device(options);
  Module m = device.loadModule(kKernel, "values.ptx");
  uint64_t out = device.malloc(64 * 4);
  return device.launch(m.kernel("values"), {1}, {64}, 0, out);
}

TEST(ValueSimilarity, FunctionalLaunchCountsEveryWordExactly) {
  DeviceOptions options;
  options.mode = "functional";
  options.sets = {"profile.value_similarity=true"};
  LaunchReport r = runValues(options);
  ASSERT_TRUE(r.valueSimilarity.has_value());
  const profile::SimilarityCounts& regs = r.valueSimilarity->registerWrites;
  EXPECT_EQ(regs.of(profile::WordClass::Uniform, false), 9u);
  EXPECT_EQ(regs.of(profile::WordClass::Affine, false), 8u);
  EXPECT_EQ(regs.of(profile::WordClass::Uniform, true), 1u);
  EXPECT_EQ(regs.total(), 18u);
  EXPECT_EQ(r.valueSimilarity->localStores.of(profile::WordClass::Affine, false), 2u);
  EXPECT_EQ(r.valueSimilarity->localStores.total(), 2u);
  EXPECT_EQ(kernelJson(r)["value_similarity"], expectedCounts());
  EXPECT_EQ(toJson(r)["value_similarity"], expectedCounts());
  // The instruction statistics are still collected beside the profiler.
  EXPECT_EQ(r.stats.warpInstructions, r.result.warpInstructions);
}

TEST(ValueSimilarity, TimingModeCountsTheSame) {
  DeviceOptions options;
  options.mode = "timing";
  options.sets = {"profile.value_similarity=true"};
  LaunchReport r = runValues(options);
  ASSERT_TRUE(r.valueSimilarity.has_value());
  EXPECT_NE(r.cycles, 0u);
  EXPECT_EQ(kernelJson(r)["value_similarity"], expectedCounts());
}

TEST(ValueSimilarity, ProfilerWithoutInstructionStatistics) {
  DeviceOptions options;
  options.mode = "functional";
  options.collectStats = false;
  options.sets = {"profile.value_similarity = true"};
  LaunchReport r = runValues(options);
  ASSERT_TRUE(r.valueSimilarity.has_value());
  EXPECT_EQ(toJson(*r.valueSimilarity), expectedCounts());
  EXPECT_EQ(r.stats.warpInstructions, 0u);
}

TEST(ValueSimilarity, OffByDefaultAndAbsentFromTheJson) {
  for (const char* mode : {"functional", "timing"}) {
    DeviceOptions options;
    options.mode = mode;
    Device device(options);
    EXPECT_FALSE(device.profilesValues()) << mode;
    LaunchReport r = runValues(options);
    EXPECT_FALSE(r.valueSimilarity.has_value()) << mode;
    EXPECT_FALSE(kernelJson(r).contains("value_similarity")) << mode;
    EXPECT_FALSE(toJson(r).contains("value_similarity")) << mode;
    EXPECT_TRUE(valueSimilarityTotals({r}).is_null()) << mode;
  }
  DeviceOptions off;
  off.mode = "functional";
  off.sets = {"profile.value_similarity=false"};
  EXPECT_FALSE(Device(off).profilesValues());
}

TEST(ValueSimilarity, TotalsSumTheLaunchesThatHaveCounts) {
  DeviceOptions options;
  options.mode = "functional";
  options.sets = {"profile.value_similarity=true"};
  LaunchReport a = runValues(options);
  LaunchReport b = a;
  LaunchReport off = a;
  off.valueSimilarity.reset();
  nlohmann::json sum = valueSimilarityTotals({a, off, b});
  EXPECT_EQ(sum["register_writes"]["non_divergent"], classes(18, 16));
  EXPECT_EQ(sum["register_writes"]["divergent"], classes(2, 0));
  EXPECT_EQ(sum["local_stores"]["non_divergent"], classes(0, 4));
}

TEST(ValueSimilarity, BadSwitchValuesAreErrors) {
  DeviceOptions options;
  options.mode = "functional";
  options.sets = {"profile.value_similarity=maybe"};
  EXPECT_THROW(Device{options}, Error);
  options.sets = {"profile.value_similarty=true"};
  try {
    Device device(options);
    FAIL() << "an unknown profile key was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "config: error: --set 'profile.value_similarty=true': unknown key "
              "'profile.value_similarty'");
  }
  options.mode = "timing";
  EXPECT_THROW(Device{options}, Error);
}

}  // namespace
}  // namespace warpsim::runtime
