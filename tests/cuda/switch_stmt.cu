// nvcc-flags: -arch=compute_80 -O3 -G
// A switch over the input value, built for debugging (-G): no optimisation, locals on the stack.

__device__ int classify(int v) {
  switch (v & 15) {
    case 0: return 7;
    case 1: return v * 2;
    case 2: return v - 11;
    case 3:
    case 4: return v ^ 0x55;
    case 5: return v << 3;
    case 7: return -v;
    case 9: return v / 3;
    case 12: return v % 5;
    default: return 1000 + (v & 15);
  }
}

extern "C" __global__ void switch_kernel(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = classify(in[i]);
}
