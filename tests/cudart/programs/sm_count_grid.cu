// A grid sized from the device's SM count, as programs size persistent-thread and grid-stride
// kernels: two CTAs per SM, each CTA recording the SM it ran on (%smid) and summing a
// grid-stride share of an array. The grid, and so the work each CTA does, follows
// cudaDeviceProp::multiProcessorCount, which both modes take from the same configuration (the
// output, SM count included, is the same in both modes of each configuration).
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kBlock = 128;
constexpr int kCtasPerSm = 2;

__device__ unsigned smId() {
  unsigned id;
  asm("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__device__ unsigned smCount() {
  unsigned n;
  asm("mov.u32 %0, %%nsmid;" : "=r"(n));
  return n;
}

__global__ void grid_stride_sum(const int* in, int n, long long* partial, unsigned* sm, unsigned* nsm) {
  __shared__ long long s[kBlock];
  long long sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    sm[blockIdx.x] = smId();
    nsm[blockIdx.x] = smCount();
  }
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const int grid = kCtasPerSm * sms;
  std::printf("device: %s, %d SMs, %d threads per SM, grid of %d CTAs\n", prop.name, sms,
              prop.maxThreadsPerMultiProcessor, grid);

  const int n = 100000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 500;
  int* dIn;
  long long* dPartial;
  unsigned *dSm, *dNsm;
  CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CHECK(cudaMalloc(&dPartial, grid * sizeof(long long)));
  CHECK(cudaMalloc(&dSm, grid * sizeof(unsigned)));
  CHECK(cudaMalloc(&dNsm, grid * sizeof(unsigned)));
  CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  grid_stride_sum<<<grid, kBlock>>>(dIn, n, dPartial, dSm, dNsm);
  CHECK(cudaGetLastError());
  std::vector<long long> partial(grid);
  std::vector<unsigned> sm(grid), nsm(grid);
  CHECK(cudaMemcpy(partial.data(), dPartial, grid * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sm.data(), dSm, grid * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(nsm.data(), dNsm, grid * sizeof(unsigned), cudaMemcpyDeviceToHost));

  // The CPU reference: each CTA's grid-stride share, and the total.
  long long total = 0, gpuTotal = 0;
  int wrongPartials = 0;
  for (int b = 0; b < grid; ++b) {
    long long expect = 0;
    for (int i = b * kBlock; i < n; i += grid * kBlock)
      for (int t = 0; t < kBlock && i + t < n; ++t) expect += in[i + t];
    wrongPartials += partial[b] != expect;
    total += expect;
    gpuTotal += partial[b];
  }
  std::vector<int> ctasOnSm(sms, 0);
  int badSm = 0, badNsm = 0;
  for (int b = 0; b < grid; ++b) {
    if (sm[b] < static_cast<unsigned>(sms)) ++ctasOnSm[sm[b]];
    else ++badSm;
    badNsm += nsm[b] != static_cast<unsigned>(sms);
  }
  int smsUsed = 0;
  for (int c : ctasOnSm) smsUsed += c != 0;
  std::printf("sum %lld over %d CTAs on %d SMs\n", gpuTotal, grid, smsUsed);
  EXPECT(wrongPartials == 0, "every CTA summed its grid-stride share");
  EXPECT(gpuTotal == total, "the partial sums add up to the array's sum");
  EXPECT(badNsm == 0, "%nsmid equals cudaDeviceProp::multiProcessorCount");
  EXPECT(badSm == 0, "%smid lies below the SM count");
  EXPECT(smsUsed == sms, "the grid spread over every SM");
  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dPartial));
  CHECK(cudaFree(dSm));
  CHECK(cudaFree(dNsm));
  std::printf("PASS\n");
  return 0;
}
