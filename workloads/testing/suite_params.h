// Test support: one parameterised test per workload of the suite. Instantiate with
//   INSTANTIATE_TEST_SUITE_P(Suite, MyTest, testing::ValuesIn(workloads::testing::workloadNames()),
//                            workloads::testing::workloadTestName);
// Whole-suite reruns are named Suite/Equivalence...: the sanitizer stage skips them by that prefix.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "workloads/workload.h"

namespace warpsim::workloads::testing {

// Every workload's name, in the suite's order.
inline std::vector<std::string> workloadNames() {
  std::vector<std::string> names;
  for (const Workload& w : allWorkloads()) names.push_back(w.name);
  return names;
}

// The workload's name as a test name: '-' is not allowed there, so it becomes '_'.
inline std::string workloadTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string id = info.param;
  for (char& c : id) {
    if (c == '-') c = '_';
  }
  return id;
}

}  // namespace warpsim::workloads::testing
