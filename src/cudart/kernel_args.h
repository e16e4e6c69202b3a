// A kernel launch kept for later: its configuration and its own copy of the arguments, packed at
// the offsets of the kernel's .param list. Kernel graph nodes copy the arguments when they are
// set, as CUDA does, so a program may reuse its argument variables at once; the node hands back
// pointers into its copy (kernelParams) or, when it was given the packed `extra` form, that form.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::cudart {

struct KernelRecord;

class KernelWork {
 public:
  const void* func = nullptr;      // the handle the program gave (host stub or cudaKernel_t)
  KernelRecord* kernel = nullptr;  // resolved
  dim3 grid, block;
  unsigned sharedBytes = 0;

  KernelWork() = default;
  KernelWork(const KernelWork& other) { *this = other; }
  KernelWork& operator=(const KernelWork& other);
  KernelWork(KernelWork&& other) { *this = std::move(other); }
  KernelWork& operator=(KernelWork&& other);

  // Copies the arguments of `kernel` from one of the two forms cudaKernelNodeParams allows
  // (exactly one non-null): an array of pointers, one per parameter, or an `extra` list naming a
  // packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END). Returns "" or why not.
  std::string setArguments(const KernelRecord& kernel, void** kernelParams, void** extra);

  // The form the arguments were last given in, pointing into this copy (the other is nullptr).
  void** kernelParams() { return viaExtra_ ? nullptr : pointers_.data(); }
  void** extra() { return viaExtra_ ? extra_.data() : nullptr; }
  // One pointer per parameter, whichever form was given (what a launch reads).
  void** argumentPointers() { return pointers_.data(); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  void refreshViews();

  std::vector<uint8_t> bytes_;     // the packed argument buffer
  std::vector<uint32_t> offsets_;  // each parameter's offset in bytes_
  bool viaExtra_ = false;
  size_t extraSize_ = 0;
  std::vector<void*> pointers_;
  std::vector<void*> extra_;
};

}  // namespace warpsim::cudart
