// Streams and events: work on several streams runs in stream and event order, events take their times
// from the simulated clock (the same work takes the same time, more work takes more, host time
// does not count), queries, waits, host callbacks and the errors for bad handles.
#include <unistd.h>

#include <vector>

#include "check.h"

// `rounds` steps of a linear congruential generator: work the compiler cannot fold away.
__host__ __device__ unsigned scramble(unsigned x, int rounds) {
  for (int r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
  return x;
}

__global__ void increment(unsigned* v, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = scramble(v[i], rounds);
}

void CUDART_CB markDone(void* flag) { *static_cast<int*>(flag) = 1; }

float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

int main() {
  const int n = 1 << 14;
  std::vector<unsigned> host(n);
  for (int i = 0; i < n; ++i) host[i] = i;
  unsigned* dv;
  CHECK(cudaMalloc(&dv, n * sizeof(unsigned)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t e[5];
  for (cudaEvent_t& ev : e) CHECK(cudaEventCreate(&ev));

  CHECK(cudaMemcpyAsync(dv, host.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice, s1));
  CHECK(cudaEventRecord(e[0], s1));
  increment<<<n / 256, 256, 0, s1>>>(dv, n, 4);
  CHECK(cudaEventRecord(e[1], s1));
  CHECK(cudaStreamWaitEvent(s2, e[1], 0));
  increment<<<n / 256, 256, 0, s2>>>(dv, n, 4);
  CHECK(cudaEventRecord(e[2], s2));
  increment<<<n / 256, 256, 0, s2>>>(dv, n, 256);
  CHECK(cudaEventRecord(e[3], s2));
  usleep(20000);  // host time passes, simulated time does not
  CHECK(cudaEventRecord(e[4], s2));
  CHECK(cudaMemcpyAsync(host.data(), dv, n * sizeof(unsigned), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaEventSynchronize(e[4]));

  bool good = true;
  for (int i = 0; i < n; ++i) good = good && host[i] == scramble(i, 4 + 4 + 256);
  EXPECT(good, "copies and kernels on two streams run in issue order");
  EXPECT(cudaEventQuery(e[3]) == cudaSuccess && cudaStreamQuery(s1) == cudaSuccess,
         "completed work queries as done");

  float first = elapsed(e[0], e[1]), second = elapsed(e[1], e[2]), long_ = elapsed(e[2], e[3]);
  std::printf("4 rounds took %s time, 256 rounds %s as long\n", first > 0 ? "some" : "no",
              long_ > 4 * first ? "more than 4 times" : "at most 4 times");
  EXPECT(first > 0 && first == second, "the same work takes the same simulated time");
  EXPECT(long_ > 4 * first, "more work takes more simulated time");
  EXPECT(elapsed(e[3], e[4]) == 0.0f, "host time between records does not count");
  EXPECT(elapsed(e[1], e[0]) == -first, "events in reverse order give a negative time");

  int done = 0;
  CHECK(cudaLaunchHostFunc(s1, markDone, &done));
  EXPECT(done == 1, "host function ran after the stream's work");

  cudaEvent_t fresh, untimed;
  CHECK(cudaEventCreate(&fresh));
  CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  CHECK(cudaEventRecord(untimed, s1));
  float ms = 0;
  EXPECT(cudaEventElapsedTime(&ms, e[0], fresh) == cudaErrorInvalidResourceHandle,
         "an event never recorded has no time");
  EXPECT(cudaEventElapsedTime(&ms, e[0], untimed) == cudaErrorInvalidResourceHandle,
         "an event without timing has no time");
  cudaGetLastError();

  for (cudaEvent_t& ev : e) CHECK(cudaEventDestroy(ev));
  CHECK(cudaEventDestroy(fresh));
  CHECK(cudaEventDestroy(untimed));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  EXPECT(cudaStreamSynchronize(s1) == cudaErrorInvalidResourceHandle,
         "a destroyed stream is refused");
  cudaGetLastError();
  CHECK(cudaFree(dv));
  std::printf("PASS\n");
  return 0;
}
