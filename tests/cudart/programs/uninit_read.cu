// Reading device memory that was never written is not an error on a GPU: it reads whatever is
// there. This kernel loads in padded groups of four, as vectorised code does, so it reads the
// padding after the n elements the host copied, and masks those values out; the result is right
// whatever the padding holds. Under --initcheck (WARPSIM_INITCHECK=1) the reads of the padding
// are reported, as compute-sanitizer's initcheck reports them, and the exit status becomes 1.
#include <cstdio>
#include <vector>

#include "check.h"

__global__ void scaled_groups(const int4* in, int* out, int n, int scale) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * g >= n) return;
  int4 v = in[g];  // the last group reaches into the padding
  int vals[4] = {v.x, v.y, v.z, v.w};
  for (int k = 0; k < 4; ++k) {
    if (4 * g + k < n) out[4 * g + k] = vals[k] * scale;
  }
}

int main() {
  const int n = 1001, padded = (n + 3) / 4 * 4;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i % 97 - 40;
  int *dIn, *dOut;
  CHECK(cudaMalloc(&dIn, padded * sizeof(int)));
  CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));  // not the padding
  const int groups = padded / 4;
  scaled_groups<<<(groups + 127) / 128, 128>>>(reinterpret_cast<const int4*>(dIn), dOut, n, 3);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != in[i] * 3;
  EXPECT(wrong == 0, "scaled values");
  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dOut));
  std::printf("PASS\n");
  return 0;
}
