// nvcc-flags: -arch=compute_80 -O3 -maxrregcount=16
// Thread-private arrays indexed by data (so they live in local memory), built with a register
// cap of 16 so that live values spill to the stack as well.

extern "C" __global__ void local_array(const int* idx, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int table[32];
  for (int j = 0; j < 32; ++j) table[j] = (i + 1) * j + (j ^ i);
  // Data-dependent permutation walk over the private array.
  int acc = 0;
  int p = idx[i] & 31;
  for (int s = 0; s < 16; ++s) {
    acc += table[p];
    table[p] = acc ^ s;
    p = (p * 7 + idx[(i + s) % n]) & 31;
  }
  out[i] = acc;
}

// Many simultaneously live values: with 16 registers (raised to the hardware minimum of 24 by ptxas) (__maxnreg__ puts .maxnreg 16 into the PTX,
// where the -maxrregcount flag alone only reaches ptxas) some of them must spill.
extern "C" __global__ void __maxnreg__(16) register_pressure(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v[32];
#pragma unroll
  for (int j = 0; j < 32; ++j) v[j] = in[(i + j) % n] * (j + 1);
  float s = 0.0f;
#pragma unroll
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int j = 0; j < 32; ++j) {
      v[j] = v[j] * 0.5f + v[(j + 13) % 32];
      s += v[j];
    }
  }
  out[i] = s;
}
