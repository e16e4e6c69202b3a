// nvcc-flags: -arch=compute_80 -O3
// Half precision: __half2 arithmetic (add, mul, fma on two lanes at once) and conversions
// between float and half.
#include <cuda_fp16.h>

extern "C" __global__ void half2_arith(const float* a, const float* b, const float* c,
                                       float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * i + 1 >= n) return;
  __half2 x = __floats2half2_rn(a[2 * i], a[2 * i + 1]);
  __half2 y = __floats2half2_rn(b[2 * i], b[2 * i + 1]);
  __half2 z = __floats2half2_rn(c[2 * i], c[2 * i + 1]);
  __half2 s = __hadd2(x, y);
  __half2 p = __hmul2(x, y);
  __half2 f = __hfma2(x, y, z);
  out[6 * i + 0] = __low2float(s);
  out[6 * i + 1] = __high2float(s);
  out[6 * i + 2] = __low2float(p);
  out[6 * i + 3] = __high2float(p);
  out[6 * i + 4] = __low2float(f);
  out[6 * i + 5] = __high2float(f);
}

// Rounds each float to half (round to nearest even) and back, and returns the raw half bits.
extern "C" __global__ void half_convert(const float* in, float* roundTrip, unsigned short* bits,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half h = __float2half_rn(in[i]);
  roundTrip[i] = __half2float(h);
  bits[i] = __half_as_ushort(h);
}
