// nvcc-flags: -arch=compute_80 -O3
// Monte Carlo pricing of a portfolio of swaptions under the LIBOR market model (as the CUDA
// SDK's MonteCarloLIBOR sample, after Giles), one thread per path.
//
// Each path evolves kRates forward rates L[i] (each covering an accrual period of delta years)
// over kSteps time steps with a log-normal Euler scheme: at step n the rates still alive (i > n)
// take the same Gaussian shock z[n] with volatility lambda[i - n - 1] and the drift that the
// rates between them and the current time induce (a running sum v over i). Then the payoff of
// the portfolio: discount factors B and annuities S of the swaps starting at kSteps, the payer
// swaptions 100 max(1 - B - K S, 0), discounted back along the path.
//
// The rates are each thread's own array, read and rewritten at every step (intra-thread reuse,
// 320 B per thread, reused kSteps times): they live in a global work area laid out as a GPU
// lays out local memory, a block of kRates x blockDim floats per CTA with the threads' words
// interleaved, so that every access is coalesced and a thread's successive rates are blockDim
// floats apart. B and S are private arrays indexed by the swaptions' maturities (local memory).
// The Gaussian draws come from the host, z[n * paths + path] (coalesced, each read once).

#define kRates 80   // forward rates (quarterly: 20 years)
#define kSteps 40   // time steps (quarterly: the swaps start in 10 years)
#define kSwaps (kRates - kSteps)
#define kDelta 0.25f

extern "C" __global__ void libor_paths(int paths, int options, const float* __restrict__ z,
                                       const float* __restrict__ initialRates,
                                       const float* __restrict__ lambda,
                                       const int* __restrict__ maturities,
                                       const float* __restrict__ strikes,
                                       float* __restrict__ work, float* __restrict__ value) {
  const int path = blockIdx.x * blockDim.x + threadIdx.x;
  if (path >= paths) return;
  const int pitch = blockDim.x;
  float* rates = work + static_cast<size_t>(blockIdx.x) * kRates * pitch + threadIdx.x;
  for (int i = 0; i < kRates; ++i) rates[i * pitch] = initialRates[i];

  for (int n = 0; n < kSteps; ++n) {
    const float shock = 0.5f * z[static_cast<size_t>(n) * paths + path];  // sqrt(delta) z
    float drift = 0.0f;
    for (int i = n + 1; i < kRates; ++i) {
      const float lam = lambda[i - n - 1];
      const float con = kDelta * lam;
      const float rate = rates[i * pitch];
      drift += con * rate / (1.0f + kDelta * rate);
      rates[i * pitch] = rate * expf(con * drift + lam * (shock - 0.5f * con));
    }
  }

  float annuity[kSwaps], discount[kSwaps];
  float b = 1.0f, s = 0.0f;
  for (int m = 0; m < kSwaps; ++m) {
    b = b / (1.0f + kDelta * rates[(kSteps + m) * pitch]);
    s = s + kDelta * b;
    discount[m] = b;
    annuity[m] = s;
  }
  float v = 0.0f;
  for (int k = 0; k < options; ++k) {
    const int m = maturities[k] - 1;
    const float swap = discount[m] + strikes[k] * annuity[m] - 1.0f;
    if (swap < 0.0f) v = v - 100.0f * swap;
  }
  for (int n = 0; n < kSteps; ++n) v = v / (1.0f + kDelta * rates[n * pitch]);
  value[path] = v;
}
