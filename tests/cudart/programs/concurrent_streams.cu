// Concurrent kernels: independent kernels launched into different streams share the GPU, so
// two small grids on two streams take less time than the same two one after the other on one
// stream, and four take less than twice one. Events recorded on a stream take the time its own
// kernels end; a stream waiting for another stream's event starts after that kernel; a large
// grid and a small one on two streams both complete. Times come from events on the legacy
// stream, which waits for every stream's work.
//
// On warpsim the timing model runs such kernels concurrently (SM by SM, as the work distributor
// hands out CTAs); functional mode runs them one after another in issue order, so there every
// schedule takes the sum of its kernels' times (WARPSIM_MODE says which mode runs the program;
// without it, on a GPU, overlap is expected).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"

constexpr int kBlock = 128;
constexpr int kSmallGrid = 2;   // fewer CTAs than any configuration has SMs
constexpr int kRounds = 2000;   // dependent steps per thread: compute-bound CTAs

__host__ __device__ unsigned scramble(unsigned x, int rounds) {
  for (int r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
  return x;
}

__global__ void busy(unsigned* out, unsigned seed, int rounds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = scramble(seed + i, rounds);
}

bool check(const unsigned* d, int n, unsigned seed, int rounds) {
  std::vector<unsigned> host(n);
  CHECK(cudaMemcpy(host.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (host[i] != scramble(seed + i, rounds)) return false;
  }
  return true;
}

float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

int main() {
  const char* mode = std::getenv("WARPSIM_MODE");
  const bool overlaps = mode == nullptr || std::strcmp(mode, "functional") != 0;
  const int small = kSmallGrid * kBlock;
  cudaStream_t s[4];
  for (cudaStream_t& st : s) CHECK(cudaStreamCreate(&st));
  unsigned* out[4];
  for (unsigned*& o : out) CHECK(cudaMalloc(&o, small * sizeof(unsigned)));
  cudaEvent_t start, stop, after[2];
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (cudaEvent_t& e : after) CHECK(cudaEventCreate(&e));

  // One kernel alone, then the same two kernels on one stream: stream order.
  CHECK(cudaEventRecord(start));
  busy<<<kSmallGrid, kBlock, 0, s[0]>>>(out[0], 1, kRounds);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  const float one = elapsed(start, stop);
  CHECK(cudaEventRecord(start));
  busy<<<kSmallGrid, kBlock, 0, s[0]>>>(out[0], 1, kRounds);
  busy<<<kSmallGrid, kBlock, 0, s[0]>>>(out[1], 2, kRounds);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  const float serial = elapsed(start, stop);
  EXPECT(check(out[0], small, 1, kRounds) && check(out[1], small, 2, kRounds),
         "kernels on one stream compute their results");
  // (Not quite twice: only the last kernel of a batch waits for its stores to drain.)
  EXPECT(serial >= 1.6f * one, "two kernels on one stream run one after the other");

  // The same two kernels on two streams, with an event behind each.
  CHECK(cudaEventRecord(start));
  busy<<<kSmallGrid, kBlock, 0, s[0]>>>(out[0], 3, kRounds);
  CHECK(cudaEventRecord(after[0], s[0]));
  busy<<<kSmallGrid, kBlock, 0, s[1]>>>(out[1], 4, kRounds);
  CHECK(cudaEventRecord(after[1], s[1]));
  CHECK(cudaEventRecord(stop));
  CHECK(cudaDeviceSynchronize());
  const float two = elapsed(start, stop);
  std::printf("one kernel %s, two on one stream %s, two on two streams %s\n", one > 0 ? "takes time" : "takes no time",
              serial > one ? "longer" : "not longer", two < 0.75f * serial ? "overlap" : "do not overlap");
  EXPECT(check(out[0], small, 3, kRounds) && check(out[1], small, 4, kRounds),
         "kernels on two streams compute their results");
  if (overlaps) {
    EXPECT(two < 0.75f * serial, "kernels on two streams run concurrently");
  } else {
    EXPECT(two == serial, "functional mode runs the streams' kernels in issue order");
  }
  const float end0 = elapsed(start, after[0]), end1 = elapsed(start, after[1]);
  EXPECT(end0 > 0 && end1 > 0 && std::max(end0, end1) == two,
         "an event on a stream takes the time its stream's kernel ends");

  // Four streams.
  CHECK(cudaEventRecord(start));
  for (int k = 0; k < 4; ++k) busy<<<kSmallGrid, kBlock, 0, s[k]>>>(out[k], 10 + k, kRounds);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  const float four = elapsed(start, stop);
  bool good = true;
  for (int k = 0; k < 4; ++k) good = good && check(out[k], small, 10 + k, kRounds);
  EXPECT(good, "kernels on four streams compute their results");
  if (overlaps) EXPECT(four < 2.0f * one, "four streams take less than twice one kernel");

  // A stream waiting for another stream's event follows that stream's kernel.
  CHECK(cudaEventRecord(start));
  busy<<<kSmallGrid, kBlock, 0, s[0]>>>(out[0], 5, kRounds);
  CHECK(cudaEventRecord(after[0], s[0]));
  CHECK(cudaStreamWaitEvent(s[1], after[0], 0));
  busy<<<kSmallGrid, kBlock, 0, s[1]>>>(out[1], 6, kRounds);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  const float waited = elapsed(start, stop);
  EXPECT(check(out[0], small, 5, kRounds) && check(out[1], small, 6, kRounds),
         "kernels ordered by an event compute their results");
  EXPECT(waited >= 0.9f * serial && elapsed(start, after[0]) < waited,
         "a stream that waits for an event starts after the kernel before it");

  // A large grid and a small one on two streams: the small one takes SMs as the large drains.
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int large = 4 * sms * kBlock;
  unsigned* big;
  CHECK(cudaMalloc(&big, large * sizeof(unsigned)));
  busy<<<4 * sms, kBlock, 0, s[2]>>>(big, 7, 200);
  busy<<<kSmallGrid, kBlock, 0, s[3]>>>(out[3], 8, kRounds);
  CHECK(cudaDeviceSynchronize());
  EXPECT(check(big, large, 7, 200) && check(out[3], small, 8, kRounds),
         "a large and a small grid on two streams both complete");

  for (cudaStream_t& st : s) CHECK(cudaStreamDestroy(st));
  for (unsigned* o : out) CHECK(cudaFree(o));
  CHECK(cudaFree(big));
  std::printf("PASS\n");
  return 0;
}
