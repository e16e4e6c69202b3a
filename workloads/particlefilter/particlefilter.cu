// nvcc-flags: -arch=compute_80 -O3
// A particle filter tracking a bright disk through a sequence of noisy video frames (as Rodinia's
// particlefilter), one frame per round of four kernels, a thread per particle:
//
//   pf_likelihood  move the particle by the motion model (a drift plus the frame's Gaussian
//                  noise, drawn by the host), take the pixels under a disk template centred on
//                  the particle's rounded position, turn them into a log-likelihood ratio
//                  (object against background), multiply the weight by its exponential, and
//                  sum the CTA's weights (a shared tree)
//   pf_sum         one CTA adds the CTAs' partial sums: the total weight
//   pf_normalise   divide each weight by the total, scan the CTA's weights into a CDF (a
//                  shared Hillis-Steele scan; the CTA's total goes to blockTotals) and sum the
//                  CTA's weighted positions (the estimate's partial sums)
//   pf_find_index  systematic resampling: particle j searches the CDF for u_j = u1 + j / n
//                  (binary search for the first particle whose CDF reaches u_j), copies that
//                  particle's position and resets its weight to 1 / n
//
// Every per-particle array is read or written once per kernel, a thread its own element (the
// CDF search and the resampling copy are gathers); the frame is read under the particles'
// disks, which crowd around the object.

#define kThreads 256
#define kRadius 5
#define kBackground 100
#define kObject 228

// Half the width of the disk template's row dy (|dy| <= kRadius): floor(sqrt(25 - dy^2)).
__constant__ int kHalfWidth[2 * kRadius + 1] = {0, 3, 4, 4, 4, 5, 4, 4, 4, 3, 0};

extern "C" __global__ void pf_likelihood(int n, int width, int height,
                                         const unsigned char* __restrict__ frame,
                                         const float* __restrict__ noiseX,
                                         const float* __restrict__ noiseY, float driftX,
                                         float driftY, float likelihoodScale, float* x, float* y,
                                         float* weights, float* partialSums) {
  __shared__ float sums[kThreads];
  const int i = blockIdx.x * kThreads + threadIdx.x;
  float w = 0.0f;
  if (i < n) {
    const float px = x[i] + driftX + noiseX[i];
    const float py = y[i] + driftY + noiseY[i];
    x[i] = px;
    y[i] = py;
    const int cx = __float2int_rn(px), cy = __float2int_rn(py);
    // (I - background)^2 - (I - object)^2 summed over the template, in integers (exact).
    int s = 0;
    for (int dy = -kRadius; dy <= kRadius; ++dy) {
      const int row = min(max(cy + dy, 0), height - 1);
      const unsigned char* line = frame + row * width;
      const int h = kHalfWidth[dy + kRadius];
      for (int dx = -h; dx <= h; ++dx) {
        const int col = min(max(cx + dx, 0), width - 1);
        const int v = line[col];
        s += (v - kBackground) * (v - kBackground) - (v - kObject) * (v - kObject);
      }
    }
    // The mean log-likelihood ratio under the model's noise variance (likelihoodScale =
    // 1 / (2 sigma^2 * template pixels)).
    const float likelihood = static_cast<float>(s) * likelihoodScale;
    w = weights[i] * expf(likelihood);
    weights[i] = w;
  }
  sums[threadIdx.x] = w;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partialSums[blockIdx.x] = sums[0];
}

// One CTA: total[0] = the sum of the blocks' partial sums (at most kThreads of them).
extern "C" __global__ void pf_sum(int blocks, const float* __restrict__ partialSums,
                                  float* total) {
  __shared__ float sums[kThreads];
  sums[threadIdx.x] = threadIdx.x < blocks ? partialSums[threadIdx.x] : 0.0f;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) total[0] = sums[0];
}

extern "C" __global__ void pf_normalise(int n, const float* __restrict__ total,
                                        const float* __restrict__ x,
                                        const float* __restrict__ y, float* weights, float* cdf,
                                        float* blockTotals, float* estimateX, float* estimateY) {
  __shared__ float scan[2][kThreads];
  __shared__ float ex[kThreads], ey[kThreads];
  const int t = threadIdx.x, i = blockIdx.x * kThreads + t;
  float w = 0.0f, wx = 0.0f, wy = 0.0f;
  if (i < n) {
    w = weights[i] / total[0];
    weights[i] = w;
    wx = w * x[i];
    wy = w * y[i];
  }
  scan[0][t] = w;
  ex[t] = wx;
  ey[t] = wy;
  __syncthreads();
  int from = 0;
  for (int stride = 1; stride < kThreads; stride <<= 1) {
    const float v = t >= stride ? scan[from][t - stride] + scan[from][t] : scan[from][t];
    scan[1 - from][t] = v;
    from = 1 - from;
    __syncthreads();
  }
  for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      ex[t] += ex[t + stride];
      ey[t] += ey[t + stride];
    }
    __syncthreads();
  }
  if (i < n) cdf[i] = scan[from][t];
  if (t == kThreads - 1) blockTotals[blockIdx.x] = scan[from][t];
  if (t == 0) {
    estimateX[blockIdx.x] = ex[0];
    estimateY[blockIdx.x] = ey[0];
  }
}

extern "C" __global__ void pf_find_index(int n, int blocks, float u1,
                                         const float* __restrict__ cdf,
                                         const float* __restrict__ blockTotals,
                                         const float* __restrict__ x,
                                         const float* __restrict__ y, float* newX, float* newY,
                                         float* weights) {
  __shared__ float prefix[kThreads];  // the CDF before each block (an exclusive scan, in order)
  const int j = blockIdx.x * kThreads + threadIdx.x;
  if (threadIdx.x == 0) {
    float run = 0.0f;
    for (int b = 0; b < blocks; ++b) {
      prefix[b] = run;
      run += blockTotals[b];
    }
  }
  __syncthreads();
  if (j >= n) return;
  const float u = u1 + static_cast<float>(j) / static_cast<float>(n);
  // The first particle whose CDF (its block's prefix plus its in-block scan) reaches u; the
  // last particle when rounding leaves the whole CDF below u.
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (prefix[mid / kThreads] + cdf[mid] >= u) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  newX[j] = x[lo];
  newY[j] = y[lo];
  weights[j] = 1.0f / static_cast<float>(n);
}
