// Which shared variables (shared_liveness.h) each instruction of a function accesses, for the
// "zorua-phases" pass.
//
// Accesses are ld / st / atom / red in the .shared state space, and generic ld / st / atom / red
// whose address derives from a shared variable. The variable is found by following the address
// register back through its reaching definitions: `mov` of a shared symbol's address (also as a
// folded constant), `cvta` (to or from .shared), and arithmetic that carries a pointer (add, sub,
// mad, mul, shl, shr, and, or, xor, not, cvt, mov, selp, slct, min, max and their 24-bit and
// carry forms) pass the symbols of their sources on; any other definition (a load, a parameter,
// a special register, ...) is plain data. An address whose variable cannot be determined that
// way counts as an access to every variable of the kernel (conservative):
//  * a .shared access with no register and no symbol, or whose register derives from no symbol;
//  * a register that may hold a symbol-derived pointer on one path and plain data on another
//    (reaching definitions of both kinds, or a selp/slct/min/max mixing them);
//  * a generic pointer made by cvta.shared from plain data (it points into shared memory, but
//    where is unknown).
// A generic access whose register derives from no shared symbol is not a shared access. Calls
// are left out here (the pass adds what each callee accesses).
#pragma once
#include <cstdint>
#include <vector>

#include "ir/module.h"
#include "mech/zorua/shared_liveness.h"

namespace warpsim::mech::zorua {

struct SharedAccesses {
  std::vector<uint64_t> access;  // per instruction: variables it accesses
  uint32_t accesses = 0;         // instructions accessing shared memory
  uint32_t unknown = 0;          // of those, with an undetermined variable (every variable)
};

SharedAccesses findSharedAccesses(const ir::Function& f, const SharedVariables& vars);

}  // namespace warpsim::mech::zorua
