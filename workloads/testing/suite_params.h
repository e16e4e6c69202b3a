// Test support: one parameterised test per workload of the suite. Instantiate with
//   INSTANTIATE_TEST_SUITE_P(Suite, MyTest, testing::ValuesIn(workloads::testing::workloadNames()),
//                            workloads::testing::workloadTestName);
// Whole-suite reruns are named Suite/Equivalence...: the sanitizer stage skips them by that prefix.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
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

namespace warpsim::workloads::testing {

// The variants (overlays, pool sizes, budgets...) a whole-suite test runs `workload` with:
// every one of `always`, then `count` of `rotating`, chosen by the workload's place in the suite
// so that consecutive workloads take consecutive variants and every variant runs on about
// (suite size x count / rotating.size()) workloads. With WARPSIM_FULL_SUITES=1 in the
// environment every workload runs every variant (the full cross product, for a local check
// after changing a mechanism); CI runs the rotation, which keeps each variant on whole programs
// at a fraction of the time.
inline std::vector<std::string> suiteVariants(const std::string& workload,
                                              const std::vector<std::string>& always,
                                              const std::vector<std::string>& rotating,
                                              size_t count = 1) {
  std::vector<std::string> out = always;
  const char* full = std::getenv("WARPSIM_FULL_SUITES");
  if ((full != nullptr && std::string(full) == "1") || count >= rotating.size()) {
    out.insert(out.end(), rotating.begin(), rotating.end());
    return out;
  }
  const std::vector<std::string> names = workloadNames();
  size_t index = 0;
  while (index < names.size() && names[index] != workload) ++index;
  for (size_t k = 0; k < count; ++k) out.push_back(rotating[(index * count + k) % rotating.size()]);
  return out;
}

}  // namespace warpsim::workloads::testing
