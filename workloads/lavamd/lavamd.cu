// nvcc-flags: -arch=compute_80 -O3
// Particle interactions in a 3-D grid of boxes (as Rodinia's lavaMD): every box holds kPerBox
// particles; each particle interacts with every particle of its own box and of the (up to 26)
// neighbouring boxes, with a Gaussian pair potential exp(-a2 r^2) and its force.
//
// One CTA of 128 threads per home box; thread t < kPerBox owns particle t of the box, keeps its
// position in registers and accumulates its potential and force in the output array fv (in
// global memory, as Rodinia accumulates into its output). For each box of the neighbour list
// (the home box first), the CTA stages that box's particles into shared memory, then every
// owning thread sweeps them. Particles are float4 (x, y, z, charge); fv is float4
// (potential, fx, fy, fz).
//
// Reuse: each box's particles are read by the CTAs of all its neighbours (27 CTAs of nearby box
// numbers: inter-CTA, through the L1 and L2), and each thread rereads and rewrites its own fv
// entry once per neighbour box (intra-thread).

#define kPerBox 100
#define kThreads 128

extern "C" __global__ void lavamd(float a2, const int* __restrict__ neighbourCount,
                                  const int* __restrict__ neighbours, const float4* particles,
                                  float4* fv) {
  __shared__ float4 other[kPerBox];
  const int home = blockIdx.x;
  const int t = threadIdx.x;
  float4 me = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (t < kPerBox) me = particles[home * kPerBox + t];
  float4* out = fv + home * kPerBox + t;
  const int count = neighbourCount[home];
  for (int k = 0; k < count; ++k) {
    const int box = neighbours[home * 27 + k];
    if (t < kPerBox) other[t] = particles[box * kPerBox + t];
    __syncthreads();
    if (t < kPerBox) {
      float4 acc = *out;
      for (int j = 0; j < kPerBox; ++j) {
        const float4 q = other[j];
        const float dx = me.x - q.x, dy = me.y - q.y, dz = me.z - q.z;
        const float r2 = dx * dx + dy * dy + dz * dz;
        const float vij = expf(-a2 * r2);
        const float fs = 2.0f * vij;
        acc.x += q.w * vij;
        acc.y += q.w * fs * dx;
        acc.z += q.w * fs * dy;
        acc.w += q.w * fs * dz;
      }
      *out = acc;
    }
    __syncthreads();
  }
}
