// Mapped (zero-copy) host memory. With unified addressing, page-locked host memory from
// cudaHostAlloc is reachable from kernels at the same address the host uses
// (cudaHostGetDevicePointer returns the host pointer): a kernel writes results there and the host
// reads them after synchronising, with no copy. Memory the program already has can be
// page-locked and mapped with cudaHostRegister; the device reaches it through the pointer
// cudaHostGetDevicePointer gives (this device reports cudaDevAttrCanUseHostPointerForRegisteredMem
// 0, so that pointer may differ from the host one), kernels read what the host wrote and the host
// sees what kernels wrote. Registering a range twice or unregistering one never registered are
// errors, and cudaPointerGetAttributes reports host memory with its device pointer.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void squares(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

__global__ void increment(int* v, int n, int by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += by;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int canMap = 0, hostPointer = -1;
  CHECK(cudaDeviceGetAttribute(&canMap, cudaDevAttrCanMapHostMemory, 0));
  CHECK(cudaDeviceGetAttribute(&hostPointer, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
  EXPECT(prop.canMapHostMemory == 1 && canMap == 1 && prop.unifiedAddressing == 1,
         "the device maps host memory and has unified addressing");
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  unsigned flags = 0;
  CHECK(cudaGetDeviceFlags(&flags));
  EXPECT((flags & cudaDeviceMapHost) != 0, "cudaDeviceMapHost is set");

  const int n = 5000;
  int* host = nullptr;
  CHECK(cudaHostAlloc(&host, n * sizeof(int), cudaHostAllocMapped));
  int* dev = nullptr;
  CHECK(cudaHostGetDevicePointer(&dev, host, 0));
  EXPECT(dev == host, "the device pointer of mapped memory is the host pointer");
  unsigned got = 0;
  CHECK(cudaHostGetFlags(&got, host));
  EXPECT(got == cudaHostAllocMapped, "cudaHostGetFlags returns the allocation's flags");
  squares<<<(n + 127) / 128, 128>>>(dev, n);
  CHECK(cudaDeviceSynchronize());
  bool good = true;
  for (int i = 0; i < n; ++i) good = good && host[i] == i * i;
  EXPECT(good, "the host reads what the kernel wrote, without a copy");
  for (int i = 0; i < n; ++i) host[i] = -i;
  increment<<<(n + 127) / 128, 128>>>(host, n, 10);  // the host pointer works on the device
  CHECK(cudaDeviceSynchronize());
  EXPECT(host[0] == 10 && host[n - 1] == 11 - n, "the kernel reads what the host wrote");
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, host + 7));
  EXPECT(pa.type == cudaMemoryTypeHost && pa.devicePointer == host + 7 &&
             pa.hostPointer == host + 7,
         "cudaPointerGetAttributes: host memory, mapped at the same address");
  int* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, 64 * sizeof(int)));
  int* pinnedDev = nullptr;
  CHECK(cudaHostGetDevicePointer(&pinnedDev, pinned, 0));
  EXPECT(pinnedDev == pinned, "with unified addressing cudaMallocHost memory is mapped too");

  // Registered memory: a malloc'd buffer made visible to the device.
  int* buffer = static_cast<int*>(std::malloc(n * sizeof(int)));
  for (int i = 0; i < n; ++i) buffer[i] = 3 * i;
  CHECK(cudaHostRegister(buffer, n * sizeof(int), cudaHostRegisterMapped));
  int* bufferDev = nullptr;
  CHECK(cudaHostGetDevicePointer(&bufferDev, buffer, 0));
  int* middle = nullptr;
  CHECK(cudaHostGetDevicePointer(&middle, buffer + 100, 0));
  EXPECT(middle == bufferDev + 100, "a pointer inside the range maps to the same offset");
  increment<<<(n + 127) / 128, 128>>>(bufferDev, n, 1);
  CHECK(cudaDeviceSynchronize());
  good = true;
  for (int i = 0; i < n; ++i) good = good && buffer[i] == 3 * i + 1;
  EXPECT(good, "a kernel updates registered host memory in place");
  buffer[5] = 1000;  // the host writes; the next kernel sees it
  increment<<<(n + 127) / 128, 128>>>(bufferDev, n, 1);
  CHECK(cudaDeviceSynchronize());
  EXPECT(buffer[5] == 1001 && buffer[6] == 20, "the kernel sees the host's writes");
  int copied[2] = {};
  CHECK(cudaMemcpy(copied, bufferDev + 5, sizeof copied, cudaMemcpyDeviceToHost));
  EXPECT(copied[0] == 1001 && copied[1] == 20, "copies see registered memory through either pointer");
  CHECK(cudaMemcpy(buffer + 7, copied, sizeof(int), cudaMemcpyHostToHost));
  increment<<<(n + 127) / 128, 128>>>(bufferDev, n, 0);
  CHECK(cudaDeviceSynchronize());
  EXPECT(buffer[7] == 1001, "a host-to-host copy into registered memory stays");
  CHECK(cudaPointerGetAttributes(&pa, buffer));
  EXPECT(pa.type == cudaMemoryTypeHost && pa.devicePointer == bufferDev,
         "cudaPointerGetAttributes gives registered memory's device pointer");
  cudaError_t e = cudaHostRegister(buffer + 10, 16, cudaHostRegisterMapped);
  EXPECT(e == cudaErrorHostMemoryAlreadyRegistered, "a range cannot be registered twice");
  cudaGetLastError();
  CHECK(cudaHostUnregister(buffer));
  e = cudaHostUnregister(buffer);
  EXPECT(e == cudaErrorHostMemoryNotRegistered, "unregistering twice");
  cudaGetLastError();
  e = cudaHostGetDevicePointer(&bufferDev, buffer, 0);
  EXPECT(e == cudaErrorInvalidValue, "unregistered memory has no device pointer");
  cudaGetLastError();
  EXPECT(buffer[5] == 1001, "the buffer keeps its contents after unregistering");
  std::free(buffer);

  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFreeHost(host));
  e = cudaFreeHost(host);
  EXPECT(e == cudaErrorInvalidValue, "freeing pinned memory twice");
  cudaGetLastError();
  std::printf("PASS\n");
  return 0;
}
