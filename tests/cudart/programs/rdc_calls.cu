// nvcc: -rdc=true
// nvcc-sources: rdc_calls_lib.cu
// Separately compiled device code (nvcc -rdc=true): a kernel here calls __device__ functions
// defined in rdc_calls_lib.cu, which call back into this unit (mutual recursion across the two),
// and both units use each other's __device__ and __constant__ variables; the library unit also
// has a kernel of its own, launched by host code there. nvlink links the two units' device code
// into one image, so on a GPU every extern declaration reaches the other unit's definition, the
// host's cudaMemcpyToSymbol on an extern __constant__ reaches it too, and each unit keeps its own
// printf strings. Every value is checked against the host's computation.
#include <cstdio>

#include "check.h"

extern __device__ int scale;         // rdc_calls_lib.cu
extern __constant__ int offsets[4];  // rdc_calls_lib.cu, filled by the host below
__device__ int hits = 0;             // counted here and in rdc_calls_lib.cu
__device__ int combine(int x);       // rdc_calls_lib.cu
__device__ bool isOdd(int n);        // rdc_calls_lib.cu
void launchLibrary(int* out, int n);  // host code of rdc_calls_lib.cu

__device__ __noinline__ int twiceMore(int x) { return 2 * x + 7; }
__device__ __noinline__ bool isEven(int n) { return n == 0 ? true : isOdd(n - 1); }

__global__ void mainKernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("main unit: scale %d\n", scale);
  if (i < n) {
    out[i] = combine(i) + offsets[3] + (isEven(i % 9) ? 1000 : 0);
    atomicAdd(&hits, 1);
  }
}

int main() {
  const int host[4] = {10, 20, 30, 40};
  CHECK(cudaMemcpyToSymbol(offsets, host, sizeof host));
  const int n = 100;
  int* d;
  CHECK(cudaMalloc(&d, 2 * n * sizeof(int)));
  mainKernel<<<2, 64>>>(d, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  launchLibrary(d + n, n);
  int out[2 * n];
  CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
  int h = 0, s = 0;
  CHECK(cudaMemcpyFromSymbol(&h, hits, sizeof h));
  CHECK(cudaMemcpyFromSymbol(&s, scale, sizeof s));
  bool kernelHere = true, kernelThere = true;
  for (int i = 0; i < n; ++i) {
    const int combined = (2 * i + 7) * 3 + host[i & 3];
    kernelHere = kernelHere && out[i] == combined + 40 + ((i % 9) % 2 == 0 ? 1000 : 0);
    kernelThere = kernelThere && out[n + i] == combined * 2;
  }
  std::printf("out[5] = %d, out[%d] = %d, hits = %d, scale = %d\n", out[5], n + 5, out[n + 5], h, s);
  EXPECT(kernelHere, "the kernel here calls and reads the other unit");
  EXPECT(kernelThere, "the other unit's kernel calls back here");
  EXPECT(h == 2 * n, "both units count in one __device__ variable");
  EXPECT(s == 3, "the host reads the other unit's variable");
  std::printf("PASS\n");
  return 0;
}
