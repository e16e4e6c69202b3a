// Functions: parameters, call sequences and frame-param offsets, local depots, function-scope
// shared variables, declarations, performance directives.
#include <gtest/gtest.h>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using ir::AddrBase;
using testing::errorOf;
using testing::kModuleHeader;

TEST(Functions, KernelParameterLayout) {
  ir::Module m = parseModule(kModuleHeader +
                             ".visible .entry k(\n"
                             ".param .u32 k_p0,\n"
                             ".param .u64 .ptr .global .align 1 k_p1,\n"
                             ".param .align 16 .b8 k_p2[20],\n"
                             ".param .u8 k_p3\n"
                             ")\n"
                             ".maxntid 256, 1, 1\n"
                             ".minnctapersm 2\n"
                             "{\nret;\n}\n");
  const auto& f = m.functions[0];
  EXPECT_TRUE(f.isEntry);
  EXPECT_FALSE(f.isExtern);
  ASSERT_EQ(f.params.size(), 4u);
  EXPECT_EQ(f.params[0].offset, 0u);
  EXPECT_EQ(f.params[1].offset, 8u);
  EXPECT_EQ(f.params[1].align, 8u);  // .align after .ptr is the pointee's
  EXPECT_TRUE(f.params[1].isPointer);
  EXPECT_EQ(f.params[2].offset, 16u);
  EXPECT_EQ(f.params[2].size, 20u);
  EXPECT_EQ(f.params[2].align, 16u);
  EXPECT_EQ(f.params[3].offset, 36u);
  EXPECT_EQ(f.kernelParamBytes, 37u);
  EXPECT_EQ(f.maxntid[0], 256u);
  EXPECT_EQ(f.maxntid[1], 1u);
  EXPECT_EQ(f.minnctapersm, 2u);
  EXPECT_EQ(f.line, 4u);
}

const char* kCallModule =
    ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
    ".func (.param .b32 func_retval0) _Z3fooi(.param .b32 _Z3fooi_param_0);\n"
    ".visible .entry k(.param .u64 k_param_0)\n"
    ".reqntid 128\n"
    "{\n"
    ".reg .b32 %r<4>;\n"
    ".reg .b64 %rd<4>;\n"
    "{ // callseq 0\n"
    ".param .b32 param0;\n"
    "st.param.b32 [param0], %r1;\n"
    ".param .b32 retval0;\n"
    "call.uni (retval0), _Z3fooi, (param0);\n"
    "ld.param.b32 %r2, [retval0];\n"
    "}\n"
    "{\n"
    ".param .b64 param0;\n"
    ".param .b64 param1;\n"
    ".param .b32 retval0;\n"
    "call.uni (retval0), vprintf, (param0, param1);\n"
    "}\n"
    "call.uni _Z3bari;\n"
    "ret;\n"
    "}\n"
    ".func (.param .b32 func_retval0) _Z3fooi(.param .b32 _Z3fooi_param_0)\n"
    ".noreturn\n"
    "{\n"
    ".reg .b32 %r<3>;\n"
    "ld.param.b32 %r1, [_Z3fooi_param_0];\n"
    "st.param.b32 [func_retval0+0], %r1;\n"
    "ret;\n"
    "}\n"
    ".func _Z3bari\n"
    "{\n"
    "ret;\n"
    "}\n";

TEST(Functions, CallSequencesAndFrameParams) {
  ir::Module m = parseModule(kModuleHeader + kCallModule, "c.ptx");
  ASSERT_EQ(m.functions.size(), 4u);
  int vp = m.findFunction("vprintf"), foo = m.findFunction("_Z3fooi"), k = m.findFunction("k"),
      bar = m.findFunction("_Z3bari");
  EXPECT_EQ(vp, 0);
  EXPECT_EQ(foo, 1);
  EXPECT_EQ(k, 2);
  EXPECT_EQ(bar, 3);
  EXPECT_TRUE(m.functions[vp].isExtern);
  EXPECT_FALSE(m.functions[foo].isExtern);  // declared first, defined later
  EXPECT_EQ(m.functions[k].reqntid[0], 128u);

  const auto& kf = m.functions[k];
  ASSERT_EQ(kf.calls.size(), 3u);
  const ir::CallSite& c0 = kf.calls[0];
  EXPECT_EQ(c0.callee, 1u);
  EXPECT_FALSE(c0.isPrintf);
  EXPECT_EQ(c0.argOffsets, (std::vector<uint32_t>{0}));
  EXPECT_EQ(c0.retOffsets, (std::vector<uint32_t>{4}));
  const ir::CallSite& c1 = kf.calls[1];
  EXPECT_TRUE(c1.isPrintf);
  EXPECT_EQ(c1.callee, 0u);
  EXPECT_EQ(c1.argOffsets, (std::vector<uint32_t>{0, 8}));  // the scope's area is reused
  EXPECT_EQ(c1.retOffsets, (std::vector<uint32_t>{16}));
  EXPECT_EQ(kf.calls[2].callee, 3u);  // defined after its use
  EXPECT_TRUE(kf.calls[2].argOffsets.empty());
  EXPECT_EQ(kf.frameParamBytes, 20u);

  // st.param / call / ld.param in the caller
  EXPECT_EQ(kf.code[0].op, ir::Op::St);
  EXPECT_EQ(kf.code[0].space, ir::Space::FrameParam);
  EXPECT_EQ(kf.code[0].src(0).base, AddrBase::FrameParam);
  EXPECT_EQ(kf.code[1].op, ir::Op::Call);
  EXPECT_EQ(kf.code[1].target, 0u);
  EXPECT_TRUE(kf.code[1].has(ir::kUni));
  EXPECT_EQ(kf.code[2].src(0).imm, 4);
  EXPECT_EQ(kf.code[3].target, 1u);
  EXPECT_EQ(kf.calls[0].line, 15u);

  // the callee reads its formal and writes its return value in its own frame
  const auto& ff = m.functions[foo];
  ASSERT_EQ(ff.params.size(), 1u);
  ASSERT_EQ(ff.rets.size(), 1u);
  EXPECT_EQ(ff.params[0].offset, 0u);
  EXPECT_EQ(ff.rets[0].offset, 4u);
  EXPECT_EQ(ff.frameParamBytes, 8u);
  EXPECT_EQ(ff.code[0].space, ir::Space::FrameParam);
  EXPECT_EQ(ff.code[0].src(0).imm, 0);
  EXPECT_EQ(ff.code[1].src(0).imm, 4);
}

TEST(Functions, LocalDepotAndLocalArrays) {
  ir::Module m = parseModule(kModuleHeader +
                             ".visible .entry k()\n{\n"
                             ".local .align 8 .b8 __local_depot0[40];\n"
                             ".local .align 4 .b8 extra[6];\n"
                             ".local .align 16 .b8 wide[16];\n"
                             ".reg .b64 %SP, %SPL;\n"
                             ".reg .b32 %r<2>;\n"
                             "mov.u64 %SPL, __local_depot0;\n"
                             "cvta.local.u64 %SP, %SPL;\n"
                             "ld.local.u32 %r1, [extra+2];\n"
                             "st.local.u32 [wide], %r1;\n"
                             "ret;\n}\n");
  const auto& f = m.functions[0];
  EXPECT_EQ(f.localBytes, 64u);  // 0..40, 40..46, 48..64
  EXPECT_EQ(f.localAlign, 16u);
  const ir::Operand& s = f.code[0].src(0);
  EXPECT_EQ(s.kind, ir::OperandKind::Symbol);
  EXPECT_EQ(s.base, AddrBase::FrameLocal);
  EXPECT_EQ(s.imm, 0);
  EXPECT_EQ(f.code[2].src(0).base, AddrBase::FrameLocal);
  EXPECT_EQ(f.code[2].src(0).imm, 42);
  EXPECT_EQ(f.code[3].src(0).imm, 48);
}

TEST(Functions, FunctionScopeSharedBecomesAModuleSymbol) {
  ir::Module m = parseModule(kModuleHeader +
                             ".visible .entry k()\n{\n"
                             ".shared .align 4 .b8 tile[64];\n"
                             ".reg .b32 %r<2>;\n"
                             "ld.shared.u32 %r1, [tile+4];\n"
                             "ret;\n}\n"
                             ".visible .entry k2()\n{\n"
                             ".shared .align 4 .b8 tile[32];\n"
                             "ret;\n}\n");
  ASSERT_EQ(m.symbols.size(), 2u);
  EXPECT_EQ(m.symbols[0].name, "k::tile");
  EXPECT_EQ(m.symbols[1].name, "k2::tile");
  EXPECT_EQ(m.symbols[1].size, 32u);
  const ir::Operand& a = m.functions[0].code[0].src(0);
  EXPECT_EQ(a.base, AddrBase::ModuleSymbol);
  EXPECT_EQ(a.symbol, 0u);
  EXPECT_EQ(a.imm, 4);
}

TEST(Functions, PragmasAndEmptyParamLists) {
  ir::Module m = parseModule(kModuleHeader +
                             ".entry k\n{\n.pragma \"nounroll\";\nret;\n}\n"
                             ".weak .func f()\n{\nret;\n}\n");
  EXPECT_EQ(m.functions[0].pragmas, (std::vector<std::string>{"nounroll"}));
  EXPECT_TRUE(m.functions[0].params.empty());
  EXPECT_FALSE(m.functions[1].isEntry);
}

TEST(Functions, Errors) {
  auto entry = [](const std::string& body) {
    return kModuleHeader + ".visible .entry k()\n{\n.reg .b32 %r<3>;\n" + body + "\n}\n";
  };
  EXPECT_EQ(errorOf(entry("call.uni nosuch;")), "t.ptx:7: error: call to undeclared function 'nosuch'");
  EXPECT_EQ(errorOf(kModuleHeader +
                    ".func f(.param .b32 a);\n.visible .entry k()\n{\ncall f;\n}\n"),
            "t.ptx:7: error: call to 'f' passes 0 arguments, the function takes 1");
  EXPECT_EQ(errorOf(kModuleHeader + ".visible .entry g()\n{\nret;\n}\n.visible .entry k()\n{\ncall g;\n}\n"),
            "t.ptx:10: error: call to kernel 'g' (kernels cannot be called)");
  EXPECT_EQ(errorOf(entry("call (%r1), %r2, (%r1), proto;")),
            "t.ptx:7: error: unsupported indirect call through '%r2'");
  EXPECT_EQ(errorOf(kModuleHeader + ".func f(.param .b32 a);\n.visible .entry k()\n{\n.reg .b32 %r1;\ncall f, (%r1);\n}\n"),
            "t.ptx:8: error: call operand '%r1' is not a .param variable of the caller");
  EXPECT_EQ(errorOf(kModuleHeader + ".func f()\n{\nret;\n}\n.func f()\n{\nret;\n}\n"),
            "t.ptx:8: error: redefinition of 'f'");
  EXPECT_EQ(errorOf(kModuleHeader + ".func f(.param .b32 a);\n.func f()\n{\nret;\n}\n"),
            "t.ptx:5: error: declaration of 'f' does not match its earlier declaration");
  EXPECT_EQ(errorOf(kModuleHeader + ".visible .entry k(.param .u32 k_p)\n{\n.reg .b32 %r1;\nst.param.u32 [k_p], %r1;\n}\n"),
            "t.ptx:7: error: 'st.param.u32': kernel parameters are read-only");
  EXPECT_EQ(errorOf(entry(".local .b8 d[8];\nld.global.u32 %r1, [d];")),
            "t.ptx:8: error: local variable 'd' in 'ld.global.u32' accessed outside the .local space");
  EXPECT_EQ(errorOf(kModuleHeader + ".extern .func f()\n{\nret;\n}\n"),
            "t.ptx:4: error: extern function 'f' cannot have a body");
  EXPECT_EQ(errorOf(kModuleHeader + ".visible .entry k()\n{\nret;\n"),
            "t.ptx:5: error: unterminated function body of 'k'");
  EXPECT_EQ(errorOf(kModuleHeader + ".visible .entry k()\n.maxclusterrank 2\n{\nret;\n}\n"),
            "t.ptx:5: error: expected '{' or ';' after the function header, found '.maxclusterrank'");
}

}  // namespace
}  // namespace warpsim::ptx
