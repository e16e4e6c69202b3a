// Warp-side address resolution: uniform address bases (32-bit spaces wrapping modulo 2^32),
// per-lane translation into the memory of each state space with range and alignment checks, the
// memory checks of device accesses (func/memory_findings.h), and fault-free reads for printf.
#include <fmt/format.h>

#include "func/address_space.h"
#include "func/cta.h"
#include "func/memory_findings.h"
#include "func/speculative_memory.h"
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

// The in-space part of a 32-bit space's address wraps modulo 2^32 (func/address_space.h); the
// window base is added after, for generic addresses.
inline uint64_t inWindow(uint64_t offset, uint64_t window, bool generic) {
  offset &= kWindowSize - 1;
  return generic ? window + offset : offset;
}

// Device memory (global and const): inside an allocation as usual; outside every allocation but
// in mapped memory as a GPU does it (reported, or a fault under memcheck); outside mapped memory a
// fault. Initialisation is checked here too: with initcheck on, every device access comes here.
uint8_t* resolveDevice(Warp& w, ir::Space space, uint64_t addr, unsigned bytes, unsigned lane, const char* what,
                       uint32_t accesses) {
  DeviceMemory& mem = *w.grid().memory;
  const RunOptions& o = *w.grid().options;
  auto access = [&] { return fmt::format("{} {} of {} bytes at {:#x}", spaceName(space), what, bytes, addr); };
  if (!mem.allocationOf(addr, bytes)) {
    if (!mem.isBacked(addr, bytes)) {
      w.fault(lane, fmt::format("illegal {} (unmapped)", access()));
      return nullptr;
    }
    if (o.memcheck) {
      w.fault(lane, fmt::format("illegal {} (outside every allocation: {})", access(),
                              describeAddress(mem.layout(), addr, bytes)));
      return nullptr;
    }
    if (o.findings)
      o.findings->outsideAllocations.note(accesses, [&] {
        return fmt::format("{}: {}, {}", w.location(lane), access(), describeAddress(mem.layout(), addr, bytes));
      });
  }
  if (o.initcheck && o.findings) {
    // Loads and atomics read first; stores and atomics leave the bytes written.
    if (what[0] != 's' && !mem.isWritten(addr, bytes))
      o.findings->uninitialisedReads.note(accesses, [&] {
        return fmt::format("{}: {}, {}", w.location(lane), access(), describeAddress(mem.layout(), addr, bytes));
      });
    if (what[0] != 'l') mem.markWritten(addr, bytes);
  }
  if (SpeculativeMemory* view = w.grid().speculation) {
    // Loads read, stores write, atomics ("atomic") do both.
    const auto kind = what[0] == 'l'   ? SpeculativeMemory::Access::Read
                      : what[0] == 's' ? SpeculativeMemory::Access::Write
                                       : SpeculativeMemory::Access::ReadWrite;
    return view->access(addr, bytes, kind);
  }
  return mem.translate(addr);
}

}  // namespace

uint64_t Warp::addrBase(const AddrDecode& a, bool generic) const {
  const uint64_t off = static_cast<uint64_t>(a.offset);
  switch (a.kind) {
    case AddrKind::Absolute: return off;
    case AddrKind::FrameLocal: return inWindow(off + frames_.back().localBase, kLocalWindow, generic);
    case AddrKind::FrameParam: return inWindow(off, 0, false);
    case AddrKind::KernelParam: return inWindow(off, kParamWindow, generic);
    case AddrKind::SharedSymbol:
      return inWindow(off + grid_->layout->symbolOffset[a.symbol], kSharedWindow, generic);
  }
  return off;
}

uint8_t* Warp::resolve(ir::Space space, uint64_t& addr, unsigned bytes, unsigned lane, const char* what,
                       ir::Space* resolved, uint32_t accesses) {
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
    case ir::Space::Const: return resolveDevice(*this, space, addr, bytes, lane, what, accesses);
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
        if (!grid_->memory->isBacked(a, 1)) return false;
        out[i] = grid_->speculation ? *grid_->speculation->access(a, 1, SpeculativeMemory::Access::Read)
                                    : *grid_->memory->translate(a);
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
