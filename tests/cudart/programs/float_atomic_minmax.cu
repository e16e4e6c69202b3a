// nvcc: -arch=sm_90
// Floating-point atomic min/max (sm_90): PTX has them only for the half types in the vector
// forms (atom/red.global.v2/.v4/.v8.f16/.bf16 and .v2/.v4.f16x2/.bf16x2 .min/.max, with .noftz;
// there is no atom.min.f32 and CUDA 13 has no atomicMin for float or __half), so programs use
// inline PTX. They compute exactly what the min/max instructions compute: a NaN operand loses to
// a number, two NaNs give the canonical NaN 0x7FFF, -0.0 is smaller than +0.0, subnormals are
// kept. Whatever order the threads of a GPU take, the result is the min (max) of all values, and
// the old value a thread reads is the min (max) of the initial value and some of the others.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"

constexpr int kThreads = 512;

// Thread i offers in[2i], in[2i+1] to the f16 pair at mins and the bf16 pairs of maxs.
__global__ void minmax(unsigned short* mins, unsigned* maxs, const unsigned short* in,
                       const unsigned* in2, unsigned short* oldMins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned short o0, o1;
  asm volatile("atom.global.v2.f16.min.noftz {%0, %1}, [%2], {%3, %4};"
               : "=h"(o0), "=h"(o1) : "l"(mins), "h"(in[2 * i]), "h"(in[2 * i + 1]) : "memory");
  oldMins[2 * i] = o0;
  oldMins[2 * i + 1] = o1;
  asm volatile("red.global.v2.bf16x2.max.noftz [%0], {%1, %2};"
               :: "l"(maxs), "r"(in2[2 * i]), "r"(in2[2 * i + 1]) : "memory");
}

// One thread, fixed operands: the NaN, signed-zero and subnormal rules case by case.
__global__ void rules(unsigned short* h, unsigned short* oldH) {
  unsigned short o[8];
  asm volatile("atom.global.v8.f16.max.noftz {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], "
               "{%9, %10, %11, %12, %13, %14, %15, %16};"
               : "=h"(o[0]), "=h"(o[1]), "=h"(o[2]), "=h"(o[3]), "=h"(o[4]), "=h"(o[5]),
                 "=h"(o[6]), "=h"(o[7])
               : "l"(h), "h"((unsigned short)0x7E00), "h"((unsigned short)0x4000),
                 "h"((unsigned short)0x7E00), "h"((unsigned short)0x0000),
                 "h"((unsigned short)0x8000), "h"((unsigned short)0x0002),
                 "h"((unsigned short)0xFC00), "h"((unsigned short)0x3C00)
               : "memory");
  for (int k = 0; k < 8; ++k) oldH[k] = o[k];
}

float f16(unsigned short h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const float v = e == 0 ? std::ldexp(static_cast<float>(m), -24)
                         : std::ldexp(static_cast<float>(1024 + m), e - 25);
  return (h & 0x8000) ? -v : v;
}
bool f16NaN(unsigned short h) { return (h & 0x7FFF) > 0x7C00; }
float bf16(unsigned short h) {
  unsigned bits = static_cast<unsigned>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
bool bf16NaN(unsigned short h) { return (h & 0x7FFF) > 0x7F80; }

// The PTX rule (min.f16 / max.bf16 semantics); `value` orders the non-NaN patterns.
unsigned short pick(unsigned short a, unsigned short b, bool isMin, float (*value)(unsigned short),
                    bool (*isNaN)(unsigned short)) {
  if (isNaN(a) && isNaN(b)) return 0x7FFF;
  if (isNaN(a)) return b;
  if (isNaN(b)) return a;
  if (value(a) == value(b)) return ((a & 0x8000) != 0) == isMin ? a : b;
  return (value(a) < value(b)) == isMin ? a : b;
}

int main() {
  // Inputs: f16 values of every kind (NaNs, infinities, subnormals, zeros of both signs) for the
  // min; bf16 pairs for the max, whose last pair's high halves are all NaN.
  std::vector<unsigned short> in(2 * kThreads);
  std::vector<unsigned> in2(2 * kThreads);
  unsigned x = 12345;
  auto next = [&x] { x = x * 1103515245u + 12345u; return x >> 8; };
  for (int i = 0; i < kThreads; ++i) {
    in[2 * i] = static_cast<unsigned short>(next());
    in[2 * i + 1] = i % 3 == 0 ? 0x7E00 : (i % 3 == 1 ? 0x0000 : 0x8000);  // NaN, +0, -0
    in2[2 * i] = next() ^ next() << 16;  // next() has 24 bits
    in2[2 * i + 1] = (0x7F81u + (i % 7)) << 16 | static_cast<unsigned short>(next() & 0x807F);
  }
  const unsigned short initMin[2] = {0x7C00, 0x7C00};         // +inf
  const unsigned initMax[2] = {0xFF80FF80u, 0x7FC0FF80u};      // -inf, and NaN in one high half
  unsigned short *dMins, *dIn, *dOld;
  unsigned *dMaxs, *dIn2;
  CHECK(cudaMalloc(&dMins, sizeof initMin));
  CHECK(cudaMalloc(&dMaxs, sizeof initMax));
  CHECK(cudaMalloc(&dIn, in.size() * 2));
  CHECK(cudaMalloc(&dIn2, in2.size() * 4));
  CHECK(cudaMalloc(&dOld, in.size() * 2));
  CHECK(cudaMemcpy(dMins, initMin, sizeof initMin, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dMaxs, initMax, sizeof initMax, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dIn, in.data(), in.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dIn2, in2.data(), in2.size() * 4, cudaMemcpyHostToDevice));
  minmax<<<kThreads / 128, 128>>>(dMins, dMaxs, dIn, dIn2, dOld);
  CHECK(cudaGetLastError());
  unsigned short mins[2];
  unsigned maxs[2];
  std::vector<unsigned short> olds(in.size());
  CHECK(cudaMemcpy(mins, dMins, sizeof mins, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(maxs, dMaxs, sizeof maxs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(olds.data(), dOld, olds.size() * 2, cudaMemcpyDeviceToHost));

  unsigned short wantMin[2] = {initMin[0], initMin[1]};
  unsigned short wantMax[4] = {0xFF80, 0xFF80, 0xFF80, 0x7FC0};  // halves: low, high, low, high
  for (int i = 0; i < kThreads; ++i) {
    for (int k = 0; k < 2; ++k) wantMin[k] = pick(wantMin[k], in[2 * i + k], true, f16, f16NaN);
    for (int k = 0; k < 4; ++k) {
      const auto half = static_cast<unsigned short>(in2[2 * i + k / 2] >> (16 * (k % 2)));
      wantMax[k] = pick(wantMax[k], half, false, bf16, bf16NaN);
    }
  }
  std::printf("f16 min (%04x, %04x), bf16x2 max (%08x, %08x)\n", mins[0], mins[1], maxs[0], maxs[1]);
  EXPECT(mins[0] == wantMin[0], "f16 min of values of every kind");
  EXPECT(mins[1] == 0x8000, "f16 min of zeros and NaNs is -0");
  EXPECT(maxs[0] == (static_cast<unsigned>(wantMax[1]) << 16 | wantMax[0]), "bf16x2 max of pair 0");
  EXPECT(maxs[1] == (0x7FFFu << 16 | wantMax[2]), "bf16x2 max: NaN with NaNs is the canonical NaN");
  // Every old value is at least the final minimum and at most the initial +inf (or NaN-free).
  bool oldOk = true;
  for (int i = 0; i < kThreads; ++i) {
    const unsigned short o = olds[2 * i];
    if (f16NaN(o) || f16(o) < f16(mins[0])) oldOk = false;
    const unsigned short z = olds[2 * i + 1];
    if (z != 0x7C00 && z != 0x0000 && z != 0x8000) oldOk = false;
  }
  EXPECT(oldOk, "old values lie between the initial value and the minimum");

  // The rules one by one: max(stored, operand) for eight stored values.
  const unsigned short stored[8] = {0x3C00, 0x7E00, 0x7C01, 0x8000, 0x0000, 0x0001, 0x7C00, 0x3C00};
  const unsigned short want[8] = {
      0x3C00,  // max(1, NaN) = 1
      0x4000,  // max(NaN, 2) = 2
      0x7FFF,  // max(NaN, NaN) = the canonical NaN
      0x0000,  // max(-0, +0) = +0
      0x0000,  // max(+0, -0) = +0
      0x0002,  // subnormals compare and stay (.noftz)
      0x7C00,  // max(+inf, -inf)
      0x3C00,  // equal values
  };
  unsigned short *dH, *dOldH;
  CHECK(cudaMalloc(&dH, sizeof stored));
  CHECK(cudaMalloc(&dOldH, sizeof stored));
  CHECK(cudaMemcpy(dH, stored, sizeof stored, cudaMemcpyHostToDevice));
  rules<<<1, 1>>>(dH, dOldH);
  CHECK(cudaGetLastError());
  unsigned short got[8], gotOld[8];
  CHECK(cudaMemcpy(got, dH, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotOld, dOldH, sizeof gotOld, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 8; ++k) std::printf("max(%04x) = %04x\n", stored[k], got[k]);
  EXPECT(std::memcmp(got, want, sizeof want) == 0, "f16 max follows the NaN and signed-zero rules");
  EXPECT(std::memcmp(gotOld, stored, sizeof stored) == 0, "atom returns the old values");
  std::printf("PASS\n");
  return 0;
}
