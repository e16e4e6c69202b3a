// nbody: all-pairs gravitational steps (shared-memory tiles of bodies), each step checked on
// the state the GPU started it from.
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace nbody {

constexpr int kSteps = 2;
constexpr uint32_t kThreads = 256;
constexpr float kSoftening2 = 0.01f, kDt = 0.01f;

struct Float4 {
  float x, y, z, w;
};

// Error bounds (u = 2^-24). One interaction term m dx / (r^2 + eps^2)^1.5 is within about
// 24 u of its exact value (rsqrt.approx is within a few ulp; the cube, the distance and the
// products add a rounding each); a float sum of n terms adds at most n u sum|term|. So each
// acceleration component is within 2 (n + 24) u sum|term| (2 for slack). The integration is
// checked on the GPU's own accelerations: v + a dt and p + v dt are two roundings each.
std::string checkStep(const std::vector<Float4>& bodies, const std::vector<Float4>& vel,
                      const std::vector<Float4>& accel, const std::vector<Float4>& bodiesAfter,
                      const std::vector<Float4>& velAfter, double* worstA, double* worstP) {
  const size_t n = bodies.size();
  std::vector<float> gotA, gotV, gotP;
  std::vector<double> refA, boundA, refV, boundV, refP, boundP;
  for (size_t i = 0; i < n; ++i) {
    double acc[3] = {0, 0, 0}, mag[3] = {0, 0, 0};
    for (size_t j = 0; j < n; ++j) {
      double d[3] = {static_cast<double>(bodies[j].x) - bodies[i].x,
                     static_cast<double>(bodies[j].y) - bodies[i].y,
                     static_cast<double>(bodies[j].z) - bodies[i].z};
      double dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + kSoftening2;
      double strength = bodies[j].w / (dist2 * std::sqrt(dist2));
      for (int c = 0; c < 3; ++c) {
        acc[c] += d[c] * strength;
        mag[c] += std::fabs(d[c] * strength);
      }
    }
    const float a[3] = {accel[i].x, accel[i].y, accel[i].z};
    const float v0[3] = {vel[i].x, vel[i].y, vel[i].z};
    const float p0[3] = {bodies[i].x, bodies[i].y, bodies[i].z};
    const float v1[3] = {velAfter[i].x, velAfter[i].y, velAfter[i].z};
    const float p1[3] = {bodiesAfter[i].x, bodiesAfter[i].y, bodiesAfter[i].z};
    for (int c = 0; c < 3; ++c) {
      gotA.push_back(a[c]);
      refA.push_back(acc[c]);
      boundA.push_back(2.0 * (n + 24) * kFloatUnit * mag[c]);
      double v = static_cast<double>(v0[c]) + static_cast<double>(a[c]) * kDt;
      gotV.push_back(v1[c]);
      refV.push_back(v);
      boundV.push_back(4 * kFloatUnit * (std::fabs(v0[c]) + std::fabs(a[c] * kDt)));
      double p = static_cast<double>(p0[c]) + static_cast<double>(v1[c]) * kDt;
      gotP.push_back(p1[c]);
      refP.push_back(p);
      boundP.push_back(4 * kFloatUnit * (std::fabs(p0[c]) + std::fabs(v1[c] * kDt)));
    }
  }
  std::string bad = boundedMismatch("acceleration", gotA, refA, boundA, worstA);
  if (bad.empty()) bad = boundedMismatch("velocity", gotV, refV, boundV);
  if (bad.empty()) bad = boundedMismatch("position", gotP, refP, boundP, worstP);
  return bad;
}

Outcome run(WorkloadContext& ctx) {
  const int n = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  std::vector<Float4> bodies(n), vel(n);
  for (Float4& b : bodies) {
    b.x = static_cast<float>(uniformReal(gen, -1.0, 1.0));
    b.y = static_cast<float>(uniformReal(gen, -1.0, 1.0));
    b.z = static_cast<float>(uniformReal(gen, -1.0, 1.0));
    b.w = static_cast<float>(uniformReal(gen, 0.5, 1.5) / n);  // total mass about 1
  }
  for (Float4& v : vel) {
    v = {static_cast<float>(uniformReal(gen, -0.1, 0.1)),
         static_cast<float>(uniformReal(gen, -0.1, 0.1)),
         static_cast<float>(uniformReal(gen, -0.1, 0.1)), 0.0f};
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("nbody"), "nbody.ptx");
  runtime::Kernel forces = mod.kernel("nbody_accelerations");
  runtime::Kernel integrate = mod.kernel("nbody_integrate");
  uint64_t dBodies = gpu.upload(bodies), dVel = gpu.upload(vel);
  uint64_t dAccel = gpu.malloc(n * sizeof(Float4));
  uint32_t blocks = ceilDiv(n, kThreads);
  double worstA = 0, worstP = 0;
  for (int s = 0; s < kSteps; ++s) {
    launch(ctx, forces, {blocks}, {kThreads}, kThreads * sizeof(Float4), dBodies, n, kSoftening2,
           dAccel);
    launch(ctx, integrate, {blocks}, {kThreads}, 0, dBodies, dVel, dAccel, n, kDt);
    std::vector<Float4> bodiesAfter = gpu.download<Float4>(dBodies, n);
    std::vector<Float4> velAfter = gpu.download<Float4>(dVel, n);
    double wa = 0, wp = 0;
    std::string bad =
        checkStep(bodies, vel, gpu.download<Float4>(dAccel, n), bodiesAfter, velAfter, &wa, &wp);
    if (!bad.empty()) return fail(fmt::format("step {}: {}", s, bad));
    worstA = std::max(worstA, wa);
    worstP = std::max(worstP, wp);
    bodies.swap(bodiesAfter);
    vel.swap(velAfter);
  }
  return {true, fmt::format("{} bodies, {} steps, worst error {:.2g} (accelerations) and {:.2g} "
                            "(positions) of the bound",
                            n, kSteps, worstA, worstP)};
}

}  // namespace nbody

Workload nbodyWorkload() {
  return {"nbody",  "science", "all-pairs gravity with shared-memory tiles of bodies, integrate",
          "bodies", 512,       2048,
          4096,     1u << 16,  nbody::run};
}

}  // namespace warpsim::workloads
