// PTX cache operators on global loads: .ca (the default) caches in the L1, .cg and .cv leave the
// L1 out (the load goes to the L2 without touching the L1's tags), whatever the L1's policy for
// global loads is otherwise.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "timing_test_support.h"

namespace warpsim::test {
namespace {

// One thread loads the word at p twice with `load` (an ld opcode up to its type), the second
// load after the first one's data is back (its address depends on it), and stores the sum.
std::string twoLoads(const std::string& load) {
  return R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry twice(.param .u64 p, .param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd2, [out];
  )" + load + R"(.u32 %r1, [%rd1];
  and.b32 %r4, %r1, 0;
  cvt.u64.u32 %rd3, %r4;
  add.u64 %rd4, %rd1, %rd3;
  )" + load + R"(.u32 %r2, [%rd4];
  add.u32 %r3, %r1, %r2;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";
}

struct L1Counts {
  uint64_t accesses = 0, hits = 0;
  uint32_t result = 0;
};

L1Counts runTwoLoads(const std::string& load) {
  runtime::Device gpu(timingOptions("v100", {"gpu.num_sms=1"}));
  runtime::Module m = gpu.loadModule(twoLoads(load), "twice.ptx");
  const uint64_t p = gpu.upload(std::vector<uint32_t>{21});
  const uint64_t out = gpu.malloc(4);
  runtime::LaunchReport r = gpu.launch(m.kernel("twice"), {1}, {1}, 0, p, out);
  EXPECT_TRUE(r.timing);
  const nlohmann::json& l1 = r.timing->at("memory").at("l1d");
  L1Counts c;
  c.accesses = l1.at("accesses").get<uint64_t>();
  c.hits = l1.at("hits").get<uint64_t>();
  c.result = gpu.download<uint32_t>(out, 1).at(0);
  return c;
}

TEST(CacheOperators, CachedLoadsHitTheL1TheSecondTime) {
  for (const std::string load : {"ld.global", "ld.global.ca", "ld.global.nc"}) {
    const L1Counts c = runTwoLoads(load);
    EXPECT_EQ(c.result, 42u) << load;
    EXPECT_EQ(c.hits, 1u) << load;
    EXPECT_EQ(c.accesses, 3u) << load;  // the two loads and the output store
  }
}

TEST(CacheOperators, CacheGlobalAndVolatileFetchesLeaveTheL1Out) {
  for (const std::string load : {"ld.global.cg", "ld.global.cv", "ld.volatile.global"}) {
    const L1Counts c = runTwoLoads(load);
    EXPECT_EQ(c.result, 42u) << load;
    EXPECT_EQ(c.hits, 0u) << load;
    EXPECT_EQ(c.accesses, 1u) << load;  // the output store only
  }
}

}  // namespace
}  // namespace warpsim::test
