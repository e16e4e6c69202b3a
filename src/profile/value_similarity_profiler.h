// Value similarity of a launch: every 32-bit word written to a destination register and every
// 32-bit word stored to local memory, classified across the lanes that wrote it (value_class.h)
// and split by whether the writing instruction ran with all 32 lanes. It answers "how much of
// the register file and of thread-private memory is uniform, affine or has common high bytes"
// (G-Scalar's register value compression, the Affine Vector Cache) for any kernel.
#pragma once
#include <array>
#include <cstdint>

#include "func/exec_record.h"
#include "func/launch.h"
#include "profile/value_class.h"

namespace warpsim::profile {

// Words per class; divergent: the lanes that wrote were not all 32 (execution mask, or for a
// generic store the lanes that resolved to local memory, != 0xFFFFFFFF).
struct SimilarityCounts {
  std::array<uint64_t, kNumWordClasses> nonDivergent{};
  std::array<uint64_t, kNumWordClasses> divergent{};

  uint64_t of(WordClass c, bool isDivergent) const {
    return (isDivergent ? divergent : nonDivergent)[static_cast<size_t>(c)];
  }
  uint64_t total() const;
  SimilarityCounts& operator+=(const SimilarityCounts& other);
  bool operator==(const SimilarityCounts&) const = default;
};

struct ValueSimilarityStats {
  // Destination value registers written (predicate writes are not counted): one word per
  // register of at most 32 bits, two (low, high) per 64-bit register. Instructions whose
  // execution mask is empty wrote nothing and count nothing.
  SimilarityCounts registerWrites;
  // st to local memory (.local, or generic lanes that resolved to local): one word per data
  // element of at most 4 bytes (its low bytes), two per 8-byte element. Atomics do not count.
  SimilarityCounts localStores;
  // Of those, the spill and call-save stores the register allocator inserted (ir::kSpill).
  SimilarityCounts spillStores;

  ValueSimilarityStats& operator+=(const ValueSimilarityStats& other);
  bool operator==(const ValueSimilarityStats&) const = default;
};

// Classifies the values of every executed record into ValueSimilarityStats. No allocation per
// record. Register widths come from the record's instruction (the declared width of each
// destination operand). Install one per launch: counts accumulate for the observer's lifetime.
class ValueSimilarityProfiler final : public func::ExecObserver {
 public:
  void onExec(const func::ExecRecord& r) override;
  const ValueSimilarityStats& stats() const { return stats_; }

 private:
  void countRegisterWrites(const func::ExecRecord& r);
  void countLocalStores(const func::ExecRecord& r);
  void countStoreData(const func::ExecRecord& r, uint32_t lanes, SimilarityCounts& counts);
  ValueSimilarityStats stats_;
};

}  // namespace warpsim::profile
