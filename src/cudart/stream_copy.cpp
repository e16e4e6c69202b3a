#include "cudart/stream_copy.h"

#include "cudart/capture_rules.h"
#include "cudart/context.h"
#include "cudart/memory_ops.h"

namespace warpsim::cudart {

cudaError_t copyOnStream(Context& cx, const char* call, cudaStream_t stream,
                         const cudaMemcpy3DParms& p) {
  StreamRecord* capturing = nullptr;
  if (cudaError_t e = routeWork(cx, call, stream, capturing); e != cudaSuccess) return e;
  if (capturing == nullptr) return copyMemory3D(cx, p);
  if (std::string why = checkCopy3D(p); !why.empty()) {
    return invalidate(cx, call, cudaErrorInvalidValue, {capturing->capture}, why);
  }
  cx.captures().record(*capturing, cudaGraphNodeTypeMemcpy, CopyWork{p});
  return cudaSuccess;
}

cudaError_t fillOnStream(Context& cx, const char* call, cudaStream_t stream,
                         const cudaMemsetParams& p) {
  StreamRecord* capturing = nullptr;
  if (cudaError_t e = routeWork(cx, call, stream, capturing); e != cudaSuccess) return e;
  if (capturing == nullptr) {
    return fillMemory2D(cx, p.dst, p.pitch, p.value, p.elementSize, p.width, p.height);
  }
  if (std::string why = checkMemset(p); !why.empty()) {
    return invalidate(cx, call, cudaErrorInvalidValue, {capturing->capture}, why);
  }
  cx.captures().record(*capturing, cudaGraphNodeTypeMemset, MemsetWork{p});
  return cudaSuccess;
}

}  // namespace warpsim::cudart
