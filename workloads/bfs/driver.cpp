// bfs: level-synchronous breadth-first search over a random CSR graph (expand and advance
// kernels per level, until a level adds nothing). XMem atoms written by hand describe every
// device structure (xmem_atoms.h).
#include <deque>

#include "check.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace bfs {

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  // Directed random graph: out-degree 1..11 (mean 6), targets uniform, plus edges to a few
  // nearby vertices so that most of the graph is reachable but some of it is not.
  std::vector<int> rowStart(n + 1, 0), neighbours;
  for (int v = 0; v < n; ++v) {
    int degree = static_cast<int>(gen.uniform(1, 11));
    for (int e = 0; e < degree; ++e) {
      bool local = gen.next() % 4 == 0;
      neighbours.push_back(local ? static_cast<int>((v + gen.uniform(1, 8)) % n)
                                 : static_cast<int>(gen.uniform(0, n - 1)));
    }
    rowStart[v + 1] = static_cast<int>(neighbours.size());
  }
  const int source = 0;
  // Verification is exact: BFS levels are integers (-1: unreachable).
  std::vector<int> expect(n, -1);
  std::deque<int> queue{source};
  expect[source] = 0;
  while (!queue.empty()) {
    int v = queue.front();
    queue.pop_front();
    for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
      if (expect[neighbours[e]] < 0) {
        expect[neighbours[e]] = expect[v] + 1;
        queue.push_back(neighbours[e]);
      }
    }
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("bfs"), "bfs.ptx");
  runtime::Kernel expand = mod.kernel("bfs_expand"), advance = mod.kernel("bfs_advance");
  std::vector<int> level(n, -1);
  std::vector<uint8_t> frontier(n, 0), visited(n, 0);
  level[source] = 0;
  frontier[source] = visited[source] = 1;
  uint64_t dRowStart = gpu.upload(rowStart), dNeighbours = gpu.upload(neighbours);
  uint64_t dLevel = gpu.upload(level), dFrontier = gpu.upload(frontier);
  uint64_t dVisited = gpu.upload(visited), dNext = gpu.malloc(n);
  uint64_t dChanged = gpu.malloc(sizeof(int));
  gpu.memset(dNext, 0, n);
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. Requests over the
  // run (about 10 levels, 6 edges per vertex), in units of n 32-byte sectors: the gathers through
  // the neighbour lists touch a sector each (visited 7, neighbours 6, level 4, next 3), the
  // thread-indexed reads fewer (rowStart 2, frontier 0.6).
  const uint64_t bytes = static_cast<uint64_t>(n), edges = neighbours.size();
  const uint32_t index = WARPSIM_ATOM_INT32 | WARPSIM_ATOM_INDEX;
  // visited: read at every neighbour u of the frontier (data-dependent), set by advance; the hottest.
  describeStructure(gpu, "bfs:visited", dVisited, bytes, WARPSIM_ATOM_CHAR8, irregularAccess(255), 6,
                    WARPSIM_ATOM_READ_WRITE);
  // neighbours: each frontier vertex walks its own list (at rowStart[v]), each list read once.
  describeStructure(gpu, "bfs:neighbours", dNeighbours, 4 * edges, index, irregularAccess(219), 0,
                    WARPSIM_ATOM_READ_ONLY);
  // level: level[v] of the frontier read, level[u] of unvisited neighbours scattered.
  describeStructure(gpu, "bfs:level", dLevel, 4 * bytes, WARPSIM_ATOM_INT32, irregularAccess(146), 1,
                    WARPSIM_ATOM_READ_WRITE);
  // next: next[u] scattered by expand (most of its requests), read in order by advance every level.
  describeStructure(gpu, "bfs:next", dNext, bytes, WARPSIM_ATOM_CHAR8, irregularAccess(109), 9,
                    WARPSIM_ATOM_READ_WRITE);
  // rowStart: [v] and [v + 1] of the frontier's vertices, a thread per vertex in order.
  describeStructure(gpu, "bfs:rowStart", dRowStart, 4 * (bytes + 1), index, regularAccess(4, 73), 1,
                    WARPSIM_ATOM_READ_ONLY);
  // frontier: a byte per lane, read by expand and written by advance at every level.
  describeStructure(gpu, "bfs:frontier", dFrontier, bytes, WARPSIM_ATOM_CHAR8, regularAccess(1, 20), 9,
                    WARPSIM_ATOM_READ_WRITE);
  // changed: one word the marked threads set; it stays in the caches.
  describeStructure(gpu, "bfs:changed", dChanged, sizeof(int), WARPSIM_ATOM_INT32, regularAccess(4, 0), 0,
                    WARPSIM_ATOM_WRITE_ONLY);
  uint32_t blocks = ceilDiv(n, 256);
  int levels = 0;
  for (int changed = 1; changed != 0; ++levels) {
    if (levels > n) return fail("the frontier never became empty");
    gpu.memset(dChanged, 0, sizeof(int));
    launch(ctx, expand, {blocks}, {256}, 0, dRowStart, dNeighbours, dFrontier, dVisited, dNext,
           dLevel, n);
    launch(ctx, advance, {blocks}, {256}, 0, dFrontier, dVisited, dNext, dChanged, n);
    changed = gpu.download<int>(dChanged, 1)[0];
  }

  std::string bad = exactMismatch("level", gpu.download<int>(dLevel, n), expect);
  if (!bad.empty()) return fail(bad);
  int reached =
      static_cast<int>(std::count_if(expect.begin(), expect.end(), [](int l) { return l >= 0; }));
  return {true, fmt::format("{} vertices, {} edges, {} reached in {} levels, exact", n,
                            neighbours.size(), reached, levels)};
}

}  // namespace bfs

Workload bfsWorkload() {
  return {"bfs",      "irregular", "breadth-first search levels, CSR frontier expand and advance",
          "vertices", 1u << 14,    1u << 18,
          1u << 20,   1u << 24,    bfs::run};
}

}  // namespace warpsim::workloads
