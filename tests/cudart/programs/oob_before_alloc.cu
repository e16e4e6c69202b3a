// Reads just outside cudaMalloc'd memory work on a GPU: the driver maps device memory in 2 MiB
// pages, allocations are 256-byte aligned and packed into them, and the runtime's own
// allocations come before the first user allocation. This vertical-difference stencil reads the
// row above, a[i - cols], for every element, row 0 included, so it reads the cols elements before
// its first allocation; row 0 then overwrites what that read gave. It must run and give the right
// result (warpsim warns once per launch); under --memcheck (WARPSIM_MEMCHECK=1) the first such
// read is an error, as in compute-sanitizer.
#include <cstdio>
#include <vector>

#include "check.h"

__global__ void vertical_difference(const float* a, float* d, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  float up = a[i - cols];  // row 0: before the allocation
  if (i < cols) up = 0.0f;
  d[i] = a[i] - up;
}

int main() {
  const int rows = 24, cols = 1000, n = rows * cols;
  std::vector<float> a(n), d(n);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>((i % cols) * 0.5 + (i / cols) * (i / cols));
  float *dA, *dD;
  CHECK(cudaMalloc(&dA, n * sizeof(float)));  // the program's first allocation
  CHECK(cudaMalloc(&dD, n * sizeof(float)));
  CHECK(cudaMemcpy(dA, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  vertical_difference<<<(n + 255) / 256, 256>>>(dA, dD, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(d.data(), dD, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float up = i < cols ? 0.0f : a[i - cols];
    wrong += d[i] != a[i] - up;
  }
  EXPECT(wrong == 0, "vertical differences, row 0 included");
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dD));
  std::printf("PASS\n");
  return 0;
}
