// nvcc-flags: -arch=compute_80 -O3
// A finite-volume solver for the 3-D compressible Euler equations on an unstructured mesh of
// cells with four faces each (after Rodinia's CFD). Every array is a structure of arrays with
// stride n (the cell count): the five conserved variables (density, momentum x/y/z, energy),
// the four neighbour indices of a cell and the outward normals of its faces (length = face
// area). A negative neighbour index marks a boundary face: kWall (slip wall: only pressure
// acts) or kFarField (the free stream, whose state and fluxes are uniform constants).
// One iteration: cfd_step_factor (a local time step per cell from its sound speed), then three
// Runge-Kutta stages of cfd_flux (the residual of each cell over its faces: central fluxes of
// both states plus artificial viscosity) and cfd_time_step (U = U_old + alpha * step * residual).

#define GAMMA 1.4f
#define SMOOTHING 0.2f  // artificial viscosity coefficient
#define WALL -1
#define FAR_FIELD -2

// The free stream, written by the host: read uniformly by every thread of cfd_flux.
struct FarField {
  float density, momentumX, momentumY, momentumZ, energy;
  float fluxMomentumX[3], fluxMomentumY[3], fluxMomentumZ[3], fluxEnergy[3];
  float speedPlusSound;  // |v| + c of the free stream
};
__constant__ FarField c_farField;

struct State {
  float density, mx, my, mz, energy;
};

// The derived quantities of a state: velocity, pressure, sound speed and the flux vectors
// (one row of the flux tensor per conserved variable; the density flux is the momentum).
struct Derived {
  float vx, vy, vz, speed2, pressure, sound;
  float fmx[3], fmy[3], fmz[3], fe[3];
};

__device__ State loadState(const float* __restrict__ u, int i, int n) {
  return {u[i], u[n + i], u[2 * n + i], u[3 * n + i], u[4 * n + i]};
}

__device__ Derived derive(const State& s) {
  Derived d;
  d.vx = s.mx / s.density;
  d.vy = s.my / s.density;
  d.vz = s.mz / s.density;
  d.speed2 = d.vx * d.vx + d.vy * d.vy + d.vz * d.vz;
  d.pressure = (GAMMA - 1.0f) * (s.energy - 0.5f * s.density * d.speed2);
  d.sound = sqrtf(GAMMA * d.pressure / s.density);
  d.fmx[0] = s.mx * d.vx + d.pressure;
  d.fmx[1] = s.mx * d.vy;
  d.fmx[2] = s.mx * d.vz;
  d.fmy[0] = s.my * d.vx;
  d.fmy[1] = s.my * d.vy + d.pressure;
  d.fmy[2] = s.my * d.vz;
  d.fmz[0] = s.mz * d.vx;
  d.fmz[1] = s.mz * d.vy;
  d.fmz[2] = s.mz * d.vz + d.pressure;
  float h = s.energy + d.pressure;
  d.fe[0] = d.vx * h;
  d.fe[1] = d.vy * h;
  d.fe[2] = d.vz * h;
  return d;
}

extern "C" __global__ void cfd_step_factor(const float* __restrict__ u,
                                           const float* __restrict__ volumes,
                                           float* __restrict__ step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Derived d = derive(loadState(u, i, n));
  step[i] = 0.5f / (sqrtf(volumes[i]) * (sqrtf(d.speed2) + d.sound));
}

// residual -= 0.5 (n . (f_a + f_b)) for one conserved variable (outward normal: outflow).
__device__ float centralFlux(float r, float nx, float ny, float nz, const float* fa,
                             const float* fb) {
  r -= 0.5f * nx * (fa[0] + fb[0]);
  r -= 0.5f * ny * (fa[1] + fb[1]);
  r -= 0.5f * nz * (fa[2] + fb[2]);
  return r;
}

extern "C" __global__ void cfd_flux(const float* __restrict__ u, const int* __restrict__ neighbours,
                                    const float* __restrict__ normals,
                                    float* __restrict__ residual, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  State a = loadState(u, i, n);
  Derived da = derive(a);
  float speedA = sqrtf(da.speed2);
  const float ma[3] = {a.mx, a.my, a.mz};
  float rDensity = 0.0f, rMx = 0.0f, rMy = 0.0f, rMz = 0.0f, rEnergy = 0.0f;
#pragma unroll
  for (int f = 0; f < 4; ++f) {
    int nb = neighbours[f * n + i];
    float nx = normals[(3 * f) * n + i];
    float ny = normals[(3 * f + 1) * n + i];
    float nz = normals[(3 * f + 2) * n + i];
    float area = sqrtf(nx * nx + ny * ny + nz * nz);
    if (nb >= 0) {
      State b = loadState(u, nb, n);
      Derived db = derive(b);
      // Artificial viscosity: the difference of the states times the face's spectral radius.
      float visc = SMOOTHING * area * 0.5f * (speedA + sqrtf(db.speed2) + da.sound + db.sound);
      rDensity += visc * (b.density - a.density);
      rMx += visc * (b.mx - a.mx);
      rMy += visc * (b.my - a.my);
      rMz += visc * (b.mz - a.mz);
      rEnergy += visc * (b.energy - a.energy);
      const float mb[3] = {b.mx, b.my, b.mz};
      rDensity = centralFlux(rDensity, nx, ny, nz, ma, mb);
      rMx = centralFlux(rMx, nx, ny, nz, da.fmx, db.fmx);
      rMy = centralFlux(rMy, nx, ny, nz, da.fmy, db.fmy);
      rMz = centralFlux(rMz, nx, ny, nz, da.fmz, db.fmz);
      rEnergy = centralFlux(rEnergy, nx, ny, nz, da.fe, db.fe);
    } else if (nb == WALL) {
      // Slip wall: no mass or energy crosses it; the pressure pushes back on the momentum.
      rMx -= nx * da.pressure;
      rMy -= ny * da.pressure;
      rMz -= nz * da.pressure;
    } else if (nb == FAR_FIELD) {
      const FarField& ff = c_farField;
      float visc = SMOOTHING * area * 0.5f * (speedA + da.sound + ff.speedPlusSound);
      rDensity += visc * (ff.density - a.density);
      rMx += visc * (ff.momentumX - a.mx);
      rMy += visc * (ff.momentumY - a.my);
      rMz += visc * (ff.momentumZ - a.mz);
      rEnergy += visc * (ff.energy - a.energy);
      const float mf[3] = {ff.momentumX, ff.momentumY, ff.momentumZ};
      rDensity = centralFlux(rDensity, nx, ny, nz, ma, mf);
      rMx = centralFlux(rMx, nx, ny, nz, da.fmx, ff.fluxMomentumX);
      rMy = centralFlux(rMy, nx, ny, nz, da.fmy, ff.fluxMomentumY);
      rMz = centralFlux(rMz, nx, ny, nz, da.fmz, ff.fluxMomentumZ);
      rEnergy = centralFlux(rEnergy, nx, ny, nz, da.fe, ff.fluxEnergy);
    }
  }
  residual[i] = rDensity;
  residual[n + i] = rMx;
  residual[2 * n + i] = rMy;
  residual[3 * n + i] = rMz;
  residual[4 * n + i] = rEnergy;
}

// One Runge-Kutta stage: U = U_old + alpha * step * residual (alpha = 1/3, 1/2, 1).
extern "C" __global__ void cfd_time_step(const float* __restrict__ old, float* __restrict__ u,
                                         const float* __restrict__ step,
                                         const float* __restrict__ residual, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float factor = alpha * step[i];
#pragma unroll
  for (int v = 0; v < 5; ++v) u[v * n + i] = old[v * n + i] + factor * residual[v * n + i];
}
