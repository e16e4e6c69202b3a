// Several kernels in one program: __device__ functions (inlined, not inlined, recursive),
// template kernels and template device functions, a functor argument, 2D grids and blocks,
// arguments of several types by value, and a launch through cudaLaunchKernel directly.
#include <cstring>
#include <vector>

#include "check.h"

__device__ int square(int x) { return x * x; }

// Kept as a real call in the PTX (call/ret, a call frame).
__device__ __noinline__ int collatzSteps(unsigned n) {
  int steps = 0;
  while (n != 1) {
    n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
    ++steps;
  }
  return steps;
}

__device__ __noinline__ long long factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

template <class T>
__device__ T clampTo(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <class T, int Unroll>
__global__ void scaleAdd(T a, const T* x, T* y, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * Unroll;
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    if (base + k < n) y[base + k] = clampTo<T>(a * x[base + k] + y[base + k], T(-100), T(100));
  }
}

struct Negate {
  int bias;
  __device__ float operator()(float v) const { return -v + square(bias); }
};

template <class Op>
__global__ void transform(const float* in, float* out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(in[i]);
}

__global__ void steps(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = collatzSteps(i + 1);
}

__global__ void factorials(long long* out) { out[threadIdx.x] = factorial(threadIdx.x); }

// Each thread of a 2D grid of 2D blocks writes its global (x, y) as y * width + x.
__global__ void coordinates(int* out, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = y * 1000 + x;
}

struct Mixed {
  char c;
  double d;
  short s;
  int a[3];
};

__global__ void byValue(Mixed m, char c, unsigned long long big, float f, double* out) {
  out[0] = m.c + m.d + m.s + m.a[0] + m.a[1] + m.a[2] + c + static_cast<double>(big) + f;
}

__global__ void fill(int* out, int value) { out[threadIdx.x] = value + threadIdx.x; }

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 50);
    y[i] = 1.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  scaleAdd<float, 4><<<(n / 4 + 63) / 64, 64>>>(3.0f, dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool good = true;
  for (int i = 0; i < n; ++i) {
    float want = 3.0f * (i % 50) + 1.0f;
    good = good && y[i] == (want > 100 ? 100 : want);
  }
  EXPECT(good, "template kernel scaleAdd<float, 4> with a template device function");

  std::vector<double> xd(n, 30.0), yd(n, 2.0);
  double *dxd, *dyd;
  CHECK(cudaMalloc(&dxd, n * sizeof(double)));
  CHECK(cudaMalloc(&dyd, n * sizeof(double)));
  CHECK(cudaMemcpy(dxd, xd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dyd, yd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  scaleAdd<double, 1><<<(n + 127) / 128, 128>>>(-4.0, dxd, dyd, n);
  CHECK(cudaMemcpy(yd.data(), dyd, n * sizeof(double), cudaMemcpyDeviceToHost));
  good = true;
  for (int i = 0; i < n; ++i) good = good && yd[i] == -100.0;
  EXPECT(good, "scaleAdd<double, 1> clamps at -100");

  transform<<<(n + 255) / 256, 256>>>(dx, dy, n, Negate{3});
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  good = true;
  for (int i = 0; i < n; ++i) good = good && y[i] == 9.0f - (i % 50);
  EXPECT(good, "functor argument to a template kernel");

  int* dsteps;
  CHECK(cudaMalloc(&dsteps, 32 * sizeof(int)));
  steps<<<1, 32>>>(dsteps, 27);
  int hsteps[32];
  CHECK(cudaMemcpy(hsteps, dsteps, sizeof hsteps, cudaMemcpyDeviceToHost));
  std::printf("collatz steps of 27: %d, of 9: %d\n", hsteps[26], hsteps[8]);
  EXPECT(hsteps[26] == 111 && hsteps[0] == 0 && hsteps[8] == 19, "non-inlined device function");

  long long* dfact;
  CHECK(cudaMalloc(&dfact, 21 * sizeof(long long)));
  factorials<<<1, 21>>>(dfact);
  long long fact[21];
  CHECK(cudaMemcpy(fact, dfact, sizeof fact, cudaMemcpyDeviceToHost));
  std::printf("20! = %lld\n", fact[20]);
  EXPECT(fact[20] == 2432902008176640000LL && fact[5] == 120, "recursive device function");

  const int width = 48, height = 20;
  int* dcoord;
  CHECK(cudaMalloc(&dcoord, width * height * sizeof(int)));
  coordinates<<<dim3(width / 16, height / 4), dim3(16, 4)>>>(dcoord, width);
  std::vector<int> coord(width * height);
  CHECK(cudaMemcpy(coord.data(), dcoord, coord.size() * sizeof(int), cudaMemcpyDeviceToHost));
  good = true;
  for (int yy = 0; yy < height; ++yy)
    for (int xx = 0; xx < width; ++xx) good = good && coord[yy * width + xx] == yy * 1000 + xx;
  EXPECT(good, "2D grid of 2D blocks");

  double* dout;
  CHECK(cudaMalloc(&dout, sizeof(double)));
  Mixed m{'\x02', 0.5, -3, {10, 20, 30}};
  byValue<<<1, 1>>>(m, 'A', 1ull << 40, 0.25f, dout);
  double r = 0;
  CHECK(cudaMemcpy(&r, dout, sizeof r, cudaMemcpyDeviceToHost));
  EXPECT(r == 2 + 0.5 - 3 + 60 + 65 + 1099511627776.0 + 0.25, "struct, char, 64-bit and float arguments");

  int* dfill;
  CHECK(cudaMalloc(&dfill, 64 * sizeof(int)));
  int value = 100;
  void* args[] = {&dfill, &value};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(fill), dim3(1), dim3(64), args, 0, 0));
  int filled[64];
  CHECK(cudaMemcpy(filled, dfill, sizeof filled, cudaMemcpyDeviceToHost));
  EXPECT(filled[0] == 100 && filled[63] == 163, "cudaLaunchKernel with an argument array");

  for (void* p : {(void*)dx, (void*)dy, (void*)dxd, (void*)dyd, (void*)dsteps, (void*)dfact,
                  (void*)dcoord, (void*)dout, (void*)dfill}) {
    CHECK(cudaFree(p));
  }
  std::printf("PASS\n");
  return 0;
}
