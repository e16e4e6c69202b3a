// bitonic-sort: key/value pairs sorted by a bitonic network, steps within a tile in shared
// memory, longer strides as global launches (see bitonic-sort.cu).
#include <algorithm>
#include <utility>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace bitonic_sort {

constexpr uint32_t kThreads = 256;        // THREADS of bitonic-sort.cu
constexpr uint32_t kTile = 2 * kThreads;  // TILE

Outcome run(WorkloadContext& ctx) {
  const uint64_t n = ctx.size;
  if (n < kTile || (n & (n - 1)) != 0) {
    throw runtime::Error(fmt::format(
        "bitonic-sort: the number of pairs must be a power of 2 of at least {}, not {}", kTile, n));
  }
  // Records to order by a 24-bit key (a depth, a bucket, a timestamp): at these sizes many keys
  // repeat. Every tenth record copies the key of a nearby one, as sorted runs and duplicates
  // are common in real data. The values are record numbers, so a pair that loses its value shows.
  InputGenerator gen(ctx.seed);
  std::vector<uint32_t> keys(n), values(n);
  for (uint64_t i = 0; i < n; ++i) {
    keys[i] = static_cast<uint32_t>(gen.next() >> 40);
    if (i >= 8 && gen.uniform(0, 9) == 0) keys[i] = keys[i - gen.uniform(1, 8)];
    values[i] = static_cast<uint32_t>(i);
  }

  // The reference: the pairs by key, ties in input order (std::stable_sort). A sorting network
  // does not keep ties in order, so the check is: the keys exactly as the reference's, and the
  // output pairs the same multiset as the input (each value, a distinct record number, comes
  // back once with its own key).
  std::vector<std::pair<uint32_t, uint32_t>> expect(n);
  for (uint64_t i = 0; i < n; ++i) expect[i] = {keys[i], values[i]};
  std::stable_sort(expect.begin(), expect.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("bitonic-sort"), "bitonic-sort.ptx");
  runtime::Kernel sortTile = mod.kernel("bitonic_sort_tile");
  runtime::Kernel mergeTile = mod.kernel("bitonic_merge_tile");
  runtime::Kernel mergeGlobal = mod.kernel("bitonic_merge_global");
  uint64_t dKeys = gpu.upload(keys), dValues = gpu.upload(values);
  const uint32_t tiles = static_cast<uint32_t>(n / kTile);
  const uint32_t pairBlocks = static_cast<uint32_t>(n / 2 / kThreads);
  launch(ctx, sortTile, {tiles}, {kThreads}, 0, dKeys, dValues);
  int launches = 1;
  for (uint64_t size = 2 * kTile; size <= n; size <<= 1) {
    for (uint64_t stride = size / 2; stride >= kTile; stride >>= 1) {
      launch(ctx, mergeGlobal, {pairBlocks}, {kThreads}, 0, dKeys, dValues,
             static_cast<uint32_t>(size), static_cast<uint32_t>(stride));
      ++launches;
    }
    launch(ctx, mergeTile, {tiles}, {kThreads}, 0, dKeys, dValues, static_cast<uint32_t>(size));
    ++launches;
  }
  std::vector<uint32_t> gotKeys = gpu.download<uint32_t>(dKeys, n);
  std::vector<uint32_t> gotValues = gpu.download<uint32_t>(dValues, n);

  std::vector<uint32_t> expectKeys(n);
  for (uint64_t i = 0; i < n; ++i) expectKeys[i] = expect[i].first;
  std::string bad = exactMismatch("key", gotKeys, expectKeys);
  if (!bad.empty()) return fail(bad);
  std::vector<bool> seen(n, false);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t v = gotValues[i];
    if (v >= n || seen[v] || keys[v] != gotKeys[i]) {
      return fail(fmt::format("pair {}: value {} {}", i, v,
                              v >= n ? "is not a record number"
                              : seen[v]
                                  ? "appears twice"
                                  : fmt::format("belongs to key {}, not {}", keys[v], gotKeys[i])));
    }
    seen[v] = true;
  }
  uint64_t ties = 0;
  for (uint64_t i = 1; i < n; ++i) ties += expectKeys[i] == expectKeys[i - 1];
  return {true, fmt::format("{} pairs sorted in {} launches ({} repeated keys), keys exact, "
                            "values a permutation carried with their keys",
                            n, launches, ties)};
}

}  // namespace bitonic_sort

Workload bitonicSortWorkload() {
  return {
      "bitonic-sort",
      "reduction",
      "bitonic sort of key/value pairs: shared-memory steps per 512-element tile, global merges",
      "pairs (power of 2)",
      1u << 13,
      1u << 17,
      1u << 20,
      1u << 24,
      bitonic_sort::run};
}

}  // namespace warpsim::workloads
