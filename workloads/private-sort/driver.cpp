// private-sort: every thread insertion-sorts its own 32 keys in a local-memory array.
#include <algorithm>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace private_sort {

constexpr int kKeys = 32;

Outcome run(WorkloadContext& ctx) {
  const int segments = static_cast<int>(ctx.size);
  const size_t keys = static_cast<size_t>(segments) * kKeys;
  InputGenerator gen(ctx.seed);
  std::vector<int> in(keys);
  for (int& k : in) k = static_cast<int>(gen.uniform(-1000, 1000));  // with duplicates
  // Verification is exact: each strided segment sorted on the CPU.
  std::vector<int> expect(keys), segment(kKeys);
  for (int s = 0; s < segments; ++s) {
    for (int k = 0; k < kKeys; ++k) segment[k] = in[static_cast<size_t>(k) * segments + s];
    std::sort(segment.begin(), segment.end());
    for (int k = 0; k < kKeys; ++k) expect[static_cast<size_t>(k) * segments + s] = segment[k];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("private-sort"), "private-sort.ptx");
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(keys * sizeof(int));
  launch(ctx, mod.kernel("private_sort"), {ceilDiv(segments, 128)}, {128}, 0, dIn, dOut, segments);

  std::string bad = exactMismatch("sorted", gpu.download<int>(dOut, keys), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} private segments of {} keys sorted, exact", segments, kKeys)};
}

}  // namespace private_sort

Workload privateSortWorkload() {
  return {"private-sort",
          "private",
          "per-thread insertion sort of 32 keys in a dynamically indexed local array",
          "threads",
          1u << 12,
          1u << 16,
          1u << 18,
          1u << 22,
          private_sort::run};
}

}  // namespace warpsim::workloads
