// Double precision math library calls: sqrt, exp, division, fma, comparisons, conversions.
__global__ void double_math(const double* in, double* out, float* fout, long long* iout) {
  int t = threadIdx.x;
  double x = in[t];
  double r = sqrt(x) + exp(x) / (x + 1.0) + fma(x, x, 0.25);
  r += rsqrt(x + 2.0) + log(x + 3.0);
  out[t] = r;
  fout[t] = sinf((float)x) + __expf((float)x) + sqrtf((float)x) + 1.0f / (float)x +
            tanhf((float)x);
  iout[t] = (long long)r + llrint(x) + __double2int_rz(x);
}
