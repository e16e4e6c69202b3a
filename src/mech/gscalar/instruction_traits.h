// What the scalar-execution rules need to know about an instruction beyond its registers: its
// scalar class (ALU, SFU, memory, or never scalar) and whether every non-register input is the
// same in every lane (digest gscalar s5.5: immediates are scalar, lane-varying special
// registers and predicate data operands are not). A load or store of per-thread memory (local,
// call-frame parameters) is never scalar: equal addresses name a different location per thread.
//
// All of it but one point is static: the compiler pass "gscalar-traits" (traits_pass.cpp)
// computes it once per instruction and publishes it as an annotation table of that name; the
// register-file model reads it in O(1) at operand collection and only checks, for a generic
// memory access, the space each lane's address resolved to.
#pragma once
#include "func/exec_record.h"
#include "func/linked_instr.h"
#include "mech/gscalar/register_state.h"

namespace warpsim::mech::gscalar {

inline constexpr const char* kTraitsPass = "gscalar-traits";

struct InstructionTraits {
  ScalarClass cls = ScalarClass::None;
  bool uniformInputs = true;
  bool genericAccess = false;  // a generic memory access: not scalar if a lane's address is per-thread
};

// The static traits of a linked instruction (what the pass publishes).
InstructionTraits staticTraitsOf(const func::LinkedInstr& instr);
// The traits of one execution: the static ones, or none (never scalar) when a generic access
// resolved to per-thread memory in an active lane.
InstructionTraits traitsOf(const InstructionTraits& statics, const func::ExecRecord& record);

}  // namespace warpsim::mech::gscalar
