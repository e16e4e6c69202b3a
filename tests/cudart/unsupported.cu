// An API call the simulator does not provide: it must print one line naming the call, return
// cudaErrorNotSupported (also as the last error), and the program, which checks it, exits
// with status 2. Calls before it work normally.
#include "check.h"

int main() {
  int* v;
  CHECK(cudaMalloc(&v, 64));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  cudaError_t e = cudaMallocArray(&array, &desc, 16, 16);
  std::printf("cudaMallocArray: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  if (e != cudaSuccess) return 2;
  std::printf("unexpected success\n");
  return 0;
}
