// Device's XMem atom operations: the block must lie in device memory, so that a mistaken pointer
// is reported where the program made it rather than silently describing nothing.
#include "func/device_memory.h"
#include "runtime/device.h"

namespace warpsim::runtime {

void Device::issueAtomOp(const hints::AtomOp& op) {
  if (op.isMapping()) {
    if (std::string why = hints::checkAtomOp(op); !why.empty()) throw Error(why);
    if (!memory().isMapped(op.base, op.end() - op.base)) throw Error(hints::outsideAllocation(op));
  }
  hints_.atoms().issue(op);
}

}  // namespace warpsim::runtime
