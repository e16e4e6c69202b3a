// The XMem atoms a program has created (warpsim/xmem.h) and the operations it issued on them
// until a launch takes them. CreateAtom is static per program point: the same site (file and
// line) always gets the same id, as the paper's compiler makes every dynamic instance of one
// CreateAtom the same atom (its attributes are immutable, so the later calls' arguments are not
// read again). Ids are given from 0; at most hints::kMaxAtoms.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "hints/atoms.h"

namespace warpsim::runtime {

class AtomStore {
 public:
  // The id of the atom created at `site`: a new one with `attributes` the first time. Throws
  // Error when the program would have more than hints::kMaxAtoms atoms.
  uint32_t create(const std::string& site, const hints::AtomAttributes& attributes);
  // Queues `op` for the next launch. Throws Error (one line) when its atom was never created or
  // its block is malformed (hints::checkAtomOp).
  void issue(const hints::AtomOp& op);
  // The program's atoms and every operation so far; those since the previous take are new.
  hints::LaunchAtoms take();

  size_t atoms() const { return attributes_.size(); }
  bool empty() const { return attributes_.empty(); }

 private:
  std::map<std::string, uint32_t> bySite_;
  std::vector<hints::AtomAttributes> attributes_;
  std::vector<hints::AtomOp> pending_;
  std::vector<hints::AtomOpSegment> history_;
};

}  // namespace warpsim::runtime
