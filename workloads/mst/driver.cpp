// mst: minimum spanning forest of a synthetic city road network (road_network.h, roads taken as
// undirected, weighted by travel time) by Boruvka rounds (see mst.cu), checked against Kruskal.
#include <numeric>

#include "check.h"
#include "road_network.h"
#include "workload.h"

namespace warpsim::workloads {

namespace mst {

constexpr uint32_t kThreads = 256;  // unless a resource specification asks for another count

// Kruskal with the kernel's order: by travel time, then road number. Returns the roads' flags.
std::vector<uint8_t> kruskal(const RoadNetwork& net) {
  const int roads = static_cast<int>(net.roads.size());
  std::vector<int> order(roads), parent(net.vertices());
  std::iota(order.begin(), order.end(), 0);
  std::iota(parent.begin(), parent.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return net.roads[a].seconds != net.roads[b].seconds
               ? net.roads[a].seconds < net.roads[b].seconds
               : a < b;
  });
  auto find = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  std::vector<uint8_t> inForest(roads, 0);
  for (int r : order) {
    int a = find(net.roads[r].a), b = find(net.roads[r].b);
    if (a != b) {
      parent[a] = b;
      inForest[r] = 1;
    }
  }
  return inForest;
}

// The block sizes a resource specification may ask for: powers of two from a warp to the largest
// CTA, and 192 and 768, which fill a 1536-thread SM with 8 and 2 CTAs.
const std::vector<uint32_t> kSpecThreads = {32, 64, 128, 192, 256, 512, 768, 1024};

Outcome run(WorkloadContext& ctx) {
  const int edge = static_cast<int>(ctx.size);
  if (edge < 2)
    throw runtime::Error(fmt::format("mst: the grid edge must be at least 2, not {}", edge));
  InputGenerator gen(ctx.seed);
  const RoadNetwork net = makeRoadNetwork(gen, edge, edge);
  const RoadCsr g = roadCsr(net, true);
  const int n = net.vertices(), roads = static_cast<int>(net.roads.size());
  // Verification is exact: with the keys made distinct by the road number the minimum spanning
  // forest is unique, so the GPU must select exactly Kruskal's roads.
  const std::vector<uint8_t> expect = kruskal(net);
  std::vector<int> roadEnds(2 * roads), roadSeconds(roads), comp(n);
  for (int r = 0; r < roads; ++r) {
    roadEnds[2 * r] = net.roads[r].a;
    roadEnds[2 * r + 1] = net.roads[r].b;
    roadSeconds[r] = net.roads[r].seconds;
  }
  std::iota(comp.begin(), comp.end(), 0);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("mst"), "mst.ptx");
  uint64_t dRowStart = gpu.upload(g.rowStart), dTarget = gpu.upload(g.target);
  uint64_t dRoad = gpu.upload(g.edgeId), dSeconds = gpu.upload(roadSeconds);
  uint64_t dEnds = gpu.upload(roadEnds);
  uint64_t dComp[2] = {gpu.upload(comp), gpu.malloc(n * sizeof(int))};
  uint64_t dMin = gpu.malloc(n * sizeof(uint64_t)), dHook = gpu.malloc(n * sizeof(int));
  uint64_t dForest = gpu.malloc(roads), dJoined = gpu.malloc(sizeof(int));
  gpu.memset(dMin, 0xff, n * sizeof(uint64_t));
  gpu.memset(dForest, 0, roads);
  // Every kernel has one thread per vertex (or root) and no shared memory, so the block size
  // changes only how the vertices are grouped into CTAs.
  const uint32_t threads = ctx.threadsPerBlock == 0 ? kThreads : ctx.threadsPerBlock;
  const uint32_t blocks = ceilDiv(n, threads);
  int rounds = 0, cur = 0;
  for (int joined = 1; joined != 0; ++rounds, cur ^= 1) {
    // Every round with a join at least halves the number of components that still have a road
    // out, so a correct run needs at most log2(n) + 1 rounds.
    if (rounds > 40) return fail("Boruvka did not converge");
    gpu.memset(dJoined, 0, sizeof(int));
    launch(ctx, mod.kernel("mst_min_edge"), {blocks}, {threads}, 0, dRowStart, dTarget, dRoad,
           dSeconds, dComp[cur], dMin, n);
    launch(ctx, mod.kernel("mst_hook"), {blocks}, {threads}, 0, dEnds, dComp[cur], dMin, dHook, n);
    launch(ctx, mod.kernel("mst_select"), {blocks}, {threads}, 0, dHook, dMin, dComp[cur], dForest,
           dJoined, n);
    launch(ctx, mod.kernel("mst_jump"), {blocks}, {threads}, 0, dComp[cur], dComp[cur ^ 1], dMin,
           n);
    joined = gpu.download<int>(dJoined, 1)[0];
  }

  std::vector<uint8_t> got = gpu.download<uint8_t>(dForest, roads);
  int64_t gotWeight = 0, expectWeight = 0;
  int gotCount = 0, expectCount = 0;
  for (int r = 0; r < roads; ++r) {
    if (got[r]) gotWeight += net.roads[r].seconds, ++gotCount;
    if (expect[r]) expectWeight += net.roads[r].seconds, ++expectCount;
  }
  if (gotCount != expectCount || gotWeight != expectWeight) {
    return fail(fmt::format("forest of {} roads weighing {} s, expected {} roads weighing {} s",
                            gotCount, gotWeight, expectCount, expectWeight));
  }
  for (int r = 0; r < roads; ++r) {
    if (got[r] != expect[r]) {
      return fail(fmt::format("road {} ({} - {}, {} s) is {} the forest, expected {}", r,
                              net.roads[r].a, net.roads[r].b, net.roads[r].seconds,
                              got[r] ? "in" : "not in", expect[r] ? "in" : "not in"));
    }
  }
  return {true, fmt::format("{}x{} intersections, {} roads; forest of {} roads ({} trees), {} s "
                            "in total, in {} rounds, exact",
                            edge, edge, roads, gotCount, n - gotCount, gotWeight, rounds)};
}

}  // namespace mst

Workload mstWorkload() {
  return {"mst",
          "irregular",
          "minimum spanning forest of a road network by Boruvka: 64-bit atomicMin, pointer jumping",
          "grid edge (edge^2 intersections)",
          64,
          224,
          1024,
          4096,
          mst::run,
          {mst::kSpecThreads,
           {},
           "threads per CTA of the four Boruvka kernels (a thread per vertex)"}};
}

}  // namespace warpsim::workloads
