// The drop-in runtime with ordinary CUDA host code: several kernels, a template, __constant__
// and __device__ symbols, dynamic shared memory, atomics, copies of every kind, device queries
// and a launch the device must refuse. Prints one line per check; exits 1 on the first failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      std::printf("FAIL %s: %s (%s)\n", #call, cudaGetErrorName(e_), cudaGetErrorString(e_)); \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)
#define EXPECT(cond, what)                      \
  do {                                          \
    if (!(cond)) {                              \
      std::printf("FAIL %s\n", what);           \
      return 1;                                 \
    }                                           \
    std::printf("ok %s\n", what);               \
  } while (0)

__constant__ float scale[4];
__device__ int counter;
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] * static_cast<T>(scale[i % 4]);
}

__global__ void count(const int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] % 3 == 0) atomicAdd(&counter, 1);
}

// Reverses each block's slice through dynamic shared memory.
__global__ void reverseBlocks(int* v) {
  extern __shared__ int tile[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  tile[t] = v[base + t];
  __syncthreads();
  v[base + t] = tile[blockDim.x - 1 - t] + table[t % 8];
}

struct Pair {
  int a;
  double b;
};

__global__ void byValue(Pair p, char c, double* out) { out[0] = p.a + p.b + c; }

int main() {
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  EXPECT(devices == 1, "one device");
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024 && prop.major >= 7,
         "device properties");
  int smCount = 0;
  CHECK(cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, 0));
  EXPECT(smCount == prop.multiProcessorCount && smCount > 0, "attribute matches properties");
  int runtime = 0;
  CHECK(cudaRuntimeGetVersion(&runtime));
  EXPECT(runtime >= 13000, "runtime version");

  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  float s[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  CHECK(cudaMemcpyToSymbol(scale, s, sizeof s));
  float check[4] = {};
  CHECK(cudaMemcpyFromSymbol(check, scale, sizeof check));
  EXPECT(std::memcmp(s, check, sizeof s) == 0, "constant symbol round trip");

  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyDefault));
  axpy<float><<<(n + 127) / 128, 128>>>(2.0f, dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool good = true;
  for (int i = 0; i < n; ++i) good = good && y[i] == 2.0f * i + s[i % 4];
  EXPECT(good, "axpy<float> with __constant__ scale");

  std::vector<double> xd(n, 0.5), yd(n, 2.0);
  double *dxd, *dyd;
  CHECK(cudaMalloc(&dxd, n * sizeof(double)));
  CHECK(cudaMalloc(&dyd, n * sizeof(double)));
  CHECK(cudaMemcpy(dxd, xd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dyd, yd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  axpy<double><<<8, 128>>>(4.0, dxd, dyd, n);
  CHECK(cudaMemcpy(yd.data(), dyd, n * sizeof(double), cudaMemcpyDeviceToHost));
  good = true;
  for (int i = 0; i < n; ++i) good = good && yd[i] == 2.0 + 2.0 * s[i % 4];
  EXPECT(good, "axpy<double>");

  std::vector<int> v(1024);
  for (int i = 0; i < 1024; ++i) v[i] = i;
  int* dv;
  CHECK(cudaMalloc(&dv, v.size() * sizeof(int)));
  CHECK(cudaMemcpy(dv, v.data(), v.size() * sizeof(int), cudaMemcpyHostToDevice));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
  count<<<4, 256>>>(dv, 1024);
  int counted = -1;
  CHECK(cudaMemcpyFromSymbol(&counted, counter, sizeof counted));
  std::printf("multiples of 3 below 1024: %d\n", counted);
  EXPECT(counted == 342, "atomicAdd on a __device__ variable");

  reverseBlocks<<<8, 128, 128 * sizeof(int)>>>(dv);
  CHECK(cudaMemcpy(v.data(), dv, v.size() * sizeof(int), cudaMemcpyDeviceToHost));
  good = true;
  for (int i = 0; i < 1024; ++i) good = good && v[i] == (i / 128) * 128 + 127 - i % 128 + 1 + (i % 128) % 8;
  EXPECT(good, "dynamic shared memory and an initialised __device__ array");

  int* tableAddress = nullptr;
  CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&tableAddress), table));
  int t8[8];
  CHECK(cudaMemcpy(t8, tableAddress, sizeof t8, cudaMemcpyDeviceToHost));
  EXPECT(t8[0] == 1 && t8[7] == 8, "cudaGetSymbolAddress");

  int* copyOf;
  CHECK(cudaMalloc(&copyOf, sizeof t8));
  CHECK(cudaMemcpy(copyOf, tableAddress, sizeof t8, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemset(copyOf, 0xff, sizeof(int)));
  CHECK(cudaMemcpy(t8, copyOf, sizeof t8, cudaMemcpyDefault));
  EXPECT(t8[0] == -1 && t8[1] == 2, "device-to-device copy and memset");

  size_t pitch = 0;
  char* pitched;
  CHECK(cudaMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, 10, 3));
  char rows[3][10], back[3][10];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 10; ++c) rows[r][c] = static_cast<char>(r * 10 + c);
  CHECK(cudaMemcpy2D(pitched, pitch, rows, 10, 10, 3, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2D(back, 10, pitched, pitch, 10, 3, cudaMemcpyDeviceToHost));
  EXPECT(pitch >= 10 && std::memcmp(rows, back, sizeof rows) == 0, "pitched 2D copies");

  double* out;
  CHECK(cudaMalloc(&out, sizeof(double)));
  byValue<<<1, 1>>>(Pair{3, 0.25}, 'A', out);
  double r = 0;
  CHECK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
  EXPECT(r == 68.25, "struct and char arguments by value");

  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, count));
  EXPECT(attr.maxThreadsPerBlock == 1024 && attr.numRegs > 0, "cudaFuncGetAttributes");
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, count, 256, 0));
  EXPECT(blocks >= 1 && blocks <= 8, "occupancy");

  size_t freeBytes = 0, totalBytes = 0;
  CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  EXPECT(freeBytes > 0 && freeBytes < totalBytes, "cudaMemGetInfo");

  count<<<1, 2048>>>(dv, 1024);
  cudaError_t tooBig = cudaGetLastError();
  std::printf("launch with 2048 threads per block: %s\n", cudaGetErrorName(tooBig));
  EXPECT(tooBig == cudaErrorInvalidConfiguration, "oversized block refused");
  EXPECT(cudaGetLastError() == cudaSuccess, "cudaGetLastError resets the error");

  EXPECT(cudaFree(reinterpret_cast<void*>(0x1234)) == cudaErrorInvalidValue,
         "freeing a bad pointer fails");
  EXPECT(cudaMemcpy(&r, dx + n, sizeof r, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue,
         "copy from past an allocation fails");
  EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice, "no second device");
  EXPECT(cudaMemcpyToSymbol(scale, s, sizeof s + 4) == cudaErrorInvalidValue,
         "copy past a symbol fails");
  cudaGetLastError();

  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dxd));
  CHECK(cudaFree(dyd));
  CHECK(cudaFree(dv));
  CHECK(cudaFree(copyOf));
  CHECK(cudaFree(pitched));
  CHECK(cudaFree(out));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDeviceReset());
  std::printf("PASS\n");
  return 0;
}
