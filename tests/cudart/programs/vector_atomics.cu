// nvcc: -arch=sm_90
// Vector atomics (sm_90, PTX ISA 8.1): atomicAdd on float2 and float4 compiles to
// atom.global.add.v2.f32 / .v4.f32, and the half-precision vector forms (red.global.v8.f16.add,
// atom.global.v4.bf16x2.add) are reached through inline PTX. A GPU performs one atomic per
// element (PTX guarantees atomicity per element, not for the vector), so under contention every
// element's sum is exact when the addends are small integers, and every old value an atom
// returns is one of the partial sums: thread i's old .z counts how many adds came before it,
// each count once (how the elements of different threads interleave is the GPU's choice and is
// not checked). The sums are printed: they do not depend on the order of the threads.
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector>

#include "check.h"

constexpr int kThreads = 2048;

__global__ void add_vectors(float2* acc2, float4* acc4, float4* old4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = static_cast<float>(i % 64);
  atomicAdd(acc2, make_float2(1.0f, f));  // result unused: nvcc still emits atom
  old4[i] = atomicAdd(acc4, make_float4(f, -f, 0.5f, 2.0f));
}

// Eight f16 counters and four bf16x2 pairs, each thread adding small integers (exact in both).
__global__ void add_halves(unsigned short* h8, unsigned* b4, unsigned* oldB) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short one = 0x3C00, two = 0x4000;  // f16 1.0, 2.0
  asm volatile("red.global.v8.f16.add.noftz [%0], {%1, %2, %1, %2, %1, %2, %1, %2};"
               :: "l"(h8), "h"(one), "h"(two) : "memory");
  const unsigned pair = 0x3F803F80u;  // bf16x2 (1.0, 1.0)
  unsigned o0, o1, o2, o3;
  asm volatile("atom.global.v4.bf16x2.add.noftz {%0, %1, %2, %3}, [%4], {%5, %5, %5, %5};"
               : "=r"(o0), "=r"(o1), "=r"(o2), "=r"(o3) : "l"(b4), "r"(pair) : "memory");
  (void)o1, (void)o2, (void)o3;
  oldB[i] = o0;  // pair 0's old value
}

int main() {
  float2* acc2;
  float4 *acc4, *old4;
  CHECK(cudaMalloc(&acc2, sizeof(float2)));
  CHECK(cudaMalloc(&acc4, sizeof(float4)));
  CHECK(cudaMalloc(&old4, kThreads * sizeof(float4)));
  CHECK(cudaMemset(acc2, 0, sizeof(float2)));
  CHECK(cudaMemset(acc4, 0, sizeof(float4)));
  add_vectors<<<kThreads / 256, 256>>>(acc2, acc4, old4);
  CHECK(cudaGetLastError());
  float2 s2;
  float4 s4;
  std::vector<float4> olds(kThreads);
  CHECK(cudaMemcpy(&s2, acc2, sizeof s2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&s4, acc4, sizeof s4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(olds.data(), old4, kThreads * sizeof(float4), cudaMemcpyDeviceToHost));
  std::printf("float2 sum (%g, %g), float4 sum (%g, %g, %g, %g)\n", s2.x, s2.y, s4.x, s4.y, s4.z, s4.w);
  const float perThreadSum = 2016.0f * (kThreads / 64);  // sum of i % 64
  EXPECT(s2.x == kThreads && s2.y == perThreadSum, "float2 atomicAdd sums every element");
  EXPECT(s4.x == perThreadSum && s4.y == -perThreadSum && s4.z == kThreads / 2 &&
             s4.w == 2.0f * kThreads,
         "float4 atomicAdd sums every element");
  std::vector<int> seen(kThreads, 0);
  bool inRange = true;
  for (const float4& o : olds) {
    const int before = static_cast<int>(o.z * 2.0f);
    if (before < 0 || before >= kThreads) inRange = false;
    else ++seen[before];
  }
  bool each = inRange;
  for (int c : seen) each = each && c == 1;
  EXPECT(each, "every float4 atomicAdd returned a distinct partial count");

  unsigned short* h8;
  unsigned *b4, *oldB;
  CHECK(cudaMalloc(&h8, 8 * sizeof(unsigned short)));
  CHECK(cudaMalloc(&b4, 4 * sizeof(unsigned)));
  CHECK(cudaMalloc(&oldB, 256 * sizeof(unsigned)));
  CHECK(cudaMemset(h8, 0, 8 * sizeof(unsigned short)));
  CHECK(cudaMemset(b4, 0, 4 * sizeof(unsigned)));
  add_halves<<<2, 128>>>(h8, b4, oldB);  // 256 threads: sums up to 512, exact in f16 and bf16
  CHECK(cudaGetLastError());
  unsigned short h[8];
  unsigned b[4], ob[256];
  CHECK(cudaMemcpy(h, h8, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b, b4, sizeof b, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ob, oldB, sizeof ob, cudaMemcpyDeviceToHost));
  std::printf("f16 sums %04x %04x, bf16x2 sums %08x %08x\n", h[0], h[1], b[0], b[3]);
  bool halves = true;
  for (int k = 0; k < 8; ++k) halves = halves && h[k] == (k % 2 == 0 ? 0x5C00 : 0x6000);  // 256, 512
  EXPECT(halves, "red.v8.f16.add adds every element");
  bool pairs = true;
  for (int k = 0; k < 4; ++k) pairs = pairs && b[k] == 0x43804380u;  // (256, 256)
  EXPECT(pairs, "atom.v4.bf16x2.add adds every half");
  // The low half of pair 0 counted 0, 1, ..., 255 (exact in bf16): each old count once.
  std::vector<int> counted(256, 0);
  bool olds256 = true;
  for (unsigned o : ob) {
    unsigned bits = (o & 0xFFFFu) << 16;
    float v;
    std::memcpy(&v, &bits, 4);
    const int c = static_cast<int>(v);
    if (c < 0 || c >= 256 || static_cast<float>(c) != v) olds256 = false;
    else ++counted[c];
  }
  for (int c : counted) olds256 = olds256 && c == 1;
  EXPECT(olds256, "atom.v4.bf16x2.add returned every partial count once");
  std::printf("PASS\n");
  return 0;
}
