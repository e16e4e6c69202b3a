// nvcc-flags: -arch=compute_80 -O3
// A Whitted-style ray tracer, one thread per pixel: spheres on a checkered ground plane under
// one point light and a sky. A camera ray finds the nearest surface, which is lit by the light
// (Lambert diffuse plus a Blinn-Phong highlight, exponent 32) unless a shadow ray towards the
// light meets a sphere, plus an ambient term; on a reflective surface one reflected ray is
// traced and shaded the same way (no further bounce) and mixed in. The result is written as an
// 8-bit RGBA pixel (alpha 255).
//
// The scene is in constant memory (every lane of a warp reads the same sphere at once). Every
// arithmetic operation is a round-to-nearest intrinsic (products that are added are explicit
// fmas; nothing is left to the compiler's contraction), and sqrt and division are the correctly
// rounded ones, so a CPU performing the same float operations in the same order obtains the
// same bits.

#define MAX_SPHERES 16
#define NO_HIT 1e30f
#define SURFACE_OFFSET 1e-3f  // secondary rays start this far off the surface

struct Sphere {
  float cx, cy, cz, r2, invR;  // centre, radius squared, 1 / radius
  float red, green, blue, reflect, specular;
};

struct Scene {
  float eye[3], forward[3], right[3], up[3];  // right and up span the image plane
  float uScale, uOffset, vScale, vOffset;     // pixel -> image-plane coordinates
  float light[3], ambient;
  float horizon[3], zenithMinusHorizon[3];  // the sky
  float checkerA[3], checkerB[3], planeReflect, planeSpecular;
  int spheres;
  Sphere sphere[MAX_SPHERES];
};

__constant__ Scene c_scene;

struct V {
  float x, y, z;
};

__device__ __forceinline__ V vsub(V a, V b) {
  return {__fsub_rn(a.x, b.x), __fsub_rn(a.y, b.y), __fsub_rn(a.z, b.z)};
}
__device__ __forceinline__ V vscale(V a, float s) {
  return {__fmul_rn(a.x, s), __fmul_rn(a.y, s), __fmul_rn(a.z, s)};
}
// a * s + b
__device__ __forceinline__ V vmadd(V a, float s, V b) {
  return {__fmaf_rn(a.x, s, b.x), __fmaf_rn(a.y, s, b.y), __fmaf_rn(a.z, s, b.z)};
}
__device__ __forceinline__ float vdot(V a, V b) {
  return __fmaf_rn(a.x, b.x, __fmaf_rn(a.y, b.y, __fmul_rn(a.z, b.z)));
}
__device__ __forceinline__ V vnormalize(V a) {
  return vscale(a, __fdiv_rn(1.0f, __fsqrt_rn(vdot(a, a))));
}
__device__ __forceinline__ V load3(const float* p) { return {p[0], p[1], p[2]}; }

// The nearest t > tMin at which o + t d (d of unit length) meets sphere s, or NO_HIT.
__device__ float hitSphere(const Sphere& s, V o, V d, float tMin) {
  const V oc = vsub(o, V{s.cx, s.cy, s.cz});
  const float b = vdot(oc, d);
  const float c = __fsub_rn(vdot(oc, oc), s.r2);
  const float disc = __fmaf_rn(b, b, -c);
  if (disc < 0.0f) return NO_HIT;
  const float q = __fsqrt_rn(disc);
  float t = __fsub_rn(-b, q);
  if (t > tMin) return t;
  t = __fsub_rn(q, b);
  return t > tMin ? t : NO_HIT;
}

extern "C" __global__ void ray_trace(unsigned* __restrict__ image, int width, int height) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  const Scene& sc = c_scene;
  const float u = __fmaf_rn(static_cast<float>(px), sc.uScale, sc.uOffset);
  const float v = __fmaf_rn(static_cast<float>(py), sc.vScale, sc.vOffset);
  V o = load3(sc.eye);
  V d = vnormalize(vmadd(load3(sc.right), u, vmadd(load3(sc.up), v, load3(sc.forward))));
  V color = {0.0f, 0.0f, 0.0f};
  float weight = 1.0f;
  for (int bounce = 0; bounce < 2; ++bounce) {
    // Nearest surface: the spheres, then the ground plane y = 0 (seen from above).
    float t = NO_HIT;
    int hit = -1;
    for (int i = 0; i < sc.spheres; ++i) {
      const float ti = hitSphere(sc.sphere[i], o, d, 0.0f);
      if (ti < t) {
        t = ti;
        hit = i;
      }
    }
    if (d.y < 0.0f) {
      const float tp = __fdiv_rn(-o.y, d.y);
      if (tp > 0.0f && tp < t) {
        t = tp;
        hit = sc.spheres;
      }
    }
    if (hit < 0) {  // the sky
      const float s = __fmul_rn(0.5f, __fadd_rn(d.y, 1.0f));
      const V sky = vmadd(load3(sc.zenithMinusHorizon), s, load3(sc.horizon));
      color = vmadd(sky, weight, color);
      break;
    }
    const V p = vmadd(d, t, o);
    V n, albedo;
    float reflect, specular;
    if (hit < sc.spheres) {
      const Sphere& s = sc.sphere[hit];
      n = vscale(vsub(p, V{s.cx, s.cy, s.cz}), s.invR);
      albedo = V{s.red, s.green, s.blue};
      reflect = s.reflect;
      specular = s.specular;
    } else {
      n = V{0.0f, 1.0f, 0.0f};
      const int checker = (static_cast<int>(floorf(p.x)) + static_cast<int>(floorf(p.z))) & 1;
      albedo = load3(checker ? sc.checkerA : sc.checkerB);
      reflect = sc.planeReflect;
      specular = sc.planeSpecular;
    }
    // Direct light, unless a sphere is between the surface and the light.
    const V toLight = vsub(load3(sc.light), p);
    const float dist = __fsqrt_rn(vdot(toLight, toLight));
    const V l = vscale(toLight, __fdiv_rn(1.0f, dist));
    const float nl = vdot(n, l);
    float diffuse = 0.0f, highlight = 0.0f;
    if (nl > 0.0f) {
      const V start = vmadd(n, SURFACE_OFFSET, p);
      bool shadow = false;
      for (int i = 0; i < sc.spheres && !shadow; ++i)
        shadow = hitSphere(sc.sphere[i], start, l, 0.0f) < dist;
      if (!shadow) {
        diffuse = nl;
        float s = fmaxf(vdot(n, vnormalize(vsub(l, d))), 0.0f);
#pragma unroll
        for (int k = 0; k < 5; ++k) s = __fmul_rn(s, s);  // s^32
        highlight = __fmul_rn(s, specular);
      }
    }
    const float lit = __fadd_rn(sc.ambient, diffuse);
    const V local = {__fmaf_rn(albedo.x, lit, highlight), __fmaf_rn(albedo.y, lit, highlight),
                     __fmaf_rn(albedo.z, lit, highlight)};
    const float k = bounce == 0 ? reflect : 0.0f;
    color = vmadd(local, __fmul_rn(weight, __fsub_rn(1.0f, k)), color);
    if (k == 0.0f) break;
    weight = __fmul_rn(weight, k);
    const float dn = vdot(d, n);
    d = vmadd(n, __fmul_rn(-2.0f, dn), d);
    o = vmadd(n, SURFACE_OFFSET, p);
  }
  const unsigned r =
      static_cast<unsigned>(__fmaf_rn(fminf(fmaxf(color.x, 0.0f), 1.0f), 255.0f, 0.5f));
  const unsigned g =
      static_cast<unsigned>(__fmaf_rn(fminf(fmaxf(color.y, 0.0f), 1.0f), 255.0f, 0.5f));
  const unsigned b =
      static_cast<unsigned>(__fmaf_rn(fminf(fmaxf(color.z, 0.0f), 1.0f), 255.0f, 0.5f));
  image[static_cast<size_t>(py) * width + px] = 0xff000000u | (b << 16) | (g << 8) | r;
}
