// Direct-Load's configuration errors: one line naming the key and what it needs, as a run of a
// workload on fermi-caba reports it.
#include <gtest/gtest.h>

#include "runtime/device.h"
#include "workloads/testing/run_small.h"
#include "workloads/workload.h"

namespace warpsim {
namespace {

// The error of running vecadd on fermi-caba with `overlays` and `sets` ("" when it runs).
std::string errorOf(const std::vector<std::string>& overlays, const std::vector<std::string>& sets) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.config = "fermi-caba";
  o.overlays = overlays;
  o.sets = sets;
  std::vector<workloads::Workload> all = workloads::allWorkloads();
  try {
    runtime::Device device(o);
    return workloads::testing::runSmall(device, *workloads::findWorkload(all, "vecadd")).error;
  } catch (const std::exception& e) {
    return e.what();
  }
}

TEST(CabaConfig, DirectLoadNeedsBdiAndAnL1KeepingCompressedLines) {
  EXPECT_EQ(errorOf({"caba-bdi", "caba-direct-load"}, {}), "");
  EXPECT_NE(errorOf({"caba-fpc", "caba-direct-load"}, {})
                .find("config: error: sm.assist_warp.direct_load = true needs "
                      "compression.algorithm = \"bdi\""),
            std::string::npos);
  EXPECT_NE(errorOf({"caba-bdi"}, {"sm.assist_warp.direct_load=true"})
                .find("config: error: sm.assist_warp.direct_load = true needs "
                      "l1.keep_fill_form = true"),
            std::string::npos);
}

}  // namespace
}  // namespace warpsim
