// kmeans: Lloyd iterations (assign, accumulate, centroid kernels), every kernel checked on the
// inputs the GPU gave it.
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace kmeans {

constexpr int kDims = 8, kClusters = 8, kIterations = 5;
constexpr uint32_t kThreads = 256;

// Squared distances in double from float data; the float distance is 8 squared differences
// summed, each difference and product rounded: within (dims + 2) u dist of this (u = 2^-24).
double distance2(const float* x, const float* c) {
  double d2 = 0;
  for (int d = 0; d < kDims; ++d) {
    double diff = static_cast<double>(x[d]) - c[d];
    d2 += diff * diff;
  }
  return d2;
}

// The assignment must pick a centroid whose distance is the smallest within the rounding of
// the two compared float distances (2 (dims + 2) u (d_picked + d_min), doubled for slack).
std::string checkAssign(const std::vector<float>& points, const std::vector<float>& centroids,
                        const std::vector<int>& membership) {
  const size_t n = membership.size();
  for (size_t p = 0; p < n; ++p) {
    int m = membership[p];
    if (m < 0 || m >= kClusters) return fmt::format("membership[{}] = {} out of range", p, m);
    double best = distance2(&points[p * kDims], &centroids[0]);
    for (int k = 1; k < kClusters; ++k)
      best = std::min(best, distance2(&points[p * kDims], &centroids[k * kDims]));
    double picked = distance2(&points[p * kDims], &centroids[m * kDims]);
    double tolerance = 4.0 * (kDims + 2) * kFloatUnit * (picked + best);
    if (picked > best + tolerance) {
      return fmt::format("membership[{}] = {}: distance {} but the nearest centroid is at {}", p, m,
                         picked, best);
    }
  }
  return {};
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < kClusters) {
    throw runtime::Error(fmt::format("kmeans: needs at least {} points, not {}", kClusters, n));
  }
  InputGenerator gen(ctx.seed);
  // Points around kClusters random centres.
  std::vector<float> centres(kClusters * kDims), points(static_cast<size_t>(n) * kDims);
  for (float& c : centres) c = static_cast<float>(uniformReal(gen, 0.0, 10.0));
  for (int p = 0; p < n; ++p) {
    int k = static_cast<int>(gen.uniform(0, kClusters - 1));
    for (int d = 0; d < kDims; ++d) {
      points[static_cast<size_t>(p) * kDims + d] =
          static_cast<float>(centres[k * kDims + d] + uniformReal(gen, -1.5, 1.5));
    }
  }
  // Initial centroids: the first kClusters points.
  std::vector<float> centroids(points.begin(), points.begin() + kClusters * kDims);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("kmeans"), "kmeans.ptx");
  runtime::Kernel assign = mod.kernel("kmeans_assign");
  runtime::Kernel accumulate = mod.kernel("kmeans_accumulate");
  runtime::Kernel update = mod.kernel("kmeans_centroids");
  uint64_t dPoints = gpu.upload(points), dMembership = gpu.malloc(n * sizeof(int));
  uint64_t dCurrent = gpu.upload(centroids), dNext = gpu.malloc(centroids.size() * sizeof(float));
  uint64_t dSums = gpu.malloc(kClusters * kDims * sizeof(float));
  uint64_t dCounts = gpu.malloc(kClusters * sizeof(int));
  const uint32_t blocks = ceilDiv(n, kThreads);
  double worstSum = 0;
  for (int it = 0; it < kIterations; ++it) {
    gpu.memset(dSums, 0, kClusters * kDims * sizeof(float));
    gpu.memset(dCounts, 0, kClusters * sizeof(int));
    launch(ctx, assign, {blocks}, {kThreads}, 0, dPoints, n, dCurrent, kClusters, dMembership);
    launch(ctx, accumulate, {blocks}, {kThreads}, 0, dPoints, n, dMembership, kClusters, dSums,
           dCounts);
    launch(ctx, update, {1}, {kClusters * kDims}, 0, dSums, dCounts, kClusters, dCurrent, dNext);
    std::vector<int> membership = gpu.download<int>(dMembership, n);
    std::vector<float> sums = gpu.download<float>(dSums, kClusters * kDims);
    std::vector<int> counts = gpu.download<int>(dCounts, kClusters);
    std::vector<float> next = gpu.download<float>(dNext, centroids.size());

    std::string bad = checkAssign(points, centroids, membership);
    // Counts are exact. A cluster's feature sum is a chain of float atomic additions of at
    // most 256 points in a block's shared copy and then one term per block in the global
    // total: within 2 (256 + blocks + 2) u sum|x| whatever the order.
    std::vector<int> countRef(kClusters, 0);
    std::vector<double> sumRef(kClusters * kDims, 0), sumBound(kClusters * kDims, 0);
    for (int p = 0; p < n; ++p) {
      int m = membership[p];
      if (m < 0 || m >= kClusters) continue;  // reported by checkAssign
      ++countRef[m];
      for (int d = 0; d < kDims; ++d) {
        float x = points[static_cast<size_t>(p) * kDims + d];
        sumRef[m * kDims + d] += x;
        sumBound[m * kDims + d] += std::fabs(x);
      }
    }
    for (double& b : sumBound) b *= 2.0 * (kThreads + blocks + 2) * kFloatUnit;
    double w = 0;
    if (bad.empty()) bad = exactMismatch("count", counts, countRef);
    if (bad.empty()) bad = boundedMismatch("sum", sums, sumRef, sumBound, &w);
    worstSum = std::max(worstSum, w);
    // A centroid is one correctly rounded division of the GPU's sum (or unchanged when its
    // cluster is empty): exact.
    std::vector<float> nextRef(centroids.size());
    for (int i = 0; i < kClusters * kDims; ++i) {
      int count = counts[i / kDims];
      nextRef[i] = count > 0 ? sums[i] / static_cast<float>(count) : centroids[i];
    }
    if (bad.empty()) bad = exactMismatch("centroid", next, nextRef);
    if (!bad.empty()) return fail(fmt::format("iteration {}: {}", it, bad));
    centroids.swap(next);
    std::swap(dCurrent, dNext);
  }
  return {true, fmt::format("{} points, {} features, {} clusters, {} iterations: assignments "
                            "nearest, sums within {:.2g} of the bound, centroids exact",
                            n, kDims, kClusters, kIterations, worstSum)};
}

}  // namespace kmeans

Workload kmeansWorkload() {
  return {"kmeans",
          "irregular",
          "k-means: assign (centroids in shared), accumulate (shared+global atomics), update",
          "points",
          1u << 12,
          1u << 16,
          1u << 18,
          1u << 24,
          kmeans::run};
}

}  // namespace warpsim::workloads
