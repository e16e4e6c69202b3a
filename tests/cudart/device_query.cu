// Device queries: the device count and selection, cudaGetDeviceProperties against
// cudaDeviceGetAttribute, versions, cudaFuncGetAttributes, and occupancy against the limits the
// properties state. Run with WARPSIM_SMS=7 and with WARPSIM_CONFIG=gtx480: the SM count must
// follow.
#include "check.h"

__global__ void tiled(float* out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[255 - threadIdx.x];
}

void notAKernel() {}

int attribute(cudaDeviceAttr a) {
  int v = -1;
  CHECK(cudaDeviceGetAttribute(&v, a, 0));
  return v;
}

int main() {
  int count = 0, current = -1;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&current));
  std::printf("devices: %d, current %d\n", count, current);
  EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice, "there is no second device");
  cudaGetLastError();

  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("multiprocessors: %d\n", p.multiProcessorCount);
  EXPECT(p.warpSize == 32 && p.maxThreadsPerBlock >= 256 && p.major >= 2, "plausible properties");
  EXPECT(attribute(cudaDevAttrMultiProcessorCount) == p.multiProcessorCount &&
             attribute(cudaDevAttrMaxThreadsPerBlock) == p.maxThreadsPerBlock &&
             attribute(cudaDevAttrWarpSize) == p.warpSize &&
             attribute(cudaDevAttrMaxSharedMemoryPerBlock) == static_cast<int>(p.sharedMemPerBlock) &&
             attribute(cudaDevAttrMaxRegistersPerBlock) == p.regsPerBlock &&
             attribute(cudaDevAttrComputeCapabilityMajor) == p.major &&
             attribute(cudaDevAttrComputeCapabilityMinor) == p.minor &&
             attribute(cudaDevAttrMaxThreadsPerMultiProcessor) == p.maxThreadsPerMultiProcessor &&
             attribute(cudaDevAttrMaxBlocksPerMultiprocessor) == p.maxBlocksPerMultiProcessor &&
             attribute(cudaDevAttrL2CacheSize) == p.l2CacheSize &&
             attribute(cudaDevAttrTotalConstantMemory) == static_cast<int>(p.totalConstMem),
         "attributes agree with the properties");
  EXPECT(attribute(cudaDevAttrClockRate) > 0 && attribute(cudaDevAttrMemoryClockRate) > 0,
         "clock rates");
  size_t freeBytes = 0, total = 0;
  CHECK(cudaMemGetInfo(&freeBytes, &total));
  EXPECT(total == p.totalGlobalMem, "cudaMemGetInfo total is totalGlobalMem");
  int value = 0;
  EXPECT(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 3) == cudaErrorInvalidDevice,
         "attributes of a missing device are refused");
  cudaGetLastError();

  int runtime = 0, driver = 0;
  CHECK(cudaRuntimeGetVersion(&runtime));
  CHECK(cudaDriverGetVersion(&driver));
  EXPECT(runtime >= 13000 && driver >= runtime, "runtime and driver versions");

  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, tiled));
  std::printf("static shared memory of tiled: %zu bytes\n", fa.sharedSizeBytes);
  EXPECT(fa.numRegs > 0 && fa.maxThreadsPerBlock > 0 && fa.maxThreadsPerBlock <= p.maxThreadsPerBlock &&
             fa.ptxVersion >= 50 && fa.maxDynamicSharedSizeBytes ==
                                        static_cast<int>(p.sharedMemPerBlock - fa.sharedSizeBytes),
         "cudaFuncGetAttributes");
  EXPECT(cudaFuncGetAttributes(&fa, notAKernel) == cudaErrorInvalidDeviceFunction,
         "a host function has no attributes");
  cudaGetLastError();
  CHECK(cudaFuncGetAttributes(&fa, tiled));
  EXPECT(fa.preferredShmemCarveout == -1, "no carve-out preference until one is set");
  CHECK(cudaFuncSetCacheConfig(tiled, cudaFuncCachePreferShared));
  CHECK(cudaFuncGetAttributes(&fa, tiled));
  EXPECT(fa.preferredShmemCarveout == 100, "preferring shared memory prefers the largest carve-out");
  CHECK(cudaFuncSetAttribute(tiled, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  CHECK(cudaFuncGetAttributes(&fa, tiled));
  EXPECT(fa.preferredShmemCarveout == 50, "the carve-out preference is kept");
  EXPECT(cudaFuncSetAttribute(tiled, cudaFuncAttributePreferredSharedMemoryCarveout, 101) ==
             cudaErrorInvalidValue,
         "a carve-out of 101% is refused");
  cudaGetLastError();
  CHECK(cudaFuncSetAttribute(tiled, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutDefault));

  // Occupancy: the tightest of the per-SM limits the properties state, with the allocation
  // granularities of the CUDA Occupancy Calculator for the compute capability (registers per
  // warp in units, warps in groups, shared memory in units).
  const int regUnit = p.major < 7 ? 64 : 256, warpGroup = p.major < 7 ? 2 : 4;
  const int sharedUnit = p.major == 7 ? 256 : 128;
  auto roundUp = [](int v, int unit) { return (v + unit - 1) / unit * unit; };
  for (int block : {64, 256, 1024}) {
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiled, block, 0));
    int warps = (block + 31) / 32;
    int want = p.maxBlocksPerMultiProcessor;
    want = std::min(want, p.maxThreadsPerMultiProcessor / (warps * 32));
    want = std::min(want, p.regsPerMultiprocessor / (roundUp(fa.numRegs * 32, regUnit) * roundUp(warps, warpGroup)));
    want = std::min(want, static_cast<int>(p.sharedMemPerMultiprocessor / roundUp(fa.sharedSizeBytes, sharedUnit)));
    std::printf("occupancy at %d threads matches the limits: %s\n", block,
                blocks == want ? "yes" : "no");
    EXPECT(blocks == want && blocks >= 1, "occupancy");
  }
  int minGrid = 0, bestBlock = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, tiled, 0, 0));
  EXPECT(bestBlock > 0 && bestBlock <= fa.maxThreadsPerBlock &&
             minGrid >= p.multiProcessorCount,
         "cudaOccupancyMaxPotentialBlockSize");
  std::printf("PASS\n");
  return 0;
}
