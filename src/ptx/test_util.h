// Test-only helpers: wrap instruction lines in a minimal kernel and inspect the result.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "ptx/parser.h"

namespace warpsim::ptx::testing {

// The module header of the tests' PTX (lines 1-3): PTX 8.0 for sm_80, 64-bit addresses.
inline const std::string kModuleHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// Line of the first body line in the text built by kernelText() (moduleDecls on one line).
inline constexpr uint32_t kBodyLine = 10;

// A kernel `k` with params k_param_0 (.u64) and k_param_1 (.u32) and these registers, in this
// order: %p0-3 (.pred), %rs0-7 (.b16), %r0-15 (.b32), %f0-7 (.f32), %rd0-7 (.b64), %fd0-3 (.f64).
inline std::string kernelText(const std::string& body, const std::string& moduleDecls = "") {
  return kModuleHeader +
         (moduleDecls.empty() ? std::string("// no module declarations") : moduleDecls) +
         "\n"
         ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n"
         "{\n"
         ".reg .pred %p<4>; .reg .b16 %rs<8>; .reg .b32 %r<16>;\n"
         ".reg .f32 %f<8>; .reg .b64 %rd<8>; .reg .f64 %fd<4>;\n"
         "$L__entry:\n" +
         body + "\n}\n";
}

inline ir::Module parseKernel(const std::string& body, const std::string& moduleDecls = "") {
  return parseModule(kernelText(body, moduleDecls), "t.ptx");
}

// The first instruction of kernel k built from one line.
inline ir::Instr parseOne(const std::string& line) {
  ir::Module m = parseKernel(line);
  const ir::Function& f = m.functions.at(m.findFunction("k"));
  EXPECT_FALSE(f.code.empty());
  return f.code.empty() ? ir::Instr{} : f.code[0];
}

// what() of the ParseError the text raises, or "no error".
inline std::string errorOf(const std::string& text, const std::string& name = "t.ptx") {
  try {
    parseModule(text, name);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}
inline std::string kernelError(const std::string& body, const std::string& moduleDecls = "") {
  return errorOf(kernelText(body, moduleDecls));
}

// Register index of `name` in the register table of function f (-1 if absent).
inline int regIndex(const ir::Function& f, const std::string& name) {
  for (size_t i = 0; i < f.regs.size(); ++i)
    if (f.regs[i].name == name) return static_cast<int>(i);
  return -1;
}
inline int predIndex(const ir::Function& f, const std::string& name) {
  for (size_t i = 0; i < f.preds.size(); ++i)
    if (f.preds[i] == name) return static_cast<int>(i);
  return -1;
}

// Fixed indices of the registers declared by kernelText().
inline uint32_t RS(unsigned i) { return i; }
inline uint32_t R(unsigned i) { return 8 + i; }
inline uint32_t F(unsigned i) { return 24 + i; }
inline uint32_t RD(unsigned i) { return 32 + i; }
inline uint32_t FD(unsigned i) { return 40 + i; }

}  // namespace warpsim::ptx::testing
