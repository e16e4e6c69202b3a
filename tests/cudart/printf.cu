// Device printf: formats, several threads and blocks in a fixed order, output from device
// functions, and the order of device and host output on stdout.
#include <cstdio>

__device__ void report(int block, int value) { printf("  block %d reports %d\n", block, value); }

__global__ void formats(float f, double d) {
  printf("int %d unsigned %u hex %#x octal %o char %c\n", -42, 42u, 255, 8, 'w');
  printf("float %.3f double %e general %g string %s\n", f, d, 0.0001, "device");
  printf("width [%5d] [%-5d] [%05.1f] long %lld pointer-sized %zu\n", 7, 7, 2.5, -(1LL << 40),
         sizeof(void*));
}

__global__ void perThread() {
  if (threadIdx.x % 16 == 0) printf("block %d thread %d\n", blockIdx.x, threadIdx.x);
  if (threadIdx.x == 0) report(blockIdx.x, blockIdx.x * 10);
}

__device__ char message[] = "text in device memory";

__global__ void fromGlobal() { printf("%s (%d characters)\n", message, (int)sizeof(message) - 1); }

int main() {
  std::printf("host: before any launch\n");
  formats<<<1, 1>>>(1.25f, 6.02e23);
  std::printf("host: after formats\n");
  perThread<<<2, 32>>>();
  std::printf("host: after perThread\n");
  fromGlobal<<<1, 1>>>();
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("host: done (%s)\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
