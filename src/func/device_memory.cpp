#include "func/device_memory.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace warpsim::func {
namespace {

// Bits [from, from + n) of a word, n in 1..64.
uint64_t bitRange(unsigned from, unsigned n) { return (n == 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1)) << from; }

}  // namespace

DeviceMemory::DeviceMemory(uint64_t capacityBytes) : capacity_(capacityBytes), layout_(kBaseAddress) {}

uint64_t DeviceMemory::allocate(uint64_t bytes, uint64_t align) {
  if (align == 0 || (align & (align - 1)) != 0)
    throw std::invalid_argument(fmt::format("device allocation alignment {} is not a power of two", align));
  const uint64_t rounded = (std::max<uint64_t>(bytes, 1) + 255) & ~uint64_t{255};
  if (rounded < bytes || used_ + rounded > capacity_ || used_ + rounded < used_) return 0;
  AllocationLayout::Chunk closed;
  const uint64_t base = layout_.place(bytes, align, &closed);
  used_ += rounded;
  lastAlloc_ = nullptr;  // the allocation vector may have moved
  if (closed.end != 0) dropPages(closed);
  return base;
}

bool DeviceMemory::release(uint64_t addr) {
  Allocation gone;
  AllocationLayout::Chunk unmapped;
  if (!layout_.remove(addr, &gone, &unmapped)) return false;
  lastAlloc_ = nullptr;
  used_ -= (gone.size + 255) & ~uint64_t{255};
  if (unmapped.end != 0) dropPages(unmapped);
  return true;
}

bool DeviceMemory::relocate(uint64_t base) { return layout_.relocate(base); }

// Frees the pages of an unmapped chunk (chunks are page-aligned, so no other chunk uses them).
void DeviceMemory::dropPages(const AllocationLayout::Chunk& c) {
  for (uint64_t p = c.start >> kPageBits; p < c.end >> kPageBits; ++p) {
    if (pages_.erase(p) == 0) continue;
    PageSlot& slot = pageCache_[p & (kPageCacheSize - 1)];
    if (slot.tag == p) slot = PageSlot{};
  }
}

const DeviceMemory::Allocation* DeviceMemory::allocationOfSlow(uint64_t addr, uint64_t n) const {
  const Allocation* a = layout_.allocationOf(addr, n);
  if (a) lastAlloc_.store(a, std::memory_order_relaxed);
  return a;
}

bool DeviceMemory::isMapped(uint64_t addr, uint64_t bytes) const { return allocationOf(addr, bytes) != nullptr; }

DeviceMemory::PageSlot& DeviceMemory::slotOf(uint64_t addr) {
  const uint64_t page = addr >> kPageBits;
  PageSlot& slot = pageCache_[page & (kPageCacheSize - 1)];
  if (slot.tag == page) return slot;
  Page& p = pages_[page];
  if (!p.data) {
    p.data = std::make_unique<uint8_t[]>(kPageSize);  // value-initialised: zeros
    if (tracking_) p.written = std::make_unique<uint64_t[]>(kShadowWords);  // nothing written yet
  }
  slot.tag = page;
  slot.data = p.data.get();
  slot.written = p.written.get();
  return slot;
}

uint8_t* DeviceMemory::translateSlow(uint64_t addr) { return slotOf(addr).data + (addr & (kPageSize - 1)); }

const uint8_t* DeviceMemory::existingPage(uint64_t page) const {
  const PageSlot& slot = pageCache_[page & (kPageCacheSize - 1)];
  if (slot.tag == page) return slot.data;
  auto it = pages_.find(page);
  return it == pages_.end() ? nullptr : it->second.data.get();
}

void DeviceMemory::trackInitialisation() {
  if (tracking_) return;
  tracking_ = true;
  for (auto& [number, page] : pages_) {
    page.written = std::make_unique<uint64_t[]>(kShadowWords);
    std::fill_n(page.written.get(), kShadowWords, ~uint64_t{0});  // contents from before: written
  }
  pageCache_.fill(PageSlot{});  // the slots hold no shadow pointers yet
}

void DeviceMemory::markWritten(uint64_t addr, uint64_t n) {
  if (!tracking_) return;
  while (n > 0) {
    const uint64_t off = addr & (kPageSize - 1);
    const uint64_t chunk = std::min<uint64_t>(n, kPageSize - off);
    uint64_t* bits = slotOf(addr).written;
    for (uint64_t b = off; b < off + chunk;) {
      const unsigned from = static_cast<unsigned>(b & 63);
      const unsigned len = static_cast<unsigned>(std::min<uint64_t>(64 - from, off + chunk - b));
      bits[b >> 6] |= bitRange(from, len);
      b += len;
    }
    addr += chunk;
    n -= chunk;
  }
}

bool DeviceMemory::isWritten(uint64_t addr, unsigned n) {
  if (!tracking_) return true;
  const uint64_t off = addr & (kPageSize - 1);
  const uint64_t* bits = slotOf(addr).written;
  for (uint64_t b = off; b < off + n;) {
    const unsigned from = static_cast<unsigned>(b & 63);
    const unsigned len = static_cast<unsigned>(std::min<uint64_t>(64 - from, off + n - b));
    const uint64_t want = bitRange(from, len);
    if ((bits[b >> 6] & want) != want) return false;
    b += len;
  }
  return true;
}

void DeviceMemory::checkHostRange(uint64_t addr, uint64_t n, const char* what) const {
  if (!allocationOf(addr, n))
    throw MemoryError(fmt::format("{} of {} bytes at device address {:#x}: not inside a live allocation",
                                  what, n, addr));
}

void DeviceMemory::write(uint64_t addr, const void* src, uint64_t n) {
  if (n == 0) return;
  checkHostRange(addr, n, "write");
  markWritten(addr, n);
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
    const uint8_t* page = existingPage(addr >> kPageBits);
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
  markWritten(addr, n);
  while (n > 0) {
    const uint64_t chunk = std::min<uint64_t>(n, kPageSize - (addr & (kPageSize - 1)));
    std::memset(translate(addr), value, chunk);
    addr += chunk;
    n -= chunk;
  }
}

}  // namespace warpsim::func
