// The runtime API as a program sees it, without nvcc: this executable (cudart_api_tests) links
// the drop-in libcudart and uses only work that needs no kernel (copies, fills, host functions),
// so stream capture, graph launches, pools and mapped memory are checked with exact values.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

void CUDART_CB appendOne(void* p) { static_cast<std::vector<int>*>(p)->push_back(1); }

TEST(CudartApi, CaptureRecordsCopiesFillsAndHostFunctionsAndLaunchesRunThem) {
  void* dev = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, 64), cudaSuccess);
  ASSERT_EQ(cudaMemset(dev, 0, 64), cudaSuccess);
  std::vector<int> calls;
  unsigned char back[64];
  std::memset(back, 0xee, sizeof back);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(dev, 0x5a, 32, s), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(back, dev, 64, cudaMemcpyDeviceToHost, s), cudaSuccess);
  ASSERT_EQ(cudaLaunchHostFunc(s, appendOne, &calls), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(s, &graph), cudaSuccess);
  EXPECT_EQ(back[0], 0xee);  // nothing ran
  EXPECT_TRUE(calls.empty());
  cudaGraphExec_t exec;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(back[0], 0x5a);
  EXPECT_EQ(back[31], 0x5a);
  EXPECT_EQ(back[32], 0x00);
  EXPECT_EQ(calls.size(), 2u);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaFree(dev), cudaSuccess);
}

TEST(CudartApi, ForbiddenCallsInvalidateTheCapture) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  void* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, 16), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(cudaGetLastError(), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(cudaMemsetAsync(p, 0, 16, s), cudaErrorStreamCaptureInvalidated);
  cudaStreamCaptureStatus status;
  ASSERT_EQ(cudaStreamIsCapturing(s, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusInvalidated);
  cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(1);
  EXPECT_EQ(cudaStreamEndCapture(s, &graph), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(graph, nullptr);
  ASSERT_EQ(cudaStreamIsCapturing(s, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  EXPECT_STREQ(cudaGetErrorName(cudaErrorStreamCaptureImplicit), "cudaErrorStreamCaptureImplicit");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorStreamCaptureUnjoined),
               "capturing stream has unjoined work");
  cudaGetLastError();
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
}

TEST(CudartApi, MallocAsyncReservesTwoMebibyteChunksAndReleasesAtSynchronisation) {
  cudaMemPool_t pool;
  ASSERT_EQ(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
  auto attr = [&](cudaMemPoolAttr a) {
    unsigned long long v = 0;
    EXPECT_EQ(cudaMemPoolGetAttribute(pool, a, &v), cudaSuccess);
    return v;
  };
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(cudaMallocAsync(&a, 1000, 0), cudaSuccess);
  ASSERT_EQ(cudaMallocAsync(&b, 1000, 0), cudaSuccess);
  EXPECT_EQ(static_cast<char*>(b) - static_cast<char*>(a), 1024);
  EXPECT_EQ(attr(cudaMemPoolAttrUsedMemCurrent), 2048u);
  EXPECT_EQ(attr(cudaMemPoolAttrReservedMemCurrent), 2u << 20);
  ASSERT_EQ(cudaFreeAsync(a, 0), cudaSuccess);
  ASSERT_EQ(cudaFreeAsync(b, 0), cudaSuccess);
  EXPECT_EQ(attr(cudaMemPoolAttrUsedMemCurrent), 0u);
  EXPECT_EQ(attr(cudaMemPoolAttrReservedMemCurrent), 2u << 20);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(attr(cudaMemPoolAttrReservedMemCurrent), 0u);
  EXPECT_EQ(attr(cudaMemPoolAttrUsedMemHigh), 2048u);
  EXPECT_EQ(cudaFreeAsync(a, 0), cudaErrorInvalidValue);  // freed already
  cudaGetLastError();
}

TEST(CudartApi, MappedHostMemoryIsTheDevicePointer) {
  unsigned char* host = nullptr;
  ASSERT_EQ(cudaHostAlloc(reinterpret_cast<void**>(&host), 100, cudaHostAllocMapped), cudaSuccess);
  void* dev = nullptr;
  ASSERT_EQ(cudaHostGetDevicePointer(&dev, host, 0), cudaSuccess);
  EXPECT_EQ(dev, host);
  ASSERT_EQ(cudaMemset(dev, 0x11, 100), cudaSuccess);  // a device fill the host sees
  EXPECT_EQ(host[0], 0x11);
  EXPECT_EQ(host[99], 0x11);
  std::vector<unsigned char> buffer(64, 3);
  ASSERT_EQ(cudaHostRegister(buffer.data(), buffer.size(), cudaHostRegisterDefault), cudaSuccess);
  void* mirror = nullptr;
  ASSERT_EQ(cudaHostGetDevicePointer(&mirror, buffer.data(), 0), cudaSuccess);
  EXPECT_NE(mirror, static_cast<void*>(buffer.data()));
  ASSERT_EQ(cudaMemset(mirror, 9, 8), cudaSuccess);
  EXPECT_EQ(buffer[0], 9);
  EXPECT_EQ(buffer[8], 3);
  EXPECT_EQ(cudaHostRegister(buffer.data() + 4, 4, 0), cudaErrorHostMemoryAlreadyRegistered);
  EXPECT_EQ(cudaHostUnregister(buffer.data()), cudaSuccess);
  EXPECT_EQ(cudaHostUnregister(buffer.data()), cudaErrorHostMemoryNotRegistered);
  EXPECT_EQ(cudaFree(host), cudaErrorInvalidValue);  // pinned memory is freed with cudaFreeHost
  EXPECT_EQ(cudaFreeHost(host), cudaSuccess);
  cudaGetLastError();
}

}  // namespace
