// nvcc-flags: -arch=compute_80 -O3
// Register pressure under a register limit: each thread keeps a 32-word state (fully unrolled,
// so every word is its own register) and mixes it for a number of rounds. __maxnreg__(24)
// puts `.maxnreg 24` into the PTX, so ptxas (as on real hardware) must spill most of the state
// to local memory; the PTX itself has ample virtual registers. The mixing is integer
// arithmetic, so the CPU reproduces it exactly.

#define WORDS 32

extern "C" __global__ void __maxnreg__(24) spill_mix(const unsigned* __restrict__ seeds,
                                                     unsigned* __restrict__ out, int threads,
                                                     int rounds) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  unsigned state[WORDS];
#pragma unroll
  for (int w = 0; w < WORDS; ++w) state[w] = seeds[w * threads + t];
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int w = 0; w < WORDS; ++w) {
      unsigned mixed =
          state[w] * 0x9E3779B1u + (state[(w + 1) % WORDS] ^ (state[(w + 7) % WORDS] >> 3));
      state[w] = mixed + static_cast<unsigned>(r);
    }
  }
#pragma unroll
  for (int w = 0; w < WORDS; ++w) out[w * threads + t] = state[w];
}
