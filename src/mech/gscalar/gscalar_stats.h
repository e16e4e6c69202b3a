// Counters of the "gscalar" register-file model (README.md "Statistics" defines each).
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "mech/gscalar/register_state.h"

namespace warpsim::mech::gscalar {

// Scalar categories, exclusive per instruction (Fig. 9's steps).
enum class Category : uint8_t { FullAlu, FullSfu, FullMem, Half, Divergent, kCount };
// The category of a decision (kCount: vector).
Category categoryOf(Scalarity s, ScalarClass cls);

struct GScalarStats {
  uint64_t arrayReads = 0, arrayWrites = 0, crossbarBytes = 0;
  uint64_t metadataReads = 0, metadataWrites = 0, scalarRfReads = 0, scalarRfWrites = 0;
  uint64_t compressions = 0, decompressions = 0, specialMoves = 0;
  uint64_t operandReads[static_cast<unsigned>(ReadKind::kCount)] = {};
  uint64_t uncompressedBytes = 0, arrayBytes = 0, baseBytes = 0, metadataBits = 0;
  uint64_t instructions = 0, divergent = 0, alu = 0, sfu = 0, mem = 0, other = 0;
  static constexpr unsigned kCategories = static_cast<unsigned>(Category::kCount);
  uint64_t executed[kCategories] = {}, detected[kCategories] = {}, oracle[kCategories] = {};

  void addCost(const AccessCost& c, bool isRead);
  void report(nlohmann::json& out) const;   // adds the model's keys to "register_file"
};

}  // namespace warpsim::mech::gscalar
