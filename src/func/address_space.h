// Generic addressing: where the shared, local and kernel-parameter windows sit in the generic
// address space. Everything outside the windows is global (device memory, constant memory
// included: .const data lives in DeviceMemory, so a const address is a global address).
//
//   generic address                          space        offset in the space
//   [kLocalWindow,  kLocalWindow  + 4 GiB)    local        addr - kLocalWindow  (per thread)
//   [kSharedWindow, kSharedWindow + 4 GiB)    shared       addr - kSharedWindow (per CTA)
//   [kParamWindow,  kParamWindow  + 4 GiB)    kernel param addr - kParamWindow  (read-only)
//   anything else                             global       addr
//
// The windows lie far below DeviceMemory::kBaseAddress, so no device allocation overlaps them,
// and a null pointer is a global address that no allocation contains.
//
// Address width: shared, local and parameter addresses are 32 bits wide. PTX zero-extends an
// address to the width of its state space and truncates a wider register ("Addresses as
// Operands" in the PTX ISA), so the address of an access in one of those spaces is computed
// modulo 2^32: nvcc relies on it, keeping shared pointers in 32-bit registers that may hold
// `base - 60` and then reading [reg+64] (= base + 4). Global and const addresses (const data
// lives in device memory here) and generic addresses are 64 bits wide.
#pragma once
#include <cstdint>

#include "ir/types.h"

namespace warpsim::func {

inline constexpr uint64_t kWindowSize = uint64_t{1} << 32;
inline constexpr uint64_t kLocalWindow = 0x0000'0100'0000'0000ull;
inline constexpr uint64_t kSharedWindow = 0x0000'0200'0000'0000ull;
inline constexpr uint64_t kParamWindow = 0x0000'0300'0000'0000ull;

// The space a generic address falls in (Local, Shared, KernelParam or Global).
constexpr ir::Space genericSpace(uint64_t addr) {
  if (addr - kLocalWindow < kWindowSize) return ir::Space::Local;
  if (addr - kSharedWindow < kWindowSize) return ir::Space::Shared;
  if (addr - kParamWindow < kWindowSize) return ir::Space::KernelParam;
  return ir::Space::Global;
}

// The mask an address in `space` is reduced by: 2^32 - 1 for the 32-bit spaces (shared, local,
// kernel and function parameters), all ones for global, const and generic addresses.
constexpr uint64_t addressMask(ir::Space space) {
  switch (space) {
    case ir::Space::Shared:
    case ir::Space::Local:
    case ir::Space::KernelParam:
    case ir::Space::FrameParam: return kWindowSize - 1;
    default: return ~uint64_t{0};
  }
}

// The base of the window of `space` (0 for global and const, whose addresses are generic already).
constexpr uint64_t windowBase(ir::Space space) {
  switch (space) {
    case ir::Space::Local: return kLocalWindow;
    case ir::Space::Shared: return kSharedWindow;
    case ir::Space::KernelParam: return kParamWindow;
    default: return 0;
  }
}

}  // namespace warpsim::func
