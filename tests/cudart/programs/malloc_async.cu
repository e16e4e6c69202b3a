// Stream-ordered allocation (cudaMallocAsync / cudaFreeAsync) and memory pools. A pool keeps the
// memory freed into it and hands it out again to later allocations in stream order, so freeing
// and reallocating the same size on one stream returns the same address. Its statistics add up:
// used memory is what is allocated, never more than the reserved memory behind it, and the high
// watermarks never fall below the current values until reset. At a synchronisation the pool
// gives back free memory above its release threshold (default 0: all of it), and
// cudaMemPoolTrimTo gives it back on request. Explicit pools (cudaMemPoolCreate) are separate
// from the device's default pool; during stream capture cudaMallocAsync becomes a graph
// allocation node whose memory is valid when the graph runs.
#include <cstdint>
#include <cstdio>

#include "check.h"

__global__ void iota(int* v, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = base + i;
}

__global__ void total(const int* v, int n, unsigned long long* sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, static_cast<unsigned long long>(v[i]));
}

unsigned long long attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  unsigned long long v = 0;
  CHECK(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  EXPECT(supported == 1, "the device supports memory pools");
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaMemPool_t pool, current;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  EXPECT(pool == current, "the default pool is the current pool");

  const int n = 100000;
  const size_t bytes = n * sizeof(int);
  int* v = nullptr;
  unsigned long long* sum = nullptr;
  CHECK(cudaMallocAsync(&v, bytes, s));
  CHECK(cudaMallocAsync(&sum, sizeof *sum, s));
  CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s));
  iota<<<(n + 255) / 256, 256, 0, s>>>(v, n, 1);
  total<<<(n + 255) / 256, 256, 0, s>>>(v, n, sum);
  unsigned long long got = 0;
  CHECK(cudaMemcpyAsync(&got, sum, sizeof got, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT(got == 5000050000ull, "kernels use stream-ordered memory");

  unsigned long long used = attr(pool, cudaMemPoolAttrUsedMemCurrent);
  unsigned long long reserved = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  std::printf("used >= %zu: %d, reserved >= used: %d\n", bytes + sizeof *sum,
              used >= bytes + sizeof *sum, reserved >= used);
  EXPECT(used >= bytes + sizeof *sum && reserved >= used, "used covers the allocations");
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) >= used &&
             attr(pool, cudaMemPoolAttrReservedMemHigh) >= reserved,
         "the high watermarks are at least the current values");

  // A free followed by an allocation of the same size on the same stream reuses the memory.
  int* before = v;
  CHECK(cudaFreeAsync(v, s));
  CHECK(cudaMallocAsync(&v, bytes, s));
  EXPECT(v == before, "freed memory is reused in stream order");
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == reserved,
         "reuse reserves nothing more");

  // At a synchronisation, free memory above the threshold goes back; the threshold keeps it.
  unsigned long long keepAll = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keepAll));
  CHECK(cudaFreeAsync(v, s));
  CHECK(cudaFreeAsync(sum, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "nothing is used after the frees");
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == reserved,
         "a high release threshold keeps the memory across a synchronisation");
  CHECK(cudaMemPoolTrimTo(pool, 0));
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0, "trimming to 0 gives it all back");
  unsigned long long zero = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero));
  CHECK(cudaMallocAsync(&v, bytes, s));
  CHECK(cudaFreeAsync(v, s));
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) != 0, "memory stays until a sync");
  CHECK(cudaStreamSynchronize(s));
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0,
         "with threshold 0 a synchronisation gives the free memory back");
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) == 0 &&
             attr(pool, cudaMemPoolAttrReservedMemHigh) == 0,
         "resetting the high watermarks");
  unsigned long long one = 1;
  cudaError_t e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one);
  EXPECT(e == cudaErrorInvalidValue, "a high watermark can only be reset to 0");
  cudaGetLastError();

  // An explicit pool, made current for cudaMallocAsync.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  CHECK(cudaMemPoolCreate(&mine, &props));
  int* p = nullptr;
  CHECK(cudaMallocFromPoolAsync(&p, 4096, mine, s));
  EXPECT(attr(mine, cudaMemPoolAttrUsedMemCurrent) >= 4096 &&
             attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0,
         "cudaMallocFromPoolAsync takes from the given pool");
  CHECK(cudaDeviceSetMemPool(0, mine));
  int* q = nullptr;
  CHECK(cudaMallocAsync(&q, 4096, s));
  EXPECT(attr(mine, cudaMemPoolAttrUsedMemCurrent) >= 8192, "the current pool serves cudaMallocAsync");
  iota<<<16, 256, 0, s>>>(q, 1024, 7);
  int last = 0;
  CHECK(cudaMemcpyAsync(&last, q + 1023, sizeof last, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT(last == 1030, "memory from an explicit pool works");
  CHECK(cudaFreeAsync(p, s));
  CHECK(cudaFree(q));  // cudaFree also frees stream-ordered memory
  CHECK(cudaMemPoolDestroy(mine));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  EXPECT(current == pool, "destroying the current pool makes the default pool current");
  e = cudaMemPoolDestroy(pool);
  EXPECT(e == cudaErrorInvalidValue, "the default pool cannot be destroyed");
  cudaGetLastError();

  // Captured: an allocation node and a free node.
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int* g = nullptr;
  CHECK(cudaMallocAsync(&g, bytes, s));
  CHECK(cudaMallocAsync(&sum, sizeof *sum, s));
  CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s));
  iota<<<(n + 255) / 256, 256, 0, s>>>(g, n, 2);
  total<<<(n + 255) / 256, 256, 0, s>>>(g, n, sum);
  CHECK(cudaMemcpyAsync(&got, sum, sizeof got, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(g, s));
  CHECK(cudaFreeAsync(sum, s));
  CHECK(cudaStreamEndCapture(s, &graph));
  cudaGraphNode_t first;
  size_t one_ = 1;
  CHECK(cudaGraphGetRootNodes(graph, &first, &one_));
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(first, &type));
  EXPECT(type == cudaGraphNodeTypeMemAlloc, "a captured cudaMallocAsync is an allocation node");
  cudaMemAllocNodeParams ap;
  CHECK(cudaGraphMemAllocNodeGetParams(first, &ap));
  EXPECT(ap.dptr == g && ap.bytesize >= bytes, "the node holds the address the capture returned");
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 3; ++launch) {
    got = 0;
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(got == 5000150000ull, "the graph allocates, computes and frees, launch after launch");
  }
  unsigned long long graphUsed = 1;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &graphUsed));
  EXPECT(graphUsed == 0, "the graph freed what it allocated");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  std::printf("PASS\n");
  return 0;
}
