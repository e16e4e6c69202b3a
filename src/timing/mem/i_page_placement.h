// Extension point "page_placement": the physical frame each page of device memory lives in (the
// operating system's and the driver's choice of virtual-to-physical mapping). The address mapping
// (i_address_mapping.h, dram.mapping) then turns the frame's address into channel, bank and row,
// so a placement decides which banks (and, where the mapping puts channel bits above the page
// offset, which channels) a page's lines share with other data. Key [page_placement] impl; one
// instance per GPU, alive for the whole run; only on a GPU of one module.
//
// Pages get their frame when the first request that leaves an SM reaches them (demand paging,
// the moment an operating system allocates the frame) and keep it for the rest of the run (no
// migration). Contract of frameFor(): distinct pages get distinct frames, every frame below
// Context::frames; it is called once per page, so it may be slow (it is not on the per-request
// path: paged_address_mapping.h keeps the answers in a flat table).
//
// Baselines (page_placements.h): "identity" (frame = page: no layer at all, the default),
// "random" (a random free frame per page: the randomised virtual-to-physical mapping of an
// operating system's buddy allocator after a long uptime, and the strengthened baseline of the
// XMem study).
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "func/device_memory.h"
#include "timing/mem/i_address_mapping.h"

namespace warpsim::hints {
struct LaunchHints;
}  // namespace warpsim::hints

namespace warpsim::timing::mem {

// The frames of device memory: frame f holds the bytes [base + f * pageBytes, + pageBytes). The
// base is read when asked (the drop-in runtime may move the address space before allocating).
struct FrameSpace {
  const func::DeviceMemory* memory = nullptr;  // nullptr: the default base address
  uint32_t pageBytes = 4096;
  uint64_t frames = 0;
  uint64_t base() const {
    return memory != nullptr ? memory->baseAddress() : func::DeviceMemory::kBaseAddress;
  }
  uint64_t address(uint64_t frame) const { return base() + frame * pageBytes; }
};

class IPagePlacement {
 public:
  static constexpr const char* kPoint = "page_placement";
  struct Context {
    config::Tree* tree = nullptr;               // keys under [page_placement]
    FrameSpace space;                           // page_placement.page_bytes, device memory
    const IAddressMapping* physical = nullptr;  // where a frame's bytes live (dram.mapping)
    uint32_t channels = 0, banks = 0;
    uint64_t seed = 1;                          // page_placement.seed
  };
  virtual ~IPagePlacement() = default;

  // The frame of page `page` (its index from the device base address); `address` is the byte
  // the first request asked for.
  virtual uint64_t frameFor(uint64_t page, uint64_t address) = 0;
  // A launch starts, with what its program says of its data (nullptr: nothing).
  virtual void beginLaunch(const hints::LaunchHints* hints) { (void)hints; }
  // Counters (optional), added to the memory statistics' "pages" object.
  virtual void reportStats(nlohmann::json& out) const { (void)out; }
};

}  // namespace warpsim::timing::mem
