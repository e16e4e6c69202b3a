// reduce-tree: multi-pass shared-memory tree reduction of unsigned integers.
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace reduce_tree {

constexpr uint32_t kThreads = 256;

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  std::vector<unsigned> data(n);
  for (unsigned& v : data) v = static_cast<unsigned>(gen.next());
  // Verification is exact: sums modulo 2^32 do not depend on the order of the additions.
  unsigned expect = 0;
  for (unsigned v : data) expect += v;

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("reduce-tree"), "reduce-tree.ptx");
  runtime::Kernel reduce = mod.kernel("reduce_tree");
  uint64_t src = gpu.upload(data);
  int count = n;
  int passes = 0;
  do {
    uint32_t blocks = ceilDiv(count, 2 * kThreads);
    uint64_t dst = gpu.malloc(blocks * sizeof(unsigned));
    launch(ctx, reduce, {blocks}, {kThreads}, kThreads * sizeof(unsigned), src, dst, count);
    src = dst;
    count = static_cast<int>(blocks);
    ++passes;
  } while (count > 1);

  unsigned got = gpu.download<unsigned>(src, 1)[0];
  if (got != expect) return fail(fmt::format("sum = {} expected {}", got, expect));
  return {true, fmt::format("{} values in {} passes, sum mod 2^32 = {}", n, passes, got)};
}

}  // namespace reduce_tree

Workload reduceTreeWorkload() {
  return {"reduce-tree",
          "reduction",
          "multi-pass sum by a shared-memory tree (dynamic shared memory, barriers)",
          "elements",
          1u << 18,
          1u << 22,
          1u << 24,
          1u << 28,
          reduce_tree::run};
}

}  // namespace warpsim::workloads
