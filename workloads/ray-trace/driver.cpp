// ray-trace: a Whitted-style ray tracer (spheres on a checkered plane, one light, shadows, one
// reflection bounce), one thread per pixel, 8-bit RGBA output (see ray-trace.cu).
#include <cmath>

#include "check.h"
#include "workload.h"

namespace warpsim::workloads {

namespace ray_trace {

constexpr uint32_t kBlockX = 16, kBlockY = 8;
constexpr int kMaxSpheres = 16;  // MAX_SPHERES of ray-trace.cu
constexpr float kNoHit = 1e30f, kSurfaceOffset = 1e-3f;

// The layout of ray-trace.cu's Sphere and Scene (all 4-byte fields, no padding).
struct Sphere {
  float cx, cy, cz, r2, invR;
  float red, green, blue, reflect, specular;
};
struct Scene {
  float eye[3], forward[3], right[3], up[3];
  float uScale, uOffset, vScale, vOffset;
  float light[3], ambient;
  float horizon[3], zenithMinusHorizon[3];
  float checkerA[3], checkerB[3], planeReflect, planeSpecular;
  int spheres;
  Sphere sphere[kMaxSpheres];
};
static_assert(sizeof(Scene) == (34 + 1 + 10 * kMaxSpheres) * 4);

// A still life: a large mirror sphere, a large matte one and 8 to 12 small coloured balls (some
// glossy) resting on a grey checkered floor without overlapping, seen from 1.6 units up, lit
// from the upper left behind the camera.
Scene makeScene(InputGenerator& gen, int width, int height) {
  Scene sc{};
  auto set3 = [](float* p, double x, double y, double z) {
    p[0] = static_cast<float>(x), p[1] = static_cast<float>(y), p[2] = static_cast<float>(z);
  };
  struct Ball {
    double x, z, r;
  };
  std::vector<Ball> balls = {{uniformReal(gen, -0.6, 0.6), 2.0, 1.0},
                             {-2.4, uniformReal(gen, 2.5, 3.5), 0.8}};
  const int count = static_cast<int>(gen.uniform(10, 14));
  while (static_cast<int>(balls.size()) < count) {
    Ball b{uniformReal(gen, -4.0, 4.0), uniformReal(gen, -1.5, 6.0), uniformReal(gen, 0.2, 0.5)};
    bool free = true;
    for (const Ball& o : balls) free = free && std::hypot(b.x - o.x, b.z - o.z) > b.r + o.r + 0.05;
    if (free) balls.push_back(b);
  }
  sc.spheres = count;
  for (int i = 0; i < count; ++i) {
    Sphere& s = sc.sphere[i];
    const Ball& b = balls[i];
    s.cx = static_cast<float>(b.x), s.cy = static_cast<float>(b.r), s.cz = static_cast<float>(b.z);
    s.r2 = static_cast<float>(b.r * b.r), s.invR = static_cast<float>(1.0 / b.r);
    if (i == 0) {  // the mirror
      s.red = s.green = s.blue = 0.9f;
      s.reflect = 0.7f, s.specular = 0.8f;
    } else {
      s.red = static_cast<float>(uniformReal(gen, 0.1, 0.95));
      s.green = static_cast<float>(uniformReal(gen, 0.1, 0.95));
      s.blue = static_cast<float>(uniformReal(gen, 0.1, 0.95));
      const bool glossy = i > 1 && gen.uniform(0, 2) == 0;
      s.reflect = glossy ? static_cast<float>(uniformReal(gen, 0.2, 0.5)) : 0.0f;
      s.specular =
          static_cast<float>(glossy ? uniformReal(gen, 0.4, 0.9) : uniformReal(gen, 0.0, 0.3));
    }
  }
  // Camera: at (0, 1.6, -5.5) looking at (0, 0.6, 1.5), 50 degrees of horizontal field.
  const double ex = 0, ey = 1.6, ez = -5.5;
  double fx = 0 - ex, fy = 0.6 - ey, fz = 1.5 - ez;
  double fl = std::sqrt(fx * fx + fy * fy + fz * fz);
  fx /= fl, fy /= fl, fz /= fl;
  double rx = fz, rz = -fx;  // right = up(0,1,0) x forward, normalised
  double rl = std::sqrt(rx * rx + rz * rz);
  rx /= rl, rz /= rl;
  double ux = fy * rz - fz * 0, uy = fz * rx - fx * rz, uz = fx * 0 - fy * rx;  // forward x right
  const double halfWidth = std::tan(25 * 3.14159265358979323846 / 180);
  const double halfHeight = halfWidth * height / width;
  set3(sc.eye, ex, ey, ez);
  set3(sc.forward, fx, fy, fz);
  set3(sc.right, rx * halfWidth, 0, rz * halfWidth);
  set3(sc.up, -ux * halfHeight, -uy * halfHeight, -uz * halfHeight);
  if (sc.up[1] < 0) set3(sc.up, ux * halfHeight, uy * halfHeight, uz * halfHeight);
  sc.uScale = static_cast<float>(2.0 / width), sc.uOffset = static_cast<float>(1.0 / width - 1);
  sc.vScale = static_cast<float>(-2.0 / height), sc.vOffset = static_cast<float>(1 - 1.0 / height);
  set3(sc.light, -5, 8, -4);
  sc.ambient = 0.12f;
  set3(sc.horizon, 0.85, 0.9, 0.95);
  set3(sc.zenithMinusHorizon, 0.25 - 0.85, 0.45 - 0.9, 0.85 - 0.95);
  set3(sc.checkerA, 0.75, 0.75, 0.72);
  set3(sc.checkerB, 0.25, 0.25, 0.27);
  sc.planeReflect = 0.15f, sc.planeSpecular = 0.2f;
  return sc;
}

// The CPU tracer: the kernel's float operations, one for one and in the same order (products
// that are added are std::fma, as the kernel's __fmaf_rn; no product feeds a plain addition, so
// a host compiler contracting multiply-adds has nothing to contract).
struct V {
  float x, y, z;
};
V vsub(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V vscale(V a, float s) { return {a.x * s, a.y * s, a.z * s}; }
V vmadd(V a, float s, V b) {
  return {std::fma(a.x, s, b.x), std::fma(a.y, s, b.y), std::fma(a.z, s, b.z)};
}
float vdot(V a, V b) { return std::fma(a.x, b.x, std::fma(a.y, b.y, a.z * b.z)); }
V vnormalize(V a) { return vscale(a, 1.0f / std::sqrt(vdot(a, a))); }
V load3(const float* p) { return {p[0], p[1], p[2]}; }

float hitSphere(const Sphere& s, V o, V d, float tMin) {
  const V oc = vsub(o, V{s.cx, s.cy, s.cz});
  const float b = vdot(oc, d);
  const float c = vdot(oc, oc) - s.r2;
  const float disc = std::fma(b, b, -c);
  if (disc < 0.0f) return kNoHit;
  const float q = std::sqrt(disc);
  float t = -b - q;
  if (t > tMin) return t;
  t = q - b;
  return t > tMin ? t : kNoHit;
}

uint32_t tracePixel(const Scene& sc, int px, int py) {
  const float u = std::fma(static_cast<float>(px), sc.uScale, sc.uOffset);
  const float v = std::fma(static_cast<float>(py), sc.vScale, sc.vOffset);
  V o = load3(sc.eye);
  V d = vnormalize(vmadd(load3(sc.right), u, vmadd(load3(sc.up), v, load3(sc.forward))));
  V color = {0.0f, 0.0f, 0.0f};
  float weight = 1.0f;
  for (int bounce = 0; bounce < 2; ++bounce) {
    float t = kNoHit;
    int hit = -1;
    for (int i = 0; i < sc.spheres; ++i) {
      const float ti = hitSphere(sc.sphere[i], o, d, 0.0f);
      if (ti < t) t = ti, hit = i;
    }
    if (d.y < 0.0f) {
      const float tp = -o.y / d.y;
      if (tp > 0.0f && tp < t) t = tp, hit = sc.spheres;
    }
    if (hit < 0) {
      const float s = 0.5f * (d.y + 1.0f);
      color = vmadd(vmadd(load3(sc.zenithMinusHorizon), s, load3(sc.horizon)), weight, color);
      break;
    }
    const V p = vmadd(d, t, o);
    V n, albedo;
    float reflect, specular;
    if (hit < sc.spheres) {
      const Sphere& s = sc.sphere[hit];
      n = vscale(vsub(p, V{s.cx, s.cy, s.cz}), s.invR);
      albedo = V{s.red, s.green, s.blue};
      reflect = s.reflect, specular = s.specular;
    } else {
      n = V{0.0f, 1.0f, 0.0f};
      const int checker =
          (static_cast<int>(std::floor(p.x)) + static_cast<int>(std::floor(p.z))) & 1;
      albedo = load3(checker ? sc.checkerA : sc.checkerB);
      reflect = sc.planeReflect, specular = sc.planeSpecular;
    }
    const V toLight = vsub(load3(sc.light), p);
    const float dist = std::sqrt(vdot(toLight, toLight));
    const V l = vscale(toLight, 1.0f / dist);
    const float nl = vdot(n, l);
    float diffuse = 0.0f, highlight = 0.0f;
    if (nl > 0.0f) {
      const V start = vmadd(n, kSurfaceOffset, p);
      bool shadow = false;
      for (int i = 0; i < sc.spheres && !shadow; ++i)
        shadow = hitSphere(sc.sphere[i], start, l, 0.0f) < dist;
      if (!shadow) {
        diffuse = nl;
        float s = std::fmax(vdot(n, vnormalize(vsub(l, d))), 0.0f);
        for (int k = 0; k < 5; ++k) s = s * s;
        highlight = s * specular;
      }
    }
    const float lit = sc.ambient + diffuse;
    const V local = {std::fma(albedo.x, lit, highlight), std::fma(albedo.y, lit, highlight),
                     std::fma(albedo.z, lit, highlight)};
    const float k = bounce == 0 ? reflect : 0.0f;
    color = vmadd(local, weight * (1.0f - k), color);
    if (k == 0.0f) break;
    weight = weight * k;
    d = vmadd(n, -2.0f * vdot(d, n), d);
    o = vmadd(n, kSurfaceOffset, p);
  }
  auto byte = [](float c) {
    return static_cast<uint32_t>(std::fma(std::fmin(std::fmax(c, 0.0f), 1.0f), 255.0f, 0.5f));
  };
  return 0xff000000u | (byte(color.z) << 16) | (byte(color.y) << 8) | byte(color.x);
}

Outcome run(WorkloadContext& ctx) {
  const int width = static_cast<int>(ctx.size), height = width * 3 / 4;
  if (width < 4)
    throw runtime::Error(
        fmt::format("ray-trace: the image width must be at least 4, not {}", width));
  InputGenerator gen(ctx.seed);
  const Scene scene = makeScene(gen, width, height);
  // Verification is exact: see tracePixel (sqrt and division are correctly rounded on both
  // sides, the conversions to integers truncate on both sides).
  std::vector<uint32_t> expect(static_cast<size_t>(width) * height);
  for (int py = 0; py < height; ++py) {
    for (int px = 0; px < width; ++px)
      expect[static_cast<size_t>(py) * width + px] = tracePixel(scene, px, py);
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("ray-trace"), "ray-trace.ptx");
  gpu.memcpyHtoD(mod.symbolAddress("c_scene"), &scene, sizeof(Scene));
  uint64_t dImage = gpu.malloc(expect.size() * sizeof(uint32_t));
  launch(ctx, mod.kernel("ray_trace"), {ceilDiv(width, kBlockX), ceilDiv(height, kBlockY)},
         {kBlockX, kBlockY}, 0, dImage, width, height);
  std::string bad = exactMismatch("pixel", gpu.download<uint32_t>(dImage, expect.size()), expect);
  if (!bad.empty()) return fail(bad);
  return {true, fmt::format("{} x {} pixels, {} spheres, exact", width, height, scene.spheres)};
}

}  // namespace ray_trace

Workload rayTraceWorkload() {
  return {"ray-trace",
          "divergence",
          "ray tracer: spheres on a checkered plane, one light with shadows, one reflection bounce",
          "image width (height = 3/4 width)",
          80,
          320,
          1024,
          8192,
          ray_trace::run};
}

}  // namespace warpsim::workloads
