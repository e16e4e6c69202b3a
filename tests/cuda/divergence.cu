// nvcc-flags: -arch=compute_80 -O3
// Data-dependent control flow: nested if/else, a loop with a data-dependent break, and an
// early return. Lanes of one warp take different paths and must reconverge correctly.

extern "C" __global__ void divergent_paths(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;              // early return for the tail of the last block
  int v = in[i];
  if (v < 0) {                     // early return for negative inputs: output untouched
    return;
  }
  int r;
  if (v % 2 == 0) {
    if (v % 3 == 0) r = v / 6;
    else r = v * 3 + 1;
  } else {
    if (v > 100) r = v - 100;
    else r = -v;
  }
  // Collatz-like iteration with a data-dependent trip count and a break.
  int steps = 0;
  unsigned x = static_cast<unsigned>(v) + 1u;
  while (true) {
    if (x == 1u) break;
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    if (++steps >= 64) break;
  }
  out[i] = r * 1000 + steps;
}
