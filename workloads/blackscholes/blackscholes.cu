// nvcc-flags: -arch=compute_80 -O3
// Black-Scholes prices of European call and put options, one option per loop iteration of a
// grid-stride loop: transcendental-heavy (logf, expf, sqrtf and a division per option, two
// more expf and divisions in the normal CDF).

// Standard normal cumulative distribution by the polynomial approximation of Abramowitz and
// Stegun (formula 26.2.17, absolute error below 7.5e-8).
__device__ float normalCdf(float d) {
  const float p = 0.2316419f;
  const float b1 = 0.319381530f, b2 = -0.356563782f, b3 = 1.781477937f, b4 = -1.821255978f,
              b5 = 1.330274429f;
  const float invSqrt2Pi = 0.398942280401432678f;
  float t = 1.0f / (1.0f + p * fabsf(d));
  float poly = t * (b1 + t * (b2 + t * (b3 + t * (b4 + t * b5))));
  float tail = invSqrt2Pi * expf(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - tail : tail;
}

extern "C" __global__ void blackscholes(const float* __restrict__ spot,
                                        const float* __restrict__ strike,
                                        const float* __restrict__ years, float* __restrict__ call,
                                        float* __restrict__ put, int n, float rate,
                                        float volatility) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float s = spot[i], x = strike[i], t = years[i];
    float volSqrtT = volatility * sqrtf(t);
    float d1 = (logf(s / x) + (rate + 0.5f * volatility * volatility) * t) / volSqrtT;
    float d2 = d1 - volSqrtT;
    float cnd1 = normalCdf(d1), cnd2 = normalCdf(d2);
    float discountedStrike = x * expf(-rate * t);
    call[i] = s * cnd1 - discountedStrike * cnd2;
    put[i] = discountedStrike * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}
