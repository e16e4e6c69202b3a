// XMem's Atom Management Unit (AMU; digest xmem-and-locality-descriptor.md s1.6, s1.11 item 4).
//
// The paper: the hardware unit that handles the ATOM_* instructions and answers ATOM_LOOKUP(PA).
// MAP/UNMAP linearise 1-D/2-D/3-D blocks at AAM granularity and write the AAM (the latest
// mapping wins per chunk); ACTIVATE/DEACTIVATE flip the atom's AST bit. A lookup checks the ALB,
// reads the AAM on a miss, and returns the atom only if its AST bit is set.
//
// What we chose:
//   - apply() takes the runtime's hints::AtomOp in program order; blocks are linearised by
//     hints::forEachRun into contiguous runs, each written to the AAM (atom_address_map.h:
//     partial chunks go to the latest mapping; an unmap clears only the chunks the atom owns).
//   - lookup() always reads the atom from the AAM (the ALB models tags only, see
//     atom_lookaside_buffer.h) and counts an AAM read only on an ALB miss.
//   - No latency is modelled here; the unit counts, and its callers decide what a miss costs.
//   - Not modelled: the broadcast of higher-dimensional mappings to subscribed components, VA->PA
//     translation (addresses are used as given), per-process ASTs and context switches (one
//     application; alb().flush() is there for a caller that needs one).
//
// Statistics (reportStats, snake_case): maps, unmaps, activates, deactivates, bytes_mapped
// (bytes of map operations' blocks), chunks_written (AAM), lookups, alb_hits, alb_misses,
// aam_reads, lookups_inactive (an owner that is not active), lookups_no_atom (counts only:
// the ALB hit rate is alb_hits / (alb_hits + alb_misses)).
// Several units reporting into one object (one per cache, each applying the program's same
// operations to its copy of the AAM) sum their lookups and ALB counts; the operation counts are
// the program's, reported once (the largest of the units').
#pragma once
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "hints/atoms.h"
#include "mech/xmem/atom_address_map.h"
#include "mech/xmem/atom_lookaside_buffer.h"
#include "mech/xmem/atom_status_table.h"

namespace warpsim::mech::xmem {

struct AmuParams {
  uint64_t pageBytes = 4096;  // AAM entry coverage and ALB tag granularity
  uint64_t chunkBytes = 512;  // AAM granularity: 8 cache lines of 64 B
  uint32_t albEntries = 256;
  uint32_t albWays = 8;
};

class AtomManagementUnit {
 public:
  struct Lookup {
    std::optional<uint32_t> atom;  // the owning atom, only when it is active
    bool albHit = false;
  };

  struct Stats {
    uint64_t maps = 0, unmaps = 0, activates = 0, deactivates = 0;
    uint64_t bytesMapped = 0;
    uint64_t chunksWritten = 0;
    uint64_t lookups = 0, albHits = 0, albMisses = 0, aamReads = 0;
    uint64_t lookupsInactive = 0, lookupsNoAtom = 0;
  };

  // Throws std::invalid_argument for parameters the AAM or the ALB refuse.
  explicit AtomManagementUnit(const AmuParams& params = {});

  // Applies one operation. Throws std::invalid_argument for an atom id of hints::kMaxAtoms or more
  // (or a block past the end of the address space).
  void apply(const hints::AtomOp& op);

  // ATOM_LOOKUP(address). Allocates nothing.
  Lookup lookup(uint64_t address);

  // The counts since construction or the last resetCounts() (a kernel boundary).
  Stats stats() const;
  void resetCounts();
  // Adds this unit's counts to those already in `out` (several units may report into one object)
  void reportStats(nlohmann::json& out) const;

  const AmuParams& params() const { return params_; }
  const AtomAddressMap& aam() const { return aam_; }
  const AtomStatusTable& ast() const { return ast_; }
  const AtomLookasideBuffer& alb() const { return alb_; }
  AtomLookasideBuffer& alb() { return alb_; }

 private:
  AmuParams params_;
  AtomAddressMap aam_;
  AtomStatusTable ast_;
  AtomLookasideBuffer alb_;
  Stats counts_;  // the unit's own counters; the tables' are read by stats()
  uint64_t albHitsBefore_ = 0, albMissesBefore_ = 0, chunksWrittenBefore_ = 0;  // at the last reset
};

}  // namespace warpsim::mech::xmem
