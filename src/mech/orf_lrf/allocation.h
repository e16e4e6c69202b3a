// The hierarchical allocator of the software-managed ORF/LRF (digest rf-hierarchy s6.3), per
// function, strand by strand:
//  1. every register read is tied to its reaching definitions; a read can use an upper level
//     only if exactly one definition reaches it, that definition is unguarded, in the same
//     strand, and dominates the read (with forward_branches off: in the same basic block), so
//     the value is in the entry on every path ("when the location is uncertain, the MRF"), and
//     the warp runs no strand start between them in an arm of a divergent branch that other
//     lanes run in the meantime (divergent_arms.h);
//  2. a definition with any other read, or read in a later strand, is live out: it is written to
//     the MRF as well (dual destination);
//  3. candidates are ranked by savings / range (Fig 6.5 and 6.8 with the configured per-access
//     energies; range in static instruction slots) and placed first-fit into per-entry interval
//     lists: the LRF first (ALU-only values, 32-bit, one operand slot per split bank), then the
//     ORF with read-operand candidates (a value produced before the strand and read several
//     times: the first read comes from the MRF and deposits it) and, with partial_ranges, values
//     that give up their last reads until they fit.
// Values never read are written to the MRF only (see README.md, decision 4).
#pragma once
#include <cstdint>
#include <vector>

#include "mech/orf_lrf/orf_params.h"
#include "mech/orf_lrf/placement.h"
#include "mech/orf_lrf/strands.h"

namespace warpsim::mech::orf_lrf {

struct AllocationCounts {
  uint64_t values = 0;            // unguarded definitions of value registers
  uint64_t lrfValues = 0, orfValues = 0;
  uint64_t dualWrites = 0;        // of those: also written to the MRF (live out, partial range)
  uint64_t readOperandGroups = 0; // values kept in the ORF after their first read
  uint64_t partialRanges = 0;     // values placed after giving up reads
  uint64_t upperReads = 0;        // static reads assigned to the ORF or LRF
  uint64_t reads = 0;             // static register reads
};

// Fills out[pc] for every pc of `f` (out has f.code.size() elements).
void allocateFunction(const FunctionCode& f, const Strands& strands, const OrfParams& params,
                      OperandPlacement* out, AllocationCounts& counts);

}  // namespace warpsim::mech::orf_lrf
