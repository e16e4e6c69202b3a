// nvcc-flags: -arch=compute_80 -O3
// Fast Walsh-Hadamard transform (natural order, unnormalised) of a signal of N = 2^L floats, in
// place: L radix-2 butterfly stages, stage s combining the elements i and i + 2^s of every pair
// into (x + y, x - y). The stages commute, so they are split by where their operands live:
//  * fwt_segment: the strides 1 .. SEGMENT/2, inside SEGMENT-element segments that a CTA keeps
//    in shared memory (one global read and write per element for all of them);
//  * fwt_radix4: two of the remaining strides (s and 2s) in one pass over global memory, each
//    thread combining two quadruples of elements s apart;
//  * fwt_radix2: the last stride when an odd number of them is left.
// fwt_modulate multiplies two spectra pointwise and scales by 1/N: transforming, modulating and
// transforming again gives the dyadic (XOR) convolution of two signals, because the transform
// diagonalises it and is its own inverse up to the factor N.

#define SEGMENT_LOG 10
#define SEGMENT (1 << SEGMENT_LOG)

extern "C" __global__ void fwt_segment(float* __restrict__ data) {
  __shared__ float s[SEGMENT];
  float* segment = data + static_cast<size_t>(blockIdx.x) * SEGMENT;
  for (int i = threadIdx.x; i < SEGMENT; i += blockDim.x) s[i] = segment[i];
  __syncthreads();
  for (int stride = 1; stride < SEGMENT; stride <<= 1) {
    // Butterfly b pairs element lo (the b-th index whose `stride` bit is clear) with lo + stride.
    for (int b = threadIdx.x; b < SEGMENT / 2; b += blockDim.x) {
      int lo = ((b & ~(stride - 1)) << 1) | (b & (stride - 1));
      float x = s[lo], y = s[lo + stride];
      s[lo] = x + y;
      s[lo + stride] = x - y;
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < SEGMENT; i += blockDim.x) segment[i] = s[i];
}

// The first element of the group-th group of 4 * stride elements that fwt_radix4 transforms:
// groups are the quadruples first + {0, 1, 2, 3} * stride.
__device__ int groupStart(int group, int stride) {
  int offset = group & (stride - 1);
  return ((group - offset) << 2) + offset;
}

// The strides s and 2s on v[k] = the group's element k: (v0, v1), (v2, v3), then (v0, v2),
// (v1, v3).
__device__ void walsh4(float v[4]) {
  float sum01 = v[0] + v[1], diff01 = v[0] - v[1], sum23 = v[2] + v[3], diff23 = v[2] - v[3];
  v[0] = sum01 + sum23;
  v[1] = diff01 + diff23;
  v[2] = sum01 - sum23;
  v[3] = diff01 - diff23;
}

// Thread q transforms two groups, q and q + groups / 2 (a warp's groups stay contiguous): all
// eight loads are issued before the first addition, to keep more memory requests in flight.
extern "C" __global__ void fwt_radix4(float* __restrict__ data, int stride, int groups) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= groups / 2) return;
  float* p = data + groupStart(q, stride);
  float* r = data + groupStart(q + groups / 2, stride);
  float a[4], b[4];
  for (int k = 0; k < 4; ++k) {
    a[k] = p[k * stride];
    b[k] = r[k * stride];
  }
  walsh4(a);
  walsh4(b);
  for (int k = 0; k < 4; ++k) {
    p[k * stride] = a[k];
    r[k * stride] = b[k];
  }
}

extern "C" __global__ void fwt_radix2(float* __restrict__ data, int stride, int half) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= half) return;
  int offset = b & (stride - 1);
  float* p = data + (((b - offset) << 1) + offset);
  float x = p[0], y = p[stride];
  p[0] = x + y;
  p[stride] = x - y;
}

extern "C" __global__ void fwt_modulate(float* __restrict__ data,
                                        const float* __restrict__ spectrum, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= spectrum[i] * scale;
}
