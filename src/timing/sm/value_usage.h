// Register value usage of a warp's dynamic instruction stream (the characterisation behind
// register-file caches, digest rf-hierarchy s3): a value is one dynamic register write; its
// reads are the reads of that register before it is written again (or the warp exits); the
// lifetime of a value read once is the number of the warp's instructions from its producer to
// its consumer (1: the very next instruction). Counted per warp register, in issue order.
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace warpsim::timing {

class ValueUsage {
 public:
  static constexpr unsigned kReadBins = 5;       // 0, 1, 2, 3, 4+ reads
  static constexpr unsigned kLifetimeBins = 10;  // 1 .. 9, 10+ instructions

  void resize(uint32_t slots, uint32_t registers);
  // The warp in `slot` issues an instruction: reads of `srcs`, then writes of `dsts`.
  void instruction(uint32_t slot, const uint32_t* srcs, unsigned numSrc, const uint32_t* dsts, unsigned numDst);
  // The warp's values end (it exited).
  void endWarp(uint32_t slot);
  // Writes reads_per_value and read_once_lifetime, counting the values still open as ended.
  void report(nlohmann::json& out) const;

 private:
  struct Value {
    uint32_t producedAt = 0, lifetime = 0;
    uint16_t reads = 0;
    bool open = false;
  };
  void close(Value& v);
  void count(const Value& v, uint64_t* reads, uint64_t* lifetime) const;

  uint32_t registers_ = 0;
  std::vector<Value> values_;     // slot x register
  std::vector<uint32_t> issued_;  // per slot
  uint64_t readsPerValue_[kReadBins] = {}, lifetime_[kLifetimeBins] = {};
};

}  // namespace warpsim::timing
