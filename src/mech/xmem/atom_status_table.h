// XMem's Atom Status Table (AST; digest xmem-and-locality-descriptor.md s1.6, s1.11 item 4).
//
// The paper: a per-application bitmap, one bit per atom (32 B for 256 atoms), set and cleared by
// ATOM_ACTIVATE / ATOM_DEACTIVATE; a lookup honours an atom only while its bit is set.
//
// What we chose: 256 bits (hints::kMaxAtoms), all clear at first. activate()/deactivate() of an
// id of 256 or more throw std::invalid_argument (the runtime hands out ids below 256, so it is a
// caller's error); isActive() of such an id is false, so the lookup path never throws.
#pragma once
#include <bitset>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "hints/atoms.h"

namespace warpsim::mech::xmem {

class AtomStatusTable {
 public:
  void activate(uint32_t atom) { active_.set(checked("activate", atom)); }
  void deactivate(uint32_t atom) { active_.reset(checked("deactivate", atom)); }
  bool isActive(uint32_t atom) const { return atom < hints::kMaxAtoms && active_.test(atom); }
  uint32_t activeCount() const { return static_cast<uint32_t>(active_.count()); }
  // Every atom inactive (a new application's table).
  void clear() { active_.reset(); }

 private:
  static size_t checked(const char* operation, uint32_t atom) {
    if (atom >= hints::kMaxAtoms) {
      throw std::invalid_argument(std::string("AtomStatusTable::") + operation + ": atom " + std::to_string(atom) +
                                  " is not below " + std::to_string(hints::kMaxAtoms));
    }
    return atom;
  }

  std::bitset<hints::kMaxAtoms> active_;
};

}  // namespace warpsim::mech::xmem
