// spmv: sparse matrix-vector product in CSR form with the scalar (thread per row) and vector
// (warp per row) kernels. XMem atoms written by hand describe every device structure
// (xmem_atoms.h).
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace spmv {

Outcome run(WorkloadContext& ctx) {
  const int rows = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // Row lengths: mostly 4..20, one row in 16 long (64..160), columns clustered near the
  // diagonal with some far away.
  std::vector<int> rowStart(rows + 1, 0), columns;
  std::vector<float> values;
  for (int r = 0; r < rows; ++r) {
    int length = gen.next() % 16 == 0 ? static_cast<int>(gen.uniform(64, 160))
                                      : static_cast<int>(gen.uniform(4, 20));
    for (int e = 0; e < length; ++e) {
      int col = gen.next() % 2 == 0
                    ? static_cast<int>(gen.uniform(0, rows - 1))
                    : std::clamp(r + static_cast<int>(gen.uniform(-64, 64)), 0, rows - 1);
      columns.push_back(col);
      values.push_back(static_cast<float>(uniformReal(gen, -1.0, 1.0)));
    }
    rowStart[r + 1] = static_cast<int>(columns.size());
  }
  std::vector<float> x(rows);
  for (float& v : x) v = static_cast<float>(uniformReal(gen, -1.0, 1.0));

  // Tolerance: row r is a float sum of len_r products; the scalar kernel adds them in order
  // and the vector kernel in 32 strided sums then 5 shuffle levels. Either way the deepest path
  // has at most len_r + 6 roundings, so |y - exact| <= 2 (len_r + 6) u sum|a x| (u = 2^-24,
  // 2 for slack).
  std::vector<double> expect(rows), bound(rows);
  for (int r = 0; r < rows; ++r) {
    double s = 0, mag = 0;
    for (int e = rowStart[r]; e < rowStart[r + 1]; ++e) {
      double p = static_cast<double>(values[e]) * x[columns[e]];
      s += p;
      mag += std::fabs(p);
    }
    expect[r] = s;
    bound[r] = 2.0 * (rowStart[r + 1] - rowStart[r] + 6) * kFloatUnit * mag;
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("spmv"), "spmv.ptx");
  uint64_t dRowStart = gpu.upload(rowStart), dColumns = gpu.upload(columns);
  uint64_t dValues = gpu.upload(values), dX = gpu.upload(x);
  uint64_t dScalar = gpu.malloc(rows * sizeof(float)), dVector = gpu.malloc(rows * sizeof(float));
  const uint32_t scalarCtas = ceilDiv(rows, 256), vectorCtas = ceilDiv(rows, 8);
  const uint32_t nonZeros = static_cast<uint32_t>(values.size());

  // Locality descriptors (the thesis's Table 4 gives SPMV INTRA_THREAD and INTER_THREAD
  // (COACCESSED, IRREGULAR)):
  // - x, in both kernels: gathered at the columns of the nonzeros, shared by every CTA in no
  //   regular order: INTER_THREAD (COACCESSED, IRREGULAR), the whole vector one tile (an
  //   irregular structure is described whole). The kernel's shared data: priority 2.
  // - values and columns, in spmv_csr_scalar: each thread walks its own row's entries one after
  //   another (stride 1), reusing each line over several steps: INTRA_THREAD. A CTA's 256 rows
  //   are a contiguous run of entries whose length varies; the D-Tile is the average run,
  //   nonzeros / CTAs (an approximation: tiles have one size).
  // - values and columns, in spmv_csr_vector: a warp reads its row's entries coalesced, once:
  //   NO_REUSE, one tile (the runs per CTA vary).
  const Structure xs{dX, {uint32_t(rows), 1, 1}, 4};
  const Structure vals{dValues, {nonZeros, 1, 1}, 4}, colIdx{dColumns, {nonZeros, 1, 1}, 4};
  const Tiling rowRuns{{ceilDiv(nonZeros, scalarCtas), 1, 1}, {1, 1, 1}, {1, 0, 0}};
  setLocalityDescriptors(
      ctx, "spmv_csr_scalar",
      {interThread(xs, {{uint32_t(rows), 1, 1}, {scalarCtas, 1, 1}, {0, 0, 0}}, WARPSIM_COACCESSED,
                   WARPSIM_IRREGULAR, 0, 2),
       intraThread(vals, rowRuns, 1), intraThread(colIdx, rowRuns, 1)});
  const Tiling whole{{nonZeros, 1, 1}, {vectorCtas, 1, 1}, {0, 0, 0}};
  setLocalityDescriptors(
      ctx, "spmv_csr_vector",
      {interThread(xs, {{uint32_t(rows), 1, 1}, {vectorCtas, 1, 1}, {0, 0, 0}}, WARPSIM_COACCESSED,
                   WARPSIM_IRREGULAR, 0, 2),
       noReuse(vals, whole), noReuse(colIdx, whole)});
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. Requests over both
  // kernels, in units of the nonzeros Z (about 18 per row): x 2 (a gather per nonzero), values
  // and columns 1.1 each (the scalar kernel's lanes walk rows about 72 bytes apart, a sector per
  // lane; the vector kernel's coalesced), rowStart 0.13, the vector kernel's y 0.06, the scalar's 0.01.
  const uint64_t rowBytes = uint64_t{4} * rows, entryBytes = uint64_t{4} * nonZeros;
  const uint32_t index = WARPSIM_ATOM_INT32 | WARPSIM_ATOM_INDEX;
  // x: gathered at the columns of the nonzeros (data-dependent), each element about 36 times; the hottest.
  describeStructure(gpu, "spmv:x", dX, rowBytes, WARPSIM_ATOM_FLOAT32, irregularAccess(255), 35,
                    WARPSIM_ATOM_READ_ONLY);
  // values: the rows' entries in order (a thread's own row, or a warp's lanes along it), by both kernels.
  describeStructure(gpu, "spmv:values", dValues, entryBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 143), 1,
                    WARPSIM_ATOM_READ_ONLY);
  // columns: as the values, beside them.
  describeStructure(gpu, "spmv:columns", dColumns, entryBytes, index, regularAccess(4, 143), 1,
                    WARPSIM_ATOM_READ_ONLY);
  // rowStart: [row] and [row + 1] per thread (scalar) or per warp (vector), rows in order.
  describeStructure(gpu, "spmv:rowStart", dRowStart, rowBytes + 4, index, regularAccess(4, 16), 3,
                    WARPSIM_ATOM_READ_ONLY);
  // y of the vector kernel: lane 0 of each warp writes its row, rows in order across the warps.
  describeStructure(gpu, "spmv:y vector", dVector, rowBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 14), 0,
                    WARPSIM_ATOM_WRITE_ONLY);
  // y of the scalar kernel: a word per lane, written once.
  describeStructure(gpu, "spmv:y scalar", dScalar, rowBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 2), 0,
                    WARPSIM_ATOM_WRITE_ONLY);
  launch(ctx, mod.kernel("spmv_csr_scalar"), {ceilDiv(rows, 256)}, {256}, 0, rows, dRowStart,
         dColumns, dValues, dX, dScalar);
  launch(ctx, mod.kernel("spmv_csr_vector"), {ceilDiv(rows, 8)}, {256}, 0, rows, dRowStart,
         dColumns, dValues, dX, dVector);

  double worstScalar = 0, worstVector = 0;
  std::string bad =
      boundedMismatch("scalar y", gpu.download<float>(dScalar, rows), expect, bound, &worstScalar);
  if (bad.empty()) {
    bad = boundedMismatch("vector y", gpu.download<float>(dVector, rows), expect, bound,
                          &worstVector);
  }
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} rows, {} non-zeros, worst error {:.2g} (scalar) and {:.2g} "
                            "(vector) of the bound",
                            rows, columns.size(), worstScalar, worstVector)};
}

}  // namespace spmv

Workload spmvWorkload() {
  return {
      "spmv",   "irregular", "CSR sparse matrix-vector product, scalar and warp-per-row kernels",
      "rows",   1u << 12,    1u << 15,
      1u << 17, 1u << 22,    spmv::run};
}

}  // namespace warpsim::workloads
