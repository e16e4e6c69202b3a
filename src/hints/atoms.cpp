#include "hints/atoms.h"

#include <fmt/format.h>

namespace warpsim::hints {

namespace {

constexpr uint32_t kKnownDataProperties = WARPSIM_ATOM_INT32 | WARPSIM_ATOM_FLOAT32 | WARPSIM_ATOM_CHAR8 |
                                          WARPSIM_ATOM_SPARSE | WARPSIM_ATOM_APPROXIMABLE | WARPSIM_ATOM_POINTER |
                                          WARPSIM_ATOM_INDEX;

}  // namespace

std::string checkAtom(uint32_t dataProperties, const warpsimAtomAccessPattern& pattern, int32_t rw) {
  if (dataProperties & ~kKnownDataProperties) {
    return fmt::format("CreateAtom: data_properties (0x{:x}) has bits that are none of WARPSIM_ATOM_INT32 .. "
                       "WARPSIM_ATOM_INDEX (0x{:x})",
                       dataProperties, kKnownDataProperties);
  }
  if (pattern.type < WARPSIM_ATOM_REGULAR || pattern.type > WARPSIM_ATOM_NON_DET) {
    return fmt::format("CreateAtom: pattern.type ({}) is not REGULAR (1), IRREGULAR (2) or NON_DET (3)",
                       pattern.type);
  }
  if (pattern.type == WARPSIM_ATOM_REGULAR && pattern.stride_bytes == 0) {
    return "CreateAtom: pattern.stride_bytes is 0 for a REGULAR pattern (give its stride in bytes)";
  }
  if (pattern.type != WARPSIM_ATOM_REGULAR && pattern.stride_bytes != 0) {
    return fmt::format("CreateAtom: pattern.stride_bytes ({}) is given for a pattern that is not REGULAR",
                       pattern.stride_bytes);
  }
  if (rw < WARPSIM_ATOM_READ_ONLY || rw > WARPSIM_ATOM_WRITE_ONLY) {
    return fmt::format("CreateAtom: rw ({}) is not READ_ONLY (1), READ_WRITE (2) or WRITE_ONLY (3)", rw);
  }
  return "";
}

AtomAttributes atomAttributes(uint32_t dataProperties, const warpsimAtomAccessPattern& pattern, uint8_t reuse,
                              int32_t rw) {
  AtomAttributes a;
  a.dataProperties = dataProperties;
  a.pattern = static_cast<AtomPattern>(pattern.type);
  a.strideBytes = pattern.stride_bytes;
  a.rw = static_cast<AtomRw>(rw);
  a.intensity = pattern.intensity;
  a.reuse = reuse;
  return a;
}

const char* atomOpName(AtomOp::Kind kind) {
  switch (kind) {
    case AtomOp::Kind::Map: return "AtomMap";
    case AtomOp::Kind::Unmap: return "AtomUnmap";
    case AtomOp::Kind::Activate: return "AtomActivate";
    case AtomOp::Kind::Deactivate: return "AtomDeactivate";
  }
  return "Atom";
}

std::string checkAtomId(const AtomOp& op, size_t atoms) {
  if (op.atom < atoms) return "";
  return fmt::format("{}: atom {} was never created (the program has {} atoms)", atomOpName(op.kind), op.atom, atoms);
}

std::string outsideAllocation(const AtomOp& op) {
  return fmt::format("{}: [0x{:x}, 0x{:x}) of atom {} is not inside one device allocation", atomOpName(op.kind),
                     op.base, op.end(), op.atom);
}

std::string checkAtomOp(const AtomOp& op) {
  if (!op.isMapping()) return "";
  const char* name = atomOpName(op.kind);
  if (op.sizeX == 0 || op.sizeY == 0 || op.sizeZ == 0) {
    return fmt::format("{}: the block is empty (sizeX {}, sizeY {}, sizeZ {})", name, op.sizeX, op.sizeY, op.sizeZ);
  }
  if (op.sizeX > op.lenX) {
    return fmt::format("{}: sizeX ({}) is larger than the row length lenX ({})", name, op.sizeX, op.lenX);
  }
  if (op.sizeZ > 1 && op.sizeY > op.lenY) {
    return fmt::format("{}: sizeY ({}) is larger than the plane's rows lenY ({})", name, op.sizeY, op.lenY);
  }
  // end() must not wrap: ((sizeZ - 1) * lenY + (sizeY - 1)) * lenX + sizeX more than base.
  uint64_t rows = 0, bytes = 0, end = 0;
  if (__builtin_mul_overflow(op.sizeZ - 1, op.lenY, &rows) || __builtin_add_overflow(rows, op.sizeY - 1, &rows) ||
      __builtin_mul_overflow(rows, op.lenX, &bytes) || __builtin_add_overflow(bytes, op.sizeX, &bytes) ||
      __builtin_add_overflow(op.base, bytes, &end)) {
    return fmt::format("{}: the block from 0x{:x} runs past the end of the address space", name, op.base);
  }
  return "";
}

}  // namespace warpsim::hints
