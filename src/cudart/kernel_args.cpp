#include "cudart/kernel_args.h"

#include <fmt/format.h>

#include <cstring>

#include "cudart/context.h"
#include "ir/module.h"

namespace warpsim::cudart {

namespace {
// The `extra` list's tokens (cuda.h's CU_LAUNCH_PARAM_*), compared as integers.
constexpr uintptr_t kParamEnd = 0x00;
constexpr uintptr_t kParamBufferPointer = 0x01;
constexpr uintptr_t kParamBufferSize = 0x02;
}  // namespace

KernelWork& KernelWork::operator=(const KernelWork& other) {
  if (this == &other) return *this;
  func = other.func;
  kernel = other.kernel;
  grid = other.grid;
  block = other.block;
  sharedBytes = other.sharedBytes;
  bytes_ = other.bytes_;
  offsets_ = other.offsets_;
  viaExtra_ = other.viaExtra_;
  extraSize_ = other.extraSize_;
  refreshViews();
  return *this;
}

KernelWork& KernelWork::operator=(KernelWork&& other) {
  if (this == &other) return *this;
  func = other.func;
  kernel = other.kernel;
  grid = other.grid;
  block = other.block;
  sharedBytes = other.sharedBytes;
  bytes_ = std::move(other.bytes_);
  offsets_ = std::move(other.offsets_);
  viaExtra_ = other.viaExtra_;
  extraSize_ = other.extraSize_;
  refreshViews();  // the extra form points at extraSize_, which has moved
  return *this;
}

std::string KernelWork::setArguments(const KernelRecord& k, void** kernelParams, void** extra) {
  if (kernelParams != nullptr && extra != nullptr) {
    return "both kernelParams and extra are set";
  }
  const ir::Function& fn = k.kernel->function();
  std::vector<uint8_t> bytes(fn.kernelParamBytes, 0);
  std::vector<uint32_t> offsets;
  offsets.reserve(fn.params.size());
  for (const ir::Param& p : fn.params) offsets.push_back(p.offset);
  if (extra != nullptr) {
    const void* buffer = nullptr;
    const size_t* size = nullptr;
    for (size_t i = 0;; i += 2) {
      uintptr_t token = reinterpret_cast<uintptr_t>(extra[i]);
      if (token == kParamEnd) break;
      if (token == kParamBufferPointer) buffer = extra[i + 1];
      else if (token == kParamBufferSize) size = static_cast<const size_t*>(extra[i + 1]);
      else return fmt::format("extra[{}] is not a CU_LAUNCH_PARAM_* token", i);
    }
    if (buffer == nullptr || size == nullptr) {
      return "extra names no CU_LAUNCH_PARAM_BUFFER_POINTER and _BUFFER_SIZE";
    }
    if (*size < fn.kernelParamBytes) {
      return fmt::format("kernel '{}' takes {} bytes of arguments; the extra buffer has {}",
                         k.name, fn.kernelParamBytes, *size);
    }
    std::memcpy(bytes.data(), buffer, fn.kernelParamBytes);
  } else {
    for (size_t i = 0; i < fn.params.size(); ++i) {
      if (kernelParams == nullptr || kernelParams[i] == nullptr) {
        return fmt::format("kernel '{}': argument {} is missing", k.name, i);
      }
      std::memcpy(bytes.data() + fn.params[i].offset, kernelParams[i], fn.params[i].size);
    }
  }
  bytes_ = std::move(bytes);
  offsets_ = std::move(offsets);
  viaExtra_ = extra != nullptr;
  extraSize_ = bytes_.size();
  refreshViews();
  return "";
}

void KernelWork::refreshViews() {
  pointers_.clear();
  for (uint32_t o : offsets_) pointers_.push_back(bytes_.data() + o);
  extra_.clear();
  if (viaExtra_) {
    extra_ = {reinterpret_cast<void*>(kParamBufferPointer), bytes_.data(),
              reinterpret_cast<void*>(kParamBufferSize), &extraSize_,
              reinterpret_cast<void*>(kParamEnd)};
  }
}

}  // namespace warpsim::cudart
