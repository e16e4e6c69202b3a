#include "compiler/code_rebuild.h"

namespace warpsim::compiler {

void rebuildCode(ir::Function& f, std::vector<InstrEdit>& edits) {
  const size_t n = f.code.size();
  std::vector<uint32_t> newIndex(n + 1, 0);
  std::vector<ir::Instr> code;
  code.reserve(n + n / 4);
  for (size_t i = 0; i < n; ++i) {
    newIndex[i] = static_cast<uint32_t>(code.size());
    InstrEdit& e = edits[i];
    for (ir::Instr& in : e.before) code.push_back(std::move(in));
    if (!e.remove) code.push_back(f.code[i]);
    for (ir::Instr& in : e.after) code.push_back(std::move(in));
  }
  newIndex[n] = static_cast<uint32_t>(code.size());
  for (ir::Instr& in : code)
    if (in.op == ir::Op::Bra && in.target != ir::kNoTarget && in.target <= n) in.target = newIndex[in.target];
  f.code = std::move(code);
}

}  // namespace warpsim::compiler
