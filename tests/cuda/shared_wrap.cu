// nvcc-flags: -arch=compute_80 -O3
// A window sum over shared memory whose radius is a kernel argument. nvcc strength-reduces the
// loop into a 32-bit shared pointer that starts below the array (s + 4 * (t + 2 - r)) and reads
// at [p + 4]: with the array at shared offset 0 the register holds a wrapped value such as
// 0xfffffffc, and only 32-bit address arithmetic (as PTX defines it) reaches s[0].

#define BLOCK 128

extern "C" __global__ void window_sum(const int* in, int* out, int r) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  int sum = 0;
  for (int k = -r; k <= r; ++k) {
    int j = t + k;
    if (j >= 0 && j < BLOCK) sum += s[j] * (k + 20);
  }
  out[blockIdx.x * BLOCK + t] = sum;
}
