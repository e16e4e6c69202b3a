// Shared-memory addresses wrap modulo 2^32, as PTX defines them ("Addresses as Operands": an
// address is truncated to its state space's width, and shared addresses are 32 bits wide).
// nvcc strength-reduces the loop below into a 32-bit pointer that starts below the shared array,
// s + 4 * (t + 2 - r), and loads through [p + 4], [p + 8], ...; with the array at shared offset 0
// the pointer holds a wrapped value such as 0xfffffffc, and a GPU's 32-bit address arithmetic
// lands on s[0]. The window sums must match the CPU's for every radius.
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kBlock = 128;
constexpr int kBlocks = 3;

__global__ void window_sum(const int* in, int* out, int r) {
  __shared__ int s[kBlock];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * kBlock + t];
  __syncthreads();
  int sum = 0;
  for (int k = -r; k <= r; ++k) {
    int j = t + k;
    if (j >= 0 && j < kBlock) sum += s[j] * (k + 20);
  }
  out[blockIdx.x * kBlock + t] = sum;
}

int main() {
  const int n = kBlock * kBlocks;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 201 - 100;
  int *dIn, *dOut;
  CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  for (int r : {1, 3, 15, 40}) {
    window_sum<<<kBlocks, kBlock>>>(dIn, dOut, r);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int b = 0; b < kBlocks; ++b) {
      for (int t = 0; t < kBlock; ++t) {
        int sum = 0;
        for (int k = -r; k <= r; ++k) {
          int j = t + k;
          if (j >= 0 && j < kBlock) sum += in[b * kBlock + j] * (k + 20);
        }
        wrong += out[b * kBlock + t] != sum;
      }
    }
    char what[64];
    std::snprintf(what, sizeof what, "window sums of radius %d", r);
    EXPECT(wrong == 0, what);
  }
  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dOut));
  std::printf("PASS\n");
  return 0;
}
