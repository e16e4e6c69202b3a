// lavamd: particle interactions in a 3-D grid of boxes, each box with its neighbours (see
// lavamd.cu), each particle's potential and force checked against a double-precision reference
// within a bound computed alongside it.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "locality_hints.h"
#include "workload.h"

namespace warpsim::workloads {

namespace lavamd {

constexpr int kPerBox = 100;         // particles per box, as Rodinia's lavaMD
constexpr uint32_t kThreads = 128;   // a CTA per box
constexpr int kMaxNeighbours = 27;   // the box itself and up to 26 around it
constexpr float kAlpha = 0.5f;       // the potential's width, exp(-2 alpha^2 r^2)

Outcome run(WorkloadContext& ctx) {
  const int edge = static_cast<int>(ctx.size), boxes = edge * edge * edge;
  InputGenerator gen(ctx.seed);

  // The boxes tile the cube [0, edge)^3 with unit edges (the potential's range); box
  // x + edge (y + edge z) holds particles uniform inside it, with positive charges of 0.1 to 1.0
  // (Rodinia's charges are tenths from 0.1 to 1.0). The neighbour list of a box is the box itself,
  // then the boxes around it that exist, in box-number order (as Rodinia builds it on the host).
  std::vector<float> particles(static_cast<size_t>(boxes) * kPerBox * 4);
  std::vector<int> count(boxes), neighbours(static_cast<size_t>(boxes) * kMaxNeighbours, 0);
  for (int bz = 0; bz < edge; ++bz) {
    for (int by = 0; by < edge; ++by) {
      for (int bx = 0; bx < edge; ++bx) {
        const int box = bx + edge * (by + edge * bz);
        for (int p = 0; p < kPerBox; ++p) {
          float* q = &particles[(static_cast<size_t>(box) * kPerBox + p) * 4];
          q[0] = static_cast<float>(bx + uniformReal(gen, 0, 1));
          q[1] = static_cast<float>(by + uniformReal(gen, 0, 1));
          q[2] = static_cast<float>(bz + uniformReal(gen, 0, 1));
          q[3] = static_cast<float>(gen.uniform(1, 10)) / 10.0f;
        }
        int* list = &neighbours[static_cast<size_t>(box) * kMaxNeighbours];
        int n = 0;
        list[n++] = box;
        for (int dz = -1; dz <= 1; ++dz) {
          for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              const int x = bx + dx, y = by + dy, z = bz + dz;
              if ((dx | dy | dz) == 0 || x < 0 || y < 0 || z < 0 || x >= edge || y >= edge || z >= edge) continue;
              list[n++] = x + edge * (y + edge * z);
            }
          }
        }
        count[box] = n;
      }
    }
  }
  const float a2 = 2 * kAlpha * kAlpha;

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("lavamd"), "lavamd.ptx");
  uint64_t dCount = gpu.upload(count), dNeighbours = gpu.upload(neighbours);
  uint64_t dParticles = gpu.upload(particles);
  uint64_t dFv = gpu.upload(std::vector<float>(particles.size(), 0.0f));

  // Locality descriptors (the thesis's Table 4 gives lavaMD INTRA_THREAD and INTER_THREAD
  // (COACCESSED, REGULAR)):
  // - fv (a float4 per particle, kPerBox per box): each thread rereads and rewrites its own
  //   entry once per neighbour box, with the whole sweep over a box's particles in between:
  //   INTRA_THREAD, the D-Tile of a CTA its box's kPerBox entries (dims x = particle, y = box),
  //   the C-Tile the CTA; a thread touches only its own entry (stride 1).
  // - the particles (float4, kPerBox per box): every CTA stages the boxes of its neighbourhood
  //   into shared memory, whole (COACCESSED), each walked from its first particle (REGULAR,
  //   stride 1). The neighbourhood of a box spans the z-planes of boxes above and below it, and
  //   tiles must be contiguous and one per C-Tile, so the D-Tile is a z-plane of boxes
  //   (edge^2 boxes of kPerBox particles) and the C-Tile the edge^2 CTAs of that plane (the grid
  //   is 1-D, the boxes in the CTAs' order): most of a CTA's reads are of its own plane, the
  //   rest of the planes next to it.
  const uint32_t plane = static_cast<uint32_t>(edge * edge);
  setLocalityDescriptors(
      ctx, "lavamd",
      {intraThread({dFv, {kPerBox, uint32_t(boxes), 1}, 16}, {{kPerBox, 1, 1}, {1, 1, 1}, {1, 0, 0}}, 1),
       interThread({dParticles, {kPerBox, uint32_t(boxes), 1}, 16},
                   {{kPerBox, plane, 1}, {plane, 1, 1}, {1, 0, 0}}, WARPSIM_COACCESSED, WARPSIM_REGULAR,
                   1)});
  launch(ctx, mod.kernel("lavamd"), {uint32_t(boxes)}, {kThreads}, 0, a2, dCount, dNeighbours,
         dParticles, dFv);
  const std::vector<float> fv = gpu.download<float>(dFv, particles.size());

  // Tolerance (u = 2^-24), by running error analysis in the reference, which sums the terms in
  // the kernel's order. A term's relative error: dx, dy, dz round once (u each), r2 sums three
  // squares (5 u in all), exp's argument a2 r2 then carries 6 u |a2 r2| absolute, and expf is
  // within 8 u relative (nvcc's expansion: ex2.approx, 2 ulp, and a scaling); the products by
  // 2, the charge and dx add at most 3 u: 16 u + 6 u |a2 r2| in all. Each accumulation rounds
  // once, within u of the partial sum. The bound is the sum of both, doubled for slack.
  std::vector<double> expect(fv.size(), 0.0), bound(fv.size(), 0.0);
  for (int home = 0; home < boxes; ++home) {
    for (int i = 0; i < kPerBox; ++i) {
      const float* me = &particles[(static_cast<size_t>(home) * kPerBox + i) * 4];
      double acc[4] = {0, 0, 0, 0}, err[4] = {0, 0, 0, 0};
      for (int k = 0; k < count[home]; ++k) {
        const int box = neighbours[static_cast<size_t>(home) * kMaxNeighbours + k];
        for (int j = 0; j < kPerBox; ++j) {
          const float* q = &particles[(static_cast<size_t>(box) * kPerBox + j) * 4];
          const double d[3] = {static_cast<double>(me[0]) - q[0], static_cast<double>(me[1]) - q[1],
                               static_cast<double>(me[2]) - q[2]};
          const double arg = a2 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
          const double vij = std::exp(-arg);
          const double terms[4] = {q[3] * vij, q[3] * 2 * vij * d[0], q[3] * 2 * vij * d[1],
                                   q[3] * 2 * vij * d[2]};
          for (int c = 0; c < 4; ++c) {
            acc[c] += terms[c];
            err[c] += std::fabs(terms[c]) * (16 + 6 * arg) * kFloatUnit + std::fabs(acc[c]) * kFloatUnit;
          }
        }
      }
      for (int c = 0; c < 4; ++c) {
        const size_t at = (static_cast<size_t>(home) * kPerBox + i) * 4 + c;
        expect[at] = acc[c];
        bound[at] = 2 * err[c];
      }
    }
  }
  double worst = 0;
  std::string bad = boundedMismatch("fv (potential, force)", fv, expect, bound, &worst);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} boxes of {} particles, worst error {:.2g} of the bound", boxes,
                            kPerBox, worst)};
}

}  // namespace lavamd

// Rodinia's default, 10 boxes along each edge, is --size 10.
Workload lavamdWorkload() {
  return {"lavamd",
          "science",
          "particle potentials and forces in a 3-D grid of boxes, each box against itself and its "
          "26 neighbours, a CTA per box",
          "boxes along each edge (edge^3 boxes of 100 particles)",
          2,
          3,
          6,
          32,
          lavamd::run};
}

}  // namespace warpsim::workloads
