// nqueens: the number of ways to place N non-attacking queens on an N x N board. The host places
// the first rows in every valid way; a GPU thread completes each placement by backtracking with
// its stack in shared memory, a shared tree sums each CTA's count (see nqueens.cu).
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace nqueens {

constexpr int kMinBoard = 4;
constexpr int kMaxBoard = 16;   // the kernel's masks: right diagonals 16 bits up in a word
constexpr int kMaxLevels = 16;  // MAX_LEVELS of nqueens.cu
// Rows the host places (N - 2 on smaller boards): 8492 placements at N = 11 (89 CTAs of 96
// threads, enough to occupy every SM of a GTX 480), 31100 at N = 13.
constexpr int kHostRows = 5;
constexpr uint32_t kDefaultThreads = 96;  // the block size of the NQU benchmark kernel

// The resource specifications, any pair of the two lists: the block size, and the shared memory
// the CTA allocates, which decides how many stack levels live in it (the rest in local memory).
// Every size holds the reduction area (4 bytes a thread) of the largest block.
constexpr std::array<uint32_t, 8> kThreadChoices = {32, 64, 96, 128, 192, 256, 384, 512};
constexpr std::array<uint32_t, 10> kSharedChoices = {2048,  3072,  4096,  6144,  8192,
                                                     12288, 16384, 24576, 32768, 49152};
static_assert(kSharedChoices.front() >= 4 * kThreadChoices.back());

// Published totals (OEIS A000170), an independent check of the CPU reference.
constexpr std::array<uint64_t, kMaxBoard + 1> kKnownTotals = {
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};

// The state after some rows: columns taken, and the diagonals attacked on the next row (left:
// the ones moving towards higher bit numbers), all within the board's n bits.
struct Placement {
  uint32_t cols, left, right;
};

Placement place(const Placement& p, uint32_t bit, uint32_t full) {
  return {p.cols | bit, ((p.left | bit) << 1) & full, (p.right | bit) >> 1};
}

// Every valid placement of `rows` rows, the lowest column first on each row (the order of a
// depth-first search).
void enumerate(const Placement& p, int rows, uint32_t full, std::vector<Placement>& out) {
  if (rows == 0) {
    out.push_back(p);
    return;
  }
  for (uint32_t avail = ~(p.cols | p.left | p.right) & full; avail != 0; avail &= avail - 1) {
    enumerate(place(p, avail & (0u - avail), full), rows - 1, full, out);
  }
}

// The reference: a plain recursive counter of the completions of `p` with `rows` rows to fill.
uint64_t complete(const Placement& p, int rows, uint32_t full) {
  const uint32_t avail = ~(p.cols | p.left | p.right) & full;
  if (rows == 1) return static_cast<uint64_t>(std::popcount(avail));
  uint64_t count = 0;
  for (uint32_t a = avail; a != 0; a &= a - 1) {
    count += complete(place(p, a & (0u - a), full), rows - 1, full);
  }
  return count;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < kMinBoard || n > kMaxBoard) {
    throw runtime::Error(
        fmt::format("nqueens: the board must be {} to {} squares wide, not {}", kMinBoard,
                    kMaxBoard, ctx.size));
  }
  const uint32_t threads = ctx.threadsPerBlock != 0 ? ctx.threadsPerBlock : kDefaultThreads;
  if (std::find(kThreadChoices.begin(), kThreadChoices.end(), threads) == kThreadChoices.end()) {
    throw runtime::Error(fmt::format("nqueens: {} threads per block is not one of {}", threads,
                                     fmt::join(kThreadChoices, ", ")));
  }
  // The input: all placements of the host's rows. The seed plays no part: the problem is the
  // board. Each thread fills the remaining rows; the last one is counted without a push.
  const int hostRows = std::min(kHostRows, n - 2);
  const int levels = n - hostRows - 1;
  static_assert(kMaxBoard - kHostRows - 1 <= kMaxLevels);
  const uint32_t full = (1u << n) - 1;
  std::vector<Placement> placements;
  enumerate({0, 0, 0}, hostRows, full, placements);
  const int count = static_cast<int>(placements.size());

  // Shared memory: by default every level of the stack plus the reduction area; a specified
  // size keeps as many levels in it as fit after the reduction area (the CTA allocates all of it).
  const uint32_t reductionBytes = threads * 4;
  uint32_t sharedBytes = (levels + 1) * reductionBytes;
  int sharedLevels = levels;
  if (ctx.sharedBytesPerBlock != 0) {
    sharedBytes = ctx.sharedBytesPerBlock;
    if (std::find(kSharedChoices.begin(), kSharedChoices.end(), sharedBytes) ==
        kSharedChoices.end()) {
      throw runtime::Error(fmt::format("nqueens: {} shared bytes per block is not one of {}",
                                       sharedBytes, fmt::join(kSharedChoices, ", ")));
    }
    sharedLevels = std::min<int>(levels, sharedBytes / reductionBytes - 1);
  }

  // Reference: the completions of each placement, summed per CTA. Exact: integer counts.
  const uint32_t ctas = ceilDiv(count, threads);
  std::vector<uint32_t> expect(ctas, 0);
  uint64_t total = 0;
  for (int i = 0; i < count; ++i) {
    const uint64_t c = complete(placements[i], n - hostRows, full);
    expect[i / threads] += static_cast<uint32_t>(c);
    total += c;
  }
  if (total != kKnownTotals[n]) {
    return fail(fmt::format("CPU reference: {} solutions of a {}-board, known {}", total, n,
                            kKnownTotals[n]));
  }

  std::vector<uint32_t> soa(3 * static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    soa[i] = placements[i].cols;
    soa[count + i] = placements[i].left;
    soa[2 * count + i] = placements[i].right;
  }
  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("nqueens"), "nqueens.ptx");
  const uint64_t dPlacements = gpu.upload(soa);
  const uint64_t dCtas = gpu.malloc(ctas * sizeof(uint32_t));
  launch(ctx, mod.kernel("nqueens_count"), {ctas}, {threads}, sharedBytes, dPlacements, count, n,
         levels, sharedLevels, dCtas);
  const std::vector<uint32_t> got = gpu.download<uint32_t>(dCtas, ctas);
  if (std::string bad = exactMismatch("solutions of CTA", got, expect); !bad.empty()) {
    return fail(bad);
  }
  return {true, fmt::format("{} solutions of the {}-queens board, exact: {} placements of {} "
                            "rows, {} CTAs of {} threads, {} of {} stack levels in {} shared "
                            "bytes",
                            total, n, count, hostRows, ctas, threads, sharedLevels, levels,
                            sharedBytes)};
}

}  // namespace nqueens

Workload nqueensWorkload() {
  return {"nqueens",
          "irregular",
          "N-queens solutions: host-placed first rows, per-thread backtracking with its stack in "
          "shared memory, shared tree per CTA",
          "board edge",
          11,
          12,
          13,
          nqueens::kMaxBoard,
          nqueens::run,
          {{nqueens::kThreadChoices.begin(), nqueens::kThreadChoices.end()},
           {nqueens::kSharedChoices.begin(), nqueens::kSharedChoices.end()},
           "threads per CTA (a thread per partial placement); shared bytes per CTA: the stack "
           "levels that fit in it after 4 B/thread of reduction area, the rest in local memory"}};
}

}  // namespace warpsim::workloads
