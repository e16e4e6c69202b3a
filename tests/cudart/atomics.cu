// Atomic operations on global and shared memory: add (int, unsigned long long, float,
// double), min, max, exch, CAS loops, and/or/xor, inc/dec with wrap-around, and a shared-memory
// histogram merged into global memory.
#include <vector>

#include "check.h"

struct Results {
  int sum, minimum, maximum, andAll, orAll, xorAll, last;
  unsigned wrapped, decremented;
  unsigned long long wide;
  float fsum;
  double dsum;
  int casProduct;
};

__global__ void everyAtomic(Results* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&r->sum, i);
  atomicMin(&r->minimum, 1000 - i);
  atomicMax(&r->maximum, i * 3);
  atomicAnd(&r->andAll, ~(1 << (i % 8)));
  atomicOr(&r->orAll, 1 << (i % 16));
  atomicXor(&r->xorAll, i);
  atomicExch(&r->last, 7);
  atomicInc(&r->wrapped, 9);        // counts 0..9 and wraps
  atomicDec(&r->decremented, 100);  // from 5: 4 3 2 1 0 100 99 ...
  atomicAdd(&r->wide, 1ull << 33);
  atomicAdd(&r->fsum, 0.5f);
  atomicAdd(&r->dsum, 0.25);
  if (i < 10) {  // multiply by 2 with a compare-and-swap loop
    int old = r->casProduct, seen;
    do {
      seen = old;
      old = atomicCAS(&r->casProduct, seen, seen * 2);
    } while (old != seen);
  }
}

__global__ void histogram(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[data[i] % 16], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 1000;
  Results init = {0, 1 << 30, -1, -1, 0, 0, 0, 0, 5, 0, 0.0f, 0.0, 1};
  Results* dr;
  CHECK(cudaMalloc(&dr, sizeof(Results)));
  CHECK(cudaMemcpy(dr, &init, sizeof init, cudaMemcpyHostToDevice));
  everyAtomic<<<(n + 127) / 128, 128>>>(dr, n);
  Results r;
  CHECK(cudaMemcpy(&r, dr, sizeof r, cudaMemcpyDeviceToHost));
  int xorAll = 0;
  for (int i = 0; i < n; ++i) xorAll ^= i;
  std::printf("sum %d min %d max %d and %x or %x xor %d\n", r.sum, r.minimum, r.maximum,
              r.andAll, r.orAll, r.xorAll);
  EXPECT(r.sum == n * (n - 1) / 2 && r.minimum == 1 && r.maximum == 2997, "add, min, max");
  EXPECT(r.andAll == ~0xff && r.orAll == 0xffff && r.xorAll == xorAll && r.last == 7,
         "and, or, xor, exch");
  // atomicInc: n increments modulo 10; atomicDec from 5 with limit 100 over n steps.
  EXPECT(r.wrapped == n % 10, "inc wraps at its limit");
  EXPECT(r.decremented == static_cast<unsigned>((5 - n % 101 + 101) % 101), "dec wraps to its limit");
  EXPECT(r.wide == (static_cast<unsigned long long>(n) << 33), "64-bit add");
  EXPECT(r.fsum == n * 0.5f && r.dsum == n * 0.25, "float and double add");
  EXPECT(r.casProduct == 1024, "compare-and-swap loop");

  const int m = 100000;
  std::vector<unsigned char> data(m);
  for (int i = 0; i < m; ++i) data[i] = static_cast<unsigned char>((i * 7919) % 251);
  unsigned char* dd;
  unsigned* dbins;
  CHECK(cudaMalloc(&dd, m));
  CHECK(cudaMalloc(&dbins, 16 * sizeof(unsigned)));
  CHECK(cudaMemcpy(dd, data.data(), m, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dbins, 0, 16 * sizeof(unsigned)));
  histogram<<<24, 256>>>(dd, m, dbins);
  unsigned bins[16], want[16] = {};
  CHECK(cudaMemcpy(bins, dbins, sizeof bins, cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) ++want[data[i] % 16];
  bool good = true;
  for (int b = 0; b < 16; ++b) good = good && bins[b] == want[b];
  std::printf("bin 0: %u, bin 15: %u\n", bins[0], bins[15]);
  EXPECT(good, "shared-memory histogram");

  CHECK(cudaFree(dr));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(dbins));
  std::printf("PASS\n");
  return 0;
}
