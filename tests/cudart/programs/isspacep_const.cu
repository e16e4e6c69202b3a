// Generic-address queries: __isConstant, __isShared and __isLocal (isspacep.const/.shared/
// .local) on a pointer that may point into any state space. A GPU answers from the address
// alone: __constant__ data lies in the constant window (and, read through a generic pointer, its
// values are the ones the host copied with cudaMemcpyToSymbol), shared and local data in theirs,
// and device and kernel-parameter memory in none of the three. The pointer is chosen at run time
// (thread t takes space t % 5), so nvcc cannot fold the answers and emits isspacep.
#include <cstdio>

#include "check.h"

__constant__ float table[4];
__device__ float data[4] = {5.0f, 6.0f, 7.0f, 8.0f};

struct alignas(16) Quad {
  float v[4];
};

__global__ void query(const __grid_constant__ Quad arg, unsigned* answers, float* values) {
  __shared__ float tile[4];
  float scratch[4];
  const int t = threadIdx.x;
  scratch[t & 3] = 9.0f;
  if (t < 4) tile[t] = 10.0f + t;
  __syncthreads();
  const int kind = t % 5;
  const float* p = kind == 0 ? table : kind == 1 ? data : kind == 2 ? tile
                 : kind == 3 ? scratch : arg.v;
  // The last term keeps `scratch` in local memory (it is read at a run-time index).
  answers[t] = __isConstant(p) | __isShared(p) << 1 | __isLocal(p) << 2 |
               (scratch[(t + 1) & 3] > 1e9f) << 3;
  values[t] = p[t & 3];
}

int main() {
  const float host[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  CHECK(cudaMemcpyToSymbol(table, host, sizeof host));
  const int n = 40;
  unsigned* dAnswers;
  float* dValues;
  CHECK(cudaMalloc(&dAnswers, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dValues, n * sizeof(float)));
  query<<<1, n>>>(Quad{{20.0f, 21.0f, 22.0f, 23.0f}}, dAnswers, dValues);
  CHECK(cudaGetLastError());
  unsigned answers[n];
  float values[n];
  CHECK(cudaMemcpy(answers, dAnswers, sizeof answers, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(values, dValues, sizeof values, cudaMemcpyDeviceToHost));
  const unsigned want[5] = {1, 0, 2, 4, 0};  // const, global, shared, local, parameter
  const float base[5] = {1.0f, 5.0f, 10.0f, 9.0f, 20.0f};
  bool spaces = true, reads = true;
  for (int t = 0; t < n; ++t) {
    spaces = spaces && answers[t] == want[t % 5];
    reads = reads && values[t] == (t % 5 == 3 ? 9.0f : base[t % 5] + (t & 3));
  }
  for (int k = 0; k < 5; ++k) std::printf("space %d: answer %u, value %g\n", k, answers[k], values[k]);
  EXPECT(spaces, "isspacep.const/.shared/.local tell the spaces apart");
  EXPECT(reads, "the generic pointers read the data of their spaces");
  std::printf("PASS\n");
  return 0;
}
