#include "timing/sm/unit_class.h"

namespace warpsim::timing {

const char* unitClassName(UnitClass unit) {
  switch (unit) {
    case UnitClass::Alu: return "alu";
    case UnitClass::Sfu: return "sfu";
    case UnitClass::Fp64: return "fp64";
    case UnitClass::Lsu: return "lsu";
    case UnitClass::Tensor: return "tensor";
  }
  return "alu";
}

UnitClass unitFor(ir::OpClass cls) {
  switch (cls) {
    case ir::OpClass::Sfu: return UnitClass::Sfu;
    case ir::OpClass::Fp64: return UnitClass::Fp64;
    case ir::OpClass::Load: case ir::OpClass::Store: case ir::OpClass::Atomic: return UnitClass::Lsu;
    default: return UnitClass::Alu;
  }
}

}  // namespace warpsim::timing
