// nvcc: -arch=sm_80
// Cooperative launch with grid-wide synchronisation (cooperative_groups::this_grid().sync()),
// the grid sized as programs size it: cudaOccupancyMaxActiveBlocksPerMultiprocessor x
// multiProcessorCount, all CTAs resident at once. Phase 1: each CTA sums its grid-stride share
// of an array into partial[cta]; grid.sync(); phase 2: every CTA reads all CTAs' partials (its
// exclusive prefix and the total); grid.sync() again (the barrier is reused); phase 3: each CTA
// checks its neighbour's total. Launched through cudaLaunchCooperativeKernel and through
// cudaLaunchKernelEx with cudaLaunchAttributeCooperative; a grid one CTA larger than fits fails
// with cudaErrorCooperativeLaunchTooLarge. Checked against a CPU reference.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 256;

__global__ void grid_sums(const int* in, int n, long long* partial, long long* prefix,
                          long long* total, int* agree) {
  __shared__ long long s[kBlock];
  cg::grid_group grid = cg::this_grid();
  const int b = blockIdx.x, ctas = gridDim.x;
  long long sum = 0;
  for (int i = b * kBlock + threadIdx.x; i < n; i += ctas * kBlock) sum += in[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[b] = s[0];
  grid.sync();  // every CTA's partial is written
  long long before = 0, all = 0;
  for (int c = threadIdx.x; c < ctas; c += kBlock) {
    all += partial[c];
    if (c < b) before += partial[c];
  }
  __syncthreads();
  s[threadIdx.x] = all;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  all = s[0];
  __syncthreads();
  s[threadIdx.x] = before;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    prefix[b] = s[0];
    total[b] = all;
  }
  grid.sync();  // every CTA's total is written
  if (threadIdx.x == 0) agree[b] = total[(b + 1) % ctas] == all;
}

struct Buffers {
  int* in;
  long long *partial, *prefix, *total;
  int* agree;
};

// Runs one launch's checks against the CPU reference; returns whether all hold.
bool matches(const Buffers& d, const std::vector<int>& in, int grid) {
  const int n = static_cast<int>(in.size());
  std::vector<long long> partial(grid), prefix(grid), total(grid);
  std::vector<int> agree(grid);
  CHECK(cudaMemcpy(partial.data(), d.partial, grid * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(prefix.data(), d.prefix, grid * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(total.data(), d.total, grid * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(agree.data(), d.agree, grid * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<long long> want(grid, 0);
  for (int i = 0; i < n; ++i) want[(i / kBlock) % grid] += in[i];
  long long run = 0, sum = 0;
  for (long long w : want) sum += w;
  bool ok = true;
  for (int b = 0; b < grid; ++b) {
    ok = ok && partial[b] == want[b] && prefix[b] == run && total[b] == sum && agree[b] == 1;
    run += want[b];
  }
  std::printf("total %lld over %d CTAs\n", sum, grid);
  return ok;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int perSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, grid_sums, kBlock, 0));
  const int grid = perSm * prop.multiProcessorCount;
  std::printf("device: %s, cooperativeLaunch %d, %d SMs x %d CTAs per SM = grid of %d CTAs\n",
              prop.name, prop.cooperativeLaunch, prop.multiProcessorCount, perSm, grid);
  EXPECT(prop.cooperativeLaunch == 1 && grid > 0, "cooperative launches are supported");

  const int n = 3 * grid * kBlock + 1000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 500;
  Buffers d;
  CHECK(cudaMalloc(&d.in, n * sizeof(int)));
  CHECK(cudaMalloc(&d.partial, (grid + 1) * sizeof(long long)));
  CHECK(cudaMalloc(&d.prefix, (grid + 1) * sizeof(long long)));
  CHECK(cudaMalloc(&d.total, (grid + 1) * sizeof(long long)));
  CHECK(cudaMalloc(&d.agree, (grid + 1) * sizeof(int)));
  CHECK(cudaMemcpy(d.in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  int nArg = n;
  void* args[] = {&d.in, &nArg, &d.partial, &d.prefix, &d.total, &d.agree};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_sums), grid, kBlock, args,
                                    0, 0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(matches(d, in, grid), "cudaLaunchCooperativeKernel: grid.sync() between the phases");

  CHECK(cudaMemset(d.agree, 0, grid * sizeof(int)));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(kBlock);
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, grid_sums, static_cast<const int*>(d.in), n, d.partial,
                           d.prefix, d.total, d.agree));
  CHECK(cudaDeviceSynchronize());
  EXPECT(matches(d, in, grid), "cudaLaunchKernelEx with cudaLaunchAttributeCooperative");

  cudaError_t tooLarge = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_sums),
                                                     grid + 1, kBlock, args, 0, 0);
  std::printf("a grid of %d CTAs: %s\n", grid + 1, cudaGetErrorName(tooLarge));
  EXPECT(tooLarge == cudaErrorCooperativeLaunchTooLarge && cudaGetLastError() == tooLarge &&
             cudaGetLastError() == cudaSuccess,
         "a grid larger than fits at once is refused");

  CHECK(cudaFree(d.in));
  CHECK(cudaFree(d.partial));
  CHECK(cudaFree(d.prefix));
  CHECK(cudaFree(d.total));
  CHECK(cudaFree(d.agree));
  std::printf("PASS\n");
  return 0;
}
