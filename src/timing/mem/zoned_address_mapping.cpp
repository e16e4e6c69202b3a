#include "timing/mem/zoned_address_mapping.h"

#include <algorithm>

namespace warpsim::timing::mem {

class ZonedAddressMapping::View final : public IAddressMapping {
 public:
  View(const ZonedAddressMapping& owner, uint32_t module)
      : owner_(owner), module_(module), toZone_(owner.zones_, 0) {}
  DramAddress map(uint64_t addr) const override {
    const DramAddress a = owner_.mapFor(addr, module_);
    ++toZone_[a.channel / owner_.channelsPerZone_];
    return a;
  }
  uint32_t granuleBytes() const override { return owner_.granuleBytes(); }
  uint64_t toZone(uint32_t zone) const { return toZone_[zone]; }
  uint64_t local() const { return toZone_[module_]; }
  uint64_t total() const {
    uint64_t n = 0;
    for (uint64_t v : toZone_) n += v;
    return n;
  }
  void reset() { std::fill(toZone_.begin(), toZone_.end(), 0); }

 private:
  const ZonedAddressMapping& owner_;
  uint32_t module_;
  mutable std::vector<uint64_t> toZone_;
};

ZonedAddressMapping::ZonedAddressMapping(IZonePlacement& placement,
                                         std::unique_ptr<IAddressMapping> inner, uint32_t zones,
                                         uint32_t channelsPerZone)
    : placement_(placement),
      inner_(std::move(inner)),
      zones_(zones),
      channelsPerZone_(channelsPerZone) {
  for (uint32_t m = 0; m < zones; ++m) views_.push_back(std::make_unique<View>(*this, m));
}

ZonedAddressMapping::~ZonedAddressMapping() = default;

const IAddressMapping& ZonedAddressMapping::viewFor(uint32_t module) const {
  return *views_[module];
}

DramAddress ZonedAddressMapping::mapFor(uint64_t addr, uint32_t requester) const {
  const ZonePlace p = placement_.place(addr, requester);
  DramAddress a = inner_->map(p.local);
  a.channel += p.zone * channelsPerZone_;
  return a;
}

uint64_t ZonedAddressMapping::zoneRequests(uint32_t zone) const {
  uint64_t n = 0;
  for (const auto& v : views_) n += v->toZone(zone);
  return n;
}

uint64_t ZonedAddressMapping::localRequests() const {
  uint64_t n = 0;
  for (const auto& v : views_) n += v->local();
  return n;
}

uint64_t ZonedAddressMapping::remoteRequests() const {
  uint64_t n = 0;
  for (const auto& v : views_) n += v->total() - v->local();
  return n;
}

void ZonedAddressMapping::resetStats() {
  for (auto& v : views_) v->reset();
}

}  // namespace warpsim::timing::mem
