// The func::Cta objects of one launch: a CTA that retires gives its storage (warps, registers,
// shared memory) to the next CTA that starts, so a launch allocates only as many CTAs as are
// ever resident at once.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "func/cta.h"
#include "func/grid_context.h"

namespace warpsim::timing {

class CtaPool {
 public:
  explicit CtaPool(func::GridContext& grid) : grid_(&grid) {}
  // A CTA reset to `ctaLinear`, from the free list or newly built.
  func::Cta& acquire(uint32_t ctaLinear) {
    if (free_.empty()) {
      all_.push_back(std::make_unique<func::Cta>(*grid_, ctaLinear));
      return *all_.back();
    }
    func::Cta* cta = free_.back();
    free_.pop_back();
    cta->reset(ctaLinear);
    return *cta;
  }
  void release(func::Cta& cta) { free_.push_back(&cta); }
  size_t built() const { return all_.size(); }

 private:
  func::GridContext* grid_;
  std::vector<std::unique_ptr<func::Cta>> all_;
  std::vector<func::Cta*> free_;
};

}  // namespace warpsim::timing
