// nvcc-flags: -arch=compute_80 -O3
// y = alpha * x + y in single precision with a grid-stride loop: a fixed, small grid walks
// the whole vector, so each thread handles several elements.

extern "C" __global__ void saxpy(int n, float alpha, const float* __restrict__ x,
                                 float* __restrict__ y) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = alpha * x[i] + y[i];
  }
}
