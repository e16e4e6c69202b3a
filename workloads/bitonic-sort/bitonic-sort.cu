// nvcc-flags: -arch=compute_80 -O3
// Bitonic sort of n = 2^k key/value pairs (unsigned keys, unsigned values), ascending by key.
//
// The network: for each merge size 2, 4, ..., n and, within it, each stride size / 2, ..., 1,
// every element i with partner j = i + stride (i's stride bit clear) is compared with j and the
// two swapped if out of order; the order is ascending where i's `size` bit is clear and
// descending where it is set, so that each merge's inputs are bitonic (the final merge,
// size = n, is all ascending). One thread does one compare-exchange.
//
// TILE = 2 x THREADS elements fit a CTA's shared memory. bitonic_sort_tile runs every step
// with size <= TILE on its tile in shared memory (a barrier between steps). For larger sizes
// the host launches bitonic_merge_global once per stride >= TILE (each thread one
// compare-exchange in global memory), then bitonic_merge_tile for the strides below TILE,
// which stay within a tile.

#define THREADS 256
#define TILE (2 * THREADS)

// Compare-exchange of (ka, va) at i and (kb, vb) at its partner; ascending puts the smaller
// key first. Equal keys stay where they are.
__device__ __forceinline__ void order(unsigned& ka, unsigned& va, unsigned& kb, unsigned& vb,
                                      bool ascending) {
  if (ascending ? ka > kb : kb > ka) {
    unsigned t = ka;
    ka = kb;
    kb = t;
    t = va;
    va = vb;
    vb = t;
  }
}

// The steps of one merge size with strides from `stride` down to 1 on the CTA's tile in
// shared memory; `base` is the tile's first element in the whole array (directions depend on
// global positions).
__device__ __forceinline__ void mergeInShared(unsigned* keys, unsigned* values, unsigned base,
                                              unsigned size, unsigned stride) {
  const unsigned tid = threadIdx.x;
  for (; stride > 0; stride >>= 1) {
    // The tid-th pair of this step: i has the stride bit clear.
    const unsigned i = 2 * tid - (tid & (stride - 1)), j = i + stride;
    unsigned ka = keys[i], va = values[i], kb = keys[j], vb = values[j];
    order(ka, va, kb, vb, ((base + i) & size) == 0);
    keys[i] = ka;
    values[i] = va;
    keys[j] = kb;
    values[j] = vb;
    __syncthreads();
  }
}

extern "C" __global__ void bitonic_sort_tile(unsigned* __restrict__ keys,
                                             unsigned* __restrict__ values) {
  __shared__ unsigned sKeys[TILE];
  __shared__ unsigned sValues[TILE];
  const unsigned tid = threadIdx.x, base = blockIdx.x * TILE;
  sKeys[tid] = keys[base + tid];
  sValues[tid] = values[base + tid];
  sKeys[tid + THREADS] = keys[base + tid + THREADS];
  sValues[tid + THREADS] = values[base + tid + THREADS];
  __syncthreads();
  for (unsigned size = 2; size <= TILE; size <<= 1) {
    mergeInShared(sKeys, sValues, base, size, size / 2);
  }
  keys[base + tid] = sKeys[tid];
  values[base + tid] = sValues[tid];
  keys[base + tid + THREADS] = sKeys[tid + THREADS];
  values[base + tid + THREADS] = sValues[tid + THREADS];
}

// The strides TILE / 2 .. 1 of merge size `size` (> TILE).
extern "C" __global__ void bitonic_merge_tile(unsigned* __restrict__ keys,
                                              unsigned* __restrict__ values, unsigned size) {
  __shared__ unsigned sKeys[TILE];
  __shared__ unsigned sValues[TILE];
  const unsigned tid = threadIdx.x, base = blockIdx.x * TILE;
  sKeys[tid] = keys[base + tid];
  sValues[tid] = values[base + tid];
  sKeys[tid + THREADS] = keys[base + tid + THREADS];
  sValues[tid + THREADS] = values[base + tid + THREADS];
  __syncthreads();
  mergeInShared(sKeys, sValues, base, size, TILE / 2);
  keys[base + tid] = sKeys[tid];
  values[base + tid] = sValues[tid];
  keys[base + tid + THREADS] = sKeys[tid + THREADS];
  values[base + tid + THREADS] = sValues[tid + THREADS];
}

// One step (a stride >= TILE) of merge size `size` over the whole array: n / 2 threads.
extern "C" __global__ void bitonic_merge_global(unsigned* __restrict__ keys,
                                                unsigned* __restrict__ values, unsigned size,
                                                unsigned stride) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned i = 2 * t - (t & (stride - 1)), j = i + stride;
  unsigned ka = keys[i], va = values[i], kb = keys[j], vb = values[j];
  order(ka, va, kb, vb, (i & size) == 0);
  keys[i] = ka;
  values[i] = va;
  keys[j] = kb;
  values[j] = vb;
}
