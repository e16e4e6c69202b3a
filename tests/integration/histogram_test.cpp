// Histograms with shared-memory and global atomics under contention (tests/cuda/histogram.cu).
#include <gtest/gtest.h>

#include "test_support.h"

namespace warpsim::test {
namespace {

std::vector<uint8_t> skewedBytes(int n, uint64_t seed) {
  InputGenerator gen(seed);
  std::vector<uint8_t> data(n);
  // 7 in 8 bytes hit bin 5: many lanes of a warp update the same counter at once.
  for (uint8_t& d : data) d = static_cast<uint8_t>(gen.next() % 8 != 0 ? 5 : gen.uniform(0, 255));
  return data;
}

std::vector<unsigned> cpuHistogram(const std::vector<uint8_t>& data) {
  std::vector<unsigned> bins(64, 0);
  for (uint8_t d : data) ++bins[d % 64];
  return bins;
}

TEST(Histogram, SharedPrivatisedCountsEveryByte) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("histogram"));
  std::vector<uint8_t> data = skewedBytes(20000, 1);
  uint64_t dData = gpu.upload(data), dBins = gpu.malloc(64 * 4);
  gpu.memset(dBins, 0, 64 * 4);
  runtime::LaunchReport r =
      gpu.launch(mod.kernel("histogram_shared"), {6}, {128}, 0, dData, int(data.size()), dBins);
  EXPECT_EQ(gpu.download<unsigned>(dBins, 64), cpuHistogram(data));
  EXPECT_GT(r.stats.space(ir::Space::Shared).instructions, 0u);
  EXPECT_GT(r.stats.atomics, 0u);
}

TEST(Histogram, GlobalAtomicsCountEveryByte) {
  runtime::Device gpu(testOptions());
  runtime::Module mod = gpu.loadModuleFile(cudaPtx("histogram"));
  std::vector<uint8_t> data = skewedBytes(9999, 2);
  uint64_t dData = gpu.upload(data), dBins = gpu.malloc(64 * 4);
  gpu.memset(dBins, 0, 64 * 4);
  runtime::LaunchReport r = gpu.launch(mod.kernel("histogram_global"), {blocksFor(9999, 256)},
                                       {256}, 0, dData, int(data.size()), dBins);
  EXPECT_EQ(gpu.download<unsigned>(dBins, 64), cpuHistogram(data));
  // One atomic per warp holding data (313 warps; the last 7 warps of the grid have none), one
  // lane access per byte.
  EXPECT_EQ(r.stats.atomics, 313u);
  uint64_t atomicLanes = r.stats.space(ir::Space::Global).laneAccesses - 9999;  // minus loads
  EXPECT_EQ(atomicLanes, 9999u);
}

}  // namespace
}  // namespace warpsim::test
