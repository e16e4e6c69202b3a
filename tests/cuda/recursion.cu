// nvcc-flags: -arch=compute_80 -O3
// Recursive device functions kept as real calls (__noinline__): each recursion level is a call
// frame with parameters and a return value.

__device__ __noinline__ unsigned fib(unsigned n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned long long factorial(unsigned n) {
  if (n <= 1) return 1ull;
  return n * factorial(n - 1);
}

extern "C" __global__ void recursive_calls(const unsigned* in, unsigned* fibOut,
                                           unsigned long long* factOut, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    fibOut[i] = fib(in[i]);
    factOut[i] = factorial(in[i]);
  }
}
