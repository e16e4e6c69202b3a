// nvcc-flags: -arch=compute_80 -O3
// Module-scope variables: __constant__ coefficients filled by the host, __device__ globals with
// initialisers (including a table of pointers to other globals), and a global counter.

__constant__ float coeffs[8];
__device__ int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__device__ int* halves[2] = {&table[0], &table[4]};
__device__ unsigned counter;

extern "C" __global__ void const_globals(const float* in, float* out, int* picked, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float poly = 0.0f;
  for (int k = 7; k >= 0; --k) poly = poly * x + coeffs[k];  // Horner
  out[i] = poly;
  picked[i] = halves[i & 1][i & 3];
  atomicAdd(&counter, 1u);
}
