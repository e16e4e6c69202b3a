// Real nvcc output (src/ptx/testdata, generated from the .cu files there) parses completely.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "ptx/test_util.h"

namespace warpsim::ptx {
namespace {

std::string testdata(const std::string& name) {
#ifdef WARPSIM_PTX_TESTDATA
  return std::string(WARPSIM_PTX_TESTDATA) + "/" + name;
#else
  const char* root = std::getenv("WARPSIM_SOURCE_DIR");
  return std::string(root ? root : ".") + "/src/ptx/testdata/" + name;
#endif
}

size_t countOp(const ir::Module& m, ir::Op op) {
  size_t n = 0;
  for (const auto& f : m.functions)
    n += static_cast<size_t>(std::count_if(f.code.begin(), f.code.end(),
                                           [&](const ir::Instr& in) { return in.op == op; }));
  return n;
}

struct Expect {
  const char* file;
  size_t functions, symbols, instructions;
  uint32_t sm;
};

class NvccOutput : public ::testing::TestWithParam<Expect> {};

TEST_P(NvccOutput, ParsesWithExpectedShape) {
  const Expect& e = GetParam();
  ir::Module m = parseFile(testdata(e.file));
  EXPECT_EQ(m.functions.size(), e.functions);
  EXPECT_EQ(m.symbols.size(), e.symbols);
  size_t n = 0;
  for (const auto& f : m.functions) {
    n += f.code.size();
    if (!f.isExtern) {
      EXPECT_FALSE(f.code.empty()) << f.name;
      EXPECT_EQ(f.blockOf.size(), f.code.size()) << "analysis ran for " << f.name;
    }
  }
  EXPECT_EQ(n, e.instructions);
  EXPECT_EQ(m.smTarget, e.sm);
  EXPECT_EQ(m.versionMajor, 9u);
}

INSTANTIATE_TEST_SUITE_P(
    Testdata, NvccOutput,
    ::testing::Values(Expect{"vector_add.ptx", 1, 0, 22, 80},
                      Expect{"vector_add_debug_sm75.ptx", 1, 0, 28, 75},
                      Expect{"shared_reduce.ptx", 2, 2, 76, 80},
                      Expect{"shared_reduce_lineinfo_sm90.ptx", 2, 2, 76, 90},
                      Expect{"atomics.ptx", 1, 2, 56, 80}, Expect{"atomics_sm75.ptx", 1, 2, 56, 75},
                      Expect{"recursion.ptx", 3, 0, 41, 80}, Expect{"local_array.ptx", 1, 0, 90, 80},
                      Expect{"printf.ptx", 2, 2, 26, 80}, Expect{"warp_ops.ptx", 1, 0, 74, 80},
                      Expect{"warp_ops_debug_sm90.ptx", 16, 0, 282, 90},
                      Expect{"half_math.ptx", 1, 0, 52, 80}, Expect{"double_math.ptx", 1, 1, 321, 80},
                      Expect{"switch_case.ptx", 1, 5, 65, 80}),
    [](const auto& info) {
      std::string s = info.param.file;
      s = s.substr(0, s.find('.'));
      return s;
    });

TEST(NvccOutputDetails, SharedMemoryKernels) {
  ir::Module m = parseFile(testdata("shared_reduce.ptx"));
  int dyn = -1;
  for (size_t i = 0; i < m.symbols.size(); ++i)
    if (m.symbols[i].isDynamicShared) dyn = static_cast<int>(i);
  ASSERT_GE(dyn, 0);
  EXPECT_EQ(m.symbols[dyn].space, ir::Space::Shared);
  EXPECT_EQ(countOp(m, ir::Op::Bar), 4u);
}

TEST(NvccOutputDetails, RecursionCallsItself) {
  ir::Module m = parseFile(testdata("recursion.ptx"));
  int fib = m.findFunction("_Z3fibi");
  ASSERT_GE(fib, 0);
  const auto& f = m.functions[fib];
  ASSERT_EQ(f.calls.size(), 2u);
  EXPECT_EQ(f.calls[0].callee, static_cast<uint32_t>(fib));
  EXPECT_EQ(f.rets.size(), 1u);
  int pair = m.findFunction("_Z9make_pairi");
  ASSERT_GE(pair, 0);
  EXPECT_EQ(m.functions[pair].rets[0].size, 16u);  // the struct comes back as .b8[16]
}

TEST(NvccOutputDetails, PrintfAndLocalDepot) {
  ir::Module m = parseFile(testdata("printf.ptx"));
  const auto& k = m.functions[m.findFunction("_Z5helloid")];
  ASSERT_EQ(k.calls.size(), 2u);
  EXPECT_TRUE(k.calls[0].isPrintf);
  EXPECT_GT(k.localBytes, 0u);
  EXPECT_TRUE(m.functions[m.findFunction("vprintf")].isExtern);
  ir::Module la = parseFile(testdata("local_array.ptx"));
  EXPECT_EQ(la.functions[0].localBytes, 96u);  // int arr[24]
}

TEST(NvccOutputDetails, WarpOpsAndDebugInfo) {
  ir::Module m = parseFile(testdata("warp_ops.ptx"));
  EXPECT_EQ(countOp(m, ir::Op::Shfl), 8u);
  EXPECT_GE(countOp(m, ir::Op::Vote), 3u);
  EXPECT_EQ(countOp(m, ir::Op::Match), 2u);
  EXPECT_EQ(countOp(m, ir::Op::Activemask), 1u);
  ir::Module d = parseFile(testdata("warp_ops_debug_sm90.ptx"));
  // nvcc puts the .file table at the end of the module
  ASSERT_EQ(d.files.size(), 4u);
  EXPECT_NE(d.files[3].find("warp_ops.cu"), std::string::npos);
  bool sawLoc = false;
  for (const auto& f : d.functions)
    for (const auto& in : f.code) sawLoc |= in.locFile == 3 && in.locLine > 0;
  EXPECT_TRUE(sawLoc);
}

TEST(NvccOutputDetails, AddressInitializersAndConstants) {
  ir::Module m = parseFile(testdata("switch_case.ptx"));
  int names = m.findSymbol("kNames");
  ASSERT_GE(names, 0);
  EXPECT_EQ(m.symbols[names].addrInits.size(), 3u);
  int table = m.findSymbol("kTable");
  ASSERT_GE(table, 0);
  EXPECT_EQ(m.symbols[table].space, ir::Space::Const);
  EXPECT_EQ(m.symbols[table].init[4 * 5], 9);
}

TEST(NvccOutputDetails, MissingFileIsAParseError) {
  try {
    parseFile("/nonexistent/x.ptx");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/x.ptx:0: error: cannot open file");
  }
}

}  // namespace
}  // namespace warpsim::ptx
