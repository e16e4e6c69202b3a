// nvcc-flags: -arch=compute_75 -O3
// Integer intrinsics: popc, clz, brev, byte_perm, funnel shifts, __mul24, mulhi, ffs and
// 64-bit arithmetic (multiply, shift, divide).

extern "C" __global__ void bit_tricks(const unsigned* a, const unsigned* b,
                                      unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned long long* o = out + 12 * i;
  o[0] = __popc(x);
  o[1] = __clz(x);
  o[2] = __brev(x);
  o[3] = __byte_perm(x, y, 0x5140 + (i & 0x7));
  o[4] = __funnelshift_l(x, y, y & 63);
  o[5] = __funnelshift_r(x, y, y);
  o[6] = static_cast<unsigned>(__mul24(static_cast<int>(x), static_cast<int>(y)));
  o[7] = __umulhi(x, y);
  unsigned long long wide = (static_cast<unsigned long long>(x) << 32) | y;
  o[8] = __umul64hi(wide, 0x9E3779B97F4A7C15ull);
  o[9] = __ffs(static_cast<int>(y)) + 100 * __popcll(wide) + 10000 * __clzll(wide);
  o[10] = wide / (static_cast<unsigned long long>(x | 1u)) + (wide % 1000003ull);
  o[11] = static_cast<unsigned long long>(static_cast<long long>(static_cast<int>(x)) >> (y & 31));
}
