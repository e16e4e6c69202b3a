// Locality descriptors (include/warpsim/locality.h) through libwarpsim_locality, which forwards
// to the drop-in runtime: descriptors for a kernel stay with its launches, one for the next
// launch goes with one launch, a bad one is refused with its field named, and none changes what
// the kernel computes. run_case.sh checks the launches' descriptor counts in the statistics.
#include <cstdio>
#include <vector>

#include "check.h"
#include "warpsim/locality.h"

__global__ void scale(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i] + 1.0f;
}

static warpsimLocalityDescriptor streamed(const void* base, unsigned n) {
  warpsimLocalityDescriptor d = {};
  d.base = base;
  d.dims = {n, 1, 1};
  d.element_bytes = sizeof(float);
  d.type = WARPSIM_NO_REUSE;
  d.data_tile = {n, 1, 1};
  d.compute_tile = {n / 256, 1, 1};  // one C-Tile: the whole grid streams the structure once
  d.sharing = WARPSIM_COACCESSED;
  d.pattern = WARPSIM_IRREGULAR;
  d.priority = 1;
  return d;
}

int main() {
  const int n = 4096;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 0.25f * static_cast<float>(i % 97) - 3.0f;
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const warpsimLocalityDescriptor input = streamed(in, n);
  const warpsimLocalityDescriptor output = streamed(out, n);
  warpsimLocalityDescriptor bad = input;
  bad.data_tile.x = n + 1;
  std::printf("for scale: %d\n", warpsimLocalityDescriptorAdd(&input, "scale"));
  std::printf("for the next launch: %d\n", warpsimLocalityDescriptorAdd(&output, nullptr));
  std::printf("bad: %d\n", warpsimLocalityDescriptorAdd(&bad, "scale"));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  for (int launch = 0; launch < 3; ++launch) {  // 2 descriptors, then 1, then (cleared) none
    if (launch == 2) std::printf("clear: %d\n", warpsimLocalityDescriptorsClear("scale"));
    scale<<<n / 256, 256>>>(out, in, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::vector<float> result(n);
  CHECK(cudaMemcpy(result.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += result[i] != 2.0f * host[i] + 1.0f;
  EXPECT(wrong == 0, "results unchanged by the descriptors");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("PASS\n");
  return 0;
}
