// CUDA graphs made by stream capture. While a stream captures, the work issued to it is recorded,
// not run: nothing happens to memory until the graph is launched. Work forked onto other streams
// (an event recorded in the capturing stream, waited on by another stream) joins the capture, and
// the origin rejoins it by waiting on events those streams record; the graph then runs the
// branches after the fork and before the join, exactly as the streams would have. A graph is
// launched many times, with kernel arguments changed per node in the executable graph
// (cudaGraphExecKernelNodeSetParams) and for the whole graph from a second capture of the same
// shape (cudaGraphExecUpdate). Kernel arguments are copied when captured, so changing the host
// variable afterwards changes nothing. A host function in the capture runs at its place in the
// order, every launch.
#include <cstdio>
#include <vector>

#include "check.h"

__global__ void fill(int* v, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = value;
}

__global__ void add(int* v, int n, int amount) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += amount;
}

// out[i] = a[i] * b[i]: needs both branches of the fork.
__global__ void multiply(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * b[i];
}

struct HostLog {
  int calls = 0;
  int seen = -1;  // out[0] when the host function ran (read from the pinned copy)
  const int* pinned = nullptr;
};

void CUDART_CB onHost(void* p) {
  auto* log = static_cast<HostLog*>(p);
  log->calls++;
  log->seen = log->pinned[0];
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  int *a, *b, *out, *pinned;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
  CHECK(cudaMemset(out, 0, n * sizeof(int)));
  HostLog log;
  log.pinned = pinned;

  cudaStream_t s0, s1, s2;
  CHECK(cudaStreamCreate(&s0));
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  cudaEvent_t fork, joinA, joinB;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&joinA, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&joinB, cudaEventDisableTiming));

  // The sequence: memset out; fork to s1 (a = 3 + k) and s2 (b = 5); join; out = a * b; copy to
  // pinned; host function.
  int valueA = 3;
  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s0, &status));
  EXPECT(status == cudaStreamCaptureStatusActive, "the origin stream captures");
  CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusNone, "another stream does not until it joins");
  CHECK(cudaMemsetAsync(out, 0xff, n * sizeof(int), s0));
  CHECK(cudaEventRecord(fork, s0));
  CHECK(cudaStreamWaitEvent(s1, fork, 0));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusActive, "waiting on a captured event joins the capture");
  fill<<<blocks, threads, 0, s1>>>(a, n, valueA);
  valueA = 1000;  // the captured launch copied its arguments
  add<<<blocks, threads, 0, s1>>>(a, n, 4);
  fill<<<blocks, threads, 0, s2>>>(b, n, 5);
  CHECK(cudaEventRecord(joinA, s1));
  CHECK(cudaEventRecord(joinB, s2));
  CHECK(cudaStreamWaitEvent(s0, joinA, 0));
  CHECK(cudaStreamWaitEvent(s0, joinB, 0));
  unsigned long long id = 0;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t numDeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s0, &status, &id, &capturing, &deps, nullptr, &numDeps));
  EXPECT(status == cudaStreamCaptureStatusActive && id != 0 && capturing != nullptr,
         "cudaStreamGetCaptureInfo names the capture and its graph");
  EXPECT(numDeps == 2, "after the join the next node depends on both branches");
  multiply<<<blocks, threads, 0, s0>>>(a, b, out, n);
  CHECK(cudaMemcpyAsync(pinned, out, n * sizeof(int), cudaMemcpyDeviceToHost, s0));
  CHECK(cudaLaunchHostFunc(s0, onHost, &log));
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamEndCapture(s0, &graph));
  EXPECT(graph == capturing, "cudaStreamEndCapture returns the graph captured into");
  CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusNone, "ending the capture releases the forked streams");

  std::vector<int> host(n);
  CHECK(cudaMemcpy(host.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool untouched = log.calls == 0;
  for (int i = 0; i < n; ++i) untouched = untouched && host[i] == 0;
  EXPECT(untouched, "captured work did not run during the capture");

  size_t numNodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &numNodes));
  std::printf("captured nodes: %zu\n", numNodes);
  EXPECT(numNodes == 7, "memset, 3 kernels on two forked streams, multiply, copy, host function");
  size_t roots = 0;
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  EXPECT(roots == 1, "the memset is the only root");
  size_t edges = 0;
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  EXPECT(edges == 7, "fork (2), the chain on s1 (1), join (2), multiply -> copy -> host (2)");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, s0));
  CHECK(cudaStreamSynchronize(s0));
  bool good = log.calls == 1 && log.seen == 35;
  for (int i = 0; i < n; ++i) good = good && pinned[i] == 35;
  EXPECT(good, "the graph computes (3 + 4) * 5 and the host function sees the copy");

  // Per-node changes in the executable graph: the fill of `a` gets a new value each launch.
  std::vector<cudaGraphNode_t> nodes(numNodes);
  CHECK(cudaGraphGetNodes(graph, nodes.data(), &numNodes));
  cudaGraphNode_t fillA = nullptr;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(node, &type));
    if (type != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams p;
    CHECK(cudaGraphKernelNodeGetParams(node, &p));
    if (p.func == reinterpret_cast<void*>(fill) && *static_cast<int**>(p.kernelParams[0]) == a) {
      fillA = node;
      EXPECT(*static_cast<int*>(p.kernelParams[2]) == 3, "the node kept the captured argument");
    }
  }
  EXPECT(fillA != nullptr, "the kernel node that fills a is found by its parameters");
  bool all = true;
  for (int launch = 0; launch < 20; ++launch) {
    int value = launch * 10;
    void* args[] = {&a, const_cast<int*>(&n), &value};
    cudaKernelNodeParams p = {};
    p.func = reinterpret_cast<void*>(fill);
    p.gridDim = dim3(blocks);
    p.blockDim = dim3(threads);
    p.kernelParams = args;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, fillA, &p));
    CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));
    all = all && pinned[0] == (value + 4) * 5 && pinned[n - 1] == (value + 4) * 5 &&
          log.seen == (value + 4) * 5;
  }
  EXPECT(all && log.calls == 21, "20 launches with a new argument each");

  // The same sequence captured again with other values updates the whole executable graph.
  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaMemsetAsync(out, 0, n * sizeof(int), s0));
  CHECK(cudaEventRecord(fork, s0));
  CHECK(cudaStreamWaitEvent(s1, fork, 0));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  fill<<<blocks, threads, 0, s1>>>(a, n, 2);
  add<<<blocks, threads, 0, s1>>>(a, n, 1);
  fill<<<blocks, threads, 0, s2>>>(b, n, 7);
  CHECK(cudaEventRecord(joinA, s1));
  CHECK(cudaEventRecord(joinB, s2));
  CHECK(cudaStreamWaitEvent(s0, joinA, 0));
  CHECK(cudaStreamWaitEvent(s0, joinB, 0));
  multiply<<<blocks, threads, 0, s0>>>(a, b, out, n);
  CHECK(cudaMemcpyAsync(pinned, out, n * sizeof(int), cudaMemcpyDeviceToHost, s0));
  CHECK(cudaLaunchHostFunc(s0, onHost, &log));
  cudaGraph_t again;
  CHECK(cudaStreamEndCapture(s0, &again));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, again, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess, "a graph of the same shape updates the exec");
  CHECK(cudaGraphLaunch(exec, s0));
  CHECK(cudaStreamSynchronize(s0));
  EXPECT(pinned[0] == 21 && pinned[n - 1] == 21, "the updated graph computes (2 + 1) * 7");

  // A graph of another shape does not.
  cudaGraph_t other;
  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  fill<<<blocks, threads, 0, s0>>>(a, n, 1);
  CHECK(cudaStreamEndCapture(s0, &other));
  cudaError_t e = cudaGraphExecUpdate(exec, other, &info);
  std::printf("update with another shape: %s, result %d\n", cudaGetErrorName(e),
              static_cast<int>(info.result));
  EXPECT(e == cudaErrorGraphExecUpdateFailure &&
             info.result == cudaGraphExecUpdateErrorTopologyChanged,
         "a graph of another shape is refused");
  cudaGetLastError();

  // Launching a graph while capturing records it as a child graph node.
  cudaGraph_t outer;
  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CHECK(cudaGraphLaunch(exec, s0));
  add<<<blocks, threads, 0, s0>>>(out, n, 1);
  CHECK(cudaMemcpyAsync(pinned, out, n * sizeof(int), cudaMemcpyDeviceToHost, s0));
  CHECK(cudaStreamEndCapture(s0, &outer));
  CHECK(cudaGraphGetNodes(outer, nullptr, &numNodes));
  std::vector<cudaGraphNode_t> outerNodes(numNodes);
  CHECK(cudaGraphGetNodes(outer, outerNodes.data(), &numNodes));
  cudaGraphNodeType firstType;
  CHECK(cudaGraphNodeGetType(outerNodes[0], &firstType));
  EXPECT(numNodes == 3 && firstType == cudaGraphNodeTypeGraph,
         "a captured graph launch is a child graph node");
  cudaGraphExec_t outerExec;
  CHECK(cudaGraphInstantiate(&outerExec, outer, 0));
  CHECK(cudaGraphLaunch(outerExec, s0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(pinned[0] == 22 && log.calls == 23, "the child graph runs before the work after it");

  CHECK(cudaGraphExecDestroy(outerExec));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(outer));
  CHECK(cudaGraphDestroy(other));
  CHECK(cudaGraphDestroy(again));
  CHECK(cudaGraphDestroy(graph));
  EXPECT(cudaGraphDestroy(graph) == cudaErrorInvalidValue, "a destroyed graph is refused");
  cudaGetLastError();
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(joinA));
  CHECK(cudaEventDestroy(joinB));
  CHECK(cudaStreamDestroy(s0));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  std::printf("PASS\n");
  return 0;
}
