// nvcc-flags: -arch=compute_80 -O3
// Each thread sorts its own segment of KEYS integers in a private array by insertion sort. The
// array is indexed with data-dependent (run-time) indices, so it cannot live in registers:
// nvcc places it in local memory (the .local state space), and every probe of the sort is a
// local load or store. Segment s is stored strided (key k of segment s at k * segments + s)
// so that the global loads and stores of a warp are coalesced.

#define KEYS 32

extern "C" __global__ void private_sort(const int* __restrict__ in, int* __restrict__ out,
                                        int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments) return;
  int keys[KEYS];
  for (int k = 0; k < KEYS; ++k) keys[k] = in[k * segments + s];
  for (int k = 1; k < KEYS; ++k) {
    int v = keys[k];
    int j = k - 1;
    while (j >= 0 && keys[j] > v) {
      keys[j + 1] = keys[j];
      --j;
    }
    keys[j + 1] = v;
  }
  for (int k = 0; k < KEYS; ++k) out[k * segments + s] = keys[k];
}
