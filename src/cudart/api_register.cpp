// The registration calls nvcc's generated host code makes from static constructors, and the
// launch entry points.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "cudart/api_util.h"
#include "cudart/capture_rules.h"
#include "cudart/graph_params.h"

using namespace warpsim::cudart;

extern "C" {

void** __cudaRegisterFatBinary(void* fatCubin) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  return reinterpret_cast<void**>(cx.addFatbin(fatCubin));
}

void __cudaRegisterFatBinaryEnd(void** handle) {}

void __cudaUnregisterFatBinary(void** handle) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  cx.removeFatbin(reinterpret_cast<FatbinRecord*>(handle));
}

void __cudaRegisterFunction(void** handle, const char* hostFun, char* deviceFun,
                            const char* deviceName, int threadLimit, uint3* tid, uint3* bid,
                            dim3* bDim, dim3* gDim, int* wSize) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  cx.addKernel(reinterpret_cast<FatbinRecord*>(handle), hostFun, deviceName);
}

void __cudaRegisterVar(void** handle, char* hostVar, char* deviceAddress, const char* deviceName,
                       int ext, size_t size, int constant, int global) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  cx.addVar(reinterpret_cast<FatbinRecord*>(handle), hostVar, deviceName, size, nullptr);
}

void __cudaRegisterManagedVar(void** handle, void** hostVarPtrAddress, char* deviceAddress,
                              const char* deviceName, int ext, size_t size, int constant,
                              int global) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  cx.addVar(reinterpret_cast<FatbinRecord*>(handle), hostVarPtrAddress, deviceName, size,
            hostVarPtrAddress);
}

// Called before a __managed__ variable is first touched from the host: load the module so that
// the variable has its address.
char __cudaInitModule(void** handle) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  return cx.ensureLoaded(*reinterpret_cast<FatbinRecord*>(handle)) == cudaSuccess ? 1 : 0;
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st* stream) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  cx.callStack().push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                       void* stream) {
  Context& cx = Context::get();
  std::lock_guard<std::recursive_mutex> lock(cx.mutex());
  if (cx.callStack().empty()) return cx.setError(cudaErrorMissingConfiguration);
  CallConfig c = cx.callStack().back();
  cx.callStack().pop_back();
  *gridDim = c.grid;
  *blockDim = c.block;
  *sharedMem = c.sharedBytes;
  *static_cast<cudaStream_t*>(stream) = c.stream;
  return cudaSuccess;
}

// The kernel handle is the host stub itself: it identifies the registration.
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* hostFun) {
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(hostFun));
  return cudaSuccess;
}

}  // extern "C"

namespace {

// A launch through any entry point: `cooperative` for cudaLaunchCooperativeKernel and the
// cooperative launch attribute (all CTAs resident at once, so grid.sync() works).
cudaError_t launchKernel(const char* call, const void* func, dim3 gridDim, dim3 blockDim,
                         void** args, size_t sharedMem, cudaStream_t stream, bool cooperative) {
  return apiCallKeepingBatch(call, cudaErrorLaunchFailure, [&](Context& cx) {
    StreamRecord* capturing = nullptr;  // a capturing stream records a kernel node instead
    if (cudaError_t e = routeWork(cx, call, stream, capturing); e != cudaSuccess) {
      return e;
    }
    if (cx.stickyError() != cudaSuccess) return cx.stickyError();
    if (capturing != nullptr) {
      if (cooperative) {  // graph kernel nodes carry no cooperative attribute here
        capturing->capture->invalidated = true;
        return cx.fail(call, cudaErrorStreamCaptureUnsupported,
                       "capturing a cooperative launch is not supported by warpsim");
      }
      Work w;
      cudaError_t e = makeKernelWork(cx, call, func, gridDim, blockDim, sharedMem,
                                     args, nullptr, w);
      if (e != cudaSuccess) {  // the reason is printed; an invalid operation ends the capture
        capturing->capture->invalidated = true;
        return e;
      }
      cx.captures().record(*capturing, cudaGraphNodeTypeKernel, std::move(w));
      return cudaSuccess;
    }
    KernelRecord* k = nullptr;
    if (cudaError_t e = cx.kernelFor(call, func, k); e != cudaSuccess) return e;
    return cx.launch(*k, gridDim, blockDim, args, sharedMem, cooperative, cx.stream(stream));
  });
}

}  // namespace

extern "C" {

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                             size_t sharedMem, cudaStream_t stream) {
  return launchKernel("cudaLaunchKernel", func, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                        size_t sharedMem, cudaStream_t stream) {
  return launchKernel("cudaLaunchCooperativeKernel", func, gridDim, blockDim, args, sharedMem,
                      stream, true);
}

// Extensible launch: attributes that are scheduling hints are accepted, cooperative launches
// run as cudaLaunchCooperativeKernel; thread-block clusters are not simulated.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr) return Context::get().setError(cudaErrorInvalidValue);
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    if (a.id == cudaLaunchAttributeCooperative) cooperative = a.val.cooperative != 0;
    if (a.id == cudaLaunchAttributeClusterDimension &&
        a.val.clusterDim.x * a.val.clusterDim.y * a.val.clusterDim.z > 1) {
      Context& cx = Context::get();
      std::lock_guard<std::recursive_mutex> lock(cx.mutex());
      return cx.fail("cudaLaunchKernelExC", cudaErrorNotSupported,
                     "thread-block clusters are not supported by warpsim");
    }
  }
  return launchKernel(cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel", func,
                      config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                      config->stream, cooperative);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                               size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args,
                          sharedMem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                    size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args,
                          sharedMem, stream);
}

}  // extern "C"

WARPSIM_SAME_FUNCTION(cudaLaunchKernel, cudaLaunchKernel_ptsz)
WARPSIM_SAME_FUNCTION(cudaLaunchKernelExC, cudaLaunchKernelExC_ptsz)
WARPSIM_SAME_FUNCTION(cudaLaunchCooperativeKernel, cudaLaunchCooperativeKernel_ptsz)
