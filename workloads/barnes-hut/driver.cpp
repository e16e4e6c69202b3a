// barnes-hut: Barnes-Hut gravity on a Plummer star cluster (see barnes-hut.cu): bounding box,
// level-synchronous octree build with atomicCAS claims, summarisation, tree-order sort, warp
// traversals with shared-memory stacks, leapfrog. Every step is checked kernel by kernel on the
// state the GPU started it from: the tree and the sorted order exactly against a CPU build by
// the same rounds, the summaries and the integration within derived float bounds, the
// accelerations against a replay of the warps' walks within float rounding and against direct
// summation within the error of the Barnes-Hut approximation.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include <fmt/ranges.h>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace barnes_hut {

constexpr int kSteps = 3;
constexpr float kInvTheta2 = 4.0f;      // opening angle theta = 0.5
constexpr float kSoftening2 = 0.0025f;  // softening length 0.05 (N-body units)
constexpr float kDt = 1.0f / 128;       // about 1/360 of the cluster's crossing time
constexpr uint32_t kThreads = 256;      // unless a resource specification asks for another count
constexpr uint32_t kBoxBlocks = 64;     // at most, of bh_bbox
// Cell levels below the root the build may create, and so the stack entries a warp needs. The
// closest pair of bodies decides the depth: the Plummer trees have 7 levels at 128 bodies, 10 at
// 1024, 12 at 4096 and 16384, so deeper trees come only from (nearly) coincident bodies.
constexpr int kMaxDepth = 32;

// The resource specifications: the threads per CTA of every kernel; the shared memory per CTA of
// bh_forces, which its warps split evenly into their stacks (at least kMaxDepth entries of 4
// bytes each, so every pair of the two lists runs).
const std::vector<uint32_t> kSpecThreads = {64, 96, 128, 192, 256, 384, 512};
const std::vector<uint32_t> kSpecShared = {2048, 4096, 8192, 16384, 32768};

// The accelerations are checked twice (see checkForces and accelerationErrors): against a replay
// of bh_forces's walks within float rounding, and, as an approximation, against direct
// summation. The limits of the second, on the relative errors |a - a_direct| / |a_direct| over
// the bodies (median, 99th percentile) and on the largest error scaled by the sum of the pulls'
// magnitudes, are four to eight times the worst seen at theta 0.5 and twice it for the 99th
// percentile of 128 bodies (its second-worst body): over seeds 1 to 1000 at 128 bodies, 200 at
// 256, 20 at 1024 and 3 at 4096, medians up to 0.0013, 99th percentiles up to 0.050 (128
// bodies) and 0.021 (256 and more), scaled errors up to 0.025. (A warp opens a cell when any of
// its bodies needs it, so most bodies are more accurate than their own opening test makes them.)
constexpr double kMedianLimit = 0.01, kP99Limit = 0.1, kScaledLimit = 0.1;

struct Float4 {
  float x, y, z, w;
  bool operator==(const Float4&) const = default;
};

// ---------------------------------------------------------------------------------------------
// Input: a Plummer sphere in N-body units (G = M = 1, E = -1/4) by the method of Aarseth, Henon
// and Wielen (1974): the radius from the cumulative mass fraction X, r = (X^(-2/3) - 1)^(-1/2),
// radii above 10 length scales rejected; the speed as a fraction q of the local escape speed
// sqrt(2) (1 + r^2)^(-1/4), q drawn with density q^2 (1 - q^2)^(7/2) by rejection; isotropic
// directions. Only +, *, / and sqrt (correctly rounded everywhere) touch the random numbers:
// X^(1/3) is drawn as the largest of three uniforms, directions by rejection from the cube.
// The centre of mass and its velocity are moved to the origin.

struct Cluster {
  std::vector<Float4> bodies;  // x, y, z, mass
  std::vector<Float4> velocities;
};

void isotropic(InputGenerator& gen, double length, double out[3]) {
  for (;;) {
    double v[3], r2 = 0;
    for (double& c : v) {
      c = uniformReal(gen, -1.0, 1.0);
      r2 += c * c;
    }
    if (r2 > 1e-6 && r2 <= 1.0) {
      const double s = length / std::sqrt(r2);
      for (int k = 0; k < 3; ++k) out[k] = v[k] * s;
      return;
    }
  }
}

Cluster plummer(InputGenerator& gen, int n) {
  constexpr double kPi = 3.14159265358979323846;
  const double lengthUnit = 3 * kPi / 16, speedUnit = 1 / std::sqrt(lengthUnit);
  std::vector<double> pos(3 * n), vel(3 * n);
  for (int i = 0; i < n; ++i) {
    double r;
    do {
      const double u = std::max({uniformReal(gen, 0, 1), uniformReal(gen, 0, 1),
                                 uniformReal(gen, 0, 1)});  // X^(1/3)
      r = u / std::sqrt(1 - u * u);
    } while (r > 10.0);
    double q;
    for (;;) {
      q = uniformReal(gen, 0, 1);
      const double g = uniformReal(gen, 0, 0.1), s = 1 - q * q;
      if (g <= q * q * s * s * s * std::sqrt(s)) break;  // q^2 (1 - q^2)^(7/2) < 0.1
    }
    const double escape = std::sqrt(2.0) / std::sqrt(std::sqrt(1 + r * r));
    isotropic(gen, r * lengthUnit, &pos[3 * i]);
    isotropic(gen, q * escape * speedUnit, &vel[3 * i]);
  }
  for (std::vector<double>* a : {&pos, &vel}) {
    double mean[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k) mean[k] += (*a)[3 * i + k] / n;
    }
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k) (*a)[3 * i + k] -= mean[k];
    }
  }
  Cluster c{std::vector<Float4>(n), std::vector<Float4>(n)};
  const float mass = 1.0f / static_cast<float>(n);
  for (int i = 0; i < n; ++i) {
    c.bodies[i] = {static_cast<float>(pos[3 * i]), static_cast<float>(pos[3 * i + 1]),
                   static_cast<float>(pos[3 * i + 2]), mass};
    c.velocities[i] = {static_cast<float>(vel[3 * i]), static_cast<float>(vel[3 * i + 1]),
                       static_cast<float>(vel[3 * i + 2]), 0.0f};
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// The tree, as the GPU leaves it (node k < n: body k, n + c: cell c).

struct Tree {
  std::vector<int> child;    // 8 per cell
  std::vector<Float4> geom;  // centre, edge
  std::vector<int> levels;   // levels[l] .. levels[l+1]-1: the cells of level l; last two equal
  int cells() const { return levels.back(); }
  int depth() const { return static_cast<int>(levels.size()) - 2; }  // cell levels
};

// The root of bh_root, by the same float operations.
Float4 rootCell(const std::vector<Float4>& bodies) {
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (const Float4& b : bodies) {
    const float p[3] = {b.x, b.y, b.z};
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[k]);
      hi[k] = std::max(hi[k], p[k]);
    }
  }
  const float edge = std::max(std::max(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
  return {0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]), 0.5f * (lo[2] + hi[2]), edge};
}

int octantOf(const Float4& p, const Float4& cell) {
  return (p.x > cell.x ? 1 : 0) | (p.y > cell.y ? 2 : 0) | (p.z > cell.z ? 4 : 0);
}

// The child cell of bh_allocate, by the same float operations (0.25 and 0.5 times a float are
// exact, so a fused multiply-add gives the same result).
Float4 childCell(const Float4& g, int octant) {
  const float q = 0.25f * g.w;
  return {g.x + ((octant & 1) ? q : -q), g.y + ((octant & 2) ? q : -q),
          g.z + ((octant & 4) ? q : -q), 0.5f * g.w};
}

// The tree bh_insert and bh_allocate build, by the same rounds: the same cells, numbered the same
// way, with the same geometry. nullopt when deeper than kMaxDepth levels.
std::optional<Tree> referenceTree(const std::vector<Float4>& bodies) {
  const int n = static_cast<int>(bodies.size());
  Tree t{std::vector<int>(8, -1), {rootCell(bodies)}, {0, 1}};
  std::vector<int> moving(n), cellOf(n, 0), slotOf(n);
  std::iota(moving.begin(), moving.end(), 0);
  while (!moving.empty()) {
    const int first = t.levels[t.levels.size() - 2], last = t.levels.back();
    std::vector<int> claims(8 * (last - first), 0), claimant(8 * (last - first), -1);
    for (int b : moving) {
      slotOf[b] = 8 * cellOf[b] + octantOf(bodies[b], t.geom[cellOf[b]]);
      ++claims[slotOf[b] - 8 * first];
      claimant[slotOf[b] - 8 * first] = b;
    }
    for (int s = 8 * first; s < 8 * last; ++s) {
      if (claims[s - 8 * first] == 1) {
        t.child[s] = claimant[s - 8 * first];
      } else if (claims[s - 8 * first] > 1) {
        t.child[s] = n + static_cast<int>(t.geom.size());
        t.geom.push_back(childCell(t.geom[s / 8], s % 8));
        t.child.resize(t.child.size() + 8, -1);
      }
    }
    t.levels.push_back(static_cast<int>(t.geom.size()));
    const bool newCells = t.levels.back() > t.levels[t.levels.size() - 2];
    if (newCells && t.depth() > kMaxDepth) return std::nullopt;  // cells of level depth()
    std::vector<int> still;
    for (int b : moving) {
      if (t.child[slotOf[b]] != b) {
        cellOf[b] = t.child[slotOf[b]] - n;
        still.push_back(b);
      }
    }
    moving.swap(still);
  }
  return t;
}

std::string describe(const Float4& v) {
  return fmt::format("({}, {}, {}, {})", v.x, v.y, v.z, v.w);
}

// The GPU's tree against the reference, exactly; then the invariants on the GPU's own arrays:
// every body in exactly one slot, every cell but the root in exactly one slot of the level above.
std::string checkTree(const Tree& got, const Tree& expect, int n) {
  if (got.levels != expect.levels) {
    return fmt::format("tree levels (cell numbers where each starts) {} expected {}",
                       fmt::join(got.levels, " "), fmt::join(expect.levels, " "));
  }
  for (int c = 0; c < expect.cells(); ++c) {
    if (!(got.geom[c] == expect.geom[c])) {
      return fmt::format("cell {}: centre and edge {} expected {}", c, describe(got.geom[c]),
                         describe(expect.geom[c]));
    }
    for (int k = 0; k < 8; ++k) {
      if (got.child[8 * c + k] != expect.child[8 * c + k]) {
        return fmt::format("cell {} child {} = {} expected {}", c, k, got.child[8 * c + k],
                           expect.child[8 * c + k]);
      }
    }
  }
  std::vector<int> bodySeen(n, 0), cellSeen(got.cells(), 0);
  for (int l = 0; l + 1 < static_cast<int>(got.levels.size()) - 1; ++l) {
    for (int c = got.levels[l]; c < got.levels[l + 1]; ++c) {
      for (int k = 0; k < 8; ++k) {
        const int node = got.child[8 * c + k];
        if (node < 0) continue;
        if (node < n) {
          ++bodySeen[node];
        } else if (node - n < got.levels[l + 1] || node - n >= got.levels[l + 2]) {
          return fmt::format("cell {} (level {}) has child cell {} outside level {}", c, l,
                             node - n, l + 1);
        } else {
          ++cellSeen[node - n];
        }
      }
    }
  }
  for (int b = 0; b < n; ++b) {
    if (bodySeen[b] != 1) return fmt::format("body {} is in the tree {} times", b, bodySeen[b]);
  }
  for (int c = 1; c < got.cells(); ++c) {
    if (cellSeen[c] != 1) return fmt::format("cell {} is in the tree {} times", c, cellSeen[c]);
  }
  return {};
}

// Masses and centres of mass of bh_summarize against double sums over the bodies below each
// cell, and the body counts exactly. Bound: a cell h levels above its deepest body sums its mass
// in h stages of at most 8 positive float terms, so its relative error is below 8 h u; a
// coordinate of the centre of mass adds a product and a division per stage and carries its
// children's errors, within 32 h u (sum m |x| / M + |x_com|) (twice what the stages give).
// *worst: the largest error as a fraction of its bound; *rootMassError: the root mass's.
std::string checkSummaries(const Tree& t, const std::vector<Float4>& bodies,
                           const std::vector<Float4>& com, const std::vector<int>& count,
                           double* worst, double* rootMassError) {
  const int n = static_cast<int>(bodies.size());
  const int cells = t.cells();
  std::vector<double> mass(cells), moment(3 * cells), absMoment(3 * cells);
  std::vector<int> height(cells), bodiesBelow(cells);
  *worst = 0;
  for (int l = t.depth() - 1; l >= 0; --l) {
    for (int c = t.levels[l]; c < t.levels[l + 1]; ++c) {
      mass[c] = 0, height[c] = 1, bodiesBelow[c] = 0;
      for (int k = 0; k < 3; ++k) moment[3 * c + k] = absMoment[3 * c + k] = 0;
      for (int s = 0; s < 8; ++s) {
        const int node = t.child[8 * c + s];
        if (node < 0) continue;
        if (node < n) {
          const Float4& b = bodies[node];
          const double p[3] = {b.x, b.y, b.z};
          mass[c] += b.w;
          for (int k = 0; k < 3; ++k) {
            moment[3 * c + k] += b.w * p[k];
            absMoment[3 * c + k] += b.w * std::fabs(p[k]);
          }
          bodiesBelow[c] += 1;
        } else {
          const int d = node - n;
          mass[c] += mass[d];
          for (int k = 0; k < 3; ++k) {
            moment[3 * c + k] += moment[3 * d + k];
            absMoment[3 * c + k] += absMoment[3 * d + k];
          }
          height[c] = std::max(height[c], height[d] + 1);
          bodiesBelow[c] += bodiesBelow[d];
        }
      }
      if (count[c] != bodiesBelow[c]) {
        return fmt::format("cell {}: {} bodies below, expected {}", c, count[c], bodiesBelow[c]);
      }
      const double massBound = 8 * height[c] * kFloatUnit * mass[c];
      const double massError = std::fabs(com[c].w - mass[c]);
      if (!(massError <= massBound)) {
        return fmt::format("cell {}: mass {} expected {} (error {:.3g} > {:.3g})", c, com[c].w,
                           mass[c], massError, massBound);
      }
      *worst = std::max(*worst, massError / massBound);
      if (c == 0) *rootMassError = massError / massBound;
      const double got[3] = {com[c].x, com[c].y, com[c].z};
      for (int k = 0; k < 3; ++k) {
        const double expect = moment[3 * c + k] / mass[c];
        const double bound =
            32 * height[c] * kFloatUnit * (absMoment[3 * c + k] / mass[c] + std::fabs(expect));
        const double error = std::fabs(got[k] - expect);
        if (!(error <= bound)) {
          return fmt::format("cell {}: centre of mass {} expected ({}, {}, {}) (error {:.3g} > "
                             "{:.3g})",
                             c, describe(com[c]), moment[3 * c] / mass[c],
                             moment[3 * c + 1] / mass[c], moment[3 * c + 2] / mass[c], error,
                             bound);
        }
        *worst = std::max(*worst, error / bound);
      }
    }
  }
  return {};
}

// bh_sort's order: the bodies in a depth-first walk of the tree, children in octant order.
std::vector<int> treeOrder(const Tree& t, int n) {
  std::vector<int> order;
  std::vector<std::pair<int, int>> stack = {{0, 0}};  // cell, next child
  while (!stack.empty()) {
    auto& [c, k] = stack.back();
    if (k == 8) {
      stack.pop_back();
      continue;
    }
    const int node = t.child[8 * c + k++];
    if (node < 0) continue;
    if (node < n) {
      order.push_back(node);
    } else {
      stack.push_back({node - n, 0});
    }
  }
  return order;
}

// The GPU's accelerations against direct summation in double (the same softened law), for every
// body, or for an evenly spaced sample of 4096 to 8191 of them when there are more than 8192 (the
// reference costs n per body). Two errors per body: relative, |a - a_ref| / |a_ref|, and scaled,
// |a - a_ref| / sum_j |a_ij| (the magnitudes of the pull of each other body, which do not cancel
// near the centre of the cluster, where |a_ref| goes to zero).
struct AccelerationErrors {
  std::vector<double> relative, scaled;
};

AccelerationErrors accelerationErrors(const std::vector<Float4>& bodies,
                                      const std::vector<Float4>& accel) {
  const size_t n = bodies.size();
  const size_t stride = n <= 8192 ? 1 : n / 4096;
  AccelerationErrors out;
  for (size_t i = 0; i < n; i += stride) {
    double a[3] = {0, 0, 0}, magnitudes = 0;
    for (size_t j = 0; j < n; ++j) {
      const double d[3] = {static_cast<double>(bodies[j].x) - bodies[i].x,
                           static_cast<double>(bodies[j].y) - bodies[i].y,
                           static_cast<double>(bodies[j].z) - bodies[i].z};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const double s = bodies[j].w / ((r2 + kSoftening2) * std::sqrt(r2 + kSoftening2));
      for (int k = 0; k < 3; ++k) a[k] += d[k] * s;
      magnitudes += std::sqrt(r2) * s;
    }
    const double e[3] = {accel[i].x - a[0], accel[i].y - a[1], accel[i].z - a[2]};
    const double error = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    out.relative.push_back(error / std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]));
    out.scaled.push_back(error / magnitudes);
  }
  return out;
}

// bh_integrate on the GPU's own accelerations: v + a kick and p + v dt are two roundings each
// (one with a fused multiply-add); 4 u of the terms' magnitudes bounds both.
std::string checkIntegration(const std::vector<Float4>& bodies, const std::vector<Float4>& vel,
                             const std::vector<Float4>& accel, const std::vector<Float4>& after,
                             const std::vector<Float4>& velAfter, float kick) {
  std::vector<float> gotV, gotP;
  std::vector<double> refV, boundV, refP, boundP;
  for (size_t i = 0; i < bodies.size(); ++i) {
    const float a[3] = {accel[i].x, accel[i].y, accel[i].z};
    const float v0[3] = {vel[i].x, vel[i].y, vel[i].z};
    const float p0[3] = {bodies[i].x, bodies[i].y, bodies[i].z};
    const float v1[3] = {velAfter[i].x, velAfter[i].y, velAfter[i].z};
    const float p1[3] = {after[i].x, after[i].y, after[i].z};
    for (int k = 0; k < 3; ++k) {
      gotV.push_back(v1[k]);
      refV.push_back(static_cast<double>(v0[k]) + static_cast<double>(a[k]) * kick);
      boundV.push_back(4 * kFloatUnit * (std::fabs(v0[k]) + std::fabs(a[k] * kick)));
      gotP.push_back(p1[k]);
      refP.push_back(static_cast<double>(p0[k]) + static_cast<double>(v1[k]) * kDt);
      boundP.push_back(4 * kFloatUnit * (std::fabs(p0[k]) + std::fabs(v1[k] * kDt)));
    }
  }
  std::string bad = boundedMismatch("velocity", gotV, refV, boundV);
  if (bad.empty()) bad = boundedMismatch("position", gotP, refP, boundP);
  if (bad.empty()) {
    for (size_t i = 0; i < bodies.size(); ++i) {
      if (after[i].w != bodies[i].w) return fmt::format("body {}: mass changed", i);
    }
  }
  return bad;
}

// bh_forces replayed: for each warp (32 consecutive bodies of the sorted order; the last warp's
// missing lanes repeat the last body) the same depth-first walk over the GPU's tree and centres
// of mass, with every opening vote evaluated in float by the kernel's own operations (dx^2, then
// two fused multiply-adds, as the PTX has them; the thresholds are scaled by 4 and 1/4, exactly),
// so that the walk visits the same nodes. The accelerations are summed in double; the GPU's must
// be within its float rounding: a term is within about 24 u of its exact value (rsqrt.approx is
// within 2^-22.9, the cube, the distance and the products add a rounding each) and a float sum
// of k terms adds at most k u sum |term|, so 2 (k + 24) u sum |term| per component (2 for
// slack). *worst: the largest error as a fraction of its bound; *visits: nodes visited per warp.
std::string checkForces(const Tree& t, const std::vector<Float4>& bodies,
                        const std::vector<Float4>& com, const std::vector<int>& sorted,
                        const std::vector<Float4>& accel, double* worst, double* visits) {
  const int n = static_cast<int>(bodies.size());
  const int warps = (n + 31) / 32;
  const float half = 0.5f * t.geom[0].w;
  const float rootThreshold = half * half * kInvTheta2;
  std::vector<float> gotA;
  std::vector<double> refA, boundA;
  uint64_t visited = 0;
  for (int w = 0; w < warps; ++w) {
    Float4 me[32];
    double acc[32][3] = {}, mag[32][3] = {};
    for (int l = 0; l < 32; ++l) me[l] = bodies[sorted[std::min(32 * w + l, n - 1)]];
    int terms = 0;
    float threshold = rootThreshold;
    std::vector<std::pair<int, int>> stack = {{0, 0}};  // cell, next child
    while (!stack.empty()) {
      auto& [cell, next] = stack.back();
      if (next == 8) {
        stack.pop_back();
        threshold *= 4.0f;
        continue;
      }
      const int node = t.child[8 * cell + next++];
      if (node < 0) continue;
      ++visited;
      const Float4& q = node < n ? bodies[node] : com[node - n];
      if (node >= n) {
        bool far = true;
        for (const Float4& m : me) {
          const float dx = q.x - m.x, dy = q.y - m.y, dz = q.z - m.z;
          far = far && std::fma(dz, dz, std::fma(dy, dy, dx * dx)) >= threshold;
        }
        if (!far) {
          stack.push_back({node - n, 0});
          threshold *= 0.25f;
          continue;
        }
      }
      ++terms;
      for (int l = 0; l < 32; ++l) {
        const double d[3] = {static_cast<double>(q.x) - me[l].x,
                             static_cast<double>(q.y) - me[l].y,
                             static_cast<double>(q.z) - me[l].z};
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + kSoftening2;
        const double s = q.w / (r2 * std::sqrt(r2));
        for (int k = 0; k < 3; ++k) {
          acc[l][k] += d[k] * s;
          mag[l][k] += std::fabs(d[k] * s);
        }
      }
    }
    for (int l = 0; l < 32 && 32 * w + l < n; ++l) {
      const Float4& a = accel[sorted[32 * w + l]];
      const float got[3] = {a.x, a.y, a.z};
      for (int k = 0; k < 3; ++k) {
        gotA.push_back(got[k]);
        refA.push_back(acc[l][k]);
        boundA.push_back(2.0 * (terms + 24) * kFloatUnit * mag[l][k]);
      }
    }
  }
  *visits = static_cast<double>(visited) / warps;
  // In sorted order: component 3 i + k is body sorted[i]'s.
  return boundedMismatch("acceleration (in tree order)", gotA, refA, boundA, worst);
}

double quantile(std::vector<double> v, double q) {
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  if (n < 2) throw runtime::Error(fmt::format("barnes-hut: needs at least 2 bodies, not {}", n));
  const uint32_t threads = ctx.threadsPerBlock == 0 ? kThreads : ctx.threadsPerBlock;
  if (threads % 32 != 0 || threads > 1024) {
    throw runtime::Error(fmt::format(
        "barnes-hut: {} threads per block is not a multiple of 32 up to 1024", threads));
  }
  const uint32_t warps = threads / 32;
  const uint32_t sharedBytes =
      ctx.sharedBytesPerBlock == 0 ? warps * kMaxDepth * 4 : ctx.sharedBytesPerBlock;
  const uint32_t stackDepth = sharedBytes / (4 * warps);
  if (stackDepth < kMaxDepth) {
    throw runtime::Error(fmt::format(
        "barnes-hut: {} bytes of shared memory per block give the {} warps of a {}-thread block "
        "stacks of {} entries, fewer than the {} the tree may need ({} bytes at least)",
        sharedBytes, warps, threads, stackDepth, kMaxDepth, warps * kMaxDepth * 4));
  }

  InputGenerator gen(ctx.seed);
  Cluster cluster = plummer(gen, n);
  std::vector<Float4>& bodies = cluster.bodies;
  std::vector<Float4>& vel = cluster.velocities;

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("barnes-hut"), "barnes-hut.ptx");
  runtime::Kernel bbox = mod.kernel("bh_bbox"), root = mod.kernel("bh_root");
  runtime::Kernel insert = mod.kernel("bh_insert"), allocate = mod.kernel("bh_allocate");
  runtime::Kernel summarize = mod.kernel("bh_summarize"), sort = mod.kernel("bh_sort");
  runtime::Kernel forces = mod.kernel("bh_forces"), integrate = mod.kernel("bh_integrate");

  // Cells with two or more children are fewer than the bodies; cells with one child (chains
  // above close pairs) come on top. A Plummer cluster needs about n / 2 cells in all; 2 n + 64
  // leave room for any input but coincident bodies (bh_allocate reports running out).
  const int capacity = 2 * n + 64;
  const uint32_t blocks = ceilDiv(n, threads);
  const uint32_t boxBlocks = std::min(blocks, kBoxBlocks);
  uint64_t dBodies = gpu.upload(bodies), dVel = gpu.upload(vel);
  uint64_t dAccel = gpu.malloc(n * sizeof(Float4));
  uint64_t dPartial = gpu.malloc(6 * boxBlocks * sizeof(float));
  uint64_t dChild = gpu.malloc(8ull * capacity * sizeof(int));
  uint64_t dClaims = gpu.malloc(8ull * capacity * sizeof(int));
  uint64_t dGeom = gpu.malloc(capacity * sizeof(Float4));
  uint64_t dCom = gpu.malloc(capacity * sizeof(Float4));
  uint64_t dCount = gpu.malloc(capacity * sizeof(int));
  uint64_t dStart = gpu.malloc(capacity * sizeof(int));
  uint64_t dLevels = gpu.upload(std::vector<int>(kMaxDepth + 3, 0));
  uint64_t dSlot = gpu.malloc(n * sizeof(int));
  uint64_t dSorted = gpu.malloc(n * sizeof(int));
  // Flags: bodies that moved in a round, the node array full, a traversal stack overflowed.
  uint64_t dFlags = gpu.upload(std::vector<int>(3, 0));

  double worstMedian = 0, worstP99 = 0, worstMax = 0, worstScaled = 0;
  double worstSummary = 0, worstRootMass = 0, worstForce = 0, visitsPerWarp = 0;
  int cells = 0, depth = 0;
  for (int step = 0; step < kSteps; ++step) {
    auto failStep = [&](const std::string& what) {
      return fail(fmt::format("step {}: {}", step, what));
    };
    launch(ctx, bbox, {boxBlocks}, {threads}, 0, dBodies, n, dPartial);
    launch(ctx, root, {1}, {threads}, 0, dPartial, static_cast<int>(boxBlocks), dGeom, dChild,
           dClaims, dLevels, dStart);
    int level = 0;
    for (;; ++level) {
      const int zero = 0;
      gpu.memcpyHtoD(dFlags, &zero, sizeof(int));
      launch(ctx, insert, {blocks}, {threads}, 0, dBodies, n, level, dGeom, dChild, dClaims,
             dSlot, dFlags);
      if (gpu.download<int>(dFlags, 1)[0] == 0) break;
      launch(ctx, allocate, {1}, {threads}, 0, dChild, dClaims, dGeom, dLevels, level, capacity,
             n, dFlags + sizeof(int));
      if (gpu.download<int>(dFlags + sizeof(int), 1)[0] != 0) {
        return failStep(fmt::format("more than {} cells for {} bodies", capacity, n));
      }
      const std::vector<int> newLevel = gpu.download<int>(dLevels + (level + 1) * sizeof(int), 2);
      if (newLevel[1] > newLevel[0] && level + 1 > kMaxDepth) {
        return failStep(fmt::format("the tree is deeper than {} levels (coincident bodies?)",
                                    kMaxDepth));
      }
    }
    Tree tree;
    tree.levels = gpu.download<int>(dLevels, level + 2);
    cells = tree.cells();
    depth = tree.depth();
    for (int l = depth - 1; l >= 0; --l) {
      const int first = tree.levels[l], last = tree.levels[l + 1];
      launch(ctx, summarize, {ceilDiv(last - first, threads)}, {threads}, 0, dChild, dBodies, n,
             first, last, dCom, dCount);
    }
    for (int l = 0; l < depth; ++l) {
      const int first = tree.levels[l], last = tree.levels[l + 1];
      launch(ctx, sort, {ceilDiv(last - first, threads)}, {threads}, 0, dChild, dCount, n, first,
             last, dStart, dSorted);
    }
    launch(ctx, forces, {blocks}, {threads}, sharedBytes, dChild, dGeom, dCom, dBodies, dSorted,
           n, kInvTheta2, kSoftening2, static_cast<int>(stackDepth), dAccel,
           dFlags + 2 * sizeof(int));
    const float kick = step == 0 ? kDt / 2 : kDt;  // velocities at half steps
    launch(ctx, integrate, {blocks}, {threads}, 0, dBodies, dVel, dAccel, n, kick, kDt);

    if (gpu.download<int>(dFlags + 2 * sizeof(int), 1)[0] != 0) {
      return failStep("a traversal stack overflowed");
    }
    tree.child = gpu.download<int>(dChild, 8 * cells);
    tree.geom = gpu.download<Float4>(dGeom, cells);
    const std::optional<Tree> expect = referenceTree(bodies);
    if (!expect) return failStep("the reference tree is deeper than the kernels allow");
    std::string bad = checkTree(tree, *expect, n);
    if (!bad.empty()) return failStep(bad);
    double worst = 0, rootMass = 0;
    const std::vector<Float4> com = gpu.download<Float4>(dCom, cells);
    bad = checkSummaries(tree, bodies, com, gpu.download<int>(dCount, cells), &worst, &rootMass);
    if (!bad.empty()) return failStep(bad);
    worstSummary = std::max(worstSummary, worst);
    worstRootMass = std::max(worstRootMass, rootMass);
    const std::vector<int> sorted = gpu.download<int>(dSorted, n);
    bad = exactMismatch("sorted body", sorted, treeOrder(tree, n));
    if (!bad.empty()) return failStep(bad);

    const std::vector<Float4> accel = gpu.download<Float4>(dAccel, n);
    double forceWorst = 0;
    bad = checkForces(tree, bodies, com, sorted, accel, &forceWorst, &visitsPerWarp);
    if (!bad.empty()) return failStep(bad);
    worstForce = std::max(worstForce, forceWorst);
    const AccelerationErrors errors = accelerationErrors(bodies, accel);
    const double median = quantile(errors.relative, 0.5);
    const double p99 = quantile(errors.relative, 0.99);
    const double most = *std::max_element(errors.relative.begin(), errors.relative.end());
    const double scaled = *std::max_element(errors.scaled.begin(), errors.scaled.end());
    if (!(median < kMedianLimit) || !(p99 < kP99Limit) || !(scaled < kScaledLimit)) {
      return failStep(fmt::format(
          "Barnes-Hut accelerations off direct summation by {:.3g} (median) and {:.3g} (99th "
          "percentile) relative, {:.3g} at worst scaled; limits {}, {} and {}",
          median, p99, scaled, kMedianLimit, kP99Limit, kScaledLimit));
    }
    worstMedian = std::max(worstMedian, median);
    worstP99 = std::max(worstP99, p99);
    worstMax = std::max(worstMax, most);
    worstScaled = std::max(worstScaled, scaled);

    std::vector<Float4> after = gpu.download<Float4>(dBodies, n);
    std::vector<Float4> velAfter = gpu.download<Float4>(dVel, n);
    bad = checkIntegration(bodies, vel, accel, after, velAfter, kick);
    if (!bad.empty()) return failStep(bad);
    bodies.swap(after);
    vel.swap(velAfter);
  }
  return {true,
          fmt::format("{} bodies (Plummer), {} steps; last tree {} cells, {} levels, exact; "
                      "summaries within {:.2g} of their bound (root mass {:.2g}); walks ({:.0f} "
                      "nodes per warp) within {:.2g} of the float bound; theta 0.5 against direct "
                      "summation: median {:.2g}, 99th percentile {:.2g} (limits {}, {}), worst "
                      "{:.2g} relative, {:.2g} scaled (limit {})",
                      n, kSteps, cells, depth, worstSummary, worstRootMass, visitsPerWarp,
                      worstForce, worstMedian, worstP99, kMedianLimit, kP99Limit, worstMax,
                      worstScaled, kScaledLimit)};
}

}  // namespace barnes_hut

Workload barnesHutWorkload() {
  return {"barnes-hut",
          "science",
          "Barnes-Hut gravity on a Plummer cluster: octree built by atomicCAS claims, warp "
          "traversals with shared-memory stacks",
          "bodies",
          128,
          1024,
          16384,
          1u << 18,
          barnes_hut::run,
          {barnes_hut::kSpecThreads, barnes_hut::kSpecShared,
           "threads per CTA of every kernel; shared: bh_forces's dynamic shared memory, split "
           "evenly into its warps' traversal stacks (4 B per entry, 32 needed; default 128 B per "
           "warp)"}};
}

}  // namespace warpsim::workloads
