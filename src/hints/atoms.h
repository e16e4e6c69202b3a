// XMem atoms as the runtime takes them (the C API of include/warpsim/xmem.h): an atom's
// attributes (fixed at creation) and the operations a program issues on atoms (map, unmap,
// activate, deactivate), carried with each launch to the timing model, whose atom management
// unit applies them in order. The functional engine reads only the number of atoms (to check the
// operations kernels issue, ir::Op::AtomHint).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warpsim/xmem.h"

namespace warpsim::hints {

constexpr uint32_t kMaxAtoms = 256;  // 8-bit atom ids (the paper's design point)

enum class AtomPattern : uint8_t { Regular = 1, Irregular = 2, NonDeterministic = 3 };
enum class AtomRw : uint8_t { ReadOnly = 1, ReadWrite = 2, WriteOnly = 3 };

// The attribute record (the GAT's entry for one atom).
struct AtomAttributes {
  uint32_t dataProperties = 0;  // WARPSIM_ATOM_INT32 | ... bits
  AtomPattern pattern = AtomPattern::NonDeterministic;
  int64_t strideBytes = 0;      // Regular only
  AtomRw rw = AtomRw::ReadWrite;
  uint8_t intensity = 0;
  uint8_t reuse = 0;
};

// "" when the C arguments make a valid atom, else one line naming the argument, e.g.
// "CreateAtom: pattern.type (7) is not REGULAR (1), IRREGULAR (2) or NON_DET (3)".
std::string checkAtom(uint32_t dataProperties, const warpsimAtomAccessPattern& pattern, int32_t rw);
AtomAttributes atomAttributes(uint32_t dataProperties, const warpsimAtomAccessPattern& pattern, uint8_t reuse,
                              int32_t rw);

// One operation on an atom. A map or unmap covers a block of sizeZ planes of sizeY rows of sizeX
// bytes from `base`, rows lenX bytes apart and planes lenX * lenY bytes apart (1-D: lenX = sizeX,
// sizeY = lenY = sizeZ = 1; 2-D: lenY = sizeY, sizeZ = 1).
struct AtomOp {
  enum class Kind : uint8_t { Map, Unmap, Activate, Deactivate };
  Kind kind = Kind::Map;
  uint32_t atom = 0;
  uint64_t base = 0;
  uint64_t lenX = 0, lenY = 0;
  uint64_t sizeX = 0, sizeY = 1, sizeZ = 1;

  bool isMapping() const { return kind == Kind::Map || kind == Kind::Unmap; }
  uint64_t bytes() const { return sizeX * sizeY * sizeZ; }
  // One past the block's last byte (the end of its last run).
  uint64_t end() const { return base + ((sizeZ - 1) * lenY + (sizeY - 1)) * lenX + sizeX; }
};

// "" when `op`'s block is well formed (no size 0, sizeX <= lenX, sizeY <= lenY for a 3-D block,
// and an end() that does not wrap around the address space), else one line naming the argument.
std::string checkAtomOp(const AtomOp& op);

// The checks of an operation the program issues, host call or device instruction alike, say what
// is wrong in these words: the paper's operator ("AtomMap", "AtomUnmap", "AtomActivate",
// "AtomDeactivate"), then
//   checkAtomId: "" when `op`'s atom is one of the program's `atoms`, else
//     "AtomActivate: atom 7 was never created (the program has 2 atoms)";
//   outsideAllocation: "AtomMap: [0x7f0000200000, 0x7f0000200400) of atom 0 is not inside one
//     device allocation" (the caller knows the allocations).
const char* atomOpName(AtomOp::Kind kind);
std::string checkAtomId(const AtomOp& op, size_t atoms);
std::string outsideAllocation(const AtomOp& op);

// Calls `f(start, bytes)` for each contiguous run of `op`'s block, in address order.
template <typename F>
void forEachRun(const AtomOp& op, F&& f) {
  if (op.sizeX == op.lenX && (op.sizeZ == 1 || op.sizeY == op.lenY)) {
    f(op.base, op.bytes());  // whole planes: one run
    return;
  }
  for (uint64_t z = 0; z < op.sizeZ; ++z) {
    for (uint64_t y = 0; y < op.sizeY; ++y) f(op.base + (z * op.lenY + y) * op.lenX, op.sizeX);
  }
}

// One launch's new operations, shared by every later launch's history and never changed (a
// launch may run after the program has issued more).
using AtomOpSegment = std::shared_ptr<const std::vector<AtomOp>>;

// What a launch carries: every atom created so far (the program's GAT, by id) and every
// operation issued before the launch, in order, so that a component that did not see an
// earlier launch (an SM that ran none of its CTAs) still applies all of them.
struct LaunchAtoms {
  std::vector<AtomAttributes> attributes;
  std::vector<AtomOpSegment> history;  // one segment per launch that took new operations
  uint64_t newOps = 0;                 // how many of them this launch took (the last ones)

  bool empty() const { return attributes.empty(); }
  uint64_t opCount() const {
    uint64_t n = 0;
    for (const AtomOpSegment& s : history) n += s->size();
    return n;
  }
  // Calls f(op) for the operations from the `first`-th (0-based) on, in order.
  template <typename F>
  void forEachOpFrom(uint64_t first, F&& f) const {
    uint64_t at = 0;
    for (const AtomOpSegment& s : history) {
      if (at + s->size() <= first) {
        at += s->size();
        continue;
      }
      for (uint64_t i = first > at ? first - at : 0; i < s->size(); ++i) f((*s)[i]);
      at += s->size();
    }
  }
};

}  // namespace warpsim::hints
