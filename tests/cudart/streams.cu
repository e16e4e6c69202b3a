// Streams, events (simulated time), managed memory, device printf ordered with host output, and
// an API call the simulator does not provide.
#include <cstdio>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      std::printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_));                       \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)
#define EXPECT(cond, what)            \
  do {                                \
    if (!(cond)) {                    \
      std::printf("FAIL %s\n", what); \
      return 1;                       \
    }                                 \
    std::printf("ok %s\n", what);     \
  } while (0)

__managed__ int hits;

__global__ void square(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] * v[i];
    atomicAdd(&hits, 1);
  }
}

__global__ void hello(int tag) {
  if (threadIdx.x < 2) printf("device %d thread %d\n", tag, threadIdx.x);
}

int main() {
  const int n = 4096;
  int* m = nullptr;
  CHECK(cudaMallocManaged(&m, n * sizeof(int)));
  for (int i = 0; i < n; ++i) m[i] = i % 100;
  hits = 0;

  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t start, mid, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&mid));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, s1));
  square<<<n / 256, 256, 0, s1>>>(m, n);
  CHECK(cudaEventRecord(mid, s1));
  square<<<n / 256 / 2, 256, 0, s2>>>(m, n / 2);
  CHECK(cudaEventRecord(stop, s2));
  CHECK(cudaStreamWaitEvent(s1, stop, 0));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventQuery(stop));

  bool good = true;
  for (int i = 0; i < n; ++i) {
    long long v = i % 100;
    long long want = i < n / 2 ? v * v * v * v : v * v;
    good = good && m[i] == want;
  }
  EXPECT(good, "managed memory read and written by host and kernels");
  std::printf("hits = %d\n", hits);
  EXPECT(hits == n + n / 2, "__managed__ variable");

  float first = 0, second = 0, again = 0;
  CHECK(cudaEventElapsedTime(&first, start, mid));
  CHECK(cudaEventElapsedTime(&second, mid, stop));
  CHECK(cudaEventElapsedTime(&again, start, mid));
  EXPECT(first > 0 && second > 0 && second < first, "simulated elapsed time follows the work");
  EXPECT(first == again, "elapsed time is deterministic");

  std::printf("host before\n");
  hello<<<1, 32>>>(1);
  std::printf("host between\n");
  hello<<<1, 32>>>(2);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(32);
  config.stream = s1;
  CHECK(cudaLaunchKernelEx(&config, hello, 3));
  CHECK(cudaDeviceSynchronize());
  std::printf("host after\n");
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 2;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  EXPECT(cudaLaunchKernelEx(&config, hello, 4) == cudaErrorNotSupported, "clusters refused");
  cudaGetLastError();

  cudaIpcMemHandle_t handle;
  cudaError_t e = cudaIpcGetMemHandle(&handle, m);
  std::printf("cudaIpcGetMemHandle: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorNotSupported && cudaGetLastError() == cudaErrorNotSupported,
         "unsupported call reports cudaErrorNotSupported");

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(mid));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(m));
  std::printf("PASS\n");
  return 0;
}
