#include "mech/avc/avc_stats.h"

#include <nlohmann/json.hpp>

#include "timing/stats_json.h"

namespace warpsim::mech::avc {

namespace {

nlohmann::json classes(const uint64_t* c) {
  return {{"zero", c[0]}, {"uniform", c[1]}, {"affine", c[2]}, {"generic", c[3]}};
}

}  // namespace

void AvcStats::report(nlohmann::json& out, uint64_t validWords, uint64_t avcBytes) const {
  nlohmann::json j;
  j["transactions"] = {{"loads", classes(loads)},
                       {"stores", classes(stores)},
                       {"sub_word_loads", subWordLoads},
                       {"sub_word_stores", subWordStores},
                       {"affine_unrepresentable", affineUnrepresentable},
                       {"affine_sparse_mask", affineSparseMask},
                       {"affine_float_typed", affineFloatTyped},
                       {"encoder_disagreements", encoderDisagreements}};
  j["avc"] = {{"lookups", lookups},
              {"full_hits", fullHits},
              {"partial_hits", partialHits},
              {"replays", replays},
              {"misses", misses},
              {"affine_fills", affineFills},
              {"generic_fills", genericFills},
              {"fill_merges", fillMerges},
              {"fill_conflicts", fillConflicts},
              {"writes", {{"allocate", writesAllocate},
                          {"merge", writesMerge},
                          {"overwrite", writesOverwrite},
                          {"conflict", writesConflict}}},
              {"generic_writes", genericWrites},
              {"generic_invalidations", genericInvalidations},
              {"sub_word_evictions", subWordEvictions},
              {"line_evictions", lineEvictions},
              {"evicted_vectors", evictedVectors},
              {"eviction_vectors_written_back", evictionVectorsWrittenBack},
              {"conflict_writebacks", conflictWritebacks},
              {"accesses", lookups + writesAllocate + writesMerge + writesOverwrite +
                               writesConflict + affineFills},
              {"valid_words", validWords},
              {"bytes", avcBytes}};
  j["l1"] = {{"hits", l1Hits},
             {"partial_hits", l1PartialHits},
             {"invalidations", l1Invalidations},
             {"words_taken_over", l1WordsTakenOver}};
  j["below"] = {{"fills_avc", belowFillsAvc},
                {"fills_l1", belowFillsL1},
                {"writebacks_avc", belowWritebacksAvc},
                {"writebacks_l1", belowWritebacksL1},
                {"fill_words", belowFillWords},
                {"writeback_words_avc", belowWritebackWordsAvc},
                {"writeback_words_l1", belowWritebackWordsL1},
                {"deferred_writebacks", deferredWritebacks}};
  j["check"] = {{"checked_words", checkedWords}, {"mismatches", mismatches}};
  timing::addInto(out, j);
}

}  // namespace warpsim::mech::avc
