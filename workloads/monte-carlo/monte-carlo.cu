// nvcc-flags: -arch=compute_80 -O3
// European call options priced by Monte Carlo simulation, one option per CTA.
//
// Under the risk-neutral measure the stock at expiry is S_T = S exp(drift + vol z) with
// drift = (r - sigma^2 / 2) T, vol = sigma sqrt(T) (per option, from the host) and z a standard
// normal; the price is exp(-r T) E[max(S_T - K, 0)]. A path needs one normal. The random numbers
// come from a counter-based generator: a 32-bit integer hash of (option key, counter), so each
// path's numbers depend only on its index and the host can draw exactly the same ones. Two
// hashes give two uniforms, and the Box-Muller transform turns them into two independent
// normals, z = sqrt(-2 ln u1) (cos, sin)(2 pi u2): two paths.
//
// Each thread accumulates the payoffs and their squares of its paths; a shared-memory tree sums
// both over the CTA, and thread 0 turns them into the discounted mean (the price) and the
// half-width of its 95% confidence interval, 1.96 exp(-r T) sqrt(variance / paths).

#define THREADS 256

// A 32-bit integer mixer: xor-shifts and multiplications by odd constants (the first 32 bits of
// the fractional parts of the golden ratio and of sqrt(3)). It is a bijection, and every input
// bit affects every output bit.
__device__ __forceinline__ unsigned mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x9e3779b1U;
  h ^= h >> 15;
  h *= 0xbb67ae85U;
  h ^= h >> 16;
  return h;
}

extern "C" __global__ void monte_carlo_option(
    const float* __restrict__ spot, const float* __restrict__ strike,
    const float* __restrict__ drift, const float* __restrict__ vol,
    const float* __restrict__ discount, const unsigned* __restrict__ key,
    float* __restrict__ sums, float* __restrict__ price, float* __restrict__ confidence,
    int paths) {
  __shared__ float sumShared[THREADS];
  __shared__ float sqShared[THREADS];
  const int option = blockIdx.x, tid = threadIdx.x;
  const float s = spot[option], x = strike[option], mu = drift[option], v = vol[option];
  const unsigned k = key[option];

  float sum = 0.0f, sumSq = 0.0f;
  for (int pair = tid; pair < paths / 2; pair += THREADS) {
    // u1 in (0, 1] (its logarithm is finite), u2 in [0, 1), 24 bits each.
    const unsigned h1 = mix(k ^ (2u * pair)), h2 = mix(k ^ (2u * pair + 1u));
    const float u1 = static_cast<float>((h1 >> 8) + 1u) * 0x1p-24f;
    const float u2 = static_cast<float>(h2 >> 8) * 0x1p-24f;
    const float r = sqrtf(-2.0f * logf(u1));
    float sinT, cosT;
    sincospif(2.0f * u2, &sinT, &cosT);
    const float z[2] = {r * cosT, r * sinT};
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      const float payoff = fmaxf(s * expf(fmaf(v, z[j], mu)) - x, 0.0f);
      sum += payoff;
      sumSq = fmaf(payoff, payoff, sumSq);
    }
  }
  sumShared[tid] = sum;
  sqShared[tid] = sumSq;
  __syncthreads();
  for (int half = THREADS / 2; half > 0; half >>= 1) {
    if (tid < half) {
      sumShared[tid] += sumShared[tid + half];
      sqShared[tid] += sqShared[tid + half];
    }
    __syncthreads();
  }
  if (tid == 0) {
    const float total = sumShared[0], totalSq = sqShared[0], n = static_cast<float>(paths);
    const float mean = total / n;
    // Sample variance of the payoff (clamped: rounding can make it slightly negative).
    const float variance = fmaxf((totalSq - total * mean) / (n - 1.0f), 0.0f);
    const float df = discount[option];
    sums[2 * option] = total;
    sums[2 * option + 1] = totalSq;
    price[option] = df * mean;
    confidence[option] = 1.96f * df * sqrtf(variance / n);
  }
}
