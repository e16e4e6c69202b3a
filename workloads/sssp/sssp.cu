// nvcc-flags: -arch=compute_80 -O3
// Single-source shortest paths (travel times) on a road network in CSR form, by data-driven
// Bellman-Ford: a worklist of the vertices whose distance went down in the previous round, three
// launches per round, repeated by the host until a round improves nothing.
//  * sssp_relax: one thread per worklist entry v reads its distance d = read[v], copies it into
//    write[v] (atomicMin: v's entry there is still the older, larger value) and relaxes its
//    out-edges: a candidate d + w below read[u] lowers write[u] with atomicMin and sets u's bit
//    in the next frontier's bitmap (atomicOr). Nothing writes `read` in the round, so after it
//    write[u] = min(read[u], candidates into u) for every u: a vertex not in the next frontier
//    has the same distance in both arrays, one in it the lower one in `write`, which the next
//    round (the arrays swap) copies back.
//  * frontier_scan: one CTA turns the bitmap's per-word bit counts into exclusive prefix sums
//    (the worklist position of each word's first vertex) and the worklist's length;
//  * frontier_scatter: one thread per bitmap word writes its vertices to the worklist, in vertex
//    order, and clears the word.
// So the worklist is sorted, and the rounds compute the same sets, values and instruction counts
// whatever the order in which threads run. Distances only go down and every lowering puts the
// vertex back on the worklist, so the fixpoint is the shortest distances.

#define SCAN_THREADS 256

extern "C" __global__ void sssp_relax(const int* __restrict__ rowStart,
                                      const int* __restrict__ target,
                                      const int* __restrict__ seconds, const int* __restrict__ read,
                                      int* write, const int* __restrict__ worklist,
                                      const int* __restrict__ worklistSize,
                                      unsigned* __restrict__ nextFrontier) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= *worklistSize) return;
  int v = worklist[i];
  int d = read[v];
  atomicMin(&write[v], d);
  for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
    int u = target[e];
    int candidate = d + seconds[e];
    if (candidate < read[u]) {
      atomicMin(&write[u], candidate);
      atomicOr(&nextFrontier[u >> 5], 1u << (u & 31));
    }
  }
}

extern "C" __global__ void frontier_scan(const unsigned* __restrict__ frontier, int words,
                                         int* __restrict__ offsets, int* __restrict__ size) {
  __shared__ int warpTotals[SCAN_THREADS / 32];
  const int chunk = (words + SCAN_THREADS - 1) / SCAN_THREADS;
  const int begin = min(words, static_cast<int>(threadIdx.x) * chunk);
  const int end = min(words, begin + chunk);
  int sum = 0;
  for (int w = begin; w < end; ++w) sum += __popc(frontier[w]);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int inclusive = sum;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  if (lane == 31) warpTotals[warp] = inclusive;
  __syncthreads();
  if (threadIdx.x == 0) {
    int running = 0;
    for (int w = 0; w < SCAN_THREADS / 32; ++w) {
      int total = warpTotals[w];
      warpTotals[w] = running;
      running += total;
    }
    *size = running;
  }
  __syncthreads();
  int position = warpTotals[warp] + inclusive - sum;
  for (int w = begin; w < end; ++w) {
    offsets[w] = position;
    position += __popc(frontier[w]);
  }
}

extern "C" __global__ void frontier_scatter(unsigned* __restrict__ frontier, int words,
                                            const int* __restrict__ offsets,
                                            int* __restrict__ worklist) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= words) return;
  unsigned bits = frontier[w];
  if (bits == 0) return;
  frontier[w] = 0;
  int position = offsets[w];
  for (; bits != 0; bits &= bits - 1) worklist[position++] = w * 32 + __ffs(bits) - 1;
}
