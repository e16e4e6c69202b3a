// nvcc-flags: -arch=compute_80 -O3 -rdc=true
// The kernel unit of a separately compiled program: it calls combine() of rdc_lib.cu, which
// calls twiceMore() back here, and reads rdc_lib.cu's `scale` and `offsets`. Its printf string
// is its own: both units name theirs `$str`.
#include <cstdio>

extern __device__ int scale;
extern __constant__ int offsets[4];
__device__ int combine(int x);

__device__ __noinline__ int twiceMore(int x) { return 2 * x + 7; }

__global__ void linked(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("kernel in the main unit\n");
  if (i < n) out[i] = combine(i) + scale + offsets[3];
}
