// What the scalar-execution rules need to know about an instruction beyond its registers: its
// scalar class (ALU, SFU, memory, or never scalar) and whether every non-register input is the
// same in every lane (digest gscalar s5.5: immediates are scalar, lane-varying special
// registers and predicate data operands are not). A load or store of per-thread memory (local,
// call-frame parameters) is never scalar: equal addresses name a different location per thread.
#pragma once
#include "func/exec_record.h"
#include "ir/instr.h"
#include "mech/gscalar/register_state.h"
#include "timing/sm/unit_class.h"

namespace warpsim::mech::gscalar {

struct InstructionTraits {
  ScalarClass cls = ScalarClass::None;
  bool uniformInputs = true;
};

InstructionTraits traitsOf(const func::ExecRecord& record, timing::UnitClass unit);

}  // namespace warpsim::mech::gscalar
