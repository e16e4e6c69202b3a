// The address mapping with a page placement in front (i_page_placement.h): a device address in
// device memory goes to its page's frame (asked of the placement once per page, then kept in a
// flat table indexed by page), and the frame's address through the configured mapping
// (dram.mapping). Addresses outside device memory (none of the programs' data) map as they are.
// A composition of bijections (pages to distinct frames, then the mapping), so the whole stays
// one (i_address_mapping.h's contract).
//
// map() is const in the interface and runs once per request that leaves an SM: the table and
// the counts are mutable members, filled on a page's first request.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "timing/mem/i_address_mapping.h"
#include "timing/mem/i_page_placement.h"

namespace warpsim::timing::mem {

class PagedAddressMapping final : public IAddressMapping {
 public:
  // `placement` is built over `physical` (its Context::physical), which this object then owns.
  PagedAddressMapping(std::unique_ptr<IAddressMapping> physical, std::unique_ptr<IPagePlacement> placement,
                      const FrameSpace& space);

  DramAddress map(uint64_t addr) const override;
  uint32_t granuleBytes() const override { return physical_->granuleBytes(); }

  // The frame of page `page` so far (kUnplaced: no request has reached it).
  static constexpr uint32_t kUnplaced = UINT32_MAX;
  uint32_t frameOf(uint64_t page) const { return page < frames_.size() ? frames_[page] : kUnplaced; }
  uint64_t pagesPlaced() const { return placed_; }
  IPagePlacement& placement() { return *placement_; }
  const IPagePlacement& placement() const { return *placement_; }

 private:
  std::unique_ptr<IAddressMapping> physical_;
  std::unique_ptr<IPagePlacement> placement_;
  FrameSpace space_;
  uint32_t pageShift_;
  mutable std::vector<uint32_t> frames_;  // by page: its frame, kUnplaced before its first request
  mutable std::vector<bool> taken_;       // by frame: given to a page (checks the contract)
  mutable uint64_t placed_ = 0;
};

}  // namespace warpsim::timing::mem
