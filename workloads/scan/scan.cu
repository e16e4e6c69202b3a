// nvcc-flags: -arch=compute_80 -O3
// Exclusive prefix sum of 32-bit unsigned integers (modulo 2^32) over many blocks:
//  1. scan_blocks: each block of 256 threads scans 512 inputs (two per thread: the pair sums
//     are scanned by a Hillis-Steele scan in a double-buffered shared array) and writes the
//     block's total to blockSums;
//  2. the host scans blockSums with the same kernels (recursively, until one block suffices);
//  3. scan_add_offsets adds each block's scanned total to its 512 outputs.

#define THREADS 256
#define PER_BLOCK (2 * THREADS)

extern "C" __global__ void scan_blocks(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                       unsigned* __restrict__ blockSums, int n) {
  __shared__ unsigned buffer[2][THREADS];
  int t = threadIdx.x;
  int i = blockIdx.x * PER_BLOCK + 2 * t;
  unsigned first = i < n ? in[i] : 0u;
  unsigned second = i + 1 < n ? in[i + 1] : 0u;
  unsigned pair = first + second;
  int src = 0;
  buffer[0][t] = pair;
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset <<= 1) {
    unsigned v = buffer[src][t];
    if (t >= offset) v += buffer[src][t - offset];
    buffer[1 - src][t] = v;
    src = 1 - src;
    __syncthreads();
  }
  unsigned inclusive = buffer[src][t];
  unsigned exclusive = inclusive - pair;
  if (i < n) out[i] = exclusive;
  if (i + 1 < n) out[i + 1] = exclusive + first;
  if (t == THREADS - 1) blockSums[blockIdx.x] = inclusive;
}

extern "C" __global__ void scan_add_offsets(unsigned* __restrict__ out,
                                            const unsigned* __restrict__ blockOffsets, int n) {
  __shared__ unsigned offset;
  if (threadIdx.x == 0) offset = blockOffsets[blockIdx.x];
  __syncthreads();
  int i = blockIdx.x * PER_BLOCK + threadIdx.x;
  if (i < n) out[i] += offset;
  if (i + THREADS < n) out[i + THREADS] += offset;
}
