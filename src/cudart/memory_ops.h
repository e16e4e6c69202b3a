// Copies and fills, shared by the memory API (cudaMemcpy*, cudaMemset*) and by graph memcpy and
// memset nodes. Each runs at once with managed and mapped host memory mirrored around it
// (context.h). A pointer the device can reach is a device operand whatever the copy kind says
// (unified addressing): mapped host memory registered with cudaHostRegister is copied through
// its device mirror, so the mirror and the host copy stay consistent.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace warpsim::cudart {

class Context;

cudaError_t copyMemory(Context& cx, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t copyMemory2D(Context& cx, void* dst, size_t dpitch, const void* src, size_t spitch,
                         size_t width, size_t height, cudaMemcpyKind kind);
// A cudaMemcpy3DParms copy between pitched pointers ("" from checkCopy3D).
cudaError_t copyMemory3D(Context& cx, const cudaMemcpy3DParms& p);
// Why a cudaMemcpy3DParms cannot be used here ("" when it can): CUDA arrays are not simulated.
std::string checkCopy3D(const cudaMemcpy3DParms& p);
// The cudaMemcpy3DParms of a plain copy (what a captured cudaMemcpyAsync becomes).
cudaMemcpy3DParms copyParams1D(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaMemcpy3DParms copyParams2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                               size_t width, size_t height, cudaMemcpyKind kind);

cudaError_t fillMemory(Context& cx, void* dst, int value, size_t bytes);
// `height` rows of `width` elements of `elementSize` (1, 2 or 4) bytes, `pitch` bytes apart, set
// to the low elementSize bytes of `value` (cudaMemsetParams).
cudaError_t fillMemory2D(Context& cx, void* dst, size_t pitch, unsigned value,
                         unsigned elementSize, size_t width, size_t height);
// Why a cudaMemsetParams cannot be used ("" when it can).
std::string checkMemset(const cudaMemsetParams& p);

}  // namespace warpsim::cudart
