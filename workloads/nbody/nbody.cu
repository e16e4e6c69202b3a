// nvcc-flags: -arch=compute_80 -O3
// Gravitational n-body time step with softening, all pairs:
//  * nbody_accelerations: each thread owns one body and walks all bodies in tiles of
//    blockDim.x, every tile staged in shared memory by the whole block (one float4 per body:
//    position and mass);
//  * nbody_integrate: v += a dt, p += v dt (semi-implicit Euler).

extern "C" __global__ void nbody_accelerations(const float4* __restrict__ bodies, int n,
                                               float softening2, float4* __restrict__ accel) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? bodies[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int start = 0; start < n; start += blockDim.x) {
    int j = start + threadIdx.x;
    // Bodies past the end have zero mass and pull nothing.
    tile[threadIdx.x] = j < n ? bodies[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) {
      float4 other = tile[k];
      float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
      float dist2 = dx * dx + dy * dy + dz * dz + softening2;
      float inv = rsqrtf(dist2);
      float strength = other.w * inv * inv * inv;
      ax += dx * strength;
      ay += dy * strength;
      az += dz * strength;
    }
    __syncthreads();
  }
  if (i < n) accel[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" __global__ void nbody_integrate(float4* __restrict__ bodies,
                                           float4* __restrict__ velocities,
                                           const float4* __restrict__ accel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = bodies[i], v = velocities[i], a = accel[i];
  v.x += a.x * dt;
  v.y += a.y * dt;
  v.z += a.z * dt;
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  bodies[i] = p;
  velocities[i] = v;
}
