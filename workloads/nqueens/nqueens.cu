// nvcc-flags: -arch=compute_80 -O3
// Counts the solutions of the N-queens problem by backtracking, a thread per partial placement.
// The host places queens on the first rows in every valid way; each placement is three bitmasks
// (columns taken, and the diagonals attacked on the next row going left and going right). A
// thread completes its placement row by row, always trying the lowest free column first, with an
// explicit stack of the candidate columns of each row it has placed a queen on. Three phases:
//   1. initialisation: the thread's placement from global memory, no shared memory;
//   2. backtracking: the stack lives in shared memory, level-major (word [level][thread], so
//      the lanes of a warp touch consecutive words), levels at and past `sharedLevels` in a
//      local array, so the shared memory per CTA can be chosen independently of the depth;
//   3. reduction: the per-thread counts summed by a shared-memory tree (blockDim.x need not be a
//      power of two), one count per CTA written out.
//
// Only the candidate set is pushed: the queen placed on that row is its lowest bit, and placing
// it is undone exactly by XOR. The left diagonals are kept unmasked (they shift left, at most 2N
// bits for N <= 16, nothing falls off) and the right ones 16 bits up (they shift right, nothing
// falls below bit 0), so both shifts are invertible.

#define MAX_LEVELS 16  // stack levels of a thread: the rows after the host's, N - rows - 1 < 16

extern "C" __global__ void nqueens_count(const unsigned* __restrict__ placements, int count,
                                         int n, int levels, int sharedLevels,
                                         unsigned* __restrict__ ctaSolutions) {
  extern __shared__ unsigned scratch[];  // [sharedLevels][blockDim.x] stack, [blockDim.x] sums
  // Phase 1: which placement, and its masks (structure of arrays: columns, left, right).
  const unsigned tid = threadIdx.x;
  const unsigned threads = blockDim.x;
  const int idx = blockIdx.x * threads + tid;
  unsigned solutions = 0;
  if (idx < count) {
    const unsigned full = (1u << n) - 1;
    unsigned cols = placements[idx];
    unsigned left = placements[count + idx];
    unsigned right = placements[2 * count + idx] << 16;
    unsigned deep[MAX_LEVELS];  // the levels that do not fit in shared memory

    // Phase 2: depth-first search over the remaining rows; `level` is the row being filled.
    int level = 0;
    unsigned avail = ~(cols | left | (right >> 16)) & full;
    for (;;) {
      if (avail != 0 && level < levels) {
        // Place a queen on the lowest candidate column and go one row down.
        if (level < sharedLevels) {
          scratch[level * threads + tid] = avail;
        } else {
          deep[level] = avail;
        }
        const unsigned bit = avail & (0u - avail);
        cols |= bit;
        left = (left | bit) << 1;
        right = (right | (bit << 16)) >> 1;
        ++level;
        avail = ~(cols | left | (right >> 16)) & full;
      } else {
        // The last row: every free column completes a solution. Then back up one row.
        if (level == levels) solutions += __popc(avail);
        if (level == 0) break;
        --level;
        const unsigned pushed = level < sharedLevels ? scratch[level * threads + tid] : deep[level];
        const unsigned bit = pushed & (0u - pushed);
        cols ^= bit;
        left = (left >> 1) ^ bit;
        right = (right << 1) ^ (bit << 16);
        avail = pushed ^ bit;
      }
    }
  }

  // Phase 3: the CTA's sum. Fold the threads above the largest power of two onto it, then halve.
  unsigned* sums = scratch + sharedLevels * threads;
  sums[tid] = solutions;
  __syncthreads();
  const unsigned pow2 = 1u << (31 - __clz(threads));
  if (tid + pow2 < threads) sums[tid] += sums[tid + pow2];
  __syncthreads();
  for (unsigned half = pow2 / 2; half > 0; half >>= 1) {
    if (tid < half) sums[tid] += sums[tid + half];
    __syncthreads();
  }
  if (tid == 0) ctaSolutions[blockIdx.x] = sums[0];
}
