// ValueUsage: reads per value and read-once lifetimes on a hand-made instruction stream.
#include "timing/sm/value_usage.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace warpsim::timing {
namespace {

TEST(ValueUsage, CountsReadsPerValueAndLifetimesOfReadOnceValues) {
  ValueUsage u;
  u.resize(2, 8);
  const uint32_t r1 = 1, r2 = 2, r3 = 3, r12[2] = {1, 2};
  u.instruction(0, nullptr, 0, &r1, 1);   // 1: r1 = ...
  u.instruction(0, nullptr, 0, &r2, 1);   // 2: r2 = ...
  u.instruction(0, &r1, 1, &r3, 1);       // 3: r3 = f(r1)   r1 read at lifetime 2
  u.instruction(0, r12, 2, nullptr, 0);   // 4: reads r1, r2 (r2 lifetime 2; r1's second read)
  u.instruction(0, nullptr, 0, &r1, 1);   // 5: r1 rewritten: the first r1 had 2 reads
  u.instruction(1, &r1, 1, nullptr, 0);   // slot 1 reads a register it never wrote: no value
  u.endWarp(0);                           // r2 (1 read), r3 (0), second r1 (0) end
  nlohmann::json j;
  u.report(j);
  EXPECT_EQ(j["reads_per_value"], nlohmann::json::array({2, 1, 1, 0, 0}));
  EXPECT_EQ(j["read_once_lifetime"], nlohmann::json::array({0, 1, 0, 0, 0, 0, 0, 0, 0, 0}));
}

}  // namespace
}  // namespace warpsim::timing
