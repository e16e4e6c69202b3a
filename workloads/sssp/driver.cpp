// sssp: single-source shortest travel times on a synthetic city road network (road_network.h)
// by worklist Bellman-Ford: atomicMin relaxations into the other of two distance arrays, the
// next worklist from a frontier bitmap (see sssp.cu), checked against Dijkstra.
#include <climits>
#include <functional>
#include <queue>

#include "check.h"
#include "road_network.h"
#include "workload.h"

namespace warpsim::workloads {

namespace sssp {

constexpr uint32_t kThreads = 256;      // unless a resource specification asks for another count
constexpr uint32_t kScanThreads = 256;  // SCAN_THREADS of sssp.cu

std::vector<int> dijkstra(const RoadCsr& g, int source) {
  const int n = static_cast<int>(g.rowStart.size()) - 1;
  std::vector<int> dist(n, INT_MAX);
  using Entry = std::pair<int, int>;  // (distance, vertex)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, v] = heap.top();
    heap.pop();
    if (d != dist[v]) continue;
    for (int e = g.rowStart[v]; e < g.rowStart[v + 1]; ++e) {
      if (d + g.seconds[e] < dist[g.target[e]]) {
        dist[g.target[e]] = d + g.seconds[e];
        heap.push({dist[g.target[e]], g.target[e]});
      }
    }
  }
  return dist;
}

// The block sizes a resource specification may ask for: powers of two from a warp to the largest
// CTA, and 192 and 768, which fill a 1536-thread SM with 8 and 2 CTAs.
const std::vector<uint32_t> kSpecThreads = {32, 64, 128, 192, 256, 512, 768, 1024};

Outcome run(WorkloadContext& ctx) {
  const int edge = static_cast<int>(ctx.size);
  if (edge < 2)
    throw runtime::Error(fmt::format("sssp: the grid edge must be at least 2, not {}", edge));
  InputGenerator gen(ctx.seed);
  const RoadNetwork net = makeRoadNetwork(gen, edge, edge);
  const RoadCsr g = roadCsr(net, false);
  const int n = net.vertices();
  const int source = static_cast<int>(gen.uniform(0, n - 1));
  // Verification is exact: integer travel times (INT_MAX: unreachable), and the shortest
  // distance does not depend on the order of relaxations.
  const std::vector<int> expect = dijkstra(g, source);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("sssp"), "sssp.ptx");
  runtime::Kernel relax = mod.kernel("sssp_relax"), scan = mod.kernel("frontier_scan");
  runtime::Kernel scatter = mod.kernel("frontier_scatter");
  const int words = (n + 31) / 32;
  std::vector<int> dist(n, INT_MAX);
  dist[source] = 0;
  uint64_t dRowStart = gpu.upload(g.rowStart), dTarget = gpu.upload(g.target);
  uint64_t dSeconds = gpu.upload(g.seconds);
  // The source's distance is 0 in the array round 0 reads; the other array learns it in round 0.
  uint64_t dDist[2] = {gpu.upload(dist), gpu.upload(std::vector<int>(n, INT_MAX))};
  uint64_t dWorklist = gpu.malloc(n * sizeof(int)), dSize = gpu.malloc(sizeof(int));
  uint64_t dFrontier = gpu.upload(std::vector<unsigned>(words, 0u));
  uint64_t dOffsets = gpu.malloc(words * sizeof(int));
  const int one = 1;
  gpu.memcpyHtoD(dWorklist, &source, sizeof(int));
  gpu.memcpyHtoD(dSize, &one, sizeof(int));
  // sssp_relax and frontier_scatter have a thread per worklist entry or bitmap word and no
  // shared memory, so the block size changes only how those are grouped into CTAs; the one-CTA
  // frontier_scan keeps its compile-time size.
  const uint32_t threads = ctx.threadsPerBlock == 0 ? kThreads : ctx.threadsPerBlock;
  int size = 1, rounds = 0, in = 0;
  uint64_t relaxed = 0;  // worklist entries processed
  for (; size > 0; ++rounds, in ^= 1) {
    // Round r finalises every vertex whose shortest path has r edges, so a correct run needs at
    // most n rounds.
    if (rounds > n) return fail("the worklist never became empty");
    relaxed += size;
    launch(ctx, relax, {ceilDiv(size, threads)}, {threads}, 0, dRowStart, dTarget, dSeconds,
           dDist[in], dDist[in ^ 1], dWorklist, dSize, dFrontier);
    launch(ctx, scan, {1}, {kScanThreads}, 0, dFrontier, words, dOffsets, dSize);
    launch(ctx, scatter, {ceilDiv(words, threads)}, {threads}, 0, dFrontier, words, dOffsets,
           dWorklist);
    size = gpu.download<int>(dSize, 1)[0];
  }

  std::string bad = exactMismatch("distance", gpu.download<int>(dDist[in], n), expect);
  if (!bad.empty()) return fail(bad);
  int reached = 0, farthest = 0;
  for (int d : expect) {
    if (d != INT_MAX) ++reached, farthest = std::max(farthest, d);
  }
  return {true, fmt::format("{}x{} intersections, {} arcs, {} reached from {} (farthest {} s) in "
                            "{} rounds, {:.2f} relaxations per vertex, exact",
                            edge, edge, g.target.size(), reached, source, farthest, rounds,
                            static_cast<double>(relaxed) / reached)};
}

}  // namespace sssp

Workload ssspWorkload() {
  return {"sssp",
          "irregular",
          "shortest paths on a road network: worklist Bellman-Ford, atomicMin, bitmap frontier",
          "grid edge (edge^2 intersections)",
          128,
          512,
          2048,
          4096,
          sssp::run,
          {sssp::kSpecThreads,
           {},
           "threads per CTA of sssp_relax and frontier_scatter (a thread per "
           "worklist entry, bitmap word); frontier_scan stays one CTA of 256"}};
}

}  // namespace warpsim::workloads
