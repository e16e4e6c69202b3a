// The register-allocation stage: rewrites a parsed module so that every function uses a fixed
// number of 32-bit physical registers per thread and a small predicate file, with real spill
// code (st.local / ld.local into a per-thread spill area after the function's own local frame),
// like ptxas does for the GPU's native ISA. It runs before the module is linked, so functional
// and timing mode execute the allocated program alike and every later pass, the timing model
// and the statistics see physical registers (docs/design/register-allocation.md).
//
// After allocation, in every allocated function:
//  * value registers 0 .. registers-1 are the physical registers R0 .. R(n-1); a 64-bit value
//    occupies an aligned pair (R2k, R2k+1) and is held in register index 2k; 8- and 16-bit
//    values take a whole register; hidden constant registers (immediates, ir/instr.h) follow
//    the physical ones and are not counted;
//  * predicate registers 0 .. predicates-1 are the physical predicates P0 .. P(n-1);
//  * inserted instructions carry the PTX line of the instruction they serve and the flag
//    ir::kSpill (spill and call-save loads and stores) or ir::kRemat (re-computed values);
//  * Function::localBytes includes the spill area; ir::analyze has been re-run.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace warpsim::compiler {

// What to allocate onto: [compiler] registers = "off" | "minimal" | N, --max-registers.
struct RegisterBudget {
  enum class Mode : uint8_t {
    Off,      // no allocation: the program runs on its virtual registers
    Minimal,  // the fewest registers that need no spill code
    Limit,    // at most `registers` registers, spilling the rest (nvcc -maxrregcount=N)
  };
  // A kernel's .maxnreg caps either mode for that kernel, as it caps ptxas.
  Mode mode = Mode::Off;
  uint32_t registers = 0;   // Limit only: 1 .. 255
  uint32_t predicates = 7;  // physical predicate registers (7 on NVIDIA GPUs)

  bool on() const { return mode != Mode::Off; }
  static RegisterBudget off() { return {}; }
  static RegisterBudget minimal() { return {Mode::Minimal, 0, 7}; }
  static RegisterBudget limit(uint32_t n) { return {Mode::Limit, n, 7}; }
};

// Parses "off", "minimal" or a register count 1..255. Throws std::invalid_argument with a
// one-line message naming the text otherwise.
RegisterBudget parseRegisterBudget(std::string_view text);
// "off", "minimal" or the number.
std::string toString(const RegisterBudget& budget);

// What the allocator did to one function.
struct FunctionAllocation {
  bool allocated = false;           // false for extern declarations (and when off)
  uint32_t virtualRegisters = 0;    // value registers before allocation (constants excluded)
  uint32_t registers = 0;           // physical registers this function uses (highest + 1)
  uint32_t predicates = 0;          // physical predicates used
  uint32_t feasibleMinimum = 0;     // smallest budget that can hold every instruction's operands
  uint32_t spillSlots = 0;          // values given a slot in the spill area
  uint32_t spillBase = 0;           // offset of the spill area in the function's local frame
  uint32_t spillBytes = 0;          // size of the spill area per thread
  uint32_t spillLoads = 0, spillStores = 0;          // inserted ld.local / st.local (static)
  uint32_t spillLoadBytes = 0, spillStoreBytes = 0;  // their bytes per thread (static)
  uint32_t callSaves = 0;           // of those stores: values saved around calls
  uint32_t rematerialised = 0;      // inserted re-computations instead of spill loads
  uint32_t coalescedMoves = 0;      // register moves removed by coalescing
  uint32_t rounds = 0;              // colouring rounds (1 + spill rounds)
};

struct ModuleAllocation {
  RegisterBudget budget;
  std::vector<FunctionAllocation> functions;  // per ir::Module::functions index

  // Registers a launch of kernel `entry` needs: the most any function it can reach uses
  // (callees reuse the caller's physical registers; live values are saved around calls).
  uint32_t kernelRegisters(const ir::Module& m, uint32_t entry) const;
};

// Thrown when a budget cannot hold some instruction's operands; what() is one line:
//   "<file>: kernel '<name>': a budget of N registers cannot hold the operands of the
//    instruction at line L (it needs M); the smallest feasible budget is F"
class AllocationError : public std::runtime_error {
 public:
  AllocationError(const std::string& message, uint32_t feasibleMinimum)
      : std::runtime_error(message), feasibleMinimum_(feasibleMinimum) {}
  uint32_t feasibleMinimum() const { return feasibleMinimum_; }

 private:
  uint32_t feasibleMinimum_;
};

// Allocates every non-extern function of `m` in place (nothing when the budget is off).
// Deterministic: the same module and budget give the same program.
ModuleAllocation allocateRegisters(ir::Module& m, const RegisterBudget& budget);
// The same for the functions whose entry in `only` (per ir::Module::functions) is true; the
// others keep their virtual registers (FunctionAllocation::allocated false). Callers that
// allocate a kernel also allocate every function it calls (reachableFunctions).
ModuleAllocation allocateRegisters(ir::Module& m, const RegisterBudget& budget,
                                   const std::vector<bool>& only);
// `entry` and every function it can call, directly or not (per ir::Module::functions).
std::vector<bool> reachableFunctions(const ir::Module& m, uint32_t entry);

// The function as PTX-like text: one instruction per line with physical register names
// (%R5, %RD4 for the pair R4:R5, %P2), spill code marked, and the PTX source line of each
// instruction; for `warpsim ptx-check --allocate`.
std::string allocatedText(const ir::Module& m, uint32_t function, const FunctionAllocation& a);

}  // namespace warpsim::compiler
