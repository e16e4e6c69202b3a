// Counters of the "avc" local-memory path (README.md "Statistics" defines each; digest s6.2).
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "mech/avc/affine_encoding.h"

namespace warpsim::mech::avc {

struct AvcStats {
  static constexpr unsigned kClasses = static_cast<unsigned>(ValueClass::kCount);
  // Private transactions (one 128-byte block under a mask) by the class of their data.
  uint64_t loads[kClasses] = {}, stores[kClasses] = {};
  uint64_t subWordLoads = 0, subWordStores = 0;  // not classified (part of a word)
  uint64_t affineUnrepresentable = 0;  // affine, not a restricted-affine code
  uint64_t affineSparseMask = 0;       // affine with a non-dense mask of >1 lane
  uint64_t affineFloatTyped = 0;       // affine and typed .f32/.f64
  uint64_t encoderDisagreements = 0;   // hardware and exact encoder differ
  // AVC.
  uint64_t lookups = 0, fullHits = 0, partialHits = 0, replays = 0, misses = 0;
  uint64_t affineFills = 0, genericFills = 0, fillMerges = 0, fillConflicts = 0;
  uint64_t writesAllocate = 0, writesMerge = 0, writesOverwrite = 0, writesConflict = 0;
  uint64_t genericWrites = 0, genericInvalidations = 0;  // AVC vectors losing words to them
  uint64_t subWordEvictions = 0;  // AVC words moved to the L1 for a sub-word store
  uint64_t lineEvictions = 0, evictedVectors = 0, evictionVectorsWrittenBack = 0;
  uint64_t conflictWritebacks = 0;
  // L1 (word model).
  uint64_t l1Hits = 0, l1PartialHits = 0, l1Invalidations = 0, l1WordsTakenOver = 0;
  // Level below, in 128-byte block transactions and 4-byte words.
  uint64_t belowFillsAvc = 0, belowFillsL1 = 0, belowWritebacksAvc = 0, belowWritebacksL1 = 0;
  uint64_t belowFillWords = 0, belowWritebackWordsAvc = 0, belowWritebackWordsL1 = 0;
  uint64_t deferredWritebacks = 0;
  // Correctness check.
  uint64_t checkedWords = 0, mismatches = 0;

  void report(nlohmann::json& out, uint64_t validWords, uint64_t avcBytes) const;
};

}  // namespace warpsim::mech::avc
