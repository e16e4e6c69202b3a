// A linked module: instructions bound to executors, module-symbol addresses folded in, and the
// shared-memory layout of every kernel. Immutable once linked; one Program serves any number of
// launches (and simulations) at the same time.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "func/linked_instr.h"
#include "ir/module.h"

namespace warpsim::func {

class LinkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LinkedFunction {
  std::vector<LinkedInstr> code;
  // Initial register block of a frame: numRegs * 32 lane slots, zero except the constant
  // registers (immediates and folded global/const symbol addresses in every lane).
  std::vector<uint64_t> regTemplate;
  // Constant registers holding a shared symbol's address: filled per kernel when a frame starts.
  struct SharedConst {
    uint32_t reg;
    uint32_t symbol;
    int64_t addend;
  };
  std::vector<SharedConst> sharedConsts;
  uint32_t numRegs = 0, numPreds = 0;
  uint32_t frameParamBytes = 0, localBytes = 0, localAlign = 8;
};

// Where a kernel's shared variables sit in the CTA's shared memory: module-scope .shared
// variables referenced by the kernel or anything it calls, in declaration order, each aligned;
// dynamic (extern) shared memory starts after them.
struct SharedLayout {
  std::vector<uint32_t> symbolOffset;  // per Module::symbols index; kUnplaced if not referenced
  uint32_t staticBytes = 0;
  uint32_t dynamicBase = 0;            // offset of extern .shared arrays
  static constexpr uint32_t kUnplaced = 0xFFFFFFFFu;
};

class Program {
 public:
  // symbolAddress[i]: device address of Module::symbols[i] for .global/.const symbols (ignored
  // for .shared). Throws LinkError "file:line: error: ..." for unsupported instructions and
  // referenced symbols without an address.
  static Program link(const ir::Module& m, const std::vector<uint64_t>& symbolAddress);

  const ir::Module& module() const { return module_; }
  // Index of the .entry function `name`, or -1.
  int findKernel(const std::string& name) const;
  const LinkedFunction& function(uint32_t f) const { return functions_[f]; }
  const SharedLayout& sharedLayout(uint32_t f) const { return layouts_[f]; }
  // Bytes of module-scope shared variables used by `function` and its callees.
  uint32_t staticSharedBytes(uint32_t function) const { return layouts_[function].staticBytes; }
  // Offset of dynamic shared memory (extern .shared) for `function`.
  uint32_t dynamicSharedBase(uint32_t function) const { return layouts_[function].dynamicBase; }

  // [begin, end) of device addresses.
  struct AddressRange {
    uint64_t begin = 0, end = 0;
    bool contains(uint64_t a) const { return a - begin < end - begin; }
  };
  // The addresses of the module's .const variables: from the lowest to the end of the highest
  // (empty without any). The loader places a module's .const variables in one block, as a GPU
  // puts them in one constant bank, so nothing else lies in it (isspacep.const tests it).
  AddressRange constWindow() const { return constWindow_; }

 private:
  ir::Module module_;
  std::vector<LinkedFunction> functions_;
  std::vector<SharedLayout> layouts_;
  AddressRange constWindow_;
};

}  // namespace warpsim::func
