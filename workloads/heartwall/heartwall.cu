// nvcc-flags: -arch=compute_80 -O3
// Tracking sample points of the heart's walls through ultrasound frames by template matching
// (after Rodinia's heartwall). One CTA of 64 threads per tracked point:
//  * heartwall_templates copies each point's TS x TS template out of the first frame;
//  * heartwall_track, once per later frame, stages the search area around the point's previous
//    position into shared memory, computes the normalised cross-correlation (NCC) of the
//    template with every candidate position of the search window, takes the best (ties: the
//    lowest candidate index) and moves the point there.
// The search window is one warp wide and WINDOW_ROWS tall: lane l evaluates column dx = l - 16,
// warp w the rows w, w + 2, ... (dy = row - 4). Each thread keeps two private offset tables of
// AREA_ROWS entries (the frame offset and the shared-memory offset of its column in every row
// of the search area), filled from threadIdx and read with run-time indices (row + i), so they
// live in local memory as heartwall's private arrays do; their values are affine across a warp
// (base + lane). Intensities are integers 0..255 stored as floats, so every sum below is an
// exact integer (at most TS*TS*255^2 < 2^24); the NCC is formed from the sums with 64-bit
// integers and a fixed sequence of correctly rounded float operations.

#define TS 9                              // template edge
#define HALF 4                            // template centre offset
#define WINDOW_COLS 32                    // candidate columns: one per lane
#define WINDOW_ROWS 8                     // candidate rows
#define AREA_ROWS (WINDOW_ROWS + TS - 1)  // 16 rows of the search area
#define AREA_COLS (WINDOW_COLS + TS - 1)  // 40 columns
#define THREADS 64
#define WARPS (THREADS / 32)

extern "C" __global__ void heartwall_templates(const float* __restrict__ frame, int width,
                                               const int* __restrict__ positions,
                                               float* __restrict__ templates) {
  int p = blockIdx.x;
  int py = positions[2 * p], px = positions[2 * p + 1];
  for (int e = threadIdx.x; e < TS * TS; e += blockDim.x) {
    templates[p * TS * TS + e] = frame[(py - HALF + e / TS) * width + px - HALF + e % TS];
  }
}

// Positions are clamped so that the search area stays inside the frame.
__device__ int clampInt(int v, int lo, int hi) { return min(max(v, lo), hi); }

extern "C" __global__ void __launch_bounds__(THREADS)
    heartwall_track(const float* __restrict__ frame, int width, int height,
                    const float* __restrict__ templates, int* __restrict__ positions,
                    float* __restrict__ scores) {
  __shared__ float tpl[TS * TS];
  __shared__ float area[AREA_ROWS * AREA_COLS];
  __shared__ float bestScore[THREADS];
  __shared__ int bestIndex[THREADS];
  const int p = blockIdx.x, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int py = positions[2 * p], px = positions[2 * p + 1];
  for (int e = tid; e < TS * TS; e += THREADS) tpl[e] = templates[p * TS * TS + e];

  // The private tables. Warp 0 stages area columns 0..31, warp 1 columns 32..39 (lanes 0..7).
  int frameRow[AREA_ROWS], areaRow[AREA_ROWS];
  const int top = py - WINDOW_ROWS / 2 - HALF, left = px - WINDOW_COLS / 2 - HALF;
#pragma unroll 1
  for (int r = 0; r < AREA_ROWS; ++r) {
    frameRow[r] = (top + r) * width + left + 32 * warp + lane;
    areaRow[r] = r * AREA_COLS + lane;
  }
  if (32 * warp + lane < AREA_COLS) {
#pragma unroll 1
    for (int r = 0; r < AREA_ROWS; ++r) area[areaRow[r] + 32 * warp] = frame[frameRow[r]];
  }
  __syncthreads();

  // The template's sums (every thread the same; exact integers).
  float sT = 0.0f, sTT = 0.0f;
  for (int e = 0; e < TS * TS; ++e) {
    sT += tpl[e];
    sTT += tpl[e] * tpl[e];
  }
  const long long n = TS * TS;
  const long long varT = n * (long long)sTT - (long long)sT * (long long)sT;

  float best = -3.0f;  // below every score
  int bestAt = 0;
#pragma unroll 1
  for (int row = warp; row < WINDOW_ROWS; row += WARPS) {
    float sI = 0.0f, sII = 0.0f, sTI = 0.0f;
#pragma unroll 1
    for (int i = 0; i < TS; ++i) {
      const float* a = &area[areaRow[row + i]];
      const float* t = &tpl[i * TS];
#pragma unroll
      for (int j = 0; j < TS; ++j) {
        sI += a[j];
        sII += a[j] * a[j];
        sTI += t[j] * a[j];
      }
    }
    // NCC = (n sTI - sT sI) / sqrt((n sTT - sT^2)(n sII - sI^2)); -2 for a flat window.
    long long num = n * (long long)sTI - (long long)sT * (long long)sI;
    long long varI = n * (long long)sII - (long long)sI * (long long)sI;
    float denom = (float)varT * (float)varI;
    float score = denom > 0.0f ? (float)num / sqrtf(denom) : -2.0f;
    if (score > best) {  // rows ascend: the first (lowest index) of equal scores is kept
      best = score;
      bestAt = row * WINDOW_COLS + lane;
    }
  }

  // Arg-max over the CTA: the higher score, of equal scores the lower candidate index.
  bestScore[tid] = best;
  bestIndex[tid] = bestAt;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (tid < s) {
      float other = bestScore[tid + s];
      int otherAt = bestIndex[tid + s];
      if (other > bestScore[tid] || (other == bestScore[tid] && otherAt < bestIndex[tid])) {
        bestScore[tid] = other;
        bestIndex[tid] = otherAt;
      }
    }
    __syncthreads();
  }
  if (tid == 0) {
    int dy = bestIndex[0] / WINDOW_COLS - WINDOW_ROWS / 2;
    int dx = bestIndex[0] % WINDOW_COLS - WINDOW_COLS / 2;
    const int marginY = WINDOW_ROWS / 2 + HALF, marginX = WINDOW_COLS / 2 + HALF;
    positions[2 * p] = clampInt(py + dy, marginY, height - marginY);
    positions[2 * p + 1] = clampInt(px + dx, marginX, width - marginX);
    scores[p] = bestScore[0];
  }
}
