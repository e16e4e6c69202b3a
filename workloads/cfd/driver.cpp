// cfd: an unstructured-grid finite-volume Euler solver (step factor, then three Runge-Kutta
// stages of flux + time step per iteration) on a generated mesh with shuffled cell numbers;
// every kernel is checked on the inputs the GPU gave it. XMem atoms written by hand describe every
// device structure (xmem_atoms.h).
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "check.h"
#include "workload.h"
#include "xmem_atoms.h"

namespace warpsim::workloads {

namespace cfd {

constexpr int kIterations = 3, kStages = 3;
constexpr int kWall = -1, kFarField = -2;
constexpr uint32_t kThreads = 128;
// The kernel's constants, as floats (the CPU must start from the same values).
constexpr float kGamma = 1.4f, kSmoothing = 0.2f;

// The host image of cfd.cu's FarField (the free stream, in constant memory).
struct FarField {
  float density, momentumX, momentumY, momentumZ, energy;
  float fluxMomentumX[3], fluxMomentumY[3], fluxMomentumZ[3], fluxEnergy[3];
  float speedPlusSound;
};
static_assert(sizeof(FarField) == 18 * sizeof(float));

// ---- The mesh -------------------------------------------------------------------------------

// A 2e x e x e block of cells, each with four faces. Connectivity: a brick-like lattice (every
// cell joined to its -x and +x neighbours, and to +y, +z when i + j + k is even or to -y, -z
// when odd), so each interior face joins cells of opposite parity. Geometry: the faces point in
// the four tetrahedral directions d0..d3, outward normals of an even cell +d, of an odd cell -d
// (slot f of a cell is the same face as slot f of its neighbour there, so the two normals of a
// face are opposite, and the four normals of a cell sum to zero: a uniform flow is steady).
// Faces that leave the block are boundaries: the z = 0 plane is a wall, the rest far field.
// Cells are renumbered by grid order plus a random jitter of up to kJitter places, so the
// neighbour gathers are irregular but keep some locality (as in a real mesh file).
struct Mesh {
  int n = 0;
  std::vector<int> neighbours;  // [f * n + cell]
  std::vector<float> normals;   // [(3 f + axis) * n + cell]
  std::vector<float> volumes;
};

Mesh makeMesh(int edge, InputGenerator& gen) {
  constexpr int kJitter = 96;
  const int nx = 2 * edge, ny = edge, nz = edge;
  const int n = nx * ny * nz;
  // New numbers: cells sorted by (grid index + jitter).
  std::vector<std::pair<int64_t, int>> keys(n);
  for (int g = 0; g < n; ++g) keys[g] = {g + gen.uniform(0, kJitter), g};
  std::sort(keys.begin(), keys.end());
  std::vector<int> number(n);
  for (int k = 0; k < n; ++k) number[keys[k].second] = k;

  const float c = static_cast<float>(1.0 / std::sqrt(3.0));  // unit normals: |d| = 1
  const float dirs[4][3] = {{c, c, c}, {c, -c, -c}, {-c, c, -c}, {-c, -c, c}};
  const int evenStep[4][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  Mesh m;
  m.n = n;
  m.neighbours.resize(4 * static_cast<size_t>(n));
  m.normals.resize(12 * static_cast<size_t>(n));
  m.volumes.resize(n);
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const int g = (k * ny + j) * nx + i, cell = number[g];
        const int sign = (i + j + k) % 2 == 0 ? 1 : -1;
        for (int f = 0; f < 4; ++f) {
          int ii = i + sign * evenStep[f][0], jj = j + sign * evenStep[f][1];
          int kk = k + sign * evenStep[f][2];
          int nb;
          if (kk < 0) {
            nb = kWall;
          } else if (ii < 0 || ii >= nx || jj < 0 || jj >= ny || kk >= nz) {
            nb = kFarField;
          } else {
            nb = number[(kk * ny + jj) * nx + ii];
          }
          m.neighbours[static_cast<size_t>(f) * n + cell] = nb;
          for (int a = 0; a < 3; ++a) {
            m.normals[static_cast<size_t>(3 * f + a) * n + cell] = sign * dirs[f][a];
          }
        }
      }
    }
  }
  for (float& v : m.volumes) v = static_cast<float>(uniformReal(gen, 0.8, 1.2));
  return m;
}

// ---- Error-bounded reference arithmetic ------------------------------------------------------

// A value computed in double together with a bound on the error of the same expression
// evaluated by the GPU in float. Each float operation rounds its result once (at most
// u |result|, u = 2^-24; a fused multiply-add rounds once where the bound assumes two) and
// carries its operands' errors to first order. The reference evaluates each kernel's
// expressions operation by operation in the kernel's order (nvcc does not reassociate float
// arithmetic), so the bound holds for the GPU's result; the check allows twice the bound for the
// neglected second-order terms.
struct Bounded {
  double v = 0, e = 0;
  Bounded() = default;
  Bounded(double value) : v(value) {}  // exact: an input or a constant
  Bounded(double value, double error) : v(value), e(error) {}
};

Bounded rounded(double v, double e) { return {v, e + kFloatUnit * std::fabs(v)}; }
Bounded operator+(Bounded a, Bounded b) { return rounded(a.v + b.v, a.e + b.e); }
Bounded operator-(Bounded a, Bounded b) { return rounded(a.v - b.v, a.e + b.e); }
Bounded operator*(Bounded a, Bounded b) {
  return rounded(a.v * b.v, std::fabs(a.v) * b.e + std::fabs(b.v) * a.e);
}
Bounded operator/(Bounded a, Bounded b) {
  double q = a.v / b.v;
  return rounded(q, (a.e + std::fabs(q) * b.e) / std::fabs(b.v));
}
Bounded& operator+=(Bounded& a, Bounded b) { return a = a + b; }
Bounded& operator-=(Bounded& a, Bounded b) { return a = a - b; }
Bounded sqrt(Bounded a) {
  double r = std::sqrt(a.v);
  return rounded(r, r > 0 ? a.e / (2 * r) : std::sqrt(a.e));
}

// ---- The reference kernels (cfd.cu's expressions, in its order) -----------------------------

struct State {
  Bounded density, mx, my, mz, energy;
};

struct Derived {
  Bounded vx, vy, vz, speed2, pressure, sound;
  Bounded fmx[3], fmy[3], fmz[3], fe[3];
};

State loadState(const std::vector<float>& u, int i, int n) {
  return {u[i], u[static_cast<size_t>(n) + i], u[2 * static_cast<size_t>(n) + i],
          u[3 * static_cast<size_t>(n) + i], u[4 * static_cast<size_t>(n) + i]};
}

Derived derive(const State& s) {
  const Bounded gamma = kGamma, gammaMinus1 = kGamma - 1.0f, half = 0.5f;  // nvcc folds these
  Derived d;
  d.vx = s.mx / s.density;
  d.vy = s.my / s.density;
  d.vz = s.mz / s.density;
  d.speed2 = d.vx * d.vx + d.vy * d.vy + d.vz * d.vz;
  d.pressure = gammaMinus1 * (s.energy - half * s.density * d.speed2);
  d.sound = sqrt(gamma * d.pressure / s.density);
  d.fmx[0] = s.mx * d.vx + d.pressure;
  d.fmx[1] = s.mx * d.vy;
  d.fmx[2] = s.mx * d.vz;
  d.fmy[0] = s.my * d.vx;
  d.fmy[1] = s.my * d.vy + d.pressure;
  d.fmy[2] = s.my * d.vz;
  d.fmz[0] = s.mz * d.vx;
  d.fmz[1] = s.mz * d.vy;
  d.fmz[2] = s.mz * d.vz + d.pressure;
  Bounded h = s.energy + d.pressure;
  d.fe[0] = d.vx * h;
  d.fe[1] = d.vy * h;
  d.fe[2] = d.vz * h;
  return d;
}

Bounded stepFactor(const std::vector<float>& u, const std::vector<float>& volumes, int i, int n) {
  Derived d = derive(loadState(u, i, n));
  return Bounded(0.5) / (sqrt(Bounded(volumes[i])) * (sqrt(d.speed2) + d.sound));
}

std::array<Bounded, 3> exact(const float (&v)[3]) { return {v[0], v[1], v[2]}; }

Bounded centralFlux(Bounded r, Bounded nx, Bounded ny, Bounded nz, const Bounded* fa,
                    const Bounded* fb) {
  const Bounded half = 0.5;
  r -= half * nx * (fa[0] + fb[0]);
  r -= half * ny * (fa[1] + fb[1]);
  r -= half * nz * (fa[2] + fb[2]);
  return r;
}

std::array<Bounded, 5> residual(const std::vector<float>& u, const Mesh& m, const FarField& ff,
                                int i) {
  const int n = m.n;
  const Bounded smoothing = kSmoothing, half = 0.5;
  State a = loadState(u, i, n);
  Derived da = derive(a);
  Bounded speedA = sqrt(da.speed2);
  const Bounded ma[3] = {a.mx, a.my, a.mz};
  Bounded rDensity = 0, rMx = 0, rMy = 0, rMz = 0, rEnergy = 0;
  for (int f = 0; f < 4; ++f) {
    int nb = m.neighbours[static_cast<size_t>(f) * n + i];
    Bounded nx = m.normals[static_cast<size_t>(3 * f) * n + i];
    Bounded ny = m.normals[static_cast<size_t>(3 * f + 1) * n + i];
    Bounded nz = m.normals[static_cast<size_t>(3 * f + 2) * n + i];
    Bounded area = sqrt(nx * nx + ny * ny + nz * nz);
    if (nb >= 0) {
      State b = loadState(u, nb, n);
      Derived db = derive(b);
      Bounded visc = smoothing * area * half * (speedA + sqrt(db.speed2) + da.sound + db.sound);
      rDensity += visc * (b.density - a.density);
      rMx += visc * (b.mx - a.mx);
      rMy += visc * (b.my - a.my);
      rMz += visc * (b.mz - a.mz);
      rEnergy += visc * (b.energy - a.energy);
      const Bounded mb[3] = {b.mx, b.my, b.mz};
      rDensity = centralFlux(rDensity, nx, ny, nz, ma, mb);
      rMx = centralFlux(rMx, nx, ny, nz, da.fmx, db.fmx);
      rMy = centralFlux(rMy, nx, ny, nz, da.fmy, db.fmy);
      rMz = centralFlux(rMz, nx, ny, nz, da.fmz, db.fmz);
      rEnergy = centralFlux(rEnergy, nx, ny, nz, da.fe, db.fe);
    } else if (nb == kWall) {
      rMx -= nx * da.pressure;
      rMy -= ny * da.pressure;
      rMz -= nz * da.pressure;
    } else if (nb == kFarField) {
      Bounded visc = smoothing * area * half * (speedA + da.sound + ff.speedPlusSound);
      rDensity += visc * (Bounded(ff.density) - a.density);
      rMx += visc * (Bounded(ff.momentumX) - a.mx);
      rMy += visc * (Bounded(ff.momentumY) - a.my);
      rMz += visc * (Bounded(ff.momentumZ) - a.mz);
      rEnergy += visc * (Bounded(ff.energy) - a.energy);
      const Bounded mf[3] = {ff.momentumX, ff.momentumY, ff.momentumZ};
      rDensity = centralFlux(rDensity, nx, ny, nz, ma, mf);
      rMx = centralFlux(rMx, nx, ny, nz, da.fmx, exact(ff.fluxMomentumX).data());
      rMy = centralFlux(rMy, nx, ny, nz, da.fmy, exact(ff.fluxMomentumY).data());
      rMz = centralFlux(rMz, nx, ny, nz, da.fmz, exact(ff.fluxMomentumZ).data());
      rEnergy = centralFlux(rEnergy, nx, ny, nz, da.fe, exact(ff.fluxEnergy).data());
    }
  }
  return {rDensity, rMx, rMy, rMz, rEnergy};
}

// ---- Checks ---------------------------------------------------------------------------------

// Compares `got` with the bounded reference values (tolerance twice the bound, see Bounded).
std::string compare(std::string_view what, const std::vector<float>& got,
                    const std::vector<Bounded>& ref, double* worst) {
  std::vector<double> expect(ref.size()), bound(ref.size());
  for (size_t k = 0; k < ref.size(); ++k) {
    expect[k] = ref[k].v;
    bound[k] = 2 * ref[k].e;
  }
  double w = 0;
  std::string bad = boundedMismatch(what, got, expect, bound, &w);
  *worst = std::max(*worst, w);
  return bad;
}

// The free stream: density 1.4, pressure 1 (sound speed 1), Mach 0.5 at 3 degrees of attack
// (towards the wall plane z = 0).
constexpr double kDensity = 1.4, kPressure = 1.0, kMach = 0.5;
constexpr double kAttack = 3.0 * std::numbers::pi / 180.0;

std::array<double, 3> freeStreamVelocity() {
  const double speed = kMach * std::sqrt(kGamma * kPressure / kDensity);
  return {speed * std::cos(kAttack), 0.0, -speed * std::sin(kAttack)};
}

double totalEnergy(double density, double pressure, const std::array<double, 3>& v) {
  return pressure / (kGamma - 1.0) + 0.5 * density * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

FarField makeFarField() {
  const std::array<double, 3> v = freeStreamVelocity();
  const double energy = totalEnergy(kDensity, kPressure, v);
  FarField ff{};
  ff.density = static_cast<float>(kDensity);
  ff.momentumX = static_cast<float>(kDensity * v[0]);
  ff.momentumY = static_cast<float>(kDensity * v[1]);
  ff.momentumZ = static_cast<float>(kDensity * v[2]);
  ff.energy = static_cast<float>(energy);
  for (int a = 0; a < 3; ++a) {
    ff.fluxMomentumX[a] = static_cast<float>(kDensity * v[0] * v[a] + (a == 0 ? kPressure : 0));
    ff.fluxMomentumY[a] = static_cast<float>(kDensity * v[1] * v[a] + (a == 1 ? kPressure : 0));
    ff.fluxMomentumZ[a] = static_cast<float>(kDensity * v[2] * v[a] + (a == 2 ? kPressure : 0));
    ff.fluxEnergy[a] = static_cast<float>(v[a] * (energy + kPressure));
  }
  const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  ff.speedPlusSound = static_cast<float>(speed + std::sqrt(kGamma * kPressure / kDensity));
  return ff;
}

// The free stream perturbed per cell: density and pressure by up to 2%, each velocity
// component by up to 0.02 (the sound speed is 1).
std::vector<float> initialState(int n, InputGenerator& gen) {
  const std::array<double, 3> stream = freeStreamVelocity();
  std::vector<float> u(5 * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    double density = kDensity * uniformReal(gen, 0.98, 1.02);
    double pressure = kPressure * uniformReal(gen, 0.98, 1.02);
    std::array<double, 3> v;
    for (int a = 0; a < 3; ++a) v[a] = stream[a] + uniformReal(gen, -0.02, 0.02);
    u[i] = static_cast<float>(density);
    for (int a = 0; a < 3; ++a) {
      u[static_cast<size_t>(a + 1) * n + i] = static_cast<float>(density * v[a]);
    }
    u[4 * static_cast<size_t>(n) + i] = static_cast<float>(totalEnergy(density, pressure, v));
  }
  return u;
}

Outcome run(WorkloadContext& ctx) {
  const int edge = static_cast<int>(ctx.size);
  if (edge < 2) {
    throw runtime::Error(fmt::format("cfd: the mesh edge must be at least 2, not {}", edge));
  }
  InputGenerator gen(ctx.seed);
  const Mesh mesh = makeMesh(edge, gen);
  const int n = mesh.n;
  const size_t values = 5 * static_cast<size_t>(n);
  const FarField ff = makeFarField();
  std::vector<float> u = initialState(n, gen);

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("cfd"), "cfd.ptx");
  runtime::Kernel stepKernel = mod.kernel("cfd_step_factor"), fluxKernel = mod.kernel("cfd_flux");
  runtime::Kernel timeStepKernel = mod.kernel("cfd_time_step");
  gpu.memcpyHtoD(mod.symbolAddress("c_farField"), &ff, sizeof ff);
  uint64_t dU = gpu.upload(u), dOld = gpu.malloc(values * 4), dResidual = gpu.malloc(values * 4);
  uint64_t dStep = gpu.malloc(static_cast<size_t>(n) * 4);
  uint64_t dNeighbours = gpu.upload(mesh.neighbours), dNormals = gpu.upload(mesh.normals);
  uint64_t dVolumes = gpu.upload(mesh.volumes);
  const func::Dim3 grid{ceilDiv(n, kThreads)}, block{kThreads};
  // XMem atoms (xmem_atoms.h), one per structure, before the first launch. Requests per
  // iteration (a step factor and 3 stages of flux and time step), in units of n 32-byte sectors:
  // the state u about 19 (4.4 for its own cells, 15 for the gathers at the 4 neighbours, whose
  // numbers are jittered by up to 96 cells: about twice the sectors of a coalesced read), normals
  // 4.5, residual 3.8, old 1.9, neighbours 1.5, step 0.5, volumes 0.1. The arrays are structures
  // of arrays: the lanes walk consecutive cells (stride 4).
  const uint64_t cellBytes = uint64_t{4} * n, stateBytes = values * 4;
  // u: read at each cell and gathered at its 4 neighbours (data-dependent) every stage; the hottest.
  describeStructure(gpu, "cfd:u", dU, stateBytes, WARPSIM_ATOM_FLOAT32, irregularAccess(255), 15,
                    WARPSIM_ATOM_READ_WRITE);
  // normals: 12 planes read in order by every flux launch (9 per run).
  describeStructure(gpu, "cfd:normals", dNormals, 12 * cellBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 60), 8,
                    WARPSIM_ATOM_READ_ONLY);
  // residual: 5 planes written by flux, read once by the time step.
  describeStructure(gpu, "cfd:residual", dResidual, stateBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 50), 1,
                    WARPSIM_ATOM_READ_WRITE);
  // old: the state at the iteration's start (copied by the host), read by its 3 time steps.
  describeStructure(gpu, "cfd:old", dOld, stateBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 25), 2,
                    WARPSIM_ATOM_READ_ONLY);
  // neighbours: 4 planes of cell numbers read in order by every flux launch.
  describeStructure(gpu, "cfd:neighbours", dNeighbours, 4 * cellBytes, WARPSIM_ATOM_INT32 | WARPSIM_ATOM_INDEX,
                    regularAccess(4, 20), 8, WARPSIM_ATOM_READ_ONLY);
  // step: written by the step factor, read by the iteration's 3 time steps.
  describeStructure(gpu, "cfd:step", dStep, cellBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 7), 3,
                    WARPSIM_ATOM_READ_WRITE);
  // volumes: read once per iteration by the step factor.
  describeStructure(gpu, "cfd:volumes", dVolumes, cellBytes, WARPSIM_ATOM_FLOAT32, regularAccess(4, 2), 2,
                    WARPSIM_ATOM_READ_ONLY);
  // c_farField (constant memory): 72 bytes every boundary cell reads (a broadcast); in the constant cache.
  describeStructure(gpu, "cfd:far field", mod.symbolAddress("c_farField"), sizeof ff, WARPSIM_ATOM_FLOAT32,
                    regularAccess(4, 0), 255, WARPSIM_ATOM_READ_ONLY);

  double worstStep = 0, worstFlux = 0, worstUpdate = 0;
  for (int it = 0; it < kIterations; ++it) {
    gpu.memcpyDtoD(dOld, dU, values * 4);
    const std::vector<float> old = u;
    launch(ctx, stepKernel, grid, block, 0, dU, dVolumes, dStep, n);
    std::vector<float> step = gpu.download<float>(dStep, n);
    std::vector<Bounded> refStep(n);
    for (int i = 0; i < n; ++i) refStep[i] = stepFactor(old, mesh.volumes, i, n);
    std::string bad = compare("step factor", step, refStep, &worstStep);
    if (!bad.empty()) return fail(fmt::format("iteration {}: {}", it, bad));

    for (int stage = 0; stage < kStages; ++stage) {
      launch(ctx, fluxKernel, grid, block, 0, dU, dNeighbours, dNormals, dResidual, n);
      std::vector<float> res = gpu.download<float>(dResidual, values);
      std::vector<Bounded> refRes(values);
      for (int i = 0; i < n; ++i) {
        std::array<Bounded, 5> r = residual(u, mesh, ff, i);
        for (int v = 0; v < 5; ++v) refRes[static_cast<size_t>(v) * n + i] = r[v];
      }
      bad = compare("residual", res, refRes, &worstFlux);
      if (!bad.empty()) return fail(fmt::format("iteration {} stage {}: {}", it, stage, bad));

      const float alpha = 1.0f / static_cast<float>(kStages - stage);  // 1/3, 1/2, 1
      launch(ctx, timeStepKernel, grid, block, 0, dOld, dU, dStep, dResidual, alpha, n);
      std::vector<float> next = gpu.download<float>(dU, values);
      std::vector<Bounded> refNext(values);
      for (size_t k = 0; k < values; ++k) {
        Bounded factor = Bounded(alpha) * Bounded(step[k % n]);
        refNext[k] = Bounded(old[k]) + factor * Bounded(res[k]);
      }
      bad = compare("state", next, refNext, &worstUpdate);
      if (!bad.empty()) return fail(fmt::format("iteration {} stage {}: {}", it, stage, bad));
      u.swap(next);
    }
  }
  return {true, fmt::format("{} cells ({}x{}x{}), {} iterations of {} stages, worst error {:.2g} "
                            "(step factors), {:.2g} (residuals), {:.2g} (states) of the bound",
                            n, 2 * edge, edge, edge, kIterations, kStages, worstStep, worstFlux,
                            worstUpdate)};
}

}  // namespace cfd

Workload cfdWorkload() {
  return {"cfd",
          "science",
          "unstructured-grid Euler solver: step factor, flux and Runge-Kutta kernels",
          "mesh edge (2e x e x e cells)",
          10,
          24,
          48,
          128,
          cfd::run};
}

}  // namespace warpsim::workloads
