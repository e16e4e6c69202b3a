#include "func/memory_findings.h"

#include <fmt/format.h>

#include "func/allocation_layout.h"

namespace warpsim::func {

std::string describeAddress(const AllocationLayout& layout, uint64_t addr, unsigned bytes) {
  const AllocationLayout::Allocation *below = nullptr, *above = nullptr;
  layout.neighbours(addr, &below, &above);
  if (!below && !above) return "no live allocation";
  if (below && addr - below->base < below->size) {
    if (below->contains(addr, bytes))
      return fmt::format("{} bytes into the allocation at {:#x} of {} bytes", addr - below->base, below->base,
                         below->size);
    return fmt::format("straddling the end of the allocation at {:#x} of {} bytes", below->base, below->size);
  }
  const uint64_t after = below ? addr - (below->base + below->size) : ~uint64_t{0};
  const uint64_t before = above ? above->base - addr : ~uint64_t{0};
  if (after <= before)
    return fmt::format("{} bytes after the end of the allocation at {:#x} of {} bytes", after, below->base,
                       below->size);
  return fmt::format("{} bytes before the allocation at {:#x} of {} bytes", before, above->base, above->size);
}

std::string outsideAllocationsLine(const MemoryFinding& f) {
  if (f.count == 0) return {};
  return fmt::format(
      "warpsim: warning: {} device memory access{} outside every allocation (a GPU lets them through inside its "
      "mapped pages; --memcheck or WARPSIM_MEMCHECK=1 makes each an error); the first: {}",
      f.count, f.count == 1 ? "" : "es", f.first);
}

std::string uninitialisedReadsLine(const MemoryFinding& f) {
  if (f.count == 0) return {};
  return fmt::format("warpsim: error: initcheck: {} read{} of uninitialised device memory; the first: {}", f.count,
                     f.count == 1 ? "" : "s", f.first);
}

}  // namespace warpsim::func
