// __constant__ and __device__ module variables from the host: cudaMemcpyToSymbol and
// cudaMemcpyFromSymbol (with offsets, host and device sources), cudaGetSymbolAddress,
// cudaGetSymbolSize, initialised variables, and the errors for bad symbols and sizes.
#include <cstring>

#include "check.h"

struct Params {
  int n;
  float scale;
};

__constant__ float coeffs[4];
__constant__ Params params;
__constant__ int bias = 5;
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ unsigned long long total;

// out[i] = (coeffs[i % 4] * i) * scale + bias + table[i % 8]; total accumulates out[i].
__global__ void evaluate(float* out) {
  int i = threadIdx.x;
  if (i >= params.n) return;
  float v = coeffs[i % 4] * i * params.scale + bias + table[i % 8];
  out[i] = v;
  atomicAdd(&total, static_cast<unsigned long long>(v));
}

__global__ void bumpTable() { table[threadIdx.x] += 100; }

int main() {
  float c[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
  float back[4] = {};
  CHECK(cudaMemcpyFromSymbol(back, coeffs, sizeof back));
  EXPECT(std::memcmp(c, back, sizeof c) == 0, "__constant__ array round trip");

  Params p{16, 0.5f};
  CHECK(cudaMemcpyToSymbol(params, &p, sizeof p));
  int b = 0;
  CHECK(cudaMemcpyFromSymbol(&b, bias, sizeof b));
  EXPECT(b == 5, "initialised __constant__ read back");

  // Replace table[3] only (offset copy), then table[6..7] from device memory.
  int seven = 70;
  CHECK(cudaMemcpyToSymbol(table, &seven, sizeof seven, 3 * sizeof(int)));
  int* staging;
  CHECK(cudaMalloc(&staging, 2 * sizeof(int)));
  int pair[2] = {-1, -2};
  CHECK(cudaMemcpy(staging, pair, sizeof pair, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(table, staging, sizeof pair, 6 * sizeof(int), cudaMemcpyDeviceToDevice));
  int t[8];
  CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));
  std::printf("table: %d %d %d %d %d %d %d %d\n", t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
  EXPECT(t[3] == 70 && t[6] == -1 && t[7] == -2 && t[2] == 3, "offset copies into a __device__ array");

  unsigned long long zero = 0;
  CHECK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
  float* out;
  CHECK(cudaMalloc(&out, 32 * sizeof(float)));
  evaluate<<<1, 32>>>(out);
  float h[32];
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  unsigned long long want = 0;
  bool good = true;
  for (int i = 0; i < 16; ++i) {
    float v = c[i % 4] * i * 0.5f + 5 + t[i % 8];
    good = good && h[i] == v;
    want += static_cast<unsigned long long>(v);
  }
  unsigned long long got = 0;
  CHECK(cudaMemcpyFromSymbol(&got, total, sizeof got));
  std::printf("total = %llu\n", got);
  EXPECT(good && got == want, "kernel reads __constant__ and __device__ variables");

  int* tableAddress = nullptr;
  CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&tableAddress), table));
  size_t tableSize = 0;
  CHECK(cudaGetSymbolSize(&tableSize, table));
  EXPECT(tableSize == 8 * sizeof(int), "cudaGetSymbolSize");
  bumpTable<<<1, 8>>>();
  CHECK(cudaMemcpy(t, tableAddress, sizeof t, cudaMemcpyDeviceToHost));
  EXPECT(t[0] == 101 && t[3] == 170, "cudaGetSymbolAddress gives the kernel's variable");
  CHECK(cudaMemcpyFromSymbol(t, table, sizeof(int), 0, cudaMemcpyDeviceToHost));
  EXPECT(t[0] == 101, "cudaMemcpyFromSymbol sees the kernel's writes");

  EXPECT(cudaMemcpyToSymbol(coeffs, c, sizeof c + 4) == cudaErrorInvalidValue,
         "a copy past the end of a symbol is refused");
  EXPECT(cudaMemcpyFromSymbol(t, table, 4, 8 * sizeof(int)) == cudaErrorInvalidValue,
         "an offset at the end of a symbol is refused");
  int notASymbol = 0;
  EXPECT(cudaMemcpyToSymbol(notASymbol, &seven, sizeof seven) == cudaErrorInvalidSymbol,
         "a host variable is not a symbol");
  EXPECT(cudaGetLastError() == cudaErrorInvalidSymbol, "the last error is the symbol error");
  CHECK(cudaFree(staging));
  CHECK(cudaFree(out));
  std::printf("PASS\n");
  return 0;
}
