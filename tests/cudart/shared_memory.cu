// Shared memory: dynamic (extern __shared__) sized per launch, static and dynamic together,
// two typed views of one dynamic buffer, and a block-wide tree reduction with barriers.
#include <vector>

#include "check.h"

// Sum of each block's slice; blockDim.x floats of dynamic shared memory.
__global__ void blockSums(const float* in, float* sums) {
  extern __shared__ float partial[];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

// Static shared memory beside the dynamic buffer: the dynamic one starts after it.
__global__ void staticAndDynamic(int* out) {
  __shared__ int fixed[32];
  extern __shared__ double dynamicPart[];
  unsigned t = threadIdx.x;
  fixed[t] = t * 3;
  dynamicPart[t] = t * 0.5;
  __syncthreads();
  out[t] = fixed[31 - t] + static_cast<int>(dynamicPart[31 - t] * 2);
}

// One buffer, two views: ints in the first half, shorts after them.
__global__ void twoViews(int* out) {
  extern __shared__ char raw[];
  int* ints = reinterpret_cast<int*>(raw);
  short* shorts = reinterpret_cast<short*>(raw + blockDim.x * sizeof(int));
  unsigned t = threadIdx.x;
  ints[t] = 1000 + t;
  shorts[t] = static_cast<short>(-2 * static_cast<int>(t));
  __syncthreads();
  unsigned o = (t + 1) % blockDim.x;
  out[t] = ints[o] + shorts[o];
}

int main() {
  const int n = 4096;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 17);
  float *din, *dsums;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dsums, n * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int block : {64, 256, 1024}) {
    blockSums<<<n / block, block, block * sizeof(float)>>>(din, dsums);
    CHECK(cudaGetLastError());
    std::vector<float> sums(n / block);
    CHECK(cudaMemcpy(sums.data(), dsums, sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
    bool good = true;
    for (int b = 0; b < n / block; ++b) {
      float want = 0;
      for (int i = b * block; i < (b + 1) * block; ++i) want += in[i];
      good = good && sums[b] == want;
    }
    std::printf("blocks of %d: first sum %.0f\n", block, sums[0]);
    EXPECT(good, "reduction through dynamic shared memory");
  }

  int* dout;
  CHECK(cudaMalloc(&dout, 32 * sizeof(int)));
  staticAndDynamic<<<1, 32, 32 * sizeof(double)>>>(dout);
  int out[32];
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  bool good = true;
  for (int t = 0; t < 32; ++t) good = good && out[t] == (31 - t) * 3 + (31 - t);
  EXPECT(good, "static and dynamic shared memory together");

  twoViews<<<1, 32, 32 * (sizeof(int) + sizeof(short))>>>(dout);
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  good = true;
  for (int t = 0; t < 32; ++t) good = good && out[t] == 1000 - (t + 1) % 32;
  EXPECT(good, "two typed views of one dynamic buffer");

  CHECK(cudaFree(din));
  CHECK(cudaFree(dsums));
  CHECK(cudaFree(dout));
  std::printf("PASS\n");
  return 0;
}
