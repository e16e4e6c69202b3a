// nvcc-flags: -arch=compute_80 -O3
// Kernels for the simulation-speed benchmarks (bench/): a compute-bound loop with all lanes
// active, and a memory-bound streaming copy.

// Floating-point FMA chains and an integer hash per iteration; no memory traffic in the loop.
extern "C" __global__ void compute_loop(float* out, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = i * 0.001f, c = 0.5f;
  unsigned h = static_cast<unsigned>(i);
  for (int k = 0; k < iterations; ++k) {
    a = fmaf(a, 1.0001f, c);
    c = fmaf(c, 0.999f, a);
    h = h * 1664525u + 1013904223u;
    h ^= h >> 13;
  }
  out[i] = a + c + static_cast<float>(h);
}

// Grid-stride copy of 16-byte elements.
extern "C" __global__ void stream_copy(const float4* in, float4* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}
