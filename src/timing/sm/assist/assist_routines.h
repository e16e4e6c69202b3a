// The assist warp store: subroutines that assist warps run, written in PTX and compiled by
// warpsim's own front end, so that they execute functionally on real data and their
// instructions, registers and issue slots are real (assist_executor.h runs them).
//
// A routine is an .entry function of the store's module. Its contract with the executor:
//   - its kernel parameters are its live-ins: the values the controller copies from the parent
//     warp's registers (each ld.param is that copy, one MOVE instruction);
//   - its shared memory is its staging buffer: the bytes of the data it works on (a cache line
//     the parent warp's access brought, for instance) are placed at offset 0 before it runs, and
//     what it leaves there is its output;
//   - it runs as one warp of 32 lanes, touches no global, local or constant memory, and ends
//     with exit or ret.
// Its registers live in the parent warp's register space above the kernel's own (the extra
// registers per thread the occupancy calculation adds: maxRegisters()).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "func/program.h"
#include "ir/module.h"
#include "timing/sm/decoded_program.h"

namespace warpsim::timing {

class AssistRoutineStore {
 public:
  // Links `module` (its routines may declare shared variables, no global or constant ones).
  // `registers`, when given, are the registers per thread of each function (a module whose
  // registers were allocated: compiler/register_allocation.h); otherwise each named virtual
  // register counts (two for a 64-bit one). Throws std::runtime_error naming the module when it
  // cannot serve as a store.
  explicit AssistRoutineStore(ir::Module module, std::vector<uint32_t> registers = {});
  AssistRoutineStore(const AssistRoutineStore&) = delete;
  AssistRoutineStore& operator=(const AssistRoutineStore&) = delete;

  // The routine's id (its function index), or -1.
  int find(const std::string& name) const;
  // Same, throwing std::runtime_error when the store has no such routine.
  uint32_t require(const std::string& name) const;
  const std::string& name(uint32_t routine) const;
  // Value registers (32-bit slots of the register file; a 64-bit register takes two) a
  // routine uses per thread, and the most any routine uses.
  uint32_t registers(uint32_t routine) const { return registers_[routine]; }
  uint32_t maxRegisters() const { return maxRegisters_; }
  uint32_t sharedBytes(uint32_t routine) const { return program_->staticSharedBytes(routine); }
  uint32_t paramBytes(uint32_t routine) const;

  const func::Program& program() const { return *program_; }
  const DecodedProgram& decoded() const { return decoded_; }

 private:
  std::unique_ptr<func::Program> program_;
  DecodedProgram decoded_;
  std::vector<uint32_t> registers_;
  uint32_t maxRegisters_ = 0;
};

}  // namespace warpsim::timing
