// streamcluster: online k-median clustering of a stream of points (as Rodinia's streamcluster):
// each chunk of the stream gets a greedy initial solution and a local search over candidate
// facilities, whose gain the GPU computes (see streamcluster.cu); the chunks' facilities, weighted
// by the points they serve, are then clustered the same way. The host's decisions follow the
// GPU's results, and every GPU call is checked against a reference computed from the same state
// (see the tolerance comment in Search::pgain). XMem atoms written by hand describe every device
// structure (xmem_atoms.h).
#include <algorithm>
#include <cmath>
#include <vector>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace streamcluster {

constexpr uint32_t kThreads = 256;
constexpr int kDim = 32;        // coordinates per point
constexpr int kClusters = 10;   // clusters the stream's points are drawn from
constexpr double kSpread = 0.06;  // the clusters' standard deviation per coordinate
constexpr int kChunk = 2048;    // points per chunk of the stream
constexpr int kTries = 16;      // candidate facilities tried per chunk
// The cost of opening a facility, against costs that are squared distances: a cluster's centre
// is far cheaper than the 5.3 (D / 6) its points pay to the next cluster, a second facility in
// one cluster saves far less than this.
constexpr float kFacilityCost = 40;
// The facility cost of the final level, whose points are the chunks' facilities weighing tens to
// hundreds of points each (Rodinia searches for the cost that gives k in a range; a fixed cost
// per level here): above what merging two facilities of one cluster costs (their weight times
// about 2 D kSpread^2 = 0.23, at most about 160), below what merging two clusters costs.
constexpr float kFinalFacilityCost = 320;

// Points of dimension kDim, stored dimension-major as the kernel reads them.
struct Points {
  int num = 0;
  std::vector<float> coord;  // coord[d * num + i]
  std::vector<float> weight;
  float at(int i, int d) const { return coord[static_cast<size_t>(d) * num + i]; }
};

// The host's cost of serving point i from point j (its weighted squared distance), in float.
float serveCost(const Points& p, int i, int j) {
  float s = 0;
  for (int d = 0; d < kDim; ++d) {
    const float diff = p.at(i, d) - p.at(j, d);
    s += diff * diff;
  }
  return s * p.weight[i];
}

class Search {
 public:
  Search(WorkloadContext& ctx, InputGenerator& gen)
      : ctx_(ctx), gen_(gen), mod_(ctx.device.loadModule(workloadPtx("streamcluster"), "streamcluster.ptx")),
        pgain_(mod_.kernel("pgain")), sum_(mod_.kernel("pgain_sum")) {}

  int calls = 0, opened = 0, ambiguous = 0;
  double worst = 0;

  // Clusters `p`: a greedy initial solution (a point opens a facility with probability of its
  // cost over the facility cost z), then `tries` candidates. Leaves each point's facility (a point
  // index) in assign; returns a mismatch, or empty.
  std::string cluster(const Points& p, float z, int tries, std::vector<int>& assign,
                      std::vector<char>& isCenter) {
    const int num = p.num;
    runtime::Device& gpu = ctx_.device;
    assign.assign(num, 0);
    isCenter.assign(num, 0);
    isCenter[0] = 1;
    std::vector<float> cost(num);
    for (int i = 0; i < num; ++i) cost[i] = serveCost(p, i, 0);
    for (int c = 1; c < num; ++c) {
      if (!(uniformReal(gen_, 0, 1) * z < cost[c])) continue;
      isCenter[c] = 1;
      for (int i = 0; i < num; ++i) {
        const float d = serveCost(p, i, c);
        if (d < cost[i]) {
          cost[i] = d;
          assign[i] = c;
        }
      }
    }
    const uint64_t dCoord = gpu.upload(p.coord), dWeight = gpu.upload(p.weight);
    const uint64_t dCost = gpu.malloc(num * 4ull), dAssign = gpu.malloc(num * 4ull);
    const uint64_t dTable = gpu.malloc(num * 4ull), dSwitch = gpu.malloc(num * 4ull);
    // XMem atoms (xmem_atoms.h), one per structure, before this call's first launch (forgotten
    // before the frees). Requests per candidate (pgain, then pgain_sum), in units of num / 8
    // 32-byte sectors: the coordinates 32 (every dimension's row, a lane per point), the work
    // array 2 (k + 1) (written, then summed; k about 10 to 20 open facilities), the per-point
    // arrays 1 each.
    const uint64_t pointBytes = num * 4ull;
    const uint32_t index = WARPSIM_ATOM_INT32 | WARPSIM_ATOM_INDEX;
    const std::vector<DescribedStructure> described = {
        // coord: kDim rows of num, each row walked by the lanes; reread by every candidate's launch.
        describeStructure(gpu, "streamcluster:coord", dCoord, kDim * pointBytes, WARPSIM_ATOM_FLOAT32,
                          regularAccess(4, 255), 15, WARPSIM_ATOM_READ_ONLY),
        // weight: a word per point, read by every candidate's launch.
        describeStructure(gpu, "streamcluster:weight", dWeight, pointBytes, WARPSIM_ATOM_FLOAT32,
                          regularAccess(4, 8), 15, WARPSIM_ATOM_READ_ONLY),
        // cost: a word per point, new from the host before each launch.
        describeStructure(gpu, "streamcluster:cost", dCost, pointBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 8), 0,
                          WARPSIM_ATOM_READ_ONLY),
        // assign: a point's facility, new from the host before each launch.
        describeStructure(gpu, "streamcluster:assign", dAssign, pointBytes, index, regularAccess(4, 8), 0,
                          WARPSIM_ATOM_READ_ONLY),
        // table: looked up at each point's facility (data-dependent), only the k open ones: a few sectors a warp.
        describeStructure(gpu, "streamcluster:table", dTable, pointBytes, index, irregularAccess(21), 255,
                          WARPSIM_ATOM_READ_ONLY),
        // switch: a flag per point written once per launch, read by the host.
        describeStructure(gpu, "streamcluster:switch", dSwitch, pointBytes, WARPSIM_ATOM_INT32, regularAccess(4, 8), 0,
                          WARPSIM_ATOM_WRITE_ONLY)};
    DescribedStructure workAtom, sumsAtom;
    uint64_t dWork = 0, dSums = 0;
    size_t capacity = 0;  // rows of the work array allocated
    std::string bad;
    for (int t = 0; t < tries && bad.empty(); ++t) {
      std::vector<int> centers, table(num, 0);
      for (int i = 0; i < num; ++i) {
        if (isCenter[i]) {
          table[i] = static_cast<int>(centers.size());
          centers.push_back(i);
        }
      }
      if (static_cast<int>(centers.size()) == num) break;
      int x;
      do {
        x = static_cast<int>(gen_.uniform(0, num - 1));
      } while (isCenter[x]);
      const int k = static_cast<int>(centers.size());
      if (static_cast<size_t>(k + 1) > capacity) {
        if (capacity != 0) {
          forgetStructure(gpu, workAtom);
          forgetStructure(gpu, sumsAtom);
          gpu.free(dWork);
          gpu.free(dSums);
        }
        capacity = static_cast<size_t>(k + 1) * 2;
        dWork = gpu.malloc(capacity * num * 4);
        dSums = gpu.malloc(capacity * 4);
        // work: k + 1 rows of num, a lane per point, written by pgain and summed once by pgain_sum.
        workAtom = describeStructure(gpu, "streamcluster:work", dWork, capacity * pointBytes, WARPSIM_ATOM_FLOAT32,
                                 regularAccess(4, 224), 1, WARPSIM_ATOM_READ_WRITE);
        // sums: k + 1 words written once per launch, read by the host.
        sumsAtom = describeStructure(gpu, "streamcluster:sums", dSums, capacity * 4, WARPSIM_ATOM_FLOAT32,
                                 regularAccess(4, 0), 0, WARPSIM_ATOM_WRITE_ONLY);
      }
      gpu.memcpyHtoD(dCost, cost.data(), num * 4ull);
      gpu.memcpyHtoD(dAssign, assign.data(), num * 4ull);
      gpu.memcpyHtoD(dTable, table.data(), num * 4ull);
      // Locality descriptors (the thesis's Table 4 gives streamcluster NO_REUSE and
      // INTER_THREAD (NEARBY)):
      // - pgain, the coordinates (dims: num points by kDim, dimension-major): a warp's lanes read
      //   neighbouring words of each coordinate row, the CTAs next to each other neighbouring
      //   stretches, and the candidate's column is read by every CTA; the whole array is reread
      //   by every candidate's launch. INTER_THREAD (NEARBY): the D-Tile of a CTA its kThreads
      //   columns across all kDim rows, the C-Tile the CTA, each thread walking down its column
      //   (REGULAR, num elements between its reads).
      // - pgain, the work array (num by k + 1 rows) and the per-point cost, weight, facility and
      //   switch flag: written or read once, a thread its own column: NO_REUSE, the D-Tile of a
      //   CTA its kThreads columns, the C-Tile the CTA.
      // - pgain_sum, the work array: each CTA streams one row once: NO_REUSE, a row per CTA.
      // Not described: the facility table (a gather through each point's facility).
      const uint32_t blocks = ceilDiv(num, kThreads), n = static_cast<uint32_t>(num);
      const uint32_t tile = std::min<uint32_t>(kThreads, n);  // a CTA's points (all, when fewer)
      const Tiling strip{{tile, 1, 1}, {1, 1, 1}, {1, 0, 0}};
      setLocalityDescriptors(
          ctx_, "pgain",
          {interThread({dCoord, {n, kDim, 1}, 4}, {{tile, kDim, 1}, {1, 1, 1}, {1, 0, 0}},
                       WARPSIM_NEARBY, WARPSIM_REGULAR, n),
           noReuse({dWork, {n, uint32_t(k + 1), 1}, 4}, {{tile, uint32_t(k + 1), 1}, {1, 1, 1}, {1, 0, 0}}),
           noReuse({dCost, {n, 1, 1}, 4}, strip), noReuse({dWeight, {n, 1, 1}, 4}, strip),
           noReuse({dAssign, {n, 1, 1}, 4}, strip), noReuse({dSwitch, {n, 1, 1}, 4}, strip)});
      setLocalityDescriptors(ctx_, "pgain_sum",
                             {noReuse({dWork, {n, uint32_t(k + 1), 1}, 4}, {{n, 1, 1}, {1, 1, 1}, {1, 0, 0}})});
      launch(ctx_, pgain_, {blocks}, {kThreads}, 0, num, kDim, x, k, dCoord, dWeight, dCost, dAssign,
             dTable, dWork, dSwitch);
      launch(ctx_, sum_, {uint32_t(k + 1)}, {kThreads}, 0, num, dWork, dSums);
      const std::vector<int> switches = gpu.download<int>(dSwitch, num);
      const std::vector<float> sums = gpu.download<float>(dSums, k + 1);
      ++calls;
      bad = check(p, x, cost, assign, table, k, switches, sums);
      if (!bad.empty()) break;

      // The decision (as the local search makes it): closing facility c saves the facility cost
      // plus sums[c] (what its points would pay more at the candidate); opening the candidate
      // costs the facility cost plus sums[k] (the switching points' savings) less the savings of
      // the facilities worth closing.
      std::vector<char> close(k, 0);
      double change = z + static_cast<double>(sums[k]);
      for (int c = 0; c < k; ++c) {
        const double save = z + static_cast<double>(sums[c]);
        if (save > 0) {
          close[c] = 1;
          change -= save;
        }
      }
      if (change < 0) {
        ++opened;
        for (int i = 0; i < num; ++i) {
          if (switches[i] || close[table[assign[i]]]) {
            assign[i] = x;
            cost[i] = serveCost(p, i, x);
          }
        }
        for (int c = 0; c < k; ++c) {
          if (close[c]) isCenter[centers[c]] = 0;
        }
        isCenter[x] = 1;
      }
    }
    for (const DescribedStructure& s : described) forgetStructure(gpu, s);
    for (uint64_t a : {dCoord, dWeight, dCost, dAssign, dTable, dSwitch}) gpu.free(a);
    if (capacity != 0) {
      forgetStructure(gpu, workAtom);
      forgetStructure(gpu, sumsAtom);
      gpu.free(dWork);
      gpu.free(dSums);
    }
    return bad;
  }

 private:
  // Tolerance (u = 2^-24), first order. x_cost: each difference rounds once (2 u in its
  // square), the kDim squares are summed by FMAs (a rounding of the partial sum each) and the
  // product by the weight rounds once: within (kDim + 3) u of the exact value. A point must
  // switch exactly when the exact x_cost is below its cost, unless the two are within twice
  // that bound (then either is accepted). A row sum's terms are each within that bound plus the
  // subtraction's rounding (u of the term); the sum adds a strided loop of ceil(num / 256)
  // terms and a tree of 8 levels: (ceil(num / 256) + 8) u of the sum of |term|. Doubled.
  std::string check(const Points& p, int x, const std::vector<float>& cost,
                    const std::vector<int>& assign, const std::vector<int>& table, int k,
                    const std::vector<int>& switches, const std::vector<float>& sums) {
    std::vector<double> expect(k + 1, 0.0), mag(k + 1, 0.0), err(k + 1, 0.0);
    for (int i = 0; i < p.num; ++i) {
      double dist = 0;
      for (int d = 0; d < kDim; ++d) {
        const double diff = static_cast<double>(p.at(i, d)) - p.at(x, d);
        dist += diff * diff;
      }
      const double xCost = dist * p.weight[i], bound = (kDim + 3) * kFloatUnit * xCost;
      const double current = cost[i];
      if (std::fabs(xCost - current) <= 2 * bound) {
        ++ambiguous;
      } else if ((switches[i] != 0) != (xCost < current)) {
        return fmt::format("candidate {}: point {} switch = {}, expected {} (x_cost {}, cost {})", x, i,
                           switches[i], xCost < current ? 1 : 0, xCost, current);
      }
      const int row = switches[i] ? k : table[assign[i]];
      const double value = switches[i] ? xCost - current : current - xCost;
      expect[row] += value;
      mag[row] += std::fabs(value);
      err[row] += bound + kFloatUnit * std::fabs(value);
    }
    const double levels = std::ceil(p.num / double(kThreads)) + 8;
    std::vector<double> bound(k + 1);
    for (int c = 0; c <= k; ++c) bound[c] = 2 * (err[c] + levels * kFloatUnit * mag[c]) + 1e-30;
    double w = 0;
    std::string bad = boundedMismatch(fmt::format("candidate {}: work row sums", x), sums, expect, bound, &w);
    worst = std::max(worst, w);
    return bad;
  }

  WorkloadContext& ctx_;
  InputGenerator& gen_;
  runtime::Module mod_;
  runtime::Kernel pgain_, sum_;
};

Outcome run(WorkloadContext& ctx) {
  const int total = static_cast<int>(ctx.size);
  if (total < 2) return fail("points: at least 2");
  InputGenerator gen(ctx.seed);
  // The stream: points drawn from kClusters Gaussian clusters whose centres are uniform in the
  // unit cube, cluster c chosen with probability proportional to 1 / (c + 1) (clusters of
  // unequal sizes), each point of weight 1, in arrival order.
  std::vector<double> centres(static_cast<size_t>(kClusters) * kDim);
  for (double& c : centres) c = uniformReal(gen, 0, 1);
  double harmonic = 0;
  for (int c = 0; c < kClusters; ++c) harmonic += 1.0 / (c + 1);
  auto gaussian = [&gen]() {
    const double u1 = uniformReal(gen, 0, 1), u2 = uniformReal(gen, 0, 1);
    return std::sqrt(-2 * std::log(1 - u1)) * std::cos(2 * M_PI * u2);
  };

  Search search(ctx, gen);
  Points collected;  // the chunks' facilities, weighted by the points they serve
  std::vector<std::vector<float>> facilityCoords;
  std::vector<float> facilityWeights;
  for (int first = 0; first < total; first += kChunk) {
    Points chunk;
    chunk.num = std::min(kChunk, total - first);
    chunk.coord.resize(static_cast<size_t>(chunk.num) * kDim);
    chunk.weight.assign(chunk.num, 1.0f);
    for (int i = 0; i < chunk.num; ++i) {
      double pick = uniformReal(gen, 0, harmonic);
      int c = 0;
      while (c + 1 < kClusters && pick >= 1.0 / (c + 1)) pick -= 1.0 / (c++ + 1);
      for (int d = 0; d < kDim; ++d) {
        chunk.coord[static_cast<size_t>(d) * chunk.num + i] =
            static_cast<float>(centres[static_cast<size_t>(c) * kDim + d] + kSpread * gaussian());
      }
    }
    std::vector<int> assign;
    std::vector<char> isCenter;
    std::string bad = search.cluster(chunk, kFacilityCost, kTries, assign, isCenter);
    if (!bad.empty()) return fail(bad);
    std::vector<float> served(chunk.num, 0.0f);
    for (int i = 0; i < chunk.num; ++i) served[assign[i]] += chunk.weight[i];
    for (int i = 0; i < chunk.num; ++i) {
      if (!isCenter[i]) continue;
      std::vector<float> coords(kDim);
      for (int d = 0; d < kDim; ++d) coords[d] = chunk.at(i, d);
      facilityCoords.push_back(coords);
      facilityWeights.push_back(served[i]);
    }
  }
  collected.num = static_cast<int>(facilityCoords.size());
  collected.weight = facilityWeights;
  collected.coord.resize(static_cast<size_t>(collected.num) * kDim);
  for (int i = 0; i < collected.num; ++i) {
    for (int d = 0; d < kDim; ++d) collected.coord[static_cast<size_t>(d) * collected.num + i] = facilityCoords[i][d];
  }
  int finalCentres = collected.num;
  if (collected.num >= 2) {
    std::vector<int> assign;
    std::vector<char> isCenter;
    // The weighted facilities are few: every one of them may be tried, twice over on average.
    std::string bad = search.cluster(collected, kFinalFacilityCost, std::min(2 * collected.num, 512), assign, isCenter);
    if (!bad.empty()) return fail(bad);
    finalCentres = static_cast<int>(std::count(isCenter.begin(), isCenter.end(), 1));
  }
  return {true, fmt::format("{} points in {} chunks: {} gain evaluations ({} opened a facility), "
                            "{} switch decisions within the tolerance, row sums within {:.2g} of "
                            "the bound; {} chunk facilities clustered into {} ({} true clusters)",
                            total, (total + kChunk - 1) / kChunk, search.calls, search.opened,
                            search.ambiguous, search.worst, collected.num, finalCentres, kClusters)};
}

}  // namespace streamcluster

// Rodinia's run streams 65536 points in one chunk (of 256 coordinates); here chunks of 2048 of
// 32 coordinates, the large size 128 of them.
Workload streamclusterWorkload() {
  return {"streamcluster",
          "irregular",
          "online k-median clustering of a stream of 32-D points: per chunk, a local search whose "
          "gain (pgain) the GPU computes per point, then a row-sum reduction",
          "points (chunks of 2048, 32 coordinates)",
          4096,
          16384,
          262144,
          1 << 22,
          streamcluster::run};
}

}  // namespace warpsim::workloads
