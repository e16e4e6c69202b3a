// nvcc-flags: -arch=compute_80 -O3
// Sum and largest magnitude of a float vector with warp shuffles: each thread accumulates a
// grid-stride slice, each warp combines its 32 values with shuffles (shfl.down for the sum,
// a shfl.bfly butterfly for the maximum, which leaves the result in every lane), the warps of a
// block meet in a 32-entry shared array, and the first warp combines those. One (sum, max) pair
// per block; the host launches a single block on the pairs to finish.

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ float warpMax(float v) {
  for (int mask = 16; mask > 0; mask >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, mask));
  return v;
}

// First pass: `in` holds n values; writes blockSum[blockIdx.x] and blockMax[blockIdx.x].
// Later pass (absolute == 0): `in` are partial sums and `inMax` partial maxima.
extern "C" __global__ void reduce_shfl(const float* __restrict__ in,
                                       const float* __restrict__ inMax, int n, int absolute,
                                       float* __restrict__ blockSum, float* __restrict__ blockMax) {
  __shared__ float warpSums[32];
  __shared__ float warpMaxes[32];
  float sum = 0.0f, biggest = 0.0f;
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    sum += in[i];
    biggest = fmaxf(biggest, absolute ? fabsf(in[i]) : inMax[i]);
  }
  sum = warpSum(sum);
  biggest = warpMax(biggest);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    warpSums[warp] = sum;
    warpMaxes[warp] = biggest;
  }
  __syncthreads();
  if (warp == 0) {
    int warps = (blockDim.x + 31) >> 5;
    sum = lane < warps ? warpSums[lane] : 0.0f;
    biggest = lane < warps ? warpMaxes[lane] : 0.0f;
    sum = warpSum(sum);
    biggest = warpMax(biggest);
    if (lane == 0) {
      blockSum[blockIdx.x] = sum;
      blockMax[blockIdx.x] = biggest;
    }
  }
}
