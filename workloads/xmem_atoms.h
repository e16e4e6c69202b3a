// XMem atoms (include/warpsim/xmem.h) as the suite's host programs write them by hand: the
// operators (create, map, activate) in the runtime's C++ form, and the whole-structure atom of
// the paper's malloc(size, atomID) (digest xmem-and-locality-descriptor.md s1.8.2): one atom per
// data structure, created at a site of the program (the same id for every call from it), mapped
// to the whole allocation and activated before the first launch that touches it, since the page
// placement `atoms` gives a page its frame at its first request. Atoms are hints for the timing
// model (cache policy, DRAM page placement); they never change what a kernel computes, and
// configurations without those policies ignore them.
//
// How the suite's drivers choose the attributes (one line of reasoning beside each atom):
//   - pattern: REGULAR with the stride a warp's lanes walk (the element size for unit-stride
//     streams, the row pitch for column walks), IRREGULAR for data-dependent gathers that repeat
//     (graph neighbour lists, x[col[j]]), NON_DET for random ones;
//   - intensity: the memory requests the structure's accesses make over a launch sequence (an
//     iteration, or the run), counted in 32-byte sectors (a coalesced stream one per 32 bytes, a
//     gather or scatter one per element), as 255 x (its requests / the hottest structure's); a
//     structure of a few words that every warp reads (a flag, a 64-byte bias) stays in the
//     caches, rounds to 0 and is spread, not given DRAM banks of its own;
//   - reuse: about how many times the same bytes are read again after their first access (by
//     later launches, or by neighbouring threads and CTAs), at most 255: 0 for data read or
//     written once per run.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "hints/atoms.h"
#include "runtime/error.h"
#include "workload.h"

namespace warpsim::workloads {

// Access patterns, with the structure's intensity (the C API keeps the two together).
inline warpsimAtomAccessPattern regularAccess(int64_t strideBytes, uint8_t intensity) {
  return {WARPSIM_ATOM_REGULAR, strideBytes, intensity};
}
inline warpsimAtomAccessPattern irregularAccess(uint8_t intensity) { return {WARPSIM_ATOM_IRREGULAR, 0, intensity}; }
inline warpsimAtomAccessPattern nonDetAccess(uint8_t intensity) { return {WARPSIM_ATOM_NON_DET, 0, intensity}; }

// The atom created at `site` (the same id for every call from it). Throws runtime::Error, naming
// the site, for attributes the C API would refuse.
inline uint32_t createAtom(runtime::Device& gpu, const std::string& site, uint32_t dataProperties,
                           const warpsimAtomAccessPattern& pattern, uint8_t reuse, int32_t rw) {
  if (std::string why = hints::checkAtom(dataProperties, pattern, rw); !why.empty()) {
    throw runtime::Error(site + ": " + why);
  }
  return gpu.createAtom(site, hints::atomAttributes(dataProperties, pattern, reuse, rw));
}

// A REGULAR float atom created at `site` (the same id for every call from it).
inline uint32_t floatAtom(runtime::Device& gpu, const std::string& site, int64_t strideBytes, uint8_t intensity,
                          uint8_t reuse, int32_t rw) {
  return createAtom(gpu, site, WARPSIM_ATOM_FLOAT32, regularAccess(strideBytes, intensity), reuse, rw);
}

// A 1-D map or unmap of [base, base + bytes).
inline void mapAtom(runtime::Device& gpu, hints::AtomOp::Kind kind, uint32_t atom, uint64_t base, uint64_t bytes) {
  gpu.issueAtomOp(hints::AtomOp{kind, atom, base, bytes, 1, bytes, 1, 1});
}

inline void activateAtoms(runtime::Device& gpu, std::initializer_list<uint32_t> atoms) {
  for (uint32_t atom : atoms) gpu.issueAtomOp(hints::AtomOp{hints::AtomOp::Kind::Activate, atom});
}

// A structure and the atom that describes it.
struct DescribedStructure {
  uint32_t atom = 0;
  uint64_t base = 0, bytes = 0;
};

// The whole-structure atom of malloc(size, atomID): creates (or finds) the atom of `site`, maps
// it to all of [base, base + bytes) and activates it; the operations go with the next launch.
// Describe a structure again after reallocating it (same site, same atom); forget it before
// freeing it.
inline DescribedStructure describeStructure(runtime::Device& gpu, const std::string& site, uint64_t base,
                                            uint64_t bytes, uint32_t dataProperties,
                                            const warpsimAtomAccessPattern& pattern, uint8_t reuse, int32_t rw) {
  const uint32_t atom = createAtom(gpu, site, dataProperties, pattern, reuse, rw);
  mapAtom(gpu, hints::AtomOp::Kind::Map, atom, base, bytes);
  activateAtoms(gpu, {atom});
  return {atom, base, bytes};
}

// Unmaps a described structure (before gpu.free: a map or unmap must lie inside an allocation),
// so that memory allocated there later does not inherit its atom.
inline void forgetStructure(runtime::Device& gpu, const DescribedStructure& s) {
  mapAtom(gpu, hints::AtomOp::Kind::Unmap, s.atom, s.base, s.bytes);
}

}  // namespace warpsim::workloads
