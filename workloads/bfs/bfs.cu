// nvcc-flags: -arch=compute_80 -O3
// Breadth-first search levels on a graph in compressed sparse row form, one level per pair of
// kernels, repeated by the host until a level adds no vertex:
//  * bfs_expand: every vertex of the frontier marks its unvisited neighbours for the next
//    frontier and gives them its level + 1 (several writers store the same value);
//  * bfs_advance: the marked vertices become the frontier and are visited; raises *changed.

extern "C" __global__ void bfs_expand(const int* __restrict__ rowStart,
                                      const int* __restrict__ neighbours,
                                      const unsigned char* __restrict__ frontier,
                                      const unsigned char* __restrict__ visited,
                                      unsigned char* __restrict__ next, int* __restrict__ level,
                                      int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices || !frontier[v]) return;
  int nextLevel = level[v] + 1;
  for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
    int u = neighbours[e];
    if (!visited[u]) {
      level[u] = nextLevel;
      next[u] = 1;
    }
  }
}

extern "C" __global__ void bfs_advance(unsigned char* __restrict__ frontier,
                                       unsigned char* __restrict__ visited,
                                       unsigned char* __restrict__ next, int* __restrict__ changed,
                                       int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices) return;
  unsigned char marked = next[v];
  frontier[v] = marked;
  if (marked) {
    visited[v] = 1;
    next[v] = 0;
    *changed = 1;
  }
}
