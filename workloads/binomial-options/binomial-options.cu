// nvcc-flags: -arch=compute_80 -O3
// European call options priced on Cox-Ross-Rubinstein binomial trees, one option per CTA.
//
// After `steps` time steps of length dt the stock has moved up i times and down steps - i
// times, to spot * exp(vDt * (2i - steps)) with vDt = volatility * sqrt(dt); the option is then
// worth its payoff max(price - strike, 0). Going back one step, each node is the discounted
// risk-neutral expectation of its two successors:
//   V[n-1][i] = puByDf * V[n][i+1] + pdByDf * V[n][i]
// (up and down probabilities times the one-step discount factor, computed by the host). The
// root V[0][0] is the price.
//
// The leaves are computed per thread into a global buffer (steps + 1 values per option). Each
// pass then moves the tree back DEPTH levels: THREADS consecutive values of the level are
// staged in shared memory, DEPTH steps run there (ping-ponging two windows; each step loses the
// window's last value), and the first THREADS - DEPTH results are written back in place.
// Consecutive windows overlap by DEPTH values, so a window never needs what an earlier one
// wrote in the same pass.

#define THREADS 256
#define DEPTH 32

extern "C" __global__ void binomial_option(
    const float* __restrict__ spot, const float* __restrict__ strike, const float* __restrict__ vDt,
    const float* __restrict__ puByDf, const float* __restrict__ pdByDf, float* __restrict__ tree,
    float* __restrict__ price, int steps) {
  __shared__ float window[2][THREADS];
  const int option = blockIdx.x, tid = threadIdx.x;
  float* level = tree + static_cast<size_t>(option) * (steps + 1);

  const float s = spot[option], x = strike[option], v = vDt[option];
  for (int i = tid; i <= steps; i += THREADS) {
    level[i] = fmaxf(s * expf(v * static_cast<float>(2 * i - steps)) - x, 0.0f);
  }
  __syncthreads();

  const float pu = puByDf[option], pd = pdByDf[option];
  for (int n = steps; n > 0; n -= DEPTH) {
    const int depth = min(DEPTH, n);
    // Level n has values 0..n; level n - depth needs 0..n - depth.
    for (int first = 0; first <= n - depth; first += THREADS - DEPTH) {
      const int i = first + tid;
      window[0][tid] = i <= n ? level[i] : 0.0f;
      __syncthreads();
      int cur = 0;
      for (int k = 0; k < depth; ++k) {
        if (tid < THREADS - 1) {
          window[cur ^ 1][tid] = pu * window[cur][tid + 1] + pd * window[cur][tid];
        }
        cur ^= 1;
        __syncthreads();
      }
      if (tid < THREADS - DEPTH && i <= n - depth) level[i] = window[cur][tid];
    }
    __syncthreads();  // the level is complete before the next pass reads it
  }
  if (tid == 0) price[option] = level[0];
}
