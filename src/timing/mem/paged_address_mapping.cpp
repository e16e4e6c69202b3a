#include "timing/mem/paged_address_mapping.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace warpsim::timing::mem {

PagedAddressMapping::PagedAddressMapping(std::unique_ptr<IAddressMapping> physical,
                                         std::unique_ptr<IPagePlacement> placement, const FrameSpace& space)
    : physical_(std::move(physical)),
      placement_(std::move(placement)),
      space_(space),
      pageShift_(static_cast<uint32_t>(std::countr_zero(space.pageBytes))),
      frames_(space.frames, kUnplaced),
      taken_(space.frames, false) {
  if (space.frames >= kUnplaced)
    throw std::invalid_argument("page placement: " + std::to_string(space.frames) +
                                " frames are more than the frame table holds");
}

DramAddress PagedAddressMapping::map(uint64_t addr) const {
  const uint64_t base = space_.base();
  const uint64_t page = (addr - base) >> pageShift_;
  if (addr < base || page >= frames_.size()) return physical_->map(addr);
  uint32_t& frame = frames_[page];
  if (frame == kUnplaced) {
    const uint64_t chosen = placement_->frameFor(page, addr);
    if (chosen >= frames_.size() || taken_[chosen])
      throw std::logic_error("page placement gave page " + std::to_string(page) + " frame " +
                             std::to_string(chosen) + (chosen >= frames_.size() ? ", past the last" : ", already taken"));
    taken_[chosen] = true;
    frame = static_cast<uint32_t>(chosen);
    ++placed_;
  }
  return physical_->map(space_.address(frame) + (addr & (space_.pageBytes - 1)));
}

}  // namespace warpsim::timing::mem
