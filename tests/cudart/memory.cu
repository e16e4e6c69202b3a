// Device memory management and copies: cudaMalloc/cudaFree and cudaMemGetInfo accounting,
// copies of every kind (cudaMemcpyDefault included), cudaMemset, pitched allocations with
// cudaMallocPitch, cudaMemcpy2D and cudaMemset2D, pinned host memory, asynchronous copies, and
// the errors for bad pointers and out-of-range copies.
#include <cstring>
#include <vector>

#include "check.h"

// Adds one to every element of a width x height matrix stored with `pitch` bytes per row.
__global__ void incrementPitched(float* m, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + y * pitch);
    row[x] += 1.0f;
  }
}

int main() {
  size_t free0 = 0, total = 0;
  CHECK(cudaMemGetInfo(&free0, &total));
  EXPECT(total > 0 && free0 <= total, "cudaMemGetInfo reports a capacity");
  const size_t mb = 1 << 20;
  char* big;
  CHECK(cudaMalloc(&big, 64 * mb));
  size_t free1 = 0;
  CHECK(cudaMemGetInfo(&free1, &total));
  EXPECT(free0 - free1 >= 64 * mb && free0 - free1 < 65 * mb, "an allocation lowers the free memory");
  CHECK(cudaFree(big));
  CHECK(cudaMemGetInfo(&free1, &total));
  EXPECT(free1 == free0, "freeing returns it");

  // Copies of every kind through pinned host buffers.
  const int n = 1 << 16;
  int *pinned, *other;
  CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
  CHECK(cudaHostAlloc(&other, n * sizeof(int), cudaHostAllocDefault));
  for (int i = 0; i < n; ++i) pinned[i] = i * 3;
  int *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMemcpy(a, pinned, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(other, b, n * sizeof(int), cudaMemcpyDefault));
  EXPECT(std::memcmp(pinned, other, n * sizeof(int)) == 0, "host -> device -> device -> host");
  CHECK(cudaMemcpy(other, pinned, 16, cudaMemcpyHostToHost));

  CHECK(cudaMemset(b, 0xab, n * sizeof(int)));
  CHECK(cudaMemset(b + 10, 0, 2 * sizeof(int)));
  CHECK(cudaMemcpyAsync(other, b, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
  CHECK(cudaStreamSynchronize(0));
  EXPECT(other[0] == static_cast<int>(0xabababab) && other[10] == 0 && other[11] == 0 &&
             other[12] == static_cast<int>(0xabababab),
         "cudaMemset fills bytes");

  // A pitched matrix: rows padded to the pitch, copied in and out with cudaMemcpy2D.
  const int width = 100, height = 37;
  float* m;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(reinterpret_cast<void**>(&m), &pitch, width * sizeof(float), height));
  std::printf("pitch for %zu-byte rows is a multiple of 256: %s\n", width * sizeof(float),
              pitch % 256 == 0 && pitch >= width * sizeof(float) ? "yes" : "no");
  std::vector<float> host(width * height), back(width * height);
  for (int i = 0; i < width * height; ++i) host[i] = static_cast<float>(i);
  CHECK(cudaMemset2D(m, pitch, 0, pitch, height));
  CHECK(cudaMemcpy2D(m, pitch, host.data(), width * sizeof(float), width * sizeof(float), height,
                     cudaMemcpyHostToDevice));
  incrementPitched<<<dim3((width + 63) / 64, height), 64>>>(m, pitch, width, height);
  CHECK(cudaMemcpy2D(back.data(), width * sizeof(float), m, pitch, width * sizeof(float), height,
                     cudaMemcpyDeviceToHost));
  bool good = true;
  for (int i = 0; i < width * height; ++i) good = good && back[i] == host[i] + 1.0f;
  EXPECT(good, "pitched matrix through cudaMemcpy2D and a kernel");
  // Only the first 8 columns of each row set to 0xff bytes; the rest stays.
  CHECK(cudaMemset2D(m, pitch, 0xff, 8 * sizeof(float), height));
  CHECK(cudaMemcpy2D(back.data(), width * sizeof(float), m, pitch, width * sizeof(float), height,
                     cudaMemcpyDeviceToHost));
  good = true;
  for (int y = 0; y < height; ++y) {
    unsigned bits;
    std::memcpy(&bits, &back[y * width + 7], 4);
    good = good && bits == 0xffffffffu && back[y * width + 8] == host[y * width + 8] + 1.0f;
  }
  EXPECT(good, "cudaMemset2D fills a column band");
  EXPECT(cudaMemcpy2D(back.data(), 8, m, pitch, 16, 2, cudaMemcpyDeviceToHost) ==
             cudaErrorInvalidPitchValue,
         "a row wider than its pitch is refused");

  EXPECT(cudaFree(reinterpret_cast<void*>(0x1234)) == cudaErrorInvalidValue,
         "freeing a pointer that was never allocated fails");
  EXPECT(cudaMemcpy(other, a + (1 << 30), sizeof(int), cudaMemcpyDeviceToHost) ==
             cudaErrorInvalidValue,
         "a copy from an address no allocation holds fails");
  EXPECT(cudaMemcpy(other, a, 4, static_cast<cudaMemcpyKind>(5)) == cudaErrorInvalidMemcpyDirection,
         "an unknown copy direction fails");
  cudaGetLastError();

  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(m));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFreeHost(other));
  std::printf("PASS\n");
  return 0;
}
