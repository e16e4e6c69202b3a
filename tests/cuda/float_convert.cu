// nvcc-flags: -arch=compute_80 -O3
// float -> int conversions with each rounding mode, saturation, fast division and the
// single-precision transcendental functions.

extern "C" __global__ void float_convert(const float* x, int* ints, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  ints[4 * i + 0] = __float2int_rn(v);
  ints[4 * i + 1] = __float2int_rz(v);
  ints[4 * i + 2] = __float2int_rd(v);
  ints[4 * i + 3] = __float2int_ru(v);
  f[8 * i + 0] = __saturatef(v);
  f[8 * i + 1] = __fdividef(v, 3.0f);
  f[8 * i + 2] = rsqrtf(fabsf(v) + 1.0f);
  f[8 * i + 3] = sinf(v);
  f[8 * i + 4] = cosf(v);
  f[8 * i + 5] = expf(v * 0.25f);
  f[8 * i + 6] = __sinf(v);
  f[8 * i + 7] = static_cast<float>(__float2uint_rn(fabsf(v) * 1000.0f));
}
