// nw: Needleman-Wunsch alignment scores, one kernel per anti-diagonal of B x B tiles (B = 32
// unless a resource specification picks the blocking factor 16 or 64). XMem atoms written by hand
// describe every device structure (xmem_atoms.h).
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

#include "check.h"
#include "func/program.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace nw {

constexpr int kSymbols = 24, kGap = 4;

// The resource specification: the blocking factor B of Rodinia's needle, which the
// unified-storage study varies (Gebhart, ch. 7). The kernel compiled for B (nw.cu) runs CTAs of
// B threads, one per tile row, on a B x B tile whose scores and borders ((B + 1)^2 words) and the
// two sequences' B symbols (2 B words) are in shared memory; the substitution table stays in
// constant memory. The threads per block name B, as in dct8x8 (a block size picks the kernels
// compiled for its tile); the shared memory per CTA follows from B and is not a second choice.
struct Blocking {
  uint32_t tile;       // B: the tile edge and the threads per CTA
  const char* suffix;  // of the kernel name
};
constexpr Blocking kBlockings[] = {{16, "_b16"}, {32, ""}, {64, "_b64"}};
constexpr uint32_t kDefaultTile = 32;

// The static shared memory of the kernel compiled for `tile` (checked against the PTX's).
constexpr uint32_t sharedBytesOf(uint32_t tile) { return 4 * ((tile + 1) * (tile + 1) + 2 * tile); }

std::vector<uint32_t> blockingTiles() {
  std::vector<uint32_t> tiles;
  for (const Blocking& b : kBlockings) tiles.push_back(b.tile);
  return tiles;
}

const Blocking& blockingFor(uint32_t threads) {
  const uint32_t tile = threads == 0 ? kDefaultTile : threads;
  for (const Blocking& b : kBlockings) {
    if (b.tile == tile) return b;
  }
  throw runtime::Error(fmt::format("nw: {} threads per block is not one of {} (the tile edge)",
                                   threads, fmt::join(blockingTiles(), ", ")));
}

Outcome run(WorkloadContext& ctx) {
  if (ctx.sharedBytesPerBlock != 0) {
    throw runtime::Error(
        "nw: the shared memory per block follows the tile (--threads-per-block), it is not chosen");
  }
  const Blocking& blocking = blockingFor(ctx.threadsPerBlock);
  const int tile = static_cast<int>(blocking.tile);
  const int n = static_cast<int>(ctx.size);
  if (n % tile != 0) {
    throw runtime::Error(fmt::format(
        "nw: the sequence length must be a multiple of the {}-wide tiles, not {}", tile, n));
  }
  const int stride = n + 1;
  InputGenerator gen(ctx.seed);
  std::vector<int> a(n), b(n), substitution(kSymbols * kSymbols);
  for (int& s : a) s = static_cast<int>(gen.uniform(0, kSymbols - 1));
  // The second sequence is a mutated copy of the first, so the best alignment is not trivial.
  for (int i = 0; i < n; ++i)
    b[i] = gen.next() % 4 == 0 ? static_cast<int>(gen.uniform(0, kSymbols - 1)) : a[i];
  for (int x = 0; x < kSymbols; ++x) {
    for (int y = 0; y <= x; ++y) {
      int v = x == y ? static_cast<int>(gen.uniform(4, 11)) : static_cast<int>(gen.uniform(-4, 2));
      substitution[x * kSymbols + y] = substitution[y * kSymbols + x] = v;
    }
  }
  std::vector<int> score(static_cast<size_t>(stride) * stride, 0);
  for (int i = 0; i <= n; ++i) {
    score[static_cast<size_t>(i) * stride] = -kGap * i;
    score[i] = -kGap * i;
  }
  // Verification is exact: integer scores.
  std::vector<int> expect = score;
  for (int i = 1; i <= n; ++i) {
    for (int j = 1; j <= n; ++j) {
      size_t at = static_cast<size_t>(i) * stride + j;
      int match = expect[at - stride - 1] + substitution[a[i - 1] * kSymbols + b[j - 1]];
      expect[at] = std::max(match, std::max(expect[at - stride], expect[at - 1]) - kGap);
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("nw"), "nw.ptx");
  gpu.memcpyHtoD(mod.symbolAddress("c_substitution"), substitution.data(),
                 substitution.size() * sizeof(int));
  runtime::Kernel diagonalKernel = mod.kernel(std::string("nw_tile_diagonal") + blocking.suffix);
  const uint32_t tileBytes = diagonalKernel.program().staticSharedBytes(diagonalKernel.index());
  if (tileBytes != sharedBytesOf(blocking.tile)) {  // nw.ptx and this driver disagree
    throw runtime::Error(fmt::format("nw: {} has {} bytes of shared memory, not {}",
                                     diagonalKernel.name(), tileBytes,
                                     sharedBytesOf(blocking.tile)));
  }
  uint64_t dScore = gpu.upload(score), dA = gpu.upload(a), dB = gpu.upload(b);
  const int tiles = n / tile;
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. Per tile of B x B
  // (B = 32), in 32-byte sectors: the scores B rows written (4 B each), the top row read (4 B)
  // and the left column (B sectors, a row apart), 164 in all; the sequences' B symbols 4 each.
  // score: rows written in order (a lane per column, stride 4); a tile's border is read once more.
  describeStructure(gpu, "nw:score", dScore, score.size() * sizeof(int), WARPSIM_ATOM_INT32, regularAccess(4, 255),
                    1, WARPSIM_ATOM_READ_WRITE);
  // a: a tile's B symbols, read again by the n / B tiles of its tile row.
  const uint8_t symbolReuse = static_cast<uint8_t>(std::min(255, tiles - 1));
  describeStructure(gpu, "nw:a", dA, a.size() * sizeof(int), WARPSIM_ATOM_INT32, regularAccess(4, 6), symbolReuse,
                    WARPSIM_ATOM_READ_ONLY);
  // b: likewise for the tiles of a tile column.
  describeStructure(gpu, "nw:b", dB, b.size() * sizeof(int), WARPSIM_ATOM_INT32, regularAccess(4, 6), symbolReuse,
                    WARPSIM_ATOM_READ_ONLY);
  // c_substitution (constant memory): 2.3 KB looked up at random symbol pairs, read by every
  // tile; it stays in the constant cache.
  describeStructure(gpu, "nw:substitution", mod.symbolAddress("c_substitution"), substitution.size() * sizeof(int),
                    WARPSIM_ATOM_INT32, nonDetAccess(0), 255, WARPSIM_ATOM_READ_ONLY);
  for (int d = 0; d < 2 * tiles - 1; ++d) {
    int first = std::max(0, d - tiles + 1), last = std::min(d, tiles - 1);
    launch(ctx, diagonalKernel, {static_cast<uint32_t>(last - first + 1)}, {blocking.tile}, 0,
           dScore, dA, dB, n, d, first, kGap);
  }

  std::string bad = exactMismatch("score", gpu.download<int>(dScore, score.size()), expect);
  if (!bad.empty()) return fail(bad);
  return {true,
          fmt::format("two sequences of {} symbols, {} diagonals of {}x{} tiles, score {} exact", n,
                      2 * tiles - 1, tile, tile, expect.back())};
}

}  // namespace nw

Workload nwWorkload() {
  return {"nw",
          "dp",
          "Needleman-Wunsch scores, wavefront of 32x32 tiles, table in constant memory",
          "sequence length (multiple of the tile edge: 32, or 16/64 by --threads-per-block)",
          512,
          2048,
          4096,
          1u << 14,
          nw::run,
          {nw::blockingTiles(),
           {},
           "threads: the blocking factor B (tile edge; a thread per tile row) of the kernel "
           "compiled for it, 2n/B - 1 launches; its shared memory follows: 4((B+1)^2 + 2B) B per "
           "CTA (1284, 4612, 17412)"}};
}

}  // namespace warpsim::workloads
