// The "clusters" CTA scheduler in a whole launch: descriptors given through the host API reach
// the scheduler, the CTAs of each C-Tile run on one SM (read back from %smid), and the results
// are what any schedule gives.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mech/locality_descriptor/test_descriptors.h"
#include "runtime/device.h"

namespace warpsim {
namespace {

// out[cta] = the SM the CTA ran on (%smid), cta = ctaid.y * nctaid.x + ctaid.x.
const char* kWhere = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry where(.param .u64 pout)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [pout];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ctaid.y;
  mov.u32 %r3, %nctaid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mov.u32 %r5, %smid;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r5;
  ret;
}
)";

TEST(ClusterLaunch, TheCtasOfEachComputeTileRunOnOneSm) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.mode = "timing";
  o.config = "gtx480";
  o.sets = {"cta_scheduler.impl=clusters", "gpu.num_sms=3"};
  runtime::Device gpu(o);
  runtime::Module m = gpu.loadModule(kWhere, "where.ptx");
  const uint64_t out = gpu.upload(std::vector<uint32_t>(16, 99));
  const uint64_t matrix = gpu.malloc(64 * 64 * 4);
  gpu.addLocalityDescriptor(mech::locality_descriptor::testing::columnStrips(matrix), "where");
  const runtime::LaunchReport r = gpu.launch(m.kernel("where"), {4, 4}, {32}, 0, out);
  const std::vector<uint32_t> sm = gpu.download<uint32_t>(out, 16);
  // Column x: CTAs x, x + 4, x + 8, x + 12 on one SM; columns dealt to SMs 0, 1, 2, 0.
  for (uint32_t x = 0; x < 4; ++x) {
    for (uint32_t y = 0; y < 4; ++y) EXPECT_EQ(sm[y * 4 + x], x % 3) << "CTA (" << x << ", " << y << ")";
  }
  EXPECT_EQ(r.localityDescriptors, 1u);
  EXPECT_EQ((*r.timing)["cta_scheduler"]["cluster_dims"], nlohmann::json::array({1, 4, 1}));
}

TEST(ClusterLaunch, ADescriptorThatDoesNotFitTheGridFailsTheLaunchWithOneLine) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.mode = "timing";
  o.config = "gtx480";
  o.sets = {"cta_scheduler.impl=clusters"};
  runtime::Device gpu(o);
  runtime::Module m = gpu.loadModule(kWhere, "where.ptx");
  const uint64_t out = gpu.upload(std::vector<uint32_t>(32, 0));
  const uint64_t matrix = gpu.malloc(64 * 64 * 4);
  gpu.addLocalityDescriptor(mech::locality_descriptor::testing::columnStrips(matrix));  // the next launch
  func::LaunchConfig config;
  config.grid = {4, 8};  // 8 CTAs along y: 2 C-Tiles of 4, but the map does not traverse y
  config.block = {32};
  config.params = runtime::packArgs(m.kernel("where").function(), out);
  const runtime::LaunchReport r = gpu.run(m.kernel("where"), config);
  EXPECT_FALSE(r.result.ok);
  EXPECT_EQ(r.result.error,
            "kernel 'where': locality descriptor: compute_data_map.y is 0 (not traversed) but the grid's 8 CTAs "
            "along y make 2 C-Tiles of 4 (descriptor 1 of the launch)");
}

}  // namespace
}  // namespace warpsim
