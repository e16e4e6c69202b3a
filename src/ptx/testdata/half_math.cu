// Half and bfloat16 arithmetic, conversions and packed operations.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void half_math(const float* in, float* out, __half2* h2out, __nv_bfloat16* bout) {
  int t = threadIdx.x;
  __half a = __float2half(in[t]);
  __half b = __float2half(in[t] * 2.0f);
  __half c = __hfma(a, b, __float2half(1.0f));
  __half2 p = __floats2half2_rn(in[t], in[t] + 1.0f);
  __half2 q = __hmul2(p, p);
  q = __hadd2(q, p);
  h2out[t] = h2exp2(q);
  __nv_bfloat16 bf = __float2bfloat16(in[t]);
  bout[t] = __hmul(bf, bf);
  out[t] = __half2float(c) + __low2float(q) + __high2float(q);
}
