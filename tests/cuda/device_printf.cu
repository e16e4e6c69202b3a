// nvcc-flags: -arch=compute_80 -O3
// Device printf with integer, float, string and pointer-sized arguments.
#include <cstdio>

extern "C" __global__ void device_printf(const int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] % 2 == 0)
    printf("thread %d block %u value %d half %.2f %s\n", i, blockIdx.x, values[i],
           values[i] * 0.5f, values[i] > 10 ? "big" : "small");
}
