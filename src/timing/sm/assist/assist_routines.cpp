#include "timing/sm/assist/assist_routines.h"

#include <stdexcept>
#include <vector>

namespace warpsim::timing {

namespace {

constexpr uint32_t kInstructionBytes = 8, kLineBytes = 128;  // addresses of the store's code

}  // namespace

AssistRoutineStore::AssistRoutineStore(ir::Module module, std::vector<uint32_t> registers) {
  for (const ir::Symbol& s : module.symbols) {
    if (s.space == ir::Space::Global || s.space == ir::Space::Const)
      throw std::runtime_error(module.sourceName + ": assist routines may not use global or "
                               "constant variables ('" + s.name + "')");
  }
  const std::vector<uint64_t> noAddresses(module.symbols.size(), 0);
  program_ = std::make_unique<func::Program>(func::Program::link(module, noAddresses));
  decoded_.build(*program_, kInstructionBytes, kLineBytes);
  const std::vector<ir::Function>& functions = program_->module().functions;
  if (!registers.empty() && registers.size() != functions.size())
    throw std::runtime_error(program_->module().sourceName + ": register counts for " +
                             std::to_string(registers.size()) + " of " +
                             std::to_string(functions.size()) + " routines");
  for (size_t i = 0; i < functions.size(); ++i) {
    const ir::Function& f = functions[i];
    uint32_t slots = 0;
    if (!registers.empty()) {
      slots = registers[i];
    } else {
      for (const ir::RegInfo& r : f.regs)
        if (!r.name.empty()) slots += r.bits > 32 ? 2 : 1;  // constants need no register
    }
    registers_.push_back(slots);
    if (f.isEntry && slots > maxRegisters_) maxRegisters_ = slots;
  }
}

int AssistRoutineStore::find(const std::string& name) const { return program_->findKernel(name); }

uint32_t AssistRoutineStore::require(const std::string& name) const {
  const int r = find(name);
  if (r < 0)
    throw std::runtime_error(program_->module().sourceName + ": no assist routine '" + name + "'");
  return static_cast<uint32_t>(r);
}

const std::string& AssistRoutineStore::name(uint32_t routine) const {
  return program_->module().functions[routine].name;
}

uint32_t AssistRoutineStore::paramBytes(uint32_t routine) const {
  return program_->module().functions[routine].kernelParamBytes;
}

}  // namespace warpsim::timing
