// The baseline page placements (extension point page_placement, i_page_placement.h).
//   identity  frame = page: what the model does without a placement (the memory system builds
//             no paging layer for it at all; registered so that the key can name it).
//   random    each page a frame drawn at random among the free ones (a splitmix64 stream from
//             page_placement.seed, the next free frame after the draw): an operating system's
//             randomised virtual-to-physical mapping, which the XMem study found better than a
//             buddy allocator's and used in its strengthened baseline. Deterministic per seed.
#pragma once
#include <cstdint>

#include "timing/mem/frame_pool.h"
#include "timing/mem/i_page_placement.h"

namespace warpsim::timing::mem {

class IdentityPagePlacement final : public IPagePlacement {
 public:
  uint64_t frameFor(uint64_t page, uint64_t) override { return page; }
};

class RandomPagePlacement final : public IPagePlacement {
 public:
  RandomPagePlacement(uint64_t frames, uint64_t seed) : pool_(frames), state_(seed) {}
  uint64_t frameFor(uint64_t page, uint64_t address) override;

 private:
  FramePool pool_;
  uint64_t state_;
};

}  // namespace warpsim::timing::mem
