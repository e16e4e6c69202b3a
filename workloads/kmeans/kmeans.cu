// nvcc-flags: -arch=compute_80 -O3
// K-means clustering of n points with DIMS features, one iteration as three kernels:
//  * kmeans_assign: each point finds its nearest centroid (squared Euclidean distance, lowest
//    index on ties); the centroids are staged in shared memory by every block;
//  * kmeans_accumulate: per-cluster feature sums and counts, first in a block-private copy in
//    shared memory (shared atomics), then added to the global totals (global atomics);
//  * kmeans_centroids: centroid = sum / count (an empty cluster keeps its centroid).

#define DIMS 8
#define MAX_CLUSTERS 16

extern "C" __global__ void kmeans_assign(const float* __restrict__ points, int n,
                                         const float* __restrict__ centroids, int clusters,
                                         int* __restrict__ membership) {
  __shared__ float c[MAX_CLUSTERS * DIMS];
  for (int i = threadIdx.x; i < clusters * DIMS; i += blockDim.x) c[i] = centroids[i];
  __syncthreads();
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  float x[DIMS];
#pragma unroll
  for (int d = 0; d < DIMS; ++d) x[d] = points[p * DIMS + d];
  int best = 0;
  float bestDist = 3.402823466e38f;
  for (int k = 0; k < clusters; ++k) {
    float dist = 0.0f;
#pragma unroll
    for (int d = 0; d < DIMS; ++d) {
      float diff = x[d] - c[k * DIMS + d];
      dist += diff * diff;
    }
    if (dist < bestDist) {
      bestDist = dist;
      best = k;
    }
  }
  membership[p] = best;
}

extern "C" __global__ void kmeans_accumulate(const float* __restrict__ points, int n,
                                             const int* __restrict__ membership, int clusters,
                                             float* __restrict__ sums, int* __restrict__ counts) {
  __shared__ float blockSums[MAX_CLUSTERS * DIMS];
  __shared__ int blockCounts[MAX_CLUSTERS];
  for (int i = threadIdx.x; i < clusters * DIMS; i += blockDim.x) blockSums[i] = 0.0f;
  for (int i = threadIdx.x; i < clusters; i += blockDim.x) blockCounts[i] = 0;
  __syncthreads();
  int stride = gridDim.x * blockDim.x;
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += stride) {
    int k = membership[p];
    atomicAdd(&blockCounts[k], 1);
#pragma unroll
    for (int d = 0; d < DIMS; ++d) atomicAdd(&blockSums[k * DIMS + d], points[p * DIMS + d]);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < clusters * DIMS; i += blockDim.x) atomicAdd(&sums[i], blockSums[i]);
  for (int i = threadIdx.x; i < clusters; i += blockDim.x) atomicAdd(&counts[i], blockCounts[i]);
}

extern "C" __global__ void kmeans_centroids(const float* __restrict__ sums,
                                            const int* __restrict__ counts, int clusters,
                                            const float* __restrict__ previous,
                                            float* __restrict__ centroids) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= clusters * DIMS) return;
  int count = counts[i / DIMS];
  centroids[i] = count > 0 ? sums[i] / count : previous[i];
}
