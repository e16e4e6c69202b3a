// nvcc-flags: -arch=compute_80 -O3
// The gain of opening a facility in online k-median clustering (as Rodinia's streamcluster):
// the host runs a local search over candidate facilities for each chunk of the stream; for each
// candidate the GPU computes, per point, what reassigning the point to the candidate would
// change (pgain), and sums that per-point work array per open facility (pgain_sum), from which
// the host decides whether to open the candidate and which facilities to close.
//
// pgain: a thread per point. The points' coordinates are stored dimension-major (coordinate d of
// point i at coord[d * num + i]), so that the lanes of a warp read neighbouring words; the
// candidate's coordinates are staged in shared memory (read by every thread). A point whose cost
// would fall (its weighted squared distance to the candidate is below its current cost)
// switches: it puts its saving (x_cost - cost, negative) in row `centers` of the work array;
// any other point puts what closing its own facility would cost it if it moved to the candidate
// (cost - x_cost, at most 0) in its facility's row. The work array holds centers + 1 rows of
// num floats, each thread writing its own column (zeros elsewhere).
//
// pgain_sum: a CTA per row of the work array: the row's sum (a strided loop, then a shared tree).

#define kThreads 256
#define kMaxDim 64

extern "C" __global__ void pgain(int num, int dim, int candidate, int centers,
                                 const float* __restrict__ coord,
                                 const float* __restrict__ weight, const float* __restrict__ cost,
                                 const int* __restrict__ assign,
                                 const int* __restrict__ centerTable, float* __restrict__ work,
                                 int* __restrict__ switchMembership) {
  __shared__ float x[kMaxDim];
  for (int d = threadIdx.x; d < dim; d += blockDim.x) x[d] = coord[d * num + candidate];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num) return;
  float dist = 0.0f;
  for (int d = 0; d < dim; ++d) {
    const float diff = coord[d * num + i] - x[d];
    dist += diff * diff;
  }
  const float xCost = dist * weight[i];
  const float current = cost[i];
  const bool switches = xCost < current;
  const int row = switches ? centers : centerTable[assign[i]];
  const float value = switches ? xCost - current : current - xCost;
  for (int c = 0; c <= centers; ++c) work[c * num + i] = c == row ? value : 0.0f;
  switchMembership[i] = switches ? 1 : 0;
}

extern "C" __global__ void pgain_sum(int num, const float* __restrict__ work, float* sums) {
  __shared__ float part[kThreads];
  const float* row = work + blockIdx.x * num;
  float s = 0.0f;
  for (int i = threadIdx.x; i < num; i += kThreads) s += row[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}
