// transpose: a rows x cols matrix (cols = 5/4 rows, so the two shapes differ) transposed
// through padded shared-memory tiles, then transposed back by the naive kernel.
#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace {

Outcome run(WorkloadContext& ctx) {
  const int rows = static_cast<int>(ctx.size);
  const int cols = rows + rows / 4;
  const size_t elems = static_cast<size_t>(rows) * cols;
  InputGenerator gen(ctx.seed);
  std::vector<float> in(elems);
  for (float& v : in) v = static_cast<float>(uniformReal(gen, -100.0, 100.0));
  // Verification is exact: a transpose only moves values.
  std::vector<float> expect(elems);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      expect[static_cast<size_t>(c) * rows + r] = in[static_cast<size_t>(r) * cols + c];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("transpose"), "transpose.ptx");
  uint64_t dIn = gpu.upload(in), dOut = gpu.malloc(elems * sizeof(float));
  uint64_t dBack = gpu.malloc(elems * sizeof(float));
  launch(ctx, mod.kernel("transpose_tiled"), {ceilDiv(cols, 32), ceilDiv(rows, 32)}, {32, 8}, 0,
         dIn, dOut, rows, cols);
  // Back: the transposed matrix has `cols` rows and `rows` columns.
  launch(ctx, mod.kernel("transpose_naive"), {ceilDiv(rows, 32), ceilDiv(cols, 8)}, {32, 8}, 0,
         dOut, dBack, cols, rows);

  std::string bad = exactMismatch("transposed", gpu.download<float>(dOut, elems), expect);
  if (bad.empty()) bad = exactMismatch("transposed back", gpu.download<float>(dBack, elems), in);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} x {} matrix transposed and back, exact", rows, cols)};
}

}  // namespace

Workload transposeWorkload() {
  return {"transpose",
          "streaming",
          "matrix transpose through padded shared-memory tiles, then back naively",
          "rows",
          384,
          2048,
          4096,
          8192,
          run};
}

}  // namespace warpsim::workloads
