// Volta-style barriers: since sm_70 __syncthreads() waits for threads, not warps, so the two
// halves of a diverged warp may reach it at different `bar.sync` instructions (here one in each
// branch of an if/else on the lane number). Each half writes its own shared slots, waits at its
// own barrier, then reads the other half's slots of the other warp; the barriers are the same
// barrier 0, so every read sees the other half's write. Before sm_70 this program deadlocks or
// reads stale data; on a Volta or later GPU it is correct.
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kBlock = 128;

__global__ void halves(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int t = threadIdx.x;
  const int lane = t % 32;
  const int partner = (t + 48) % kBlock;  // the other half of the next warp but one
  int v = in[blockIdx.x * kBlock + t];
  if (lane < 16) {
    s[t] = v * 3;
    __syncthreads();
    out[blockIdx.x * kBlock + t] = s[partner] + 1;
  } else {
    s[t] = v * 5 - 7;
    __syncthreads();
    out[blockIdx.x * kBlock + t] = s[partner] * 2;
  }
}

int main() {
  const int blocks = 4, n = blocks * kBlock;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101;
  int *dIn, *dOut;
  CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  halves<<<blocks, kBlock>>>(dIn, dOut);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(n);
  CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < kBlock; ++t) {
      const int p = (t + 48) % kBlock;
      const int pv = in[b * kBlock + p];
      const int written = p % 32 < 16 ? pv * 3 : pv * 5 - 7;
      const int expect = t % 32 < 16 ? written + 1 : written * 2;
      wrong += out[b * kBlock + t] != expect;
    }
  }
  std::printf("out[0] = %d, out[17] = %d, out[%d] = %d\n", out[0], out[17], n - 1, out[n - 1]);
  EXPECT(wrong == 0, "each half read the other half's value after its own barrier");
  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dOut));
  std::printf("PASS\n");
  return 0;
}
