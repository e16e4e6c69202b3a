// Strand starts a warp may execute between two instructions of one strand although no path of a
// single lane passes one. Under SIMT a divergent branch runs one arm for some lanes, then the
// other arm for the others, then reconverges, and upper-level entries are invalidated for the
// whole warp at a strand start. A strand is a contiguous pc range, but an arm laid out after the
// read (nvcc's `@p bra A; bra.uni B;` puts the fall-through arm B behind A) or one that loops
// back or leaves the function is outside it.
//
// The order the pass relies on is func/warp.h's: at a divergent branch the fall-through lanes
// run first, until the reconvergence point (or until they all exit), then the taken lanes. (A
// barrier switches paths too, but every barrier is followed by a strand start.)
//
// Per divergent branch b (a block with two or more successors) an arm is the set of blocks
// reachable from one successor before b's reconvergence block (its immediate post-dominator; the
// function exit when none), F the fall-through arm and T the taken one. Reaching pc r "cleanly"
// means along a path of the arm that passes no strand start (a path through a start re-runs the
// definition before it reaches r again: within a strand every lane's path runs forward in pc
// order). A value written at pc d and read at pc r of one strand (d dominating r) must not be
// read from an upper level when, for some b whose arms hold a strand start:
//   - b lies in [d, r) (it runs between them) and
//       r is cleanly in T, and F holds a start (F ran before), or
//       r is cleanly in neither arm (it follows the reconvergence), and either arm holds one;
//     r cleanly in F only is safe: T runs after it;
//   - d is in F, r is past the arms (d dominates r: T's lanes leave the function or pass d),
//     and T holds a start (T runs after d, before r).
// Branches with more than two successors (none in PTX today) use the order-free form: any arm
// other than the ones holding r (any arm when r is in several or none) counts, and for d in an
// arm with r past them, any arm but d's.
#pragma once
#include <cstdint>
#include <vector>

#include "mech/orf_lrf/strands.h"

namespace warpsim::mech::orf_lrf {

class DivergentArms {
 public:
  DivergentArms(const FunctionCode& f, const Strands& s);
  // Whether the warp may run a strand start between pc d and a later pc r of d's strand.
  bool startBetween(uint32_t d, uint32_t r) const;

 private:
  using Bits = std::vector<uint64_t>;
  struct Branch {
    uint32_t pc;
    std::vector<Bits> arms;           // per distinct successor: the blocks it reaches
    std::vector<Bits> clean;          // per arm: the blocks it enters without passing a start
    std::vector<uint8_t> armStart;    // per arm: holds a strand start
    Bits region;                      // the union of the arms
    int fallThrough = -1;             // arm index of the fall-through path (two-way branches)
  };
  static bool test(const Bits& b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }
  static void mark(Bits& b, uint32_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }
  bool fallsOffTheEnd() const;  // the last block runs on into the linker's sentinel `ret`
  bool cleanlyIn(const Branch& b, size_t arm, uint32_t pc) const;
  bool unsafeAcross(const Branch& b, uint32_t r) const;  // b in [d, r)
  bool unsafeAround(const Branch& b, uint32_t d) const;  // d in b's arms, r past them
  // Order-free: an arm other than every one holding `block` (all when it is in none or several)
  // holds a start.
  bool otherArmStarts(const Branch& b, uint32_t block) const;

  const ir::Function& fn_;
  std::vector<uint32_t> firstStart_;             // per block: its first strand start (pc), or none
  std::vector<Branch> branches_;                 // only those whose arms hold a strand start, by pc
  std::vector<std::vector<uint32_t>> inRegion_;  // per block: branches_ whose arms hold it
};

}  // namespace warpsim::mech::orf_lrf
