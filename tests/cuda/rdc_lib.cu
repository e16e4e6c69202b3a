// nvcc-flags: -arch=compute_80 -O3 -rdc=true
// The library unit of a separately compiled program (rdc_main.cu holds the kernel): a
// __device__ function the other unit calls and that calls back into it, the variables the other
// unit declares extern, and a printf string of its own. (No `static` variables: nvcc names them
// after a hash of the source path, which would make the committed PTX differ between checkouts.)
#include <cstdio>

__device__ int scale = 3;                       // extern in rdc_main.cu
__constant__ int offsets[4] = {10, 20, 30, 40};  // extern in rdc_main.cu
__device__ int twiceMore(int x);                // defined in rdc_main.cu

__device__ __noinline__ int combine(int x) {
  if (x == 1) printf("combine in the library unit\n");
  return twiceMore(x) * scale + offsets[x & 3];
}
