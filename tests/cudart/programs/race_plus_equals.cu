// Several warps of a CTA update the same elements with a plain `+=` (load, add, store; no
// atomic): a benign race whose outcome a GPU decides by how its warps progress. The warps of a
// CTA start together and a warp scheduler switches to another warp whenever the current one
// waits, so every warp issues its load before any warp's store: the load takes hundreds of
// cycles (global memory) or a few tens (shared memory), far longer than the few cycles in which
// the other warps issue their own loads. Every warp therefore reads the value from before the
// kernel and stores it plus one: each element ends at 1 whichever warp stores last, not at the
// number of warps. (A simulator that ran the warps one after another would print 4.) atomicAdd,
// for contrast, counts every warp. Printed values are the GPU's in both modes.
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kWarps = 4;
constexpr int kBlocks = 3;

__global__ void plus_equals(int* global, int* atomics, int* sharedOut) {
  __shared__ int s[32];
  const int lane = threadIdx.x % 32;
  int* g = global + blockIdx.x * 32 + lane;
  *g += 1;
  atomicAdd(atomics + blockIdx.x * 32 + lane, 1);
  if (threadIdx.x < 32) s[lane] = 0;
  __syncthreads();
  s[lane] += 1;
  __syncthreads();
  if (threadIdx.x < 32) sharedOut[blockIdx.x * 32 + lane] = s[lane];
}

int main() {
  const int n = kBlocks * 32;
  int *global, *atomics, *shared;
  CHECK(cudaMalloc(&global, n * sizeof(int)));
  CHECK(cudaMalloc(&atomics, n * sizeof(int)));
  CHECK(cudaMalloc(&shared, n * sizeof(int)));
  CHECK(cudaMemset(global, 0, n * sizeof(int)));
  CHECK(cudaMemset(atomics, 0, n * sizeof(int)));
  plus_equals<<<kBlocks, kWarps * 32>>>(global, atomics, shared);
  CHECK(cudaGetLastError());
  std::vector<int> g(n), a(n), s(n);
  CHECK(cudaMemcpy(g.data(), global, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(a.data(), atomics, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s.data(), shared, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("global += 1 from %d warps: %d %d ... %d\n", kWarps, g[0], g[1], g[n - 1]);
  std::printf("shared += 1 from %d warps: %d %d ... %d\n", kWarps, s[0], s[1], s[n - 1]);
  std::printf("atomicAdd 1 from %d warps: %d %d ... %d\n", kWarps, a[0], a[1], a[n - 1]);
  int globalOnes = 0, sharedOnes = 0, atomicAll = 0;
  for (int i = 0; i < n; ++i) {
    globalOnes += g[i] == 1;
    sharedOnes += s[i] == 1;
    atomicAll += a[i] == kWarps;
  }
  EXPECT(globalOnes == n, "every global element was incremented once, as every warp loaded 0");
  EXPECT(sharedOnes == n, "every shared element was incremented once, as every warp loaded 0");
  EXPECT(atomicAll == n, "atomicAdd counted every warp");
  CHECK(cudaFree(global));
  CHECK(cudaFree(atomics));
  CHECK(cudaFree(shared));
  std::printf("PASS\n");
  return 0;
}
