// nvcc-flags: -arch=compute_80 -O3
// Cheapest path down a rows x cols grid of costs, moving to one of the three cells below at
// each row: cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1])
// (neighbours beyond the edge do not exist). One launch advances `steps` rows: a block of
// BLOCK threads loads BLOCK consecutive costs of the previous row into shared memory and
// iterates in place; the cells near its ends lose their outer neighbours one per row, so only
// the middle BLOCK - 2 steps columns are written (the blocks overlap by 2 steps columns).

#define BLOCK 256

extern "C" __global__ void pathfinder_rows(const int* __restrict__ wall,
                                           const int* __restrict__ previous,
                                           int* __restrict__ result, int cols, int firstRow,
                                           int steps) {
  __shared__ int cost[2][BLOCK];
  int t = threadIdx.x;
  int outputsPerBlock = BLOCK - 2 * steps;
  int start = blockIdx.x * outputsPerBlock - steps;  // column of thread 0
  int col = start + t;
  bool valid = col >= 0 && col < cols;
  int src = 0;
  cost[0][t] = valid ? previous[col] : 0;
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    // After s + 1 rows, thread t's value is right when t is at least s + 1 away from the
    // block's ends: its neighbours' values of the row before were right.
    bool computed = t >= s + 1 && t < BLOCK - s - 1;
    if (computed && valid) {
      int best = cost[src][t];
      if (col > 0) best = min(best, cost[src][t - 1]);
      if (col < cols - 1) best = min(best, cost[src][t + 1]);
      cost[1 - src][t] = best + wall[(firstRow + s) * cols + col];
    }
    __syncthreads();
    src = 1 - src;
  }
  if (t >= steps && t < BLOCK - steps && valid) result[col] = cost[src][t];
}
