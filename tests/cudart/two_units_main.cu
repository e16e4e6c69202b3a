// Two translation units, each with its own fat binary, kernels and variables (see
// two_units_other.cu): registrations must not mix up their modules.
#include <cstdio>

__device__ int offset = 7;  // same name as the other unit's variable, a different object
__global__ void doubleIt(int* v) { v[threadIdx.x] = threadIdx.x * 2 + offset; }
void addOffsetElsewhere(int* v);

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  doubleIt<<<1, 32>>>(d);
  addOffsetElsewhere(d);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int own = 0;
  cudaMemcpyFromSymbol(&own, offset, sizeof own);
  std::printf("v[1] = %d, v[31] = %d, offset here = %d: %s\n", h[1], h[31], own,
              cudaGetErrorString(cudaGetLastError()));
  return h[1] == 1009 && h[31] == 1069 && own == 7 ? 0 : 1;
}
