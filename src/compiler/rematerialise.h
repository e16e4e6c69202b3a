// Which spilled values can be re-computed before each use instead of going through memory.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/function_registers.h"

namespace warpsim::compiler {

// Per value register: the index of its defining instruction when the value is
// rematerialisable, else kNoTarget. Rematerialisable: exactly one def, unguarded, writing only
// this register, and reading no value register except hidden constants: a `mov` of an
// immediate, of a symbol address or of a special register that cannot change during the
// kernel (%tid %ntid %ctaid %nctaid %laneid %gridid %nsmid), or a non-volatile `ld.param` from
// the kernel argument buffer.
std::vector<uint32_t> rematerialisableDefs(const FunctionRegisters& regs);

}  // namespace warpsim::compiler
