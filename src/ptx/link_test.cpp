// Linking separately compiled units (-rdc=true): declarations resolve across units, file-scope
// names stay apart, and conflicts and unresolved names are one-line errors naming unit and line.
#include "ptx/link.h"

#include <gtest/gtest.h>

#include "ptx/parse_error.h"
#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using testing::kModuleHeader;

// What nvcc -rdc=true emits for a kernel calling a __device__ function and reading an extern
// __device__ variable of another unit (the first line is line 4).
std::string caller() {
  return kModuleHeader +
         ".extern .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0);\n"  // 4
         ".extern .global .align 4 .u32 scale;\n"                                           // 5
         ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"                                  // 6
         ".visible .entry k(.param .u64 k_param_0)\n"                                       // 7
         "{\n"
         ".reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
         "ld.param.u64 %rd1, [k_param_0];\n"                                                // 10
         "mov.u32 %r1, %tid.x;\n"
         "{ .param .b32 param0; st.param.b32 [param0], %r1;\n"                              // 12
         ".param .b32 retval0;\n"
         "call.uni (retval0), twice, (param0);\n"                                           // 14
         "ld.param.b32 %r2, [retval0]; }\n"
         "ld.global.u32 %r3, [scale];\n"                                                    // 16
         "mov.u64 %rd2, $str;\n"
         "st.global.u32 [%rd1], %r2;\n"
         "ret;\n"
         "}\n";
}

std::string callee() {
  return kModuleHeader +
         ".visible .global .align 4 .u32 scale = 3;\n"                                      // 4
         ".global .align 1 .b8 $str[4] = {98, 121, 101, 0};\n"                              // 5
         ".visible .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n"     // 6
         "{\n"
         ".reg .b32 %r<3>;\n"
         "ld.param.u32 %r1, [twice_param_0];\n"
         "shl.b32 %r2, %r1, 1;\n"
         "st.param.b32 [func_retval0], %r2;\n"
         "ret;\n"
         "}\n";
}

std::string linkErrorOf(const std::vector<Unit>& units) {
  try {
    parseLinked(units, "linked.ptx");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Link, DeclarationsResolveToTheDefiningUnit) {
  const std::string a = caller(), b = callee();
  const ir::Module m = parseLinked({{a, "a.ptx"}, {b, "b.ptx"}}, "linked.ptx");
  EXPECT_EQ(m.sourceName, "linked.ptx");
  ASSERT_EQ(m.functions.size(), 2u);  // k, twice: the declaration is gone
  const ir::Function& k = m.functions[0];
  const ir::Function& twice = m.functions[1];
  EXPECT_EQ(k.name, "k");
  EXPECT_EQ(twice.name, "twice");
  EXPECT_FALSE(twice.isExtern);
  ASSERT_EQ(k.calls.size(), 1u);
  EXPECT_EQ(k.calls[0].callee, 1u);
  // Symbols: a's $str, b's scale and $str (file scope: both stay, apart), no declaration.
  ASSERT_EQ(m.symbols.size(), 3u);
  EXPECT_EQ(m.symbols[0].name, "$str");
  EXPECT_EQ(m.symbols[0].size, 3u);
  EXPECT_EQ(m.symbols[1].name, "scale");
  EXPECT_FALSE(m.symbols[1].isExtern);
  EXPECT_EQ(m.symbols[2].name, "$str");
  EXPECT_EQ(m.symbols[2].size, 4u);
  // k's load of `scale` and its `$str` name the linked indices.
  const ir::Instr* load = nullptr;
  for (const ir::Instr& in : k.code)
    if (in.op == ir::Op::Ld && in.space == ir::Space::Global) load = &in;
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->ops[1].symbol, 1u);
  bool strInA = false;
  for (const ir::ConstReg& c : k.constRegs) strInA |= c.symbol == 0;
  EXPECT_TRUE(strInA);
  // Lines count in the units' texts one after another: a has 20 lines.
  EXPECT_EQ(load->line, 16u);
  EXPECT_EQ(k.calls[0].line, 14u);
  EXPECT_EQ(twice.line, 20u + 6u);
  EXPECT_EQ(m.symbols[1].line, 20u + 4u);
  EXPECT_EQ(joinUnits({{a, "a.ptx"}, {b, "b.ptx"}}), a + b);
}

TEST(Link, ConflictsAndUnresolvedNamesNameUnitAndLine) {
  const std::string a = caller(), b = callee();
  EXPECT_EQ(linkErrorOf({{a, "a.ptx"}, {b, "b.ptx"}, {b, "c.ptx"}}),
            "c.ptx:6: error: function 'twice' is defined twice (also at b.ptx:6)");
  const std::string scaleOnly = kModuleHeader + ".visible .global .align 4 .u32 scale = 5;\n";
  EXPECT_EQ(linkErrorOf({{a, "a.ptx"}, {b, "b.ptx"}, {scaleOnly, "c.ptx"}}),
            "c.ptx:4: error: variable 'scale' is defined twice (also at b.ptx:4)");
  const std::string noScale = kModuleHeader + callee().substr(callee().find('\n', callee().find("scale")) + 1);
  EXPECT_EQ(linkErrorOf({{a, "a.ptx"}, {noScale, "b.ptx"}}),
            "a.ptx:5: error: unresolved variable 'scale': no unit defines it");
  EXPECT_EQ(linkErrorOf({{a, "a.ptx"}}),
            "a.ptx:4: error: unresolved function 'twice': no unit defines it (warpsim provides "
            "only vprintf)");
  const std::string other = kModuleHeader +
                            ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\nret;\n}\n";
  EXPECT_EQ(linkErrorOf({{a, "a.ptx"}, {b, "b.ptx"}, {other, "c.ptx"}}),
            "c.ptx:4: error: function 'twice' is defined twice (also at b.ptx:6)");
  const std::string mismatch = kModuleHeader +
                               ".extern .func (.param .b64 r) twice(.param .b32 x);\n"
                               ".visible .entry k2()\n{\n.reg .b64 %rd<2>;\n"
                               "{ .param .b32 p0; st.param.b32 [p0], 1; .param .b64 r0;\n"
                               "call.uni (r0), twice, (p0); }\nret;\n}\n";
  EXPECT_EQ(linkErrorOf({{b, "b.ptx"}, {mismatch, "m.ptx"}}),
            "m.ptx:4: error: declaration of 'twice' does not match its definition at b.ptx:6");
}

TEST(Link, WeakAndCommonDefinitionsGiveWay) {
  const std::string weak = kModuleHeader +
                           ".weak .global .align 4 .u32 w = 1;\n"
                           ".common .global .align 4 .b8 c[4];\n"
                           ".weak .func (.param .b32 r) f()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1;\n"
                           "st.param.b32 [r], %r1;\nret;\n}\n";
  const std::string strong = kModuleHeader +
                             ".visible .global .align 4 .u32 w = 2;\n"
                             ".common .global .align 4 .b8 c[16];\n"
                             ".visible .func (.param .b32 r) f()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 2;\n"
                             "st.param.b32 [r], %r1;\nret;\n}\n";
  const ir::Module m = parseLinked({{weak, "weak.ptx"}, {strong, "strong.ptx"}}, "linked.ptx");
  ASSERT_EQ(m.symbols.size(), 2u);
  EXPECT_EQ(m.symbols[0].name, "w");
  EXPECT_EQ(m.symbols[0].init.at(0), 2);  // the .visible definition
  EXPECT_EQ(m.symbols[1].name, "c");
  EXPECT_EQ(m.symbols[1].size, 16u);  // the largest .common
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].linkage, ir::Linkage::Visible);
}

TEST(Link, UnusedDeclarationsStayOncePerName) {
  // Two units declaring vprintf (and calling it) keep one declaration; the calls reach it.
  auto printing = [](const char* kernel) {
    return kModuleHeader +
           ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
           ".extern .global .align 4 .u32 unused;\n"
           ".visible .entry " + kernel + "()\n{\n.reg .b64 %rd<2>;\n"
           "{ .param .b64 p0; st.param.b64 [p0], 0; .param .b64 p1; st.param.b64 [p1], 0;\n"
           ".param .b32 r0; call.uni (r0), vprintf, (p0, p1); }\nret;\n}\n";
  };
  const std::string a = printing("ka"), b = printing("kb");
  const ir::Module m = parseLinked({{a, "a.ptx"}, {b, "b.ptx"}}, "linked.ptx");
  ASSERT_EQ(m.functions.size(), 3u);
  EXPECT_EQ(m.functions[0].name, "ka");
  EXPECT_EQ(m.functions[1].name, "kb");
  EXPECT_EQ(m.functions[2].name, "vprintf");
  EXPECT_TRUE(m.functions[2].isExtern);
  EXPECT_EQ(m.functions[0].calls.at(0).callee, 2u);
  EXPECT_EQ(m.functions[1].calls.at(0).callee, 2u);
  EXPECT_TRUE(m.functions[1].calls.at(0).isPrintf);
  ASSERT_EQ(m.symbols.size(), 1u);
  EXPECT_TRUE(m.symbols[0].isExtern);
  // Two kernels of one name are two definitions of one visible name.
  EXPECT_EQ(linkErrorOf({{a, "a.ptx"}, {a, "a2.ptx"}}),
            "a2.ptx:6: error: function 'ka' is defined twice (also at a.ptx:6)");
}

TEST(Link, DeviceAtomFunctionsNeedNoDefinition) {
  // Their calls are atom_hint instructions whose callee never runs: a declaration is enough, in
  // each unit, and the units' .weak definitions (nvcc -rdc) give way to one.
  auto hinting = [](const char* kernel, const char* decl) {
    return kModuleHeader + decl + ".visible .entry " + kernel +
           "()\n{\n{ .param .b32 p0; st.param.b32 [p0], 0;\n"
           "call.uni warpsim_device_atom_activate, (p0); }\nret;\n}\n";
  };
  const char* extern_ = ".extern .func warpsim_device_atom_activate(.param .b32 a);\n";
  const ir::Module m =
      parseLinked({{hinting("ka", extern_), "a.ptx"}, {hinting("kb", extern_), "b.ptx"}}, "linked.ptx");
  ASSERT_EQ(m.functions.size(), 3u);
  EXPECT_EQ(m.functions[2].name, "warpsim_device_atom_activate");
  EXPECT_TRUE(m.functions[2].isExtern);
  EXPECT_TRUE(m.functions[1].calls.at(0).isAtomHint);
  EXPECT_EQ(m.functions[1].code.at(1).op, ir::Op::AtomHint);
  const char* weak = ".weak .func warpsim_device_atom_activate(.param .b32 a)\n{\nret;\n}\n";
  const ir::Module w = parseLinked({{hinting("ka", weak), "a.ptx"}, {hinting("kb", weak), "b.ptx"}}, "linked.ptx");
  int defined = 0;
  for (const ir::Function& f : w.functions) defined += f.name == "warpsim_device_atom_activate";
  EXPECT_EQ(defined, 1);
}

}  // namespace
}  // namespace warpsim::ptx
