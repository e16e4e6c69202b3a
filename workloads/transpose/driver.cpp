// transpose: a rows x cols matrix (cols = 5/4 rows, so the two shapes differ) transposed
// through padded shared-memory tiles, then transposed back by the naive kernel.
#include "check.h"
#include "locality_hints.h"
#include "workload.h"

namespace warpsim::workloads {

namespace transpose {

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

  // Locality descriptors (the thesis's Table 4 gives transpose NO_REUSE): every element is read
  // once and written once. The tiles say which CTA touches which part (for NUMA placement):
  // - transpose_tiled, CTA (bx, by): reads the 32 x 32 tile (bx, by) of in (cols x rows) and
  //   writes the tile (by, bx) of out (rows x cols); the out D-Tiles are numbered along out's x
  //   first, which is the grid's y, so its compute-data map traverses y first (2, 1, 0).
  // - transpose_naive (out back into back), CTA (bx, by) of 32 x 8 threads: reads the 32 x 8
  //   tile (bx, by) of out (rows wide) and writes the 8 x 32 tile (by, bx) of back (cols wide).
  const Structure ins{dIn, {uint32_t(cols), uint32_t(rows), 1}, 4};
  const Structure outs{dOut, {uint32_t(rows), uint32_t(cols), 1}, 4};
  const Structure backs{dBack, {uint32_t(cols), uint32_t(rows), 1}, 4};
  setLocalityDescriptors(ctx, "transpose_tiled",
                         {noReuse(ins, {{32, 32, 1}, {1, 1, 1}, {1, 2, 0}}),
                          noReuse(outs, {{32, 32, 1}, {1, 1, 1}, {2, 1, 0}})});
  setLocalityDescriptors(ctx, "transpose_naive",
                         {noReuse(outs, {{32, 8, 1}, {1, 1, 1}, {1, 2, 0}}),
                          noReuse(backs, {{8, 32, 1}, {1, 1, 1}, {2, 1, 0}})});
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

}  // namespace transpose

Workload transposeWorkload() {
  return {"transpose",
          "streaming",
          "matrix transpose through padded shared-memory tiles, then back naively",
          "rows",
          384,
          2048,
          4096,
          8192,
          transpose::run};
}

}  // namespace warpsim::workloads
