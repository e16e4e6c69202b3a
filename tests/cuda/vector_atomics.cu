// nvcc-flags: -arch=compute_90 -O3
// Vector atomics (PTX ISA 8.1, sm_90): atomicAdd on float2 and float4, which nvcc 13 turns into
// atom.global.add.v2.f32 / .v4.f32, and the half-precision vector reductions with .min/.max,
// which CUDA reaches only through inline PTX (red.global.v8.f16.min, .v4.bf16x2.max).

__global__ void float_vector_add(float2* acc2, float4* acc4, float2* old2, float4* old4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = static_cast<float>(i);
  old2[i] = atomicAdd(acc2 + (i & 1), make_float2(1.0f, f));
  old4[i] = atomicAdd(acc4, make_float4(f, -f, 0.5f, 2.0f));
}

// Each thread offers eight f16 values to mins[0..7] and four bf16x2 pairs to maxs[0..3].
__global__ void half_vector_minmax(unsigned short* mins, unsigned* maxs, const unsigned short* h,
                                   const unsigned* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned short* x = h + 8 * i;
  asm volatile("red.global.v8.f16.min.noftz [%0], {%1, %2, %3, %4, %5, %6, %7, %8};"
               :: "l"(mins), "h"(x[0]), "h"(x[1]), "h"(x[2]), "h"(x[3]), "h"(x[4]), "h"(x[5]),
                  "h"(x[6]), "h"(x[7]) : "memory");
  const unsigned* y = b + 4 * i;
  asm volatile("red.global.v4.bf16x2.max.noftz [%0], {%1, %2, %3, %4};"
               :: "l"(maxs), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]) : "memory");
}
