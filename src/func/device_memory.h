// The device's global address space: allocations placed as the CUDA driver places them
// (func/allocation_layout.h: 256-byte aligned, packed into mapped 2 MiB chunks after the
// driver's own chunk), backed by sparse 64 KiB pages.
//
// Pages are created on first touch and zero-filled; a small direct-mapped cache maps page
// numbers to host pointers so that the engine's per-lane translation is a tag compare. Constant
// memory (.const module symbols) lives here too: the runtime allocates it like any buffer.
//
// Host-side accessors (read/write/fill) throw MemoryError naming the address when the range is
// not inside one live allocation, as cudaMemcpy refuses such ranges. The engine uses
// translate()/allocationOf()/isBacked(), which never throw: an access inside an allocation is
// the fast path; one outside every allocation but inside a mapped chunk works as on a GPU (the
// engine reports it, func/memory_findings.h); one outside mapped memory faults.
//
// Initialisation tracking (initcheck): once trackInitialisation() is called, every byte written
// by the host (write, fill, markWritten) or by a kernel (markWritten) is remembered, one bit per
// byte beside its page, so that reads of bytes never written can be found (isWritten).
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "func/allocation_layout.h"

namespace warpsim::func {

class MemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DeviceMemory {
 public:
  static constexpr uint64_t kBaseAddress = 0x7f00'0000'0000ull;  // start of the address space
  static constexpr unsigned kPageBits = 16;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;
  using Allocation = AllocationLayout::Allocation;

  explicit DeviceMemory(uint64_t capacityBytes = uint64_t{16} << 30);
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // A new zero-filled allocation of `bytes` (0 is treated as 1) aligned to `align` (a power of
  // two; at least 256 is used). Returns 0 when the live allocations would exceed the capacity.
  uint64_t allocate(uint64_t bytes, uint64_t align = 256);
  // Frees the allocation that starts at `addr`; false when no live allocation starts there.
  bool release(uint64_t addr);
  // Moves the address space to start at `base` (rounded up to 2 MiB); false once anything is
  // allocated. The drop-in runtime puts it where the host has nothing mapped.
  bool relocate(uint64_t base);
  // Whether [addr, addr + bytes) lies inside one live allocation.
  bool isMapped(uint64_t addr, uint64_t bytes) const;
  // Whether [addr, addr + bytes) lies in mapped device memory, inside an allocation or not.
  bool isBacked(uint64_t addr, uint64_t bytes) const { return layout_.isMapped(addr, bytes); }

  void write(uint64_t addr, const void* src, uint64_t n);
  void read(uint64_t addr, void* dst, uint64_t n) const;
  void fill(uint64_t addr, uint8_t value, uint64_t n);

  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return used_; }
  uint64_t baseAddress() const { return layout_.base(); }
  const std::vector<Allocation>& allocations() const { return layout_.allocations(); }  // sorted by base
  const AllocationLayout& layout() const { return layout_; }

  // ---- initialisation tracking (initcheck) ----------------------------------------------------
  // Starts remembering written bytes; bytes of pages that exist already count as written.
  void trackInitialisation();
  bool tracksInitialisation() const { return tracking_; }
  // Records [addr, addr + n) as written (no-op unless tracking). The range must be backed.
  void markWritten(uint64_t addr, uint64_t n);
  // Whether every byte of [addr, addr + n) has been written (true unless tracking). The range
  // must be backed and must not cross a page (aligned accesses of <= 16 bytes never do).
  bool isWritten(uint64_t addr, unsigned n);

  // ---- engine fast path -------------------------------------------------------------------
  // The live allocation containing [addr, addr + n), or nullptr.
  // Safe to call from several threads while nothing allocates or frees.
  const Allocation* allocationOf(uint64_t addr, uint64_t n) const {
    const Allocation* last = lastAlloc_.load(std::memory_order_relaxed);
    if (last && last->contains(addr, n)) return last;
    return allocationOfSlow(addr, n);
  }
  // The data of page `page` (an address >> kPageBits), or nullptr when it was never touched
  // (it reads as zeros). Safe to call from several threads while nothing writes the memory.
  const uint8_t* existingPage(uint64_t page) const;
  // Host pointer to `addr`, creating the page on first touch. The caller has checked that the
  // access lies in backed memory and does not cross a page (aligned accesses of <= 16 bytes
  // never do).
  uint8_t* translate(uint64_t addr) {
    const uint64_t page = addr >> kPageBits;
    PageSlot& slot = pageCache_[page & (kPageCacheSize - 1)];
    if (slot.tag == page) return slot.data + (addr & (kPageSize - 1));
    return translateSlow(addr);
  }

  // Per-instruction memo of the allocation and page the previous lane used, so that the lanes of
  // one warp access (which mostly share both) translate with two compares.
  class Cursor {
   public:
    explicit Cursor(DeviceMemory& m) : mem_(&m) {}
    // Host pointer for an access of n bytes at addr that does not cross a page (aligned, n <= 16),
    // or nullptr when it is not inside a live allocation.
    uint8_t* get(uint64_t addr, unsigned n) {
      if (!alloc_ || !alloc_->contains(addr, n)) {
        alloc_ = mem_->allocationOf(addr, n);
        if (!alloc_) return nullptr;
      }
      const uint64_t tag = addr >> kPageBits;
      if (tag != pageTag_) {
        page_ = mem_->translate(addr & ~(kPageSize - 1));
        pageTag_ = tag;
      }
      return page_ + (addr & (kPageSize - 1));
    }
    // Whether an access of n bytes at addr lies inside a live allocation (get() without the
    // translation).
    bool allocated(uint64_t addr, unsigned n) {
      if (!alloc_ || !alloc_->contains(addr, n)) alloc_ = mem_->allocationOf(addr, n);
      return alloc_ != nullptr;
    }

   private:
    DeviceMemory* mem_;
    const Allocation* alloc_ = nullptr;
    uint64_t pageTag_ = ~uint64_t{0};
    uint8_t* page_ = nullptr;
  };

 private:
  static constexpr unsigned kPageCacheSize = 256;
  static constexpr uint64_t kShadowWords = kPageSize / 64;  // one bit per byte
  struct Page {
    std::unique_ptr<uint8_t[]> data;
    std::unique_ptr<uint64_t[]> written;  // initialisation bits (tracking only)
  };
  struct PageSlot {
    uint64_t tag = ~uint64_t{0};
    uint8_t* data = nullptr;
    uint64_t* written = nullptr;
  };
  uint8_t* translateSlow(uint64_t addr);
  PageSlot& slotOf(uint64_t addr);  // the cache slot of addr's page, created on first touch
  const Allocation* allocationOfSlow(uint64_t addr, uint64_t n) const;
  void checkHostRange(uint64_t addr, uint64_t n, const char* what) const;
  void dropPages(const AllocationLayout::Chunk& c);

  uint64_t capacity_;
  uint64_t used_ = 0;
  bool tracking_ = false;
  AllocationLayout layout_;
  std::unordered_map<uint64_t, Page> pages_;
  std::array<PageSlot, kPageCacheSize> pageCache_{};
  // The most recent allocationOf() hit: a hint, so threads that only read may race on it.
  mutable std::atomic<const Allocation*> lastAlloc_ = nullptr;
};

}  // namespace warpsim::func
