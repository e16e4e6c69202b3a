#include "cudart/memory_ops.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "cudart/api_util.h"
#include "cudart/host_mappings.h"
#include "func/device_memory.h"

namespace warpsim::cudart {

namespace {

// One operand of a copy: where it is and whether the device holds it.
struct Operand {
  uint64_t address;
  bool device;
};

Operand resolve(Context& cx, const void* p, bool declaredDevice) {
  uint64_t mirror = cx.hostMappings().mirrorOf(p);
  if (mirror != 0) return {mirror, true};
  uint64_t a = address(p);
  return {a, declaredDevice || cx.device().memory().isMapped(a, 1)};
}

bool validKind(cudaMemcpyKind kind) {
  return kind == cudaMemcpyHostToHost || kind == cudaMemcpyHostToDevice ||
         kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ||
         kind == cudaMemcpyDefault;
}

// Rows of `width` bytes; the caller has mirrored managed memory.
void copyRows(Context& cx, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
              size_t height, cudaMemcpyKind kind) {
  bool dstDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool srcDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  runtime::Device& d = cx.device();
  for (size_t row = 0; row < height; ++row) {
    Operand to = resolve(cx, static_cast<char*>(dst) + row * dpitch, dstDevice);
    Operand from = resolve(cx, static_cast<const char*>(src) + row * spitch, srcDevice);
    if (to.device && from.device) d.memcpyDtoD(to.address, from.address, width);
    else if (to.device) d.memcpyHtoD(to.address, reinterpret_cast<const void*>(from.address), width);
    else if (from.device) d.memcpyDtoH(reinterpret_cast<void*>(to.address), from.address, width);
    else std::memmove(reinterpret_cast<void*>(to.address), reinterpret_cast<const void*>(from.address), width);
  }
}

}  // namespace

cudaError_t copyMemory2D(Context& cx, void* dst, size_t dpitch, const void* src, size_t spitch,
                         size_t width, size_t height, cudaMemcpyKind kind) {
  if (width == 0 || height == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  if (!validKind(kind)) return cudaErrorInvalidMemcpyDirection;
  if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
  cx.pushManaged();
  copyRows(cx, dst, dpitch, src, spitch, width, height, kind);
  cx.pullManaged();
  return cudaSuccess;
}

cudaError_t copyMemory(Context& cx, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return copyMemory2D(cx, dst, bytes, src, bytes, bytes, 1, kind);
}

std::string checkCopy3D(const cudaMemcpy3DParms& p) {
  if (p.srcArray != nullptr || p.dstArray != nullptr) {
    return "copies with CUDA arrays are not supported by warpsim";
  }
  if (p.srcPtr.ptr == nullptr || p.dstPtr.ptr == nullptr) return "a pointer is NULL";
  if (!validKind(p.kind)) return fmt::format("{} is not a cudaMemcpyKind", static_cast<int>(p.kind));
  const cudaExtent& e = p.extent;
  bool rows = e.height > 1 || e.depth > 1;
  if (rows && (p.srcPos.x + e.width > p.srcPtr.pitch || p.dstPos.x + e.width > p.dstPtr.pitch)) {
    return "the copy's width exceeds a pitch";
  }
  return "";
}

cudaError_t copyMemory3D(Context& cx, const cudaMemcpy3DParms& p) {
  const cudaExtent& e = p.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
  // Row (y, z) of a pitched operand starts at ptr + ((pos.z + z) * ysize + pos.y + y) * pitch +
  // pos.x; ysize is the rows per slice (at least the extent's height for one slice).
  auto slice = [&](const cudaPitchedPtr& ptr) {
    return ptr.ysize != 0 ? ptr.ysize : e.height;
  };
  cx.pushManaged();
  for (size_t z = 0; z < e.depth; ++z) {
    char* dst = static_cast<char*>(p.dstPtr.ptr) +
                ((p.dstPos.z + z) * slice(p.dstPtr) + p.dstPos.y) * p.dstPtr.pitch + p.dstPos.x;
    const char* src = static_cast<const char*>(p.srcPtr.ptr) +
                      ((p.srcPos.z + z) * slice(p.srcPtr) + p.srcPos.y) * p.srcPtr.pitch +
                      p.srcPos.x;
    copyRows(cx, dst, p.dstPtr.pitch, src, p.srcPtr.pitch, e.width, e.height, p.kind);
  }
  cx.pullManaged();
  return cudaSuccess;
}

cudaMemcpy3DParms copyParams2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                               size_t width, size_t height, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{const_cast<void*>(src), spitch, width, height};
  p.dstPtr = cudaPitchedPtr{dst, dpitch, width, height};
  p.extent = cudaExtent{width, height, 1};
  p.kind = kind;
  return p;
}

cudaMemcpy3DParms copyParams1D(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return copyParams2D(dst, bytes, src, bytes, bytes, 1, kind);
}

cudaError_t fillMemory2D(Context& cx, void* dst, size_t pitch, unsigned value,
                         unsigned elementSize, size_t width, size_t height) {
  if (width == 0 || height == 0) return cudaSuccess;
  if (dst == nullptr) return cudaErrorInvalidValue;
  const size_t rowBytes = width * elementSize;
  if (height > 1 && rowBytes > pitch) return cudaErrorInvalidPitchValue;
  runtime::Device& d = cx.device();
  std::vector<uint8_t> pattern;
  if (elementSize != 1) {  // a row of the element repeated, written as a copy
    pattern.resize(rowBytes);
    for (size_t i = 0; i < rowBytes; i += elementSize) std::memcpy(&pattern[i], &value, elementSize);
  }
  cx.pushManaged();
  for (size_t row = 0; row < height; ++row) {
    Operand to = resolve(cx, static_cast<char*>(dst) + row * pitch, true);
    if (elementSize == 1) d.memset(to.address, static_cast<uint8_t>(value), rowBytes);
    else d.memcpyHtoD(to.address, pattern.data(), rowBytes);
  }
  cx.pullManaged();
  return cudaSuccess;
}

cudaError_t fillMemory(Context& cx, void* dst, int value, size_t bytes) {
  return fillMemory2D(cx, dst, bytes, static_cast<unsigned>(value), 1, bytes, 1);
}

std::string checkMemset(const cudaMemsetParams& p) {
  if (p.dst == nullptr) return "dst is NULL";
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) {
    return fmt::format("elementSize {} is not 1, 2 or 4", p.elementSize);
  }
  if (p.height > 1 && p.width * p.elementSize > p.pitch) return "the row exceeds the pitch";
  return "";
}

}  // namespace warpsim::cudart
