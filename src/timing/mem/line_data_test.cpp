#include "timing/mem/line_data.h"

#include <gtest/gtest.h>

#include <vector>

#include "func/device_memory.h"
#include "timing/mem/coalescer.h"

namespace warpsim::timing::mem {
namespace {

TEST(LineData, ReadsAllocationsAndZeroesTheRest) {
  func::DeviceMemory memory;
  const uint64_t a = memory.allocate(100);
  std::vector<uint8_t> bytes(100);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i + 1);
  memory.write(a, bytes.data(), bytes.size());
  uint8_t line[128];
  readLineData(memory, a, 128, line);
  EXPECT_EQ(line[0], 1);
  EXPECT_EQ(line[99], 100);
  EXPECT_EQ(line[100], 0);  // past the allocation
  EXPECT_EQ(line[127], 0);
  readLineData(memory, kLocalRegionBase, 128, line);  // local memory is not in DeviceMemory
  for (uint8_t b : line) EXPECT_EQ(b, 0);
}

}  // namespace
}  // namespace warpsim::timing::mem
