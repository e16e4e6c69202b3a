// nvcc-flags: -arch=compute_80 -O3
// One Barnes-Hut time step of a 3-D gravitational n-body system, after the structure of
// Burtscher and Pingali's GPU Barnes-Hut (bounding box, octree build, summarisation, sorting,
// force computation, integration), written for this suite.
//
// The tree lives in preallocated arrays. Node k < n is body k; node n + c is cell c. A cell's
// eight child pointers are child[8c .. 8c+7] (octant bit 0: x above the centre, bit 1: y, bit 2:
// z), each a node or EMPTY. Cell 0 is the root; cells are numbered level by level, and within a
// level in the order of their parent's child slots: levels[l] .. levels[l+1]-1 are the cells of
// level l (the root is level 0). geom[c] holds a cell's centre and edge length, com[c] its
// centre of mass and total mass, count[c] the bodies below it.
//
// The build is level-synchronous so that the tree, the instruction counts and the final memory
// do not depend on the order in which threads run (no locks, no spinning). Every body not yet
// in a leaf sits in a cell of the current level; one round per level is two launches:
//  * bh_insert: a body whose claim of the previous round got a slot to itself is now a leaf and
//    stops; one whose slot became a cell moves into it. Each remaining body claims the child
//    slot of its octant: atomicCAS(EMPTY -> body) on the child pointer, and atomicAdd on the
//    slot's claim count. A slot claimed once now holds its body.
//  * bh_allocate (one CTA): every slot of the level claimed more than once becomes a new cell of
//    the next level, numbered by a prefix sum over the slots (so in slot order), its geometry
//    derived from its parent's and its children cleared; the slot's pointer is overwritten with
//    the cell, whichever claimant the CAS had let in.
// The host repeats rounds until no body moves. Bottom-up and top-down passes are a launch per
// level:
//  * bh_summarize (deepest level first): a cell's mass, centre of mass and body count from its
//    children, in octant order;
//  * bh_sort (root first): a cell hands out consecutive positions of the sorted order to its
//    children in octant order, so the bodies of any subtree are contiguous there.
// Then:
//  * bh_forces: a warp takes 32 consecutive bodies of the sorted order (nearby in space) and
//    walks the tree once for all of them, depth first: a child cell is opened unless every lane
//    finds it far enough (edge / distance < theta, as distance^2 >= edge^2 / theta^2), and then
//    all lanes interact with its centre of mass; bodies interact directly (softened). Decisions
//    are warp-uniform, so a warp shares one stack of the cells it still has to finish, in
//    dynamic shared memory: each warp's stack has stackDepth entries (cell * 8 + child being
//    visited), written by lane 0 and read by all.
//  * bh_integrate: leapfrog with velocities at half steps, v += a kick, p += v dt (the host
//    passes kick = dt / 2 on the first step, dt afterwards).
// bh_bbox and bh_root find the bounding box (per-CTA partial minima and maxima, then one CTA)
// and set up the root: a cube around the box.

#define EMPTY (-1)
#define FULL_MASK 0xffffffffu
#define MAX_WARPS 32

__device__ __forceinline__ float warpMin(float v) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v = fminf(v, __shfl_xor_sync(FULL_MASK, v, d));
  return v;
}

__device__ __forceinline__ float warpMax(float v) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, d));
  return v;
}

// Reduces the six box values of a CTA (lo: x, y, z minima; hi: maxima) into box[0..5] of thread
// 0. Every thread of the CTA calls it.
__device__ void blockBox(float lo[3], float hi[3], float* __restrict__ out) {
  __shared__ float warpBox[MAX_WARPS][6];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int k = 0; k < 3; ++k) {
    lo[k] = warpMin(lo[k]);
    hi[k] = warpMax(hi[k]);
  }
  if (lane == 0) {
    for (int k = 0; k < 3; ++k) {
      warpBox[warp][k] = lo[k];
      warpBox[warp][3 + k] = hi[k];
    }
  }
  __syncthreads();
  if (warp == 0) {
    const bool has = lane < static_cast<int>(blockDim.x >> 5);
    for (int k = 0; k < 3; ++k) {
      lo[k] = warpMin(has ? warpBox[lane][k] : INFINITY);
      hi[k] = warpMax(has ? warpBox[lane][3 + k] : -INFINITY);
    }
    if (lane == 0) {
      for (int k = 0; k < 3; ++k) {
        out[k] = lo[k];
        out[3 + k] = hi[k];
      }
    }
  }
}

extern "C" __global__ void bh_bbox(const float4* __restrict__ bodies, int n,
                                   float* __restrict__ partial) {
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const float4 b = bodies[i];
    lo[0] = fminf(lo[0], b.x);
    lo[1] = fminf(lo[1], b.y);
    lo[2] = fminf(lo[2], b.z);
    hi[0] = fmaxf(hi[0], b.x);
    hi[1] = fmaxf(hi[1], b.y);
    hi[2] = fmaxf(hi[2], b.z);
  }
  blockBox(lo, hi, partial + 6 * blockIdx.x);
}

// One CTA: the box of the partial boxes; the root is the cube of the box's largest extent
// around its centre. Also starts the build: the root's slots empty, level 0 = {root}, and the
// root first in the sorted order.
extern "C" __global__ void bh_root(const float* __restrict__ partial, int partials,
                                   float4* __restrict__ geom, int* __restrict__ child,
                                   int* __restrict__ claims, int* __restrict__ levels,
                                   int* __restrict__ start) {
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int p = threadIdx.x; p < partials; p += blockDim.x) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = fminf(lo[k], partial[6 * p + k]);
      hi[k] = fmaxf(hi[k], partial[6 * p + 3 + k]);
    }
  }
  __shared__ float box[6];
  blockBox(lo, hi, box);
  __syncthreads();
  if (threadIdx.x < 8) {
    child[threadIdx.x] = EMPTY;
    claims[threadIdx.x] = 0;
  }
  if (threadIdx.x == 0) {
    const float edge = fmaxf(fmaxf(box[3] - box[0], box[4] - box[1]), box[5] - box[2]);
    geom[0] = make_float4(0.5f * (box[0] + box[3]), 0.5f * (box[1] + box[4]),
                          0.5f * (box[2] + box[5]), edge);
    levels[0] = 0;
    levels[1] = 1;
    start[0] = 0;
  }
}

// One round of the build for the cells of `level` (see the header). slot[b]: the child slot b
// claimed in the previous round, or -1 once b is a leaf; `moving` counts the claims.
extern "C" __global__ void bh_insert(const float4* __restrict__ bodies, int n, int level,
                                     const float4* __restrict__ geom, int* child, int* claims,
                                     int* __restrict__ slot, int* __restrict__ moving) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= n) return;
  int cell = 0;
  if (level > 0) {
    const int s = slot[b];
    if (s < 0) return;  // a leaf since an earlier round
    const int there = child[s];
    if (there == b) {  // it had the slot to itself
      slot[b] = -1;
      return;
    }
    cell = there - n;  // the slot became a cell
  }
  const float4 p = bodies[b];
  const float4 g = geom[cell];
  const int octant = (p.x > g.x ? 1 : 0) | (p.y > g.y ? 2 : 0) | (p.z > g.z ? 4 : 0);
  const int s = 8 * cell + octant;
  atomicCAS(&child[s], EMPTY, b);
  atomicAdd(&claims[s], 1);
  slot[b] = s;
  atomicAdd(moving, 1);
}

// One CTA: the slots of level `level`'s cells claimed more than once become the cells of level
// + 1, numbered in slot order from levels[level + 1] (a block-wide prefix sum of per-thread
// counts over contiguous chunks of slots). Writes levels[level + 2]; sets *full instead when
// the cells would not fit in `capacity`.
extern "C" __global__ void bh_allocate(int* __restrict__ child, int* __restrict__ claims,
                                       float4* __restrict__ geom, int* __restrict__ levels,
                                       int level, int capacity, int n, int* __restrict__ full) {
  __shared__ int warpTotals[MAX_WARPS];
  __shared__ int total;
  const int firstCell = levels[level], newCells = levels[level + 1];
  const int slots = 8 * (newCells - firstCell);
  const int chunk = (slots + blockDim.x - 1) / blockDim.x;
  const int begin = 8 * firstCell + min(slots, static_cast<int>(threadIdx.x) * chunk);
  const int end = min(8 * newCells, begin + chunk);
  int mine = 0;
  for (int s = begin; s < end; ++s) mine += claims[s] > 1 ? 1 : 0;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int inclusive = mine;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int up = __shfl_up_sync(FULL_MASK, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  if (lane == 31) warpTotals[warp] = inclusive;
  __syncthreads();
  if (threadIdx.x == 0) {
    int running = 0;
    for (int w = 0; w < static_cast<int>(blockDim.x >> 5); ++w) {
      const int t = warpTotals[w];
      warpTotals[w] = running;
      running += t;
    }
    total = running;
    if (newCells + running > capacity) {
      *full = 1;
      levels[level + 2] = newCells;
    } else {
      levels[level + 2] = newCells + running;
    }
  }
  __syncthreads();
  if (newCells + total > capacity) return;
  int c = newCells + warpTotals[warp] + inclusive - mine;
  for (int s = begin; s < end; ++s) {
    if (claims[s] > 1) {
      const float4 g = geom[s >> 3];
      const int octant = s & 7;
      const float q = 0.25f * g.w;
      geom[c] = make_float4(g.x + ((octant & 1) ? q : -q), g.y + ((octant & 2) ? q : -q),
                            g.z + ((octant & 4) ? q : -q), 0.5f * g.w);
      for (int k = 0; k < 8; ++k) {
        child[8 * c + k] = EMPTY;
        claims[8 * c + k] = 0;
      }
      child[s] = n + c;
      ++c;
    }
  }
}

// Cells first .. last-1 (one level): mass, centre of mass and body count of their children.
extern "C" __global__ void bh_summarize(const int* __restrict__ child,
                                        const float4* __restrict__ bodies, int n, int first,
                                        int last, float4* __restrict__ com,
                                        int* __restrict__ count) {
  const int c = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= last) return;
  float m = 0.0f, mx = 0.0f, my = 0.0f, mz = 0.0f;
  int bodiesBelow = 0;
  for (int k = 0; k < 8; ++k) {
    const int node = child[8 * c + k];
    if (node == EMPTY) continue;
    float4 p;
    if (node < n) {
      p = bodies[node];
      bodiesBelow += 1;
    } else {
      p = com[node - n];
      bodiesBelow += count[node - n];
    }
    m += p.w;
    mx += p.w * p.x;
    my += p.w * p.y;
    mz += p.w * p.z;
  }
  const float inv = 1.0f / m;
  com[c] = make_float4(mx * inv, my * inv, mz * inv, m);
  count[c] = bodiesBelow;
}

// Cells first .. last-1 (one level): their bodies and child cells take consecutive positions
// from start[c], in octant order.
extern "C" __global__ void bh_sort(const int* __restrict__ child, const int* __restrict__ count,
                                   int n, int first, int last, int* __restrict__ start,
                                   int* __restrict__ sorted) {
  const int c = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= last) return;
  int position = start[c];
  for (int k = 0; k < 8; ++k) {
    const int node = child[8 * c + k];
    if (node == EMPTY) continue;
    if (node < n) {
      sorted[position++] = node;
    } else {
      start[node - n] = position;
      position += count[node - n];
    }
  }
}

// Accelerations of all bodies (see the header). invTheta2 = 1 / theta^2; the dynamic shared
// memory holds (blockDim.x / 32) stacks of stackDepth ints; *overflow is set if a stack would
// overflow (the host makes sure the tree is not deeper than stackDepth).
extern "C" __global__ void bh_forces(const int* __restrict__ child,
                                     const float4* __restrict__ geom,
                                     const float4* __restrict__ com,
                                     const float4* __restrict__ bodies,
                                     const int* __restrict__ sorted, int n, float invTheta2,
                                     float softening2, int stackDepth,
                                     float4* __restrict__ accel, int* __restrict__ overflow) {
  extern __shared__ int stacks[];
  const int lane = threadIdx.x & 31;
  const int warpFirst = blockIdx.x * blockDim.x + (threadIdx.x & ~31);
  if (warpFirst >= n) return;  // whole warps only: the votes below need every lane
  int* stack = stacks + (threadIdx.x >> 5) * stackDepth;
  const int i = warpFirst + lane;
  // Lanes past the last body shadow it (their results are not written).
  const int body = sorted[min(i, n - 1)];
  const float4 me = bodies[body];
  const float half = 0.5f * geom[0].w;
  float threshold = half * half * invTheta2;  // edge^2 / theta^2 of the current cell's children
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  int cell = 0, next = 0, depth = 0;  // the cell being visited, its next child, stack height
  for (;;) {
    if (next == 8) {  // cell finished: back to its parent
      if (depth == 0) break;
      const int entry = stack[--depth];
      cell = entry >> 3;
      next = (entry & 7) + 1;
      threshold *= 4.0f;
      continue;
    }
    const int node = child[8 * cell + next];
    if (node == EMPTY) {
      ++next;
      continue;
    }
    const float4 q = node < n ? bodies[node] : com[node - n];
    const float dx = q.x - me.x, dy = q.y - me.y, dz = q.z - me.z;
    float d2 = dx * dx + dy * dy + dz * dz;
    if (node >= n && !__all_sync(FULL_MASK, d2 >= threshold)) {  // open the cell
      if (depth == stackDepth) {
        if (lane == 0) *overflow = 1;
        break;
      }
      if (lane == 0) stack[depth] = 8 * cell + next;
      __syncwarp();
      ++depth;
      cell = node - n;
      next = 0;
      threshold *= 0.25f;
      continue;
    }
    // A body (the own one contributes nothing: dx = dy = dz = 0) or a far cell.
    d2 += softening2;
    const float inv = rsqrtf(d2);
    const float strength = q.w * inv * inv * inv;
    ax += dx * strength;
    ay += dy * strength;
    az += dz * strength;
    ++next;
  }
  if (i < n) accel[body] = make_float4(ax, ay, az, 0.0f);
}

extern "C" __global__ void bh_integrate(float4* __restrict__ bodies,
                                        float4* __restrict__ velocities,
                                        const float4* __restrict__ accel, int n, float kick,
                                        float dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = bodies[i], v = velocities[i];
  const float4 a = accel[i];
  v.x += a.x * kick;
  v.y += a.y * kick;
  v.z += a.z * kick;
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  bodies[i] = p;
  velocities[i] = v;
}
