// CUDA graphs built node by node: kernel, memcpy (1D and pitched 2D), memset (4-byte elements, 2D),
// host, empty, event-record and child-graph nodes joined by explicit dependencies. A GPU runs each
// node after all of its dependencies, so the diamond below computes the same values however its
// independent branches are ordered. Kernel nodes copy their arguments when added (changing the
// host variables afterwards changes nothing); the node hands back its own copy. Executable graphs
// are independent of the graph they came from; a disabled node is skipped; a cycle cannot be
// instantiated. The structure queries (nodes, roots, edges, dependencies, types, clones) report
// the graph as built, and cudaGraphDebugDotPrint writes it as DOT.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"

__global__ void scale(float* v, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= factor;
}

__global__ void sum2(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

__device__ int counter;
__global__ void bump() { atomicAdd(&counter, 1); }

void CUDART_CB record(void* p) { static_cast<std::vector<float>*>(p)->push_back(1.0f); }

int main() {
  const int n = 256;
  std::vector<float> input(n);
  for (int i = 0; i < n; ++i) input[i] = static_cast<float>(i);
  float *a, *b, *out, *pitched;
  size_t pitch = 0;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, 16 * sizeof(float), 16));
  std::vector<float> result(n, -1.0f), rows(16 * 16, -1.0f);
  std::vector<float> hostLog;

  // upload -> (scale a by 2 | memset b to 1.0f) -> sum -> download -> host
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t upload, scaleA, setB, sum, download, host;
  CHECK(cudaGraphAddMemcpyNode1D(&upload, graph, nullptr, 0, a, input.data(), n * sizeof(float),
                                 cudaMemcpyHostToDevice));
  int count = n;
  float factor = 2.0f;
  void* scaleArgs[] = {&a, &count, &factor};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(scale);
  kp.gridDim = dim3(n / 64);
  kp.blockDim = dim3(64);
  kp.kernelParams = scaleArgs;
  CHECK(cudaGraphAddKernelNode(&scaleA, graph, &upload, 1, &kp));
  factor = 100.0f;  // the node copied 2.0f
  cudaMemsetParams mp = {};
  mp.dst = b;
  mp.value = 0x3f800000;  // 1.0f
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&setB, graph, &upload, 1, &mp));
  void* sumArgs[] = {&a, &b, &out, &count};
  kp.func = reinterpret_cast<void*>(sum2);
  kp.kernelParams = sumArgs;
  cudaGraphNode_t both[] = {scaleA, setB};
  CHECK(cudaGraphAddKernelNode(&sum, graph, both, 2, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&download, graph, &sum, 1, result.data(), out,
                                 n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {record, &hostLog};
  CHECK(cudaGraphAddHostNode(&host, graph, &download, 1, &hp));

  cudaKernelNodeParams got;
  CHECK(cudaGraphKernelNodeGetParams(scaleA, &got));
  EXPECT(got.func == reinterpret_cast<void*>(scale) && *static_cast<float*>(got.kernelParams[2]) == 2.0f &&
             got.kernelParams[2] != &factor,
         "a kernel node keeps its own copy of the arguments");
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(setB, &type));
  EXPECT(type == cudaGraphNodeTypeMemset, "node types");
  size_t count_ = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count_));
  EXPECT(count_ == 6, "six nodes");
  cudaGraphNode_t roots[4];
  size_t numRoots = 4;
  CHECK(cudaGraphGetRootNodes(graph, roots, &numRoots));
  EXPECT(numRoots == 1 && roots[0] == upload, "the upload is the only root");
  cudaGraphNode_t deps[4];
  size_t numDeps = 4;
  CHECK(cudaGraphNodeGetDependencies(sum, deps, nullptr, &numDeps));
  EXPECT(numDeps == 2 && deps[0] == scaleA && deps[1] == setB, "the sum depends on both branches");
  size_t dependents = 0;
  CHECK(cudaGraphNodeGetDependentNodes(upload, nullptr, nullptr, &dependents));
  EXPECT(dependents == 2, "the upload has two dependents");
  size_t edges = 0;
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  EXPECT(edges == 6, "six edges");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  bool good = hostLog.size() == 1;
  for (int i = 0; i < n; ++i) good = good && result[i] == 2.0f * i + 1.0f;
  EXPECT(good, "the diamond computes 2 * i + 1");

  // The executable graph is a copy: changing the graph does not change it.
  factor = 3.0f;
  kp.func = reinterpret_cast<void*>(scale);
  kp.kernelParams = scaleArgs;
  CHECK(cudaGraphKernelNodeSetParams(scaleA, &kp));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(result[10] == 21.0f, "the executable graph keeps the parameters it was made with");
  CHECK(cudaGraphNodeSetEnabled(exec, scaleA, 0));
  unsigned enabled = 1;
  CHECK(cudaGraphNodeGetEnabled(exec, scaleA, &enabled));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(enabled == 0 && result[10] == 11.0f, "a disabled kernel node is skipped");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(result[10] == 31.0f && hostLog.size() == 4, "a new instantiation takes the new factor");
  CHECK(cudaGraphExecDestroy(exec));

  // A child graph: a 2D memset and a pitched copy out, twice (the child is cloned when added),
  // and an event record and an empty node beside it.
  cudaGraph_t child;
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t fill2d, copy2d;
  cudaMemsetParams m2 = {};
  m2.dst = pitched;
  m2.pitch = pitch;
  m2.value = 0x40400000;  // 3.0f
  m2.elementSize = 4;
  m2.width = 16;
  m2.height = 16;
  CHECK(cudaGraphAddMemsetNode(&fill2d, child, nullptr, 0, &m2));
  cudaMemcpy3DParms c3 = {};
  c3.srcPtr = make_cudaPitchedPtr(pitched, pitch, 16, 16);
  c3.dstPtr = make_cudaPitchedPtr(rows.data(), 16 * sizeof(float), 16, 16);
  c3.extent = make_cudaExtent(8 * sizeof(float), 16, 1);  // the left half of each row
  c3.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddMemcpyNode(&copy2d, child, &fill2d, 1, &c3));
  cudaGraph_t parent;
  CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t childNode, empty, recordNode, bumpNode;
  CHECK(cudaGraphAddChildGraphNode(&childNode, parent, nullptr, 0, child));
  CHECK(cudaGraphAddEmptyNode(&empty, parent, &childNode, 1));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  CHECK(cudaGraphAddEventRecordNode(&recordNode, parent, &empty, 1, done));
  cudaKernelNodeParams bp = {};
  bp.func = reinterpret_cast<void*>(bump);
  bp.gridDim = dim3(2);
  bp.blockDim = dim3(32);
  void* noArgs[] = {nullptr};
  bp.kernelParams = noArgs;
  CHECK(cudaGraphAddKernelNode(&bumpNode, parent, &empty, 1, &bp));
  CHECK(cudaGraphDestroy(child));  // the node holds its own copy
  cudaGraph_t inner;
  CHECK(cudaGraphChildGraphNodeGetGraph(childNode, &inner));
  size_t innerNodes = 0;
  CHECK(cudaGraphGetNodes(inner, nullptr, &innerNodes));
  EXPECT(innerNodes == 2, "the child graph node owns a copy of the child graph");
  CHECK(cudaGraphInstantiate(&exec, parent, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaEventSynchronize(done));
  int bumps = 0;
  CHECK(cudaMemcpyFromSymbol(&bumps, counter, sizeof bumps));
  good = bumps == 128;
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) good = good && rows[r * 16 + c] == (c < 8 ? 3.0f : -1.0f);
  }
  EXPECT(good, "the child graph's memset and pitched copy ran, and the kernel twice");
  CHECK(cudaEventQuery(done));

  // The DOT description names the node types and the kernel.
  const char* dot = "graph_explicit.dot";
  CHECK(cudaGraphDebugDotPrint(parent, dot, 0));
  std::ifstream in(dot);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  EXPECT(s.find("digraph") != std::string::npos && s.find("MEMSET") != std::string::npos &&
             s.find("EVENT_RECORD") != std::string::npos && s.find("_Z4bumpv") != std::string::npos,
         "cudaGraphDebugDotPrint writes the graph");
  std::remove(dot);

  // Clones, edges and cycles.
  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, graph));
  cudaGraphNode_t sumInClone;
  CHECK(cudaGraphNodeFindInClone(&sumInClone, sum, clone));
  cudaGraphNode_t hostInClone;
  CHECK(cudaGraphNodeFindInClone(&hostInClone, host, clone));
  CHECK(cudaGraphAddDependencies(clone, &hostInClone, &sumInClone, nullptr, 1));
  cudaGraphInstantiateParams ip = {};
  cudaError_t e = cudaGraphInstantiateWithParams(&exec, clone, &ip);
  std::printf("instantiating a cycle: %s, result %d\n", cudaGetErrorName(e),
              static_cast<int>(ip.result_out));
  EXPECT(e == cudaErrorInvalidValue && ip.result_out == cudaGraphInstantiateInvalidStructure,
         "a graph with a cycle cannot be instantiated");
  cudaGetLastError();
  e = cudaGraphAddDependencies(clone, &hostInClone, &sumInClone, nullptr, 1);
  EXPECT(e == cudaErrorInvalidValue, "an edge cannot be added twice");
  cudaGetLastError();
  CHECK(cudaGraphRemoveDependencies(clone, &hostInClone, &sumInClone, nullptr, 1));
  CHECK(cudaGraphDestroyNode(hostInClone));
  CHECK(cudaGraphGetNodes(clone, nullptr, &count_));
  CHECK(cudaGraphGetEdges(clone, nullptr, nullptr, nullptr, &edges));
  EXPECT(count_ == 5 && edges == 5, "destroying a node removes its edges");
  cudaGraphExec_t cloneExec;
  CHECK(cudaGraphInstantiate(&cloneExec, clone, 0));
  std::fill(result.begin(), result.end(), 0.0f);
  CHECK(cudaGraphLaunch(cloneExec, 0));
  CHECK(cudaStreamSynchronize(0));
  EXPECT(result[10] == 31.0f && hostLog.size() == 4, "the clone runs without its host node");
  e = cudaGraphAddKernelNode(&sum, graph, &sumInClone, 1, &kp);
  EXPECT(e == cudaErrorInvalidValue, "a dependency from another graph is refused");
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(cloneExec));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(clone));
  CHECK(cudaGraphDestroy(parent));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  CHECK(cudaFree(pitched));
  std::printf("PASS\n");
  return 0;
}
