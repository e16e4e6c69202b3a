// Warp-side address resolution: uniform address bases, per-lane translation into the memory
// of each state space with range and alignment checks, and fault-free reads for printf.
#include <fmt/format.h>

#include "func/address_space.h"
#include "func/cta.h"
#include "func/warp.h"

namespace warpsim::func {
namespace {

const char* spaceName(ir::Space s) {
  switch (s) {
    case ir::Space::Global: return "global";
    case ir::Space::Shared: return "shared";
    case ir::Space::Local: return "local";
    case ir::Space::Const: return "const";
    case ir::Space::KernelParam: return "kernel parameter";
    case ir::Space::FrameParam: return "parameter";
    case ir::Space::Generic: return "generic";
    case ir::Space::None: break;
  }
  return "unknown";
}

}  // namespace

uint64_t Warp::addrBase(const AddrDecode& a, bool generic) const {
  const uint64_t off = static_cast<uint64_t>(a.offset);
  switch (a.kind) {
    case AddrKind::Absolute: return off;
    case AddrKind::FrameLocal: return off + frames_.back().localBase + (generic ? kLocalWindow : 0);
    case AddrKind::FrameParam: return off;
    case AddrKind::KernelParam: return off + (generic ? kParamWindow : 0);
    case AddrKind::SharedSymbol:
      return off + grid_->layout->symbolOffset[a.symbol] + (generic ? kSharedWindow : 0);
  }
  return off;
}

uint8_t* Warp::resolve(ir::Space space, uint64_t& addr, unsigned bytes, unsigned lane, const char* what,
                       ir::Space* resolved) {
  const uint64_t original = addr;
  if (space == ir::Space::Generic) {
    space = genericSpace(addr);
    addr -= windowBase(space);
  }
  *resolved = space;
  if ((addr & (bytes - 1)) != 0) {
    fault(lane, fmt::format("misaligned {} {} of {} bytes at {:#x}", spaceName(space), what, bytes, original));
    return nullptr;
  }
  auto outOfRange = [&](const char* region, uint64_t size) {
    fault(lane, fmt::format("illegal {} {} of {} bytes at {}{:#x} (out of range: {} is {} bytes)", spaceName(space),
                            what, bytes, original == addr ? "offset " : "generic address ", original, region,
                            size));
    return nullptr;
  };
  switch (space) {
    case ir::Space::Global:
    case ir::Space::Const: {
      if (!grid_->memory->allocationOf(addr, bytes)) {
        fault(lane, fmt::format("illegal {} {} of {} bytes at {:#x} (unmapped)", spaceName(space), what, bytes, addr));
        return nullptr;
      }
      return grid_->memory->translate(addr);
    }
    case ir::Space::Shared:
      if (addr > cta_->sharedBytes() || bytes > cta_->sharedBytes() - addr)
        return outOfRange("the CTA's shared memory", cta_->sharedBytes());
      return cta_->shared() + addr;
    case ir::Space::Local:
      if (addr > grid_->localBytesPerThread || bytes > grid_->localBytesPerThread - addr)
        return outOfRange("per-thread local memory", grid_->localBytesPerThread);
      return localMemory(lane) + addr;
    case ir::Space::KernelParam: {
      const auto& p = grid_->config->params;
      if (what[0] != 'l') {
        fault(lane, fmt::format("illegal {} to kernel parameter space at offset {:#x} (read-only)", what, addr));
        return nullptr;
      }
      if (addr > p.size() || bytes > p.size() - addr) return outOfRange("the kernel argument buffer", p.size());
      return const_cast<uint8_t*>(p.data()) + addr;
    }
    case ir::Space::FrameParam:
      if (addr > fn_->frameParamBytes || bytes > fn_->frameParamBytes - addr)
        return outOfRange("the function's parameter area", fn_->frameParamBytes);
      return frameParams(lane) + addr;
    default:
      fault(lane, fmt::format("{} in unsupported state space", what));
      return nullptr;
  }
}

bool Warp::readGeneric(uint64_t addr, unsigned lane, void* dst, unsigned bytes) {
  // Byte-wise so that unaligned printf arguments and strings are fine; faults are not raised.
  auto* out = static_cast<uint8_t*>(dst);
  for (unsigned i = 0; i < bytes; ++i) {
    uint64_t a = addr + i;
    const ir::Space s = genericSpace(a);
    a -= windowBase(s);
    switch (s) {
      case ir::Space::Global:
        if (!grid_->memory->allocationOf(a, 1)) return false;
        out[i] = *grid_->memory->translate(a);
        break;
      case ir::Space::Shared:
        if (a >= cta_->sharedBytes()) return false;
        out[i] = cta_->shared()[a];
        break;
      case ir::Space::Local:
        if (a >= grid_->localBytesPerThread) return false;
        out[i] = localMemory(lane)[a];
        break;
      case ir::Space::KernelParam:
        if (a >= grid_->config->params.size()) return false;
        out[i] = grid_->config->params[a];
        break;
      default: return false;
    }
  }
  return true;
}

bool Warp::readGenericString(uint64_t addr, unsigned lane, std::string& out, size_t limit) {
  out.clear();
  for (size_t i = 0; i < limit; ++i) {
    char c;
    if (!readGeneric(addr + i, lane, &c, 1)) return false;
    if (c == '\0') return true;
    out.push_back(c);
  }
  return true;  // truncated at the limit
}

}  // namespace warpsim::func
