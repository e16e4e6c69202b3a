// Test support: drives an AvcLocalPath with hand-made warp accesses, as the SM's memory pipeline
// would, and records what it asks of the pipeline (write-backs, L1 invalidations).
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "mech/avc/avc_local_path.h"

namespace warpsim::mech::avc::testing {

class FakePort final : public timing::mem::LocalPathPort {
 public:
  bool writeBack(uint64_t line, uint32_t sectors) override {
    writebacks.push_back({line, sectors});
    return true;
  }
  void invalidateL1(uint64_t line) override {
    invalidated.push_back(line);
    if (path != nullptr) path->l1Dropped(line);
  }
  struct Writeback {
    uint64_t line;
    uint32_t sectors;
  };
  std::vector<Writeback> writebacks;
  std::vector<uint64_t> invalidated;
  AvcLocalPath* path = nullptr;
};

class Harness {
 public:
  static constexpr uint32_t kRowBlocks = 48;  // one SM of 48 warp slots
  using Values = std::function<uint32_t(unsigned lane)>;

  explicit Harness(uint64_t avcBytes, uint32_t ways = 1,
                   timing::mem::LocalLayout layout = timing::mem::LocalLayout::WarpMajor)
      : layout_(layout) {
    AvcParams p;
    p.bytes = avcBytes;
    p.ways = ways;
    timing::mem::ILocalMemoryPath::Context c;
    c.port = &port;
    c.layout = layout;
    path = std::make_unique<AvcLocalPath>(c, p);
    port.path = path.get();
  }

  // A 4-byte store of `value(lane)` to private offset `offset` by the lanes of `mask` of warp
  // `warp` (CTA 0); returns the outcome with its requests in `requests`.
  timing::mem::ILocalMemoryPath::Outcome store(uint32_t mask, uint64_t offset, const Values& value,
                                               uint32_t warp = 0) {
    return run(true, mask, offset, value, warp);
  }
  // A 4-byte load whose functional values are `value(lane)`.
  timing::mem::ILocalMemoryPath::Outcome load(uint32_t mask, uint64_t offset, const Values& value,
                                              uint32_t warp = 0) {
    return run(false, mask, offset, value, warp);
  }

  const AvcStats& stats() const { return path->stats(); }
  uint64_t block(uint64_t offset, uint32_t warp = 0) const {
    timing::mem::LocalWarp w;
    w.warpInCta = warp;
    w.slot = warp;
    w.rowBlocks = kRowBlocks;
    return timing::mem::localAddress(layout_, w, 0, offset);
  }

  timing::mem::LocalLayout layout_;
  FakePort port;
  std::unique_ptr<AvcLocalPath> path;
  timing::mem::ILocalMemoryPath::Request requests[timing::mem::kMaxRequestsPerInstruction];

 private:
  timing::mem::ILocalMemoryPath::Outcome run(bool isStore, uint32_t mask, uint64_t offset,
                                             const Values& value, uint32_t warp) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      values_[lane] = value(lane);
      offsets_[lane] = offset;
    }
    record_ = func::ExecRecord{};
    record_.warpInCta = warp;
    record_.warpSlot = warp;
    record_.isStore = isStore;
    record_.accessBytes = 4;
    if (isStore) {
      record_.numStoreRegs = 1;
      record_.storeValues[0] = values_;
    } else {
      record_.numDstRegs = 1;
      record_.dstValues[0] = values_;
    }
    timing::mem::ILocalMemoryPath::Access a;
    a.record = &record_;
    a.mask = mask;
    a.store = isStore;
    a.bytes = 4;
    a.offset = offsets_;
    a.warp.warpInCta = warp;
    a.warp.slot = warp;
    a.warp.rowBlocks = kRowBlocks;
    a.requests = requests;
    return path->access(a, 0);
  }

  func::ExecRecord record_;
  uint64_t values_[32] = {};
  uint64_t offsets_[32] = {};
};

}  // namespace warpsim::mech::avc::testing
