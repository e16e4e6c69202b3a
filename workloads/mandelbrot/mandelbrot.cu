// nvcc-flags: -arch=compute_80 -O3
// Escape-time Mandelbrot set: one thread per pixel iterates z = z^2 + c until |z|^2 > 4 or
// maxIterations; neighbouring pixels need very different iteration counts, so the warps of
// the boundary region diverge. The arithmetic is spelled out with round-to-nearest intrinsics
// (no fma contraction left to the compiler) so that a CPU doing the same IEEE operations gets
// the same counts.

extern "C" __global__ void mandelbrot(int* __restrict__ iterations, int width, int height,
                                      float x0, float y0, float step, int maxIterations) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float cx = __fmaf_rn(static_cast<float>(px), step, x0);
  float cy = __fmaf_rn(static_cast<float>(py), step, y0);
  float x = 0.0f, y = 0.0f;
  int it = 0;
  while (it < maxIterations) {
    float x2 = __fmul_rn(x, x), y2 = __fmul_rn(y, y);
    if (__fadd_rn(x2, y2) > 4.0f) break;
    float xy = __fmul_rn(x, y);
    y = __fmaf_rn(2.0f, xy, cy);
    x = __fadd_rn(__fsub_rn(x2, y2), cx);
    ++it;
  }
  iterations[py * width + px] = it;
}
