// Two phases without the __syncthreads() between them: each thread writes its slot of a shared
// array, then reads the slot of a thread in another warp, at an index it loads from global
// memory. A GPU runs this correctly although it is a race: the warps of a CTA issue their
// stores within a few cycles of each other, while every read waits for its index, a global load
// of hundreds of cycles issued after the thread's own store, so no read can come before the
// other warps' stores. (A simulator that ran the warps one after another would have warp 0 read
// slots no other warp has written yet.) Printed values are the GPU's in both modes.
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kBlock = 256;
constexpr int kBlocks = 2;

__global__ void phases(const int* partner, int* out) {
  __shared__ int s[kBlock];
  const int t = threadIdx.x;
  s[t] = (blockIdx.x + 1) * 1000 + t * t;  // phase 1
  // __syncthreads() missing here
  out[blockIdx.x * kBlock + t] = s[partner[t]];  // phase 2
}

int main() {
  std::vector<int> partner(kBlock);
  for (int t = 0; t < kBlock; ++t) partner[t] = (t + 96) % kBlock;  // three warps ahead
  int *dPartner, *dOut;
  const int n = kBlocks * kBlock;
  CHECK(cudaMalloc(&dPartner, kBlock * sizeof(int)));
  CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CHECK(cudaMemcpy(dPartner, partner.data(), kBlock * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dOut, 0xff, n * sizeof(int)));
  phases<<<kBlocks, kBlock>>>(dPartner, dOut);
  CHECK(cudaGetLastError());
  std::vector<int> out(n);
  CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("out[0] = %d, out[31] = %d, out[200] = %d, out[511] = %d\n", out[0], out[31], out[200], out[511]);
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b) {
    for (int t = 0; t < kBlock; ++t) {
      const int p = partner[t];
      wrong += out[b * kBlock + t] != (b + 1) * 1000 + p * p;
    }
  }
  EXPECT(wrong == 0, "every thread read the other warp's phase-1 value");
  CHECK(cudaFree(dPartner));
  CHECK(cudaFree(dOut));
  std::printf("PASS\n");
  return 0;
}
