// The library unit of rdc_calls.cu (compiled with it, -rdc=true): functions and variables that
// rdc_calls.cu declares extern, a kernel of its own, and calls back into rdc_calls.cu.
#include <cstdio>

__device__ int scale = 3;
__constant__ int offsets[4];
extern __device__ int hits;          // rdc_calls.cu
__device__ int twiceMore(int x);     // rdc_calls.cu
__device__ bool isEven(int n);       // rdc_calls.cu

__device__ __noinline__ int combine(int x) { return twiceMore(x) * scale + offsets[x & 3]; }
__device__ __noinline__ bool isOdd(int n) { return n == 0 ? false : isEven(n - 1); }

__global__ void libraryKernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("library unit: scale %d\n", scale);
  if (i < n) {
    out[i] = 2 * combine(i);
    atomicAdd(&hits, 1);
  }
}

void launchLibrary(int* out, int n) { libraryKernel<<<1, 128>>>(out, n); }
