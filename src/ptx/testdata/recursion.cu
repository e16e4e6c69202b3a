// A recursive __device__ function (real calls with a call stack) and a non-inlined helper.
__device__ __noinline__ int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

struct Pair { int a; double b; };

__device__ __noinline__ Pair make_pair(int x) {
  Pair p;
  p.a = x * 3;
  p.b = x * 0.5;
  return p;
}

__global__ void run_fib(int* out, int n) {
  int t = threadIdx.x;
  Pair p = make_pair(t);
  out[t] = fib(n + (t & 3)) + p.a + (int)p.b;
}
