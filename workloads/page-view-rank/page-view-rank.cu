// nvcc-flags: -arch=compute_80 -O3
// Page view rank as a MapReduce job over a click log of (source page, target page) records:
// count the views of every target page, then order the pages by views (most viewed first, ties
// by page id) and give every page its rank.
//  * pvr_count: one thread per record adds one view to its target (global atomics; the popular
//    pages collide).
//  * pvr_keys: one thread per page makes the sort key 0xffffff - views (ascending keys are
//    descending views) and the value, the page id.
//  * an LSD radix sort of the (key, page) pairs, 8 bits per pass, stable, so that equal keys keep
//    the page order; each pass is three kernels over tiles of TILE pairs:
//      radix_histogram  every tile counts its digits in shared memory (shared atomics) and stores
//                       them digit-major: hist[digit * tiles + tile];
//      radix_scan       one CTA turns that table into exclusive prefix sums: the first output
//                       position of every (digit, tile);
//      radix_scatter    every tile moves its pairs to their positions, in sub-tiles of one pair
//                       per thread: a lane finds the lanes of its warp with the same digit
//                       (match.any), its rank among them, and the counts of earlier warps
//                       (shared memory), so the order within a digit is the input order;
//  * pvr_rank: rank[page] = its position in the sorted order.

#define THREADS 256
#define WARPS (THREADS / 32)
#define SUBTILES 4
#define TILE (THREADS * SUBTILES)
#define RADIX 256
#define SCAN_THREADS 1024

extern "C" __global__ void pvr_count(const int2* __restrict__ records, int numRecords,
                                     unsigned* __restrict__ views) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < numRecords) atomicAdd(&views[records[r].y], 1u);
}

extern "C" __global__ void pvr_keys(const unsigned* __restrict__ views, int pages,
                                    unsigned* __restrict__ keys, unsigned* __restrict__ values) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pages) return;
  keys[p] = 0xffffffu - views[p];
  values[p] = p;
}

extern "C" __global__ void radix_histogram(const unsigned* __restrict__ keys, int n, int shift,
                                           unsigned* __restrict__ hist) {
  __shared__ unsigned counts[RADIX];
  counts[threadIdx.x] = 0;  // THREADS == RADIX
  __syncthreads();
  const int first = blockIdx.x * TILE;
  for (int i = first + threadIdx.x; i < min(first + TILE, n); i += THREADS) {
    atomicAdd(&counts[(keys[i] >> shift) & (RADIX - 1)], 1u);
  }
  __syncthreads();
  hist[threadIdx.x * gridDim.x + blockIdx.x] = counts[threadIdx.x];
}

// Exclusive prefix sums of hist[0..m) in place, by one CTA of SCAN_THREADS threads: each thread
// sums a contiguous chunk, the chunk sums are scanned across the CTA (warp shuffles, then the
// warp totals), and each thread rewrites its chunk.
extern "C" __global__ void radix_scan(unsigned* hist, int m) {
  __shared__ unsigned warpTotals[SCAN_THREADS / 32];
  const int chunk = (m + SCAN_THREADS - 1) / SCAN_THREADS;
  const int begin = min(m, threadIdx.x * chunk), end = min(m, begin + chunk);
  unsigned sum = 0;
  for (int i = begin; i < end; ++i) sum += hist[i];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned inclusive = sum;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    unsigned up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  if (lane == 31) warpTotals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    unsigned total = warpTotals[lane], scanned = total;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      unsigned up = __shfl_up_sync(0xffffffffu, scanned, d);
      if (lane >= d) scanned += up;
    }
    warpTotals[lane] = scanned - total;  // exclusive
  }
  __syncthreads();
  unsigned running = warpTotals[warp] + inclusive - sum;
  for (int i = begin; i < end; ++i) {
    unsigned c = hist[i];
    hist[i] = running;
    running += c;
  }
}

extern "C" __global__ void radix_scatter(const unsigned* __restrict__ keys,
                                         const unsigned* __restrict__ values, int n, int shift,
                                         const unsigned* __restrict__ offsets,
                                         unsigned* __restrict__ keysOut,
                                         unsigned* __restrict__ valuesOut) {
  __shared__ unsigned base[RADIX];               // next output position of every digit
  __shared__ unsigned warpCounts[WARPS][RADIX];  // the current sub-tile's digits, per warp
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  base[threadIdx.x] = offsets[threadIdx.x * gridDim.x + blockIdx.x];
#pragma unroll
  for (int w = 0; w < WARPS; ++w) warpCounts[w][threadIdx.x] = 0;
  __syncthreads();
  const unsigned lanesBelow = (1u << lane) - 1;
  for (int s = 0; s < SUBTILES; ++s) {
    const int i = blockIdx.x * TILE + s * THREADS + threadIdx.x;
    const bool valid = i < n;
    unsigned key = 0, value = 0;
    if (valid) {
      key = keys[i];
      value = values[i];
    }
    // Lanes past the end form a group of their own (digit RADIX) and store nothing.
    const unsigned digit = valid ? (key >> shift) & (RADIX - 1) : RADIX;
    const unsigned peers = __match_any_sync(0xffffffffu, digit);
    const bool leader = (peers & lanesBelow) == 0;
    if (valid && leader) warpCounts[warp][digit] = __popc(peers);
    __syncthreads();
    if (valid) {
      unsigned pos = base[digit] + __popc(peers & lanesBelow);
      for (int w = 0; w < warp; ++w) pos += warpCounts[w][digit];
      keysOut[pos] = key;
      valuesOut[pos] = value;
    }
    __syncthreads();
    unsigned added = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) added += warpCounts[w][threadIdx.x];
    base[threadIdx.x] += added;
    __syncthreads();
    if (valid && leader) warpCounts[warp][digit] = 0;  // clear what this sub-tile set
  }
}

extern "C" __global__ void pvr_rank(const unsigned* __restrict__ sortedPages, int pages,
                                    unsigned* __restrict__ rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pages) rank[sortedPages[i]] = i;
}
