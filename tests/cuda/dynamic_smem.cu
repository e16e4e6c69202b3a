// nvcc-flags: -arch=compute_80 -O3
// Dynamic shared memory (extern __shared__): each block reverses its slice of the input
// through a buffer sized at launch, with a second array carved after the first.

extern "C" __global__ void reverse_block(const int* in, int* out, int n) {
  extern __shared__ int smem[];
  int* buf = smem;                  // blockDim.x ints
  int* twice = smem + blockDim.x;   // blockDim.x ints
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : -1;
  twice[t] = 2 * buf[t];
  __syncthreads();
  int r = blockDim.x - 1 - t;
  if (i < n) out[i] = buf[r] + twice[r] * 1000;
}
