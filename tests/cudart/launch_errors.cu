// Launches the device must refuse, each with the error CUDA reports for it: too many threads
// per block, a block dimension over its limit, a zero or oversized grid, and a function that is
// not a kernel. A refused launch runs nothing, sets the last error (cleared by
// cudaGetLastError) and leaves later launches working.
#include "check.h"

__global__ void write(int* v) { v[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

void notAKernel() {}

void expectError(cudaError_t want, const char* what) {
  cudaError_t got = cudaGetLastError();
  std::printf("%s: %s\n", what, cudaGetErrorName(got));
  if (got != want) {
    std::printf("FAIL expected %s\n", cudaGetErrorName(want));
    std::exit(1);
  }
}

int main() {
  int* v;
  CHECK(cudaMalloc(&v, 4096 * sizeof(int)));
  CHECK(cudaMemset(v, 0, 4096 * sizeof(int)));

  write<<<1, 2048>>>(v);
  expectError(cudaErrorInvalidConfiguration, "2048 threads per block");
  EXPECT(cudaGetLastError() == cudaSuccess, "cudaGetLastError cleared the error");

  write<<<1, dim3(1, 1, 128)>>>(v);
  expectError(cudaErrorInvalidConfiguration, "block z of 128");
  write<<<dim3(1, 70000), 1>>>(v);
  expectError(cudaErrorInvalidConfiguration, "grid y of 70000");
  write<<<0, 32>>>(v);
  expectError(cudaErrorInvalidConfiguration, "empty grid");

  void* args[] = {&v};
  cudaError_t direct = cudaLaunchKernel(reinterpret_cast<const void*>(notAKernel), dim3(1),
                                        dim3(1), args, 0, 0);
  std::printf("a host function as kernel: %s\n", cudaGetErrorName(direct));
  EXPECT(direct == cudaErrorInvalidDeviceFunction, "a host function is not a kernel");
  cudaGetLastError();

  int sum = 0, host[4096];
  CHECK(cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost));
  for (int x : host) sum += x;
  EXPECT(sum == 0, "refused launches wrote nothing");

  write<<<4, 1024>>>(v);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost));
  for (int x : host) sum += x;
  EXPECT(sum == 4096, "a valid launch still runs");
  CHECK(cudaFree(v));
  std::printf("PASS\n");
  return 0;
}
