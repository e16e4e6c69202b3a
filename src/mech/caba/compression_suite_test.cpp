// Every workload of the suite, at its small size on fermi-caba, verifies against its CPU
// reference with each compressed-memory design, the dedicated-hardware ones and the assist-warp
// ones (compression never changes a result); every line the memory model compresses decompresses
// back to the functional memory's bytes, every assist-warp decompression routine rebuilds
// exactly the line the functional memory holds, and every compression routine on a store writes
// exactly the library's encoding of the stored line.
#include <gtest/gtest.h>

#include <map>

#include "workloads/testing/run_with_overlays.h"
#include "workloads/testing/suite_params.h"

namespace warpsim {
namespace {

class EquivalenceWithCompressedMemory : public testing::TestWithParam<std::string> {};

TEST_P(EquivalenceWithCompressedMemory, VerifiesWithEveryDesignAndEveryLineDecompresses) {
  // The assist-warp BDI design on every workload; two more of the others per workload in turn
  // (every design on about a fifth of the suite; WARPSIM_FULL_SUITES=1 runs them all). The
  // cache-compression and Direct-Load options ride on stacks that cover each of them once.
  const std::vector<std::string> designs = workloads::testing::suiteVariants(
      GetParam(), {"caba-bdi"},
      {"hw-bdi-mem", "hw-bdi", "ideal-bdi", "caba-fpc", "caba-cpack", "caba-best",
       "caba-bdi+caba-uncompressed-l2", "caba-bdi+caba-l1-2x+caba-l2-4x",
       "caba-bdi+caba-direct-load+caba-l1-4x+caba-l2-2x"},
      2);
  // Per design: lines compressed, and device-memory lines moved (a workload whose data stays in
  // the L2 moves none: mandelbrot only writes, and its output is never written back).
  std::map<std::string, uint64_t> lines, moved;
  for (const std::string& d : designs) lines[d] = moved[d] = 0;
  workloads::testing::runWithEachOverlay(
      GetParam(), "fermi-caba", designs,
      [&](const std::string& overlay, const runtime::LaunchReport& r) {
        const nlohmann::json& c = (*r.timing)["memory"]["compression"];
        EXPECT_EQ(c["check_failures"].get<uint64_t>(), 0u) << overlay << " launch " << r.kernel;
        lines[overlay] += c["lines_compressed"].get<uint64_t>();
        moved[overlay] += c["dram_reads"]["lines"].get<uint64_t>() +
                          c["dram_writes"]["lines"].get<uint64_t>() -
                          c["transfers_outside_device_memory"].get<uint64_t>();
        if (overlay.rfind("caba-", 0) == 0) {
          const nlohmann::json& a = (*r.timing)["sm"]["assist"];
          EXPECT_EQ(a["check_failures"].get<uint64_t>(), 0u) << overlay << " launch " << r.kernel;
          // (Direct-Load routines count among the decompressions.)
          EXPECT_EQ(a["checked"].get<uint64_t>(), a["decompressions"].get<uint64_t>() +
                                                      a["redo_decompressions"].get<uint64_t>() +
                                                      a["compressions"].get<uint64_t>())
              << overlay;
        }
      },
      {"compression.check=true"});
  for (const auto& [overlay, count] : lines)
    if (moved[overlay] != 0) {
      EXPECT_GT(count, 0u) << overlay << ": no line was compressed";
    }
}

// Named Suite/Equivalence...: the sanitizer stage skips whole-suite runs by that prefix.
INSTANTIATE_TEST_SUITE_P(Suite, EquivalenceWithCompressedMemory,
                         testing::ValuesIn(workloads::testing::workloadNames()),
                         workloads::testing::workloadTestName);

}  // namespace
}  // namespace warpsim
