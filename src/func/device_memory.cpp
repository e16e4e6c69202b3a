#include "func/device_memory.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace warpsim::func {

DeviceMemory::DeviceMemory(uint64_t capacityBytes) : capacity_(capacityBytes) {}

uint64_t DeviceMemory::allocate(uint64_t bytes, uint64_t align) {
  if (align == 0 || (align & (align - 1)) != 0)
    throw std::invalid_argument(fmt::format("device allocation alignment {} is not a power of two", align));
  align = std::max<uint64_t>(align, 256);
  bytes = std::max<uint64_t>(bytes, 1);
  const uint64_t rounded = (bytes + 255) & ~uint64_t{255};
  if (rounded < bytes || used_ + rounded > capacity_ || used_ + rounded < used_) return 0;
  const uint64_t base = (next_ + align - 1) & ~(align - 1);
  next_ = base + rounded;
  used_ += rounded;
  lastAlloc_ = nullptr;  // the vector may reallocate
  allocs_.push_back({base, bytes});  // bases only grow: the vector stays sorted
  return base;
}

bool DeviceMemory::release(uint64_t addr) {
  auto it = std::lower_bound(allocs_.begin(), allocs_.end(), addr,
                             [](const Allocation& a, uint64_t x) { return a.base < x; });
  if (it == allocs_.end() || it->base != addr) return false;
  Allocation gone = *it;
  allocs_.erase(it);
  lastAlloc_ = nullptr;
  used_ -= (gone.size + 255) & ~uint64_t{255};
  dropPagesOf(gone);
  return true;
}

// Frees the pages of a released allocation that no live allocation still touches.
void DeviceMemory::dropPagesOf(const Allocation& a) {
  const uint64_t first = a.base >> kPageBits, last = (a.base + a.size - 1) >> kPageBits;
  for (uint64_t p = first; p <= last; ++p) {
    const uint64_t lo = p << kPageBits, hi = lo + kPageSize;
    auto it = std::lower_bound(allocs_.begin(), allocs_.end(), hi,
                               [](const Allocation& x, uint64_t v) { return x.base < v; });
    bool shared = false;
    if (it != allocs_.begin()) {
      const Allocation& prev = *std::prev(it);
      shared = prev.base + prev.size > lo;  // the nearest allocation below `hi` reaches the page
    }
    if (shared) continue;
    pages_.erase(p);
    PageSlot& slot = pageCache_[p & (kPageCacheSize - 1)];
    if (slot.tag == p) slot = PageSlot{};
  }
}

const DeviceMemory::Allocation* DeviceMemory::allocationOfSlow(uint64_t addr, uint64_t n) const {
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t x, const Allocation& a) { return x < a.base; });
  if (it == allocs_.begin()) return nullptr;
  const Allocation& a = *std::prev(it);
  if (!a.contains(addr, n)) return nullptr;
  lastAlloc_ = &a;
  return &a;
}

bool DeviceMemory::isMapped(uint64_t addr, uint64_t bytes) const {
  return allocationOf(addr, bytes) != nullptr;
}

uint8_t* DeviceMemory::translateSlow(uint64_t addr) {
  const uint64_t page = addr >> kPageBits;
  auto& slotData = pages_[page];
  if (!slotData) {
    slotData = std::make_unique<uint8_t[]>(kPageSize);  // value-initialised: zeros
  }
  PageSlot& slot = pageCache_[page & (kPageCacheSize - 1)];
  slot.tag = page;
  slot.data = slotData.get();
  return slot.data + (addr & (kPageSize - 1));
}

const uint8_t* DeviceMemory::findPage(uint64_t page) const {
  const PageSlot& slot = pageCache_[page & (kPageCacheSize - 1)];
  if (slot.tag == page) return slot.data;
  auto it = pages_.find(page);
  return it == pages_.end() ? nullptr : it->second.get();
}

void DeviceMemory::checkHostRange(uint64_t addr, uint64_t n, const char* what) const {
  if (!allocationOf(addr, n))
    throw MemoryError(fmt::format("{} of {} bytes at device address {:#x}: not inside a live allocation",
                                  what, n, addr));
}

void DeviceMemory::write(uint64_t addr, const void* src, uint64_t n) {
  if (n == 0) return;
  checkHostRange(addr, n, "write");
  const auto* s = static_cast<const uint8_t*>(src);
  while (n > 0) {
    const uint64_t chunk = std::min<uint64_t>(n, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(translate(addr), s, chunk);
    addr += chunk;
    s += chunk;
    n -= chunk;
  }
}

void DeviceMemory::read(uint64_t addr, void* dst, uint64_t n) const {
  if (n == 0) return;
  checkHostRange(addr, n, "read");
  auto* d = static_cast<uint8_t*>(dst);
  while (n > 0) {
    const uint64_t chunk = std::min<uint64_t>(n, kPageSize - (addr & (kPageSize - 1)));
    const uint8_t* page = findPage(addr >> kPageBits);
    if (page) std::memcpy(d, page + (addr & (kPageSize - 1)), chunk);
    else std::memset(d, 0, chunk);
    addr += chunk;
    d += chunk;
    n -= chunk;
  }
}

void DeviceMemory::fill(uint64_t addr, uint8_t value, uint64_t n) {
  if (n == 0) return;
  checkHostRange(addr, n, "fill");
  while (n > 0) {
    const uint64_t chunk = std::min<uint64_t>(n, kPageSize - (addr & (kPageSize - 1)));
    std::memset(translate(addr), value, chunk);
    addr += chunk;
    n -= chunk;
  }
}

}  // namespace warpsim::func
