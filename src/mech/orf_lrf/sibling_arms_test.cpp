// Divergent if/else on the timing model (fermi-rfh with the orf overlay): the warp runs one arm
// for its lanes, then the other arm for the other lanes, then reconverges (func/warp.h: the
// fall-through path first). Hand-made warps, each checked for its output and for
// invalid_reads == 0:
//  - a strand start in the arm that runs first invalidates the entries of the lanes that wait
//    for the other arm: a value from before the branch must not be read from the ORF there
//    (allocation decision asserted in allocation_test.cpp, kSiblingStart);
//  - a strand start in the arm that runs second does not disturb the first arm's reads;
//  - the arm that runs first reuses an ORF entry for its own lanes while the other arm's lanes
//    still hold an older value there (masked per-lane writes): the check must not count it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/device.h"

namespace warpsim {
namespace {

// Lanes 0-15 take the branch; lanes 16-31 run OTHER first, which starts a strand at pc 12 (the
// load's consumer); then lanes 0-15 run TAKEN, whose read of %r2 (defined at pc 4) would find the
// ORF invalidated. out[t] = t < 16 ? t + 101 : in[t] + t + 102.
const char* kSiblingStart = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  mul.wide.u32 %rd2, %r1, 4;     // 2
  add.s64 %rd3, %rd1, %rd2;      // 3
  add.u32 %r2, %r1, 100;         // 4
  setp.lt.u32 %p1, %r1, 16;      // 5
  @%p1 bra TAKEN;                // 6
  bra.uni OTHER;                 // 7
TAKEN:
  add.u32 %r3, %r2, 1;           // 8
  bra.uni MERGE;                 // 9
OTHER:
  add.u32 %r4, %r2, 2;           // 10
  ld.global.u32 %r5, [%rd3];     // 11
  add.u32 %r3, %r5, %r4;         // 12
MERGE:
  st.global.u32 [%rd3], %r3;     // 13
  ret;                           // 14
}
)";

// The mirror image: lanes 16-31 fall through and run first, reading %r2 (pc 7) from the ORF
// before lanes 0-15 run TAKEN with its strand start (pc 11).
// out[t] = t < 16 ? in[t] + t + 102 : t + 101.
const char* kTakenStart = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  mul.wide.u32 %rd2, %r1, 4;     // 2
  add.s64 %rd3, %rd1, %rd2;      // 3
  add.u32 %r2, %r1, 100;         // 4
  setp.lt.u32 %p1, %r1, 16;      // 5
  @%p1 bra TAKEN;                // 6
  add.u32 %r3, %r2, 1;           // 7
  bra.uni MERGE;                 // 8
TAKEN:
  add.u32 %r4, %r2, 2;           // 9
  ld.global.u32 %r5, [%rd3];     // 10
  add.u32 %r3, %r5, %r4;         // 11
MERGE:
  st.global.u32 [%rd3], %r3;     // 12
  ret;                           // 13
}
)";

// With one ORF entry: %r2 holds entry 0 over [3, 6) (read in TAKEN at 6), %r4 over [8, 9) (in
// OTHER). OTHER runs first and writes %r4 into entry 0 for lanes 16-31; lanes 0-15 still hold
// %r2 there when TAKEN reads it. out[t] = t < 16 ? t + 101 : t + 5.
const char* kSiblingReuse = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];     // 0
  mov.u32 %r1, %tid.x;           // 1
  setp.lt.u32 %p1, %r1, 16;      // 2
  add.u32 %r2, %r1, 100;         // 3
  @%p1 bra TAKEN;                // 4
  bra.uni OTHER;                 // 5
TAKEN:
  add.u32 %r3, %r2, 1;           // 6
  bra.uni MERGE;                 // 7
OTHER:
  add.u32 %r4, %r1, 2;           // 8
  add.u32 %r3, %r4, 3;           // 9
MERGE:
  mul.wide.u32 %rd2, %r1, 4;     // 10
  add.s64 %rd3, %rd1, %rd2;      // 11
  st.global.u32 [%rd3], %r3;     // 12
  ret;                           // 13
}
)";

struct Result {
  nlohmann::json hierarchy;
  std::vector<uint32_t> out;
};

Result launch(const char* ptx, const std::vector<std::string>& overlays, const std::vector<std::string>& sets) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.config = "fermi-rfh";
  o.overlays = overlays;
  o.sets = sets;
  runtime::Device gpu(o);
  runtime::Module m = gpu.loadModule(ptx, "k.ptx");
  std::vector<uint32_t> in(32);
  for (uint32_t t = 0; t < 32; ++t) in[t] = 1000 * t;
  const uint64_t out = gpu.upload(in);
  runtime::LaunchReport r = gpu.launch(m.kernel("k"), {1}, {32}, 0, out);
  return {(*r.timing)["sm"]["register_file"]["hierarchy"], gpu.download<uint32_t>(out, 32)};
}

uint64_t invalidReads(const Result& r) { return r.hierarchy["invalid_reads"].get<uint64_t>(); }
uint64_t orfReads(const Result& r) { return r.hierarchy["orf"]["operand_reads"].get<uint64_t>(); }

TEST(SiblingArms, AStrandStartInTheArmThatRunsFirstKeepsOlderValuesOutOfTheOrf) {
  std::vector<uint32_t> expected(32);
  for (uint32_t t = 0; t < 32; ++t) expected[t] = t < 16 ? t + 101 : 1000 * t + t + 102;
  for (const char* overlay : {"orf", "orf-lrf"}) {
    const Result r = launch(kSiblingStart, {overlay}, {});
    EXPECT_EQ(r.out, expected) << overlay;
    EXPECT_EQ(invalidReads(r), 0u) << overlay;
    EXPECT_GT(orfReads(r) + r.hierarchy["lrf"]["operand_reads"].get<uint64_t>(), 0u) << overlay;
  }
}

// The pass keeps %r2 in the ORF for both arms here because the fall-through arm runs first:
// this fails if func/warp.h's order changes.
TEST(SiblingArms, TheFallThroughArmRunsBeforeTheTakenArmsStrandStart) {
  std::vector<uint32_t> expected(32);
  for (uint32_t t = 0; t < 32; ++t) expected[t] = t < 16 ? 1000 * t + t + 102 : t + 101;
  for (const char* overlay : {"orf", "orf-lrf"}) {
    const Result r = launch(kTakenStart, {overlay}, {"sm.register_file.entries=8"});
    EXPECT_EQ(r.out, expected) << overlay;
    EXPECT_EQ(invalidReads(r), 0u) << overlay;
  }
  // ORF operand words with 8 entries and no LRF: %r2 at 7 and 9, %r1 at 2, 4 and 5, and two
  // each for %rd1 and %rd2 at 3 and %rd3 at 10 (before TAKEN's start).
  EXPECT_EQ(orfReads(launch(kTakenStart, {"orf"}, {"sm.register_file.entries=8"})), 11u);
}

TEST(SiblingArms, LanesOfTheOtherArmKeepTheirEntriesWhenTheFirstArmReusesThem) {
  std::vector<uint32_t> expected(32);
  for (uint32_t t = 0; t < 32; ++t) expected[t] = t < 16 ? t + 101 : t + 5;
  const Result r = launch(kSiblingReuse, {"orf"}, {"sm.register_file.entries=1"});
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(invalidReads(r), 0u);
  // ORF reads: %r1 at 2 and 3 (then written to the MRF too: read again at 8 and 10), %r2 at 6
  // (lanes 0-15), %r4 at 9 (lanes 16-31).
  EXPECT_EQ(orfReads(r), 4u);
}

}  // namespace
}  // namespace warpsim
