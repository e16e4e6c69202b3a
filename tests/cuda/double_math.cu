// nvcc-flags: -arch=compute_80 -O3
// Double-precision library functions: sqrt (one IEEE instruction), exp, log, pow (libdevice
// sequences of fma/integer operations).

extern "C" __global__ void double_math(const double* x, const double* y, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], b = y[i];
  out[4 * i + 0] = sqrt(a);
  out[4 * i + 1] = exp(b);
  out[4 * i + 2] = log(a);
  out[4 * i + 3] = pow(a, b);
}
