// Device printf: vprintf with a local argument buffer and a global format string.
#include <cstdio>

__global__ void hello(int x, double y) {
  printf("thread %d of block %d: x=%d y=%f\n", threadIdx.x, blockIdx.x, x, y);
  if (threadIdx.x == 0) printf("done\n");
}
