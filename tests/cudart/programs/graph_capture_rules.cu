// The rules of stream capture, which a GPU's runtime enforces: calls that cannot be recorded or
// that would wait on work that is only being recorded fail and invalidate the capture, and
// cudaStreamEndCapture then returns no graph. A synchronous cudaMalloc or cudaMemcpy in global
// mode is cudaErrorStreamCaptureUnsupported, but allowed in relaxed mode; synchronizing a
// capturing stream or the device is unsupported; using the legacy stream while a blocking stream
// captures is cudaErrorStreamCaptureImplicit; waiting on an event recorded outside the capture is
// cudaErrorStreamCaptureIsolation; querying an event recorded in a capture is
// cudaErrorCapturedEvent; a fork that is never joined back is cudaErrorStreamCaptureUnjoined;
// ending on a forked stream is cudaErrorStreamCaptureUnmatched. A stream can capture again after
// the failed capture ends.
#include <cstdio>

#include "check.h"

__global__ void touch(int* v) { v[threadIdx.x] += 1; }

// Runs `call` during a fresh capture on `s` and checks its error and that it invalidated the
// capture (cudaStreamEndCapture fails and returns no graph).
#define EXPECT_INVALIDATES(s, mode, call, want, what)                                   \
  do {                                                                                  \
    CHECK(cudaStreamBeginCapture(s, mode));                                             \
    touch<<<1, 32, 0, s>>>(dev);                                                        \
    cudaError_t got_ = (call);                                                          \
    cudaStreamCaptureStatus st_;                                                        \
    CHECK(cudaStreamIsCapturing(s, &st_));                                              \
    cudaGraph_t g_ = reinterpret_cast<cudaGraph_t>(1);                                  \
    cudaError_t end_ = cudaStreamEndCapture(s, &g_);                                    \
    std::printf("%s: %s, end %s\n", what, cudaGetErrorName(got_), cudaGetErrorName(end_)); \
    EXPECT(got_ == (want) && st_ == cudaStreamCaptureStatusInvalidated &&               \
               end_ == cudaErrorStreamCaptureInvalidated && g_ == nullptr,              \
           what);                                                                       \
    cudaGetLastError();                                                                 \
  } while (0)

int main() {
  int* dev;
  CHECK(cudaMalloc(&dev, 32 * sizeof(int)));
  CHECK(cudaMemset(dev, 0, 32 * sizeof(int)));
  int host[32] = {};
  cudaStream_t s, t, nonBlocking;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreate(&t));
  CHECK(cudaStreamCreateWithFlags(&nonBlocking, cudaStreamNonBlocking));
  cudaEvent_t outside, inside;
  CHECK(cudaEventCreate(&outside));
  CHECK(cudaEventCreate(&inside));
  CHECK(cudaEventRecord(outside, t));
  void* extra = nullptr;

  EXPECT_INVALIDATES(s, cudaStreamCaptureModeGlobal, cudaMalloc(&extra, 64),
                     cudaErrorStreamCaptureUnsupported, "cudaMalloc in global mode");
  EXPECT_INVALIDATES(s, cudaStreamCaptureModeThreadLocal,
                     cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost),
                     cudaErrorStreamCaptureUnsupported, "cudaMemcpy in thread-local mode");
  EXPECT_INVALIDATES(s, cudaStreamCaptureModeGlobal, cudaStreamSynchronize(s),
                     cudaErrorStreamCaptureUnsupported, "synchronizing the capturing stream");
  EXPECT_INVALIDATES(s, cudaStreamCaptureModeRelaxed, cudaDeviceSynchronize(),
                     cudaErrorStreamCaptureUnsupported, "synchronizing the device");
  EXPECT_INVALIDATES(s, cudaStreamCaptureModeGlobal, cudaMemsetAsync(dev, 0, 4, 0),
                     cudaErrorStreamCaptureImplicit, "the legacy stream during capture");
  EXPECT_INVALIDATES(s, cudaStreamCaptureModeGlobal, cudaStreamWaitEvent(s, outside, 0),
                     cudaErrorStreamCaptureIsolation, "waiting on an event from outside");
  EXPECT_INVALIDATES(s, cudaStreamCaptureModeGlobal,
                     (cudaEventRecord(inside, s), cudaEventQuery(inside)),
                     cudaErrorCapturedEvent, "querying an event recorded in the capture");

  // Relaxed mode permits the potentially unsafe calls; a non-blocking stream does not tie the
  // legacy stream to the capture.
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  touch<<<1, 32, 0, s>>>(dev);
  CHECK(cudaMalloc(&extra, 64));
  CHECK(cudaFree(extra));
  cudaGraph_t relaxed;
  CHECK(cudaStreamEndCapture(s, &relaxed));
  EXPECT(relaxed != nullptr, "cudaMalloc is permitted in relaxed mode");
  CHECK(cudaStreamBeginCapture(nonBlocking, cudaStreamCaptureModeRelaxed));
  touch<<<1, 32, 0, nonBlocking>>>(dev);
  CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
  cudaGraph_t nb;
  CHECK(cudaStreamEndCapture(nonBlocking, &nb));
  EXPECT(host[0] == 0, "a non-blocking stream's capture leaves the legacy stream usable");

  // A thread's mode can be exchanged: relaxed lets it allocate during another capture.
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  EXPECT(mode == cudaStreamCaptureModeGlobal, "the default mode is global");
  cudaError_t e = cudaMalloc(&extra, 64);
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  touch<<<1, 32, 0, s>>>(dev);
  cudaGraph_t exchanged;
  CHECK(cudaStreamEndCapture(s, &exchanged));
  EXPECT(e == cudaSuccess, "cudaMalloc in a relaxed thread during a global capture");
  CHECK(cudaFree(extra));

  // Forks must be joined, and the capture ends where it began.
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(inside, s));
  CHECK(cudaStreamWaitEvent(t, inside, 0));
  touch<<<1, 32, 0, t>>>(dev);
  cudaGraph_t g = reinterpret_cast<cudaGraph_t>(1);
  e = cudaStreamEndCapture(t, &g);
  std::printf("ending on the forked stream: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorStreamCaptureUnmatched, "the capture must end on its origin stream");
  e = cudaStreamEndCapture(s, &g);
  EXPECT(e == cudaErrorStreamCaptureInvalidated && g == nullptr,
         "which invalidated it; the origin ends it");
  cudaGetLastError();
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(inside, s));
  CHECK(cudaStreamWaitEvent(t, inside, 0));
  touch<<<1, 32, 0, t>>>(dev);
  e = cudaStreamEndCapture(s, &g);
  std::printf("unjoined fork: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorStreamCaptureUnjoined && g == nullptr, "an unjoined fork is refused");
  cudaGetLastError();
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(t, &status));
  EXPECT(status == cudaStreamCaptureStatusNone, "and the forked stream is released");
  e = cudaStreamEndCapture(s, &g);
  EXPECT(e == cudaErrorIllegalState, "ending a capture that is not active");
  cudaGetLastError();
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  EXPECT(e == cudaErrorIllegalState, "a capturing stream cannot begin another capture");
  CHECK(cudaStreamEndCapture(s, &g));
  EXPECT(g != nullptr, "an empty capture gives an empty graph");
  e = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  EXPECT(e == cudaErrorStreamCaptureUnsupported, "the legacy stream cannot capture");
  cudaGetLastError();

  // None of the invalidated captures ran anything; the relaxed and exchanged graphs run once.
  CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
  EXPECT(host[0] == 0 && host[31] == 0, "captured work never ran");
  for (cudaGraph_t graph : {relaxed, nb, exchanged}) {
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
  }
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("after three graphs: %d\n", host[0]);
  EXPECT(host[0] == 3 && host[31] == 3, "each valid graph ran its kernel once");

  CHECK(cudaEventDestroy(outside));
  CHECK(cudaEventDestroy(inside));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(t));
  CHECK(cudaStreamDestroy(nonBlocking));
  CHECK(cudaFree(dev));
  std::printf("PASS\n");
  return 0;
}
