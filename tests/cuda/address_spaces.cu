// nvcc-flags: -arch=compute_80 -O3
// Generic address queries (__isConstant, __isShared, __isLocal: isspacep.const/.shared/.local):
// thread t picks a pointer into one of five state spaces by t % 5 (const, global, shared, local,
// a __grid_constant__ kernel parameter), so nvcc cannot fold the answers and emits isspacep.
// (nvcc 13 folds __isGlobal and __isGridConstant of such a pointer to 1, so they are left out.)

__constant__ float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ float data[4];

__global__ void query_spaces(const __grid_constant__ float4 arg, unsigned* out, int n) {
  __shared__ float tile[4];
  float scratch[4];
  int t = threadIdx.x;
  scratch[t & 3] = static_cast<float>(t);
  tile[t & 3] = 0.0f;
  const int kind = t % 5;
  const float* p = kind == 0 ? table : kind == 1 ? data : kind == 2 ? tile
                 : kind == 3 ? scratch : &arg.x;
  if (t < n) {
    // The last term keeps `scratch` in local memory (it is read at a runtime index).
    out[t] = __isConstant(p) | __isShared(p) << 1 | __isLocal(p) << 2 |
             (scratch[(t + 1) & 3] > 1e9f) << 3;
  }
}
