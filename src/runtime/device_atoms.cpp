// Device's XMem atom operations: the block must lie in device memory, so that a mistaken pointer
// is reported where the program made it rather than silently describing nothing.
#include <fmt/format.h>

#include "func/device_memory.h"
#include "runtime/device.h"

namespace warpsim::runtime {

void Device::issueAtomOp(const hints::AtomOp& op) {
  if (op.isMapping()) {
    if (std::string why = hints::checkAtomOp(op); !why.empty()) throw Error(why);
    const uint64_t end = op.end();
    if (!memory().isMapped(op.base, end - op.base)) {
      throw Error(fmt::format("{}: [0x{:x}, 0x{:x}) of atom {} is not inside one device allocation",
                              op.kind == hints::AtomOp::Kind::Map ? "AtomMap" : "AtomUnmap", op.base, end, op.atom));
    }
  }
  hints_.atoms().issue(op);
}

}  // namespace warpsim::runtime
