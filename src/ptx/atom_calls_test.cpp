// Calls to warpsim's device atom functions (atom_calls.h) decode to one instruction each,
// Op::AtomHint, with the call's argument offsets; a declaration that differs from the header's,
// or an unknown name with warpsim's prefix, is refused with one line naming file and line.
#include "ptx/atom_calls.h"

#include <gtest/gtest.h>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

using testing::errorOf;
using testing::kModuleHeader;

// The declarations as nvcc emits them for include/warpsim/xmem.h (bodies elided), lines 4-17.
const std::string kDecls =
    ".func warpsim_device_atom_map(.param .b32 a, .param .b64 s, .param .b64 n, .param .b32 m)\n{\nret;\n}\n"
    ".func warpsim_device_atom_map2d(.param .b32 a, .param .b64 s, .param .b64 lx, .param .b64 sx, "
    ".param .b64 sy, .param .b32 m)\n{\nret;\n}\n"
    ".func warpsim_device_atom_map3d(.param .b32 a, .param .b64 s, .param .b64 lx, .param .b64 ly, "
    ".param .b64 sx, .param .b64 sy, .param .b64 sz, .param .b32 m)\n{\nret;\n}\n"
    ".extern .func warpsim_device_atom_activate(.param .b32 a);\n"
    ".extern .func warpsim_device_atom_deactivate(.param .b32 a);\n";

// One call sequence: `n` parameters of the given types stored and passed.
std::string callSeq(const std::string& callee, const std::vector<std::string>& types) {
  std::string s = "{\n", list;
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string p = "p" + std::to_string(i);
    s += ".param " + types[i] + " " + p + ";\n";
    s += "st.param" + types[i] + " [" + p + "], " + (types[i] == ".b32" ? "%r1" : "%rd1") + ";\n";
    list += (i ? ", " : "") + p;
  }
  return s + "call.uni " + callee + ", (" + list + ");\n}\n";
}

std::string kernelWith(const std::string& body) {
  return ".visible .entry k(.param .u64 k_p0)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n" + body + "ret;\n}\n";
}

TEST(AtomCalls, EachDeviceAtomFunctionDecodesToOneAtomHintWithItsArguments) {
  const std::string body =
      callSeq("warpsim_device_atom_map", {".b32", ".b64", ".b64", ".b32"}) +
      callSeq("warpsim_device_atom_map2d", {".b32", ".b64", ".b64", ".b64", ".b64", ".b32"}) +
      callSeq("warpsim_device_atom_map3d", {".b32", ".b64", ".b64", ".b64", ".b64", ".b64", ".b64", ".b32"}) +
      callSeq("warpsim_device_atom_activate", {".b32"}) + callSeq("warpsim_device_atom_deactivate", {".b32"});
  const ir::Module m = parseModule(kModuleHeader + kDecls + kernelWith(body), "a.ptx");
  const ir::Function& k = m.functions.at(m.findFunction("k"));
  std::vector<const ir::Instr*> hints;
  for (const ir::Instr& in : k.code) {
    EXPECT_NE(in.op, ir::Op::Call) << "line " << in.line;
    if (in.op == ir::Op::AtomHint) hints.push_back(&in);
  }
  ASSERT_EQ(hints.size(), 5u);
  const ir::AtomHintOp kinds[] = {ir::AtomHintOp::Map, ir::AtomHintOp::Map2D, ir::AtomHintOp::Map3D,
                                  ir::AtomHintOp::Activate, ir::AtomHintOp::Deactivate};
  // Frame params of one call sequence: .b32 at 0, each .b64 8-aligned after it, the last .b32
  // after them (the area is reused by the next sequence).
  const std::vector<uint32_t> offsets[] = {{0, 8, 16, 24}, {0, 8, 16, 24, 32, 40},
                                           {0, 8, 16, 24, 32, 40, 48, 56}, {0}, {0}};
  const char* callees[] = {"warpsim_device_atom_map", "warpsim_device_atom_map2d", "warpsim_device_atom_map3d",
                           "warpsim_device_atom_activate", "warpsim_device_atom_deactivate"};
  for (size_t i = 0; i < 5; ++i) {
    const ir::Instr& in = *hints[i];
    EXPECT_EQ(in.sub, static_cast<uint8_t>(kinds[i])) << i;
    EXPECT_EQ(in.numDst, 0u);
    EXPECT_EQ(in.numSrc, 0u);
    EXPECT_EQ(ir::opClass(in), ir::OpClass::Misc);
    EXPECT_STREQ(ir::opName(in.op), "atom_hint");
    ASSERT_EQ(in.target, i);
    const ir::CallSite& site = k.calls[in.target];
    EXPECT_TRUE(site.isAtomHint);
    EXPECT_FALSE(site.isPrintf);
    EXPECT_EQ(m.functions[site.callee].name, callees[i]);
    EXPECT_EQ(site.argOffsets, offsets[i]) << i;
    EXPECT_TRUE(site.retOffsets.empty());
    EXPECT_EQ(site.line, in.line);
  }
  // Lines 1-3 the header, 4-17 the declarations, 18-21 the kernel's head, 22 the sequence's
  // brace, 23-30 its four parameters.
  EXPECT_EQ(hints[0]->line, 31u);
}

TEST(AtomCalls, ACallWithTheWrongArgumentCountIsOneLineWithFileAndLine) {
  const std::string decl = ".func warpsim_device_atom_map(.param .b32 a, .param .b64 s, .param .b64 n)\n{\nret;\n}\n";
  // Lines 4-7 the declaration, 8-11 the kernel's head, 12-18 the sequence, the call on line 19.
  EXPECT_EQ(errorOf(kModuleHeader + decl + kernelWith(callSeq("warpsim_device_atom_map", {".b32", ".b64", ".b64"})), "b.ptx"),
            "b.ptx:19: error: call to 'warpsim_device_atom_map' passes 3 arguments; warpsim's device atom map "
            "takes 4 (atom .b32, start .b64, size .b64, map_or_unmap .b32) and returns nothing: declare it as "
            "include/warpsim/xmem.h does");
}

TEST(AtomCalls, ADeclarationOfTheWrongShapeIsRefused) {
  const std::string wide = ".extern .func warpsim_device_atom_activate(.param .b64 a);\n";
  EXPECT_EQ(errorOf(kModuleHeader + wide + kernelWith(callSeq("warpsim_device_atom_activate", {".b64"})), "c.ptx"),
            "c.ptx:12: error: parameter 1 of 'warpsim_device_atom_activate' is 8 bytes, not 4; warpsim's device "
            "atom activate takes 1 (atom .b32) and returns nothing: declare it as include/warpsim/xmem.h does");
  const std::string returning = ".extern .func (.param .b32 r) warpsim_device_atom_deactivate(.param .b32 a);\n";
  EXPECT_EQ(errorOf(kModuleHeader + returning +
                        kernelWith("{\n.param .b32 p0;\n.param .b32 r0;\ncall.uni (r0), warpsim_device_atom_deactivate, "
                               "(p0);\n}\n"),
                    "c.ptx"),
            "c.ptx:12: error: 'warpsim_device_atom_deactivate' is declared or called with a return value; warpsim's "
            "device atom deactivate takes 1 (atom .b32) and returns nothing: declare it as include/warpsim/xmem.h "
            "does");
}

TEST(AtomCalls, AnUnknownNameWithWarpsimsPrefixIsRefused) {
  const std::string decl = ".extern .func warpsim_device_atom_map4d(.param .b32 a);\n";
  EXPECT_EQ(errorOf(kModuleHeader + decl + kernelWith(callSeq("warpsim_device_atom_map4d", {".b32"})), "d.ptx"),
            "d.ptx:12: error: call to 'warpsim_device_atom_map4d': no warpsim device atom function has this name "
            "(warpsim_device_atom_map, _map2d, _map3d, _activate, _deactivate)");
  bool unknown = true;
  EXPECT_FALSE(detail::atomCallKind("warpsim_atom_map", &unknown).has_value());  // not the prefix: an ordinary call
  EXPECT_FALSE(unknown);
}

// nvcc's output for the header's device calls (testdata/xmem_device_calls.cu, constant arguments
// at every site, the loop unrolled twice): every call is an atom_hint passing all its arguments.
TEST(AtomCalls, NvccOutputOfTheHeaderKeepsEveryArgument) {
  const ir::Module m = parseFile(std::string(WARPSIM_PTX_TESTDATA) + "/xmem_device_calls.ptx");
  const ir::Function& k = m.functions.at(m.findFunction("_Z5tilesPfi"));
  size_t hints = 0;
  std::vector<size_t> perKind(5, 0);
  for (const ir::Instr& in : k.code) {
    EXPECT_NE(in.op, ir::Op::Call);
    if (in.op != ir::Op::AtomHint) continue;
    ++hints;
    ++perKind[in.sub];
    const ir::CallSite& site = k.calls[in.target];
    const size_t want = in.sub == static_cast<uint8_t>(ir::AtomHintOp::Map)     ? 4
                        : in.sub == static_cast<uint8_t>(ir::AtomHintOp::Map2D) ? 6
                        : in.sub == static_cast<uint8_t>(ir::AtomHintOp::Map3D) ? 8
                                                                                 : 1;
    EXPECT_EQ(site.argOffsets.size(), want) << "line " << in.line;
    EXPECT_TRUE(site.isAtomHint);
  }
  EXPECT_EQ(hints, 10u);
  EXPECT_EQ(perKind, (std::vector<size_t>{2, 2, 2, 2, 2}));
  for (const char* name : {"warpsim_device_atom_map", "warpsim_device_atom_map2d", "warpsim_device_atom_map3d",
                           "warpsim_device_atom_activate", "warpsim_device_atom_deactivate"})
    EXPECT_GE(m.findFunction(name), 0) << name;
}

}  // namespace
}  // namespace warpsim::ptx
