// nvcc-flags: -arch=compute_80 -O3
// Minimum spanning forest of an undirected road network by Boruvka's algorithm. The graph is in
// CSR form with every road in the rows of both its ends; road r has the 64-bit key
// (seconds << 32) | r, so keys are distinct (ties broken by road number) and the forest unique.
// Every vertex belongs to a component named by its root (comp[root] == root). A round is four
// launches, repeated by the host until a round joins nothing:
//  * mst_min_edge: one thread per vertex finds its lightest road to another component and
//    lowers its component's minimum with a 64-bit atomicMin;
//  * mst_hook: one thread per root with a minimum points the root at the component across it
//    (hook[root]); with distinct keys the only cycles are pairs that chose the same road;
//  * mst_select: in such a pair the smaller root stays a root; every other root with a minimum
//    joins the component across (comp[root] = hook[root]) and marks its road in the forest;
//  * mst_jump: one thread per vertex follows the hooks from its old root to the new root and
//    writes that to the other array of a ping-pong pair (comp is not written while it is read,
//    so every thread walks the same chain under any timing), and resets its slot of the minima.

#define NO_EDGE 0xffffffffffffffffull

extern "C" __global__ void mst_min_edge(const int* __restrict__ rowStart,
                                        const int* __restrict__ target,
                                        const int* __restrict__ road,
                                        const int* __restrict__ seconds,
                                        const int* __restrict__ comp, unsigned long long* minEdge,
                                        int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices) return;
  int c = comp[v];
  unsigned long long best = NO_EDGE;
  for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
    if (comp[target[e]] == c) continue;
    int r = road[e];
    unsigned long long key =
        (static_cast<unsigned long long>(seconds[r]) << 32) | static_cast<unsigned>(r);
    best = min(best, key);
  }
  if (best != NO_EDGE) atomicMin(&minEdge[c], best);
}

extern "C" __global__ void mst_hook(const int* __restrict__ roadEnds, const int* __restrict__ comp,
                                    const unsigned long long* __restrict__ minEdge,
                                    int* __restrict__ hook, int vertices) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= vertices || comp[c] != c) return;
  unsigned long long key = minEdge[c];
  if (key == NO_EDGE) {
    hook[c] = c;
    return;
  }
  int r = static_cast<int>(key & 0xffffffffu);
  int a = comp[roadEnds[2 * r]], b = comp[roadEnds[2 * r + 1]];
  hook[c] = a == c ? b : a;
}

extern "C" __global__ void mst_select(const int* __restrict__ hook,
                                      const unsigned long long* __restrict__ minEdge, int* comp,
                                      unsigned char* __restrict__ inForest,
                                      int* __restrict__ joined, int vertices) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= vertices || comp[c] != c) return;
  int other = hook[c];
  if (other == c || (hook[other] == c && c < other)) return;
  comp[c] = other;
  inForest[minEdge[c] & 0xffffffffu] = 1;
  *joined = 1;
}

extern "C" __global__ void mst_jump(const int* __restrict__ comp, int* __restrict__ newComp,
                                    unsigned long long* __restrict__ minEdge, int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices) return;
  int c = comp[v];
  for (int up = comp[c]; up != c; up = comp[c]) c = up;
  newComp[v] = c;
  minEdge[v] = NO_EDGE;
}
