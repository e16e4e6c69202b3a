// Managed memory visible to the host: cudaMallocManaged buffers written by the host and read by
// kernels and the other way round, a __managed__ variable, memory hints, pointer attributes, and
// plain copies into and out of managed memory.
#include "check.h"

__managed__ int launches;
__managed__ float weights[4] = {0.5f, 1.0f, 1.5f, 2.0f};

__global__ void weigh(const int* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * weights[i % 4];
  if (i == 0) ++launches;
}

int main() {
  const int n = 5000;
  int* in = nullptr;
  float* out = nullptr;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, n * sizeof(float), cudaMemAttachGlobal));
  for (int i = 0; i < n; ++i) in[i] = i % 100;
  launches = 0;
  weights[3] = 4.0f;  // the host writes a __managed__ array in place

  cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemAdvise(in, n * sizeof(int), cudaMemAdviseSetReadMostly, device));
  CHECK(cudaMemPrefetchAsync(in, n * sizeof(int), device, 0, 0));
  weigh<<<(n + 255) / 256, 256>>>(in, out, n);
  CHECK(cudaDeviceSynchronize());
  const float w[4] = {0.5f, 1.0f, 1.5f, 4.0f};
  bool good = true;
  for (int i = 0; i < n; ++i) good = good && out[i] == (i % 100) * w[i % 4];
  EXPECT(good, "the host reads what a kernel wrote to managed memory");

  for (int i = 0; i < n; ++i) in[i] = 1;  // host writes after a launch reach the next one
  weigh<<<(n + 255) / 256, 256>>>(in, out, n);
  CHECK(cudaDeviceSynchronize());
  good = true;
  for (int i = 0; i < n; ++i) good = good && out[i] == w[i % 4];
  EXPECT(good, "a kernel reads what the host wrote after the previous launch");
  std::printf("launches counted by the device: %d\n", launches);
  EXPECT(launches == 2, "__managed__ variable shared by host and device");

  int* plain;
  CHECK(cudaMalloc(&plain, n * sizeof(int)));
  CHECK(cudaMemcpy(plain, in, n * sizeof(int), cudaMemcpyDefault));
  CHECK(cudaMemset(in, 0, n * sizeof(int)));
  EXPECT(in[0] == 0 && in[n - 1] == 0, "cudaMemset on managed memory is seen by the host");
  CHECK(cudaMemcpy(in, plain, n * sizeof(int), cudaMemcpyDeviceToDevice));
  EXPECT(in[0] == 1 && in[n - 1] == 1, "a copy into managed memory is seen by the host");

  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, in));
  EXPECT(attr.type == cudaMemoryTypeManaged && attr.devicePointer == in && attr.hostPointer == in,
         "managed pointer attributes");
  CHECK(cudaPointerGetAttributes(&attr, plain));
  EXPECT(attr.type == cudaMemoryTypeDevice, "device pointer attributes");

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(plain));
  std::printf("PASS\n");
  return 0;
}
