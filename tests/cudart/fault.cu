// An out-of-bounds store: the runtime must name the kernel, thread and address on one line of
// stderr and exit with a non-zero status before the host continues (or, with
// WARPSIM_FAULT=error, report a sticky error that only a reset clears).
#include <cstdio>

__global__ void overrun(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i + n] = i;  // every thread writes past the end
}

int main() {
  int* v;
  cudaMalloc(&v, 64 * sizeof(int));
  std::printf("launching\n");
  std::fflush(stdout);
  overrun<<<1, 64>>>(v, 1 << 20);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("after the launch: %s, then %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync));
  cudaDeviceReset();
  std::printf("after a reset: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
