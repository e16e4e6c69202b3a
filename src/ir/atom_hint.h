// The arguments of an atom_hint instruction (Op::AtomHint: a call to one of warpsim's device atom
// functions, include/warpsim/xmem.h), shared by the PTX front end, which checks the callee's
// declaration against them, and the engine, which reads them from the caller's frame params.
//   Map:        atom, start, size, map_or_unmap
//   Map2D:      atom, start, lenX, sizeX, sizeY, map_or_unmap
//   Map3D:      atom, start, lenX, lenY, sizeX, sizeY, sizeZ, map_or_unmap
//   Activate, Deactivate: atom
// atom and map_or_unmap are 32-bit integers, the rest 64-bit (pointers, size_t).
#pragma once
#include <cstdint>
#include <span>

#include "ir/instr.h"

namespace warpsim::ir {

inline constexpr unsigned kMaxAtomHintArgs = 8;

// The sizes, in bytes, of the arguments of `op`, in order.
inline std::span<const uint8_t> atomHintParams(AtomHintOp op) {
  static constexpr uint8_t kMap[] = {4, 8, 8, 4};
  static constexpr uint8_t kMap2D[] = {4, 8, 8, 8, 8, 4};
  static constexpr uint8_t kMap3D[] = {4, 8, 8, 8, 8, 8, 8, 4};
  static constexpr uint8_t kAtom[] = {4};
  switch (op) {
    case AtomHintOp::Map: return kMap;
    case AtomHintOp::Map2D: return kMap2D;
    case AtomHintOp::Map3D: return kMap3D;
    case AtomHintOp::Activate:
    case AtomHintOp::Deactivate: return kAtom;
  }
  return kAtom;
}

}  // namespace warpsim::ir
