// atom_hint (a kernel's calls to warpsim's device atom functions): one operation per executing
// lane, in lane order, with the host calls' meaning and checks; one warp-instruction each; the
// operations in the record and the launch's count; a bad operation faults its lane with one line.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "func/testing/kernel_runner.h"
#include "hints/launch_hints.h"

namespace warpsim::func {
namespace {

using hints::AtomOp;
using testing::KernelRunner;
using testing::ptxModule;

// Lanes 0-2 map 256 bytes each at buf + 256 * tid to atom tid & 1 and activate that atom; lane 0
// unmaps a 2-D block of atom 1 (2 rows of 512 bytes, rows 1024 apart), maps a 3-D block to atom 0
// (2 planes of 2 rows of 128 bytes, rows 256 apart) and deactivates atom 1. Straight-line code:
// every instruction executes once.
const std::string kTiles = ptxModule(R"(
.extern .func warpsim_device_atom_map(.param .b32 a, .param .b64 s, .param .b64 n, .param .b32 m);
.extern .func warpsim_device_atom_map2d(.param .b32 a, .param .b64 s, .param .b64 lx, .param .b64 sx, .param .b64 sy, .param .b32 m);
.extern .func warpsim_device_atom_map3d(.param .b32 a, .param .b64 s, .param .b64 lx, .param .b64 ly, .param .b64 sx, .param .b64 sy, .param .b64 sz, .param .b32 m);
.extern .func warpsim_device_atom_activate(.param .b32 a);
.extern .func warpsim_device_atom_deactivate(.param .b32 a);
.visible .entry tiles(.param .u64 buf)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [buf];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 3;
  setp.eq.u32 %p2, %r1, 0;
  and.b32 %r2, %r1, 1;
  mul.wide.u32 %rd2, %r1, 256;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r3, 0;
  mov.u32 %r4, 1;
  mov.u64 %rd4, 256;
  mov.u64 %rd5, 1024;
  mov.u64 %rd6, 512;
  mov.u64 %rd7, 2;
  mov.u64 %rd8, 128;
  {
  .param .b32 p0;
  st.param.b32 [p0], %r2;
  .param .b64 p1;
  st.param.b64 [p1], %rd3;
  .param .b64 p2;
  st.param.b64 [p2], %rd4;
  .param .b32 p3;
  st.param.b32 [p3], %r4;
  @%p1 call.uni warpsim_device_atom_map, (p0, p1, p2, p3);
  }
  {
  .param .b32 p0;
  st.param.b32 [p0], %r4;
  .param .b64 p1;
  st.param.b64 [p1], %rd1;
  .param .b64 p2;
  st.param.b64 [p2], %rd5;
  .param .b64 p3;
  st.param.b64 [p3], %rd6;
  .param .b64 p4;
  st.param.b64 [p4], %rd7;
  .param .b32 p5;
  st.param.b32 [p5], %r3;
  @%p2 call.uni warpsim_device_atom_map2d, (p0, p1, p2, p3, p4, p5);
  }
  {
  .param .b32 p0;
  st.param.b32 [p0], %r3;
  .param .b64 p1;
  st.param.b64 [p1], %rd1;
  .param .b64 p2;
  st.param.b64 [p2], %rd4;
  .param .b64 p3;
  st.param.b64 [p3], %rd7;
  .param .b64 p4;
  st.param.b64 [p4], %rd8;
  .param .b64 p5;
  st.param.b64 [p5], %rd7;
  .param .b64 p6;
  st.param.b64 [p6], %rd7;
  .param .b32 p7;
  st.param.b32 [p7], %r4;
  @%p2 call.uni warpsim_device_atom_map3d, (p0, p1, p2, p3, p4, p5, p6, p7);
  }
  {
  .param .b32 p0;
  st.param.b32 [p0], %r2;
  @%p1 call.uni warpsim_device_atom_activate, (p0);
  }
  {
  .param .b32 p0;
  st.param.b32 [p0], %r4;
  @%p2 call.uni warpsim_device_atom_deactivate, (p0);
  }
  ret;
}
)");

// Keeps the atom operations of every atom_hint record, with the lanes that issued them.
struct AtomOpLog final : ExecObserver {
  std::vector<AtomOp> ops;
  std::vector<uint32_t> execMasks;
  uint64_t hintRecords = 0;
  void onExec(const ExecRecord& r) override {
    if (r.instr->op != ir::Op::AtomHint) return;
    ++hintRecords;
    execMasks.push_back(r.execMask);
    ops.insert(ops.end(), r.atomOps, r.atomOps + r.numAtomOps);
  }
};

std::shared_ptr<const hints::LaunchHints> atoms(size_t n) {
  auto h = std::make_shared<hints::LaunchHints>();
  h->atoms.attributes.resize(n);
  return h;
}

AtomOp mapping(AtomOp::Kind kind, uint32_t atom, uint64_t base, uint64_t lenX, uint64_t lenY, uint64_t sizeX,
               uint64_t sizeY, uint64_t sizeZ) {
  AtomOp op;
  op.kind = kind;
  op.atom = atom;
  op.base = base;
  op.lenX = lenX;
  op.lenY = lenY;
  op.sizeX = sizeX;
  op.sizeY = sizeY;
  op.sizeZ = sizeZ;
  return op;
}

AtomOp onAtom(AtomOp::Kind kind, uint32_t atom) {
  AtomOp op;
  op.kind = kind;
  op.atom = atom;
  return op;
}

std::string describe(const AtomOp& o) {
  return fmt::format("{{kind {} atom {} base {:#x} lenX {} lenY {} sizeX {} sizeY {} sizeZ {}}}",
                     static_cast<int>(o.kind), o.atom, o.base, o.lenX, o.lenY, o.sizeX, o.sizeY, o.sizeZ);
}

// The PTX line of the kernel's n-th atom_hint instruction.
uint32_t hintLine(const KernelRunner& k, size_t n) {
  const ir::Function& f = k.module().functions[k.module().findFunction("tiles")];
  for (const ir::Instr& in : f.code)
    if (in.op == ir::Op::AtomHint && n-- == 0) return in.line;
  return 0;
}

TEST(AtomHint, EachExecutingLaneIssuesOneOperationInLaneOrder) {
  KernelRunner k(kTiles, "tiles.ptx");
  AtomOpLog log;
  k.options.observer = &log;
  k.hints = atoms(2);
  const uint64_t buf = k.memory.allocate(4096);
  const LaunchResult r = k.launch("tiles", {1}, {32}, {buf});
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<AtomOp> want = {
      mapping(AtomOp::Kind::Map, 0, buf, 256, 0, 256, 1, 1),
      mapping(AtomOp::Kind::Map, 1, buf + 256, 256, 0, 256, 1, 1),
      mapping(AtomOp::Kind::Map, 0, buf + 512, 256, 0, 256, 1, 1),
      mapping(AtomOp::Kind::Unmap, 1, buf, 1024, 2, 512, 2, 1),  // 2-D: lenY = sizeY
      mapping(AtomOp::Kind::Map, 0, buf, 256, 2, 128, 2, 2),
      onAtom(AtomOp::Kind::Activate, 0),
      onAtom(AtomOp::Kind::Activate, 1),
      onAtom(AtomOp::Kind::Activate, 0),
      onAtom(AtomOp::Kind::Deactivate, 1),
  };
  ASSERT_EQ(log.ops.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(describe(log.ops[i]), describe(want[i])) << "operation " << i;
  EXPECT_EQ(log.hintRecords, 5u);  // one warp-instruction per call
  EXPECT_EQ(log.execMasks, (std::vector<uint32_t>{0x7, 0x1, 0x1, 0x7, 0x1}));
  EXPECT_EQ(r.deviceAtomOps, 9u);
  const ir::Function& f = k.module().functions[k.module().findFunction("tiles")];
  EXPECT_EQ(r.warpInstructions, f.code.size());  // straight-line: each instruction once, the calls too
}

TEST(AtomHint, ABadAtomIdFaultsItsLaneWithOneLine) {
  KernelRunner k(kTiles, "tiles.ptx");
  k.hints = atoms(1);
  const uint64_t buf = k.memory.allocate(4096);
  const LaunchResult r = k.launch("tiles", {1}, {32}, {buf});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, fmt::format("kernel 'tiles' CTA (0,0,0) thread (1,0,0) at tiles.ptx:{}: AtomMap: atom 1 was "
                                 "never created (the program has 1 atoms)",
                                 hintLine(k, 0)));
  KernelRunner none(kTiles, "tiles.ptx");  // a program without atoms
  const uint64_t b2 = none.memory.allocate(4096);
  const LaunchResult r2 = none.launch("tiles", {1}, {32}, {b2});
  EXPECT_EQ(r2.error, fmt::format("kernel 'tiles' CTA (0,0,0) thread (0,0,0) at tiles.ptx:{}: AtomMap: atom 0 was "
                                  "never created (the program has 0 atoms)",
                                  hintLine(none, 0)));
}

TEST(AtomHint, ABlockOutsideOneAllocationFaultsItsLane) {
  KernelRunner k(kTiles, "tiles.ptx");
  k.hints = atoms(2);
  const uint64_t buf = k.memory.allocate(768);  // lane 2's map is [buf + 512, buf + 768): inside
  LaunchResult r = k.launch("tiles", {1}, {32}, {buf});
  // The 2-D unmap reaches buf + 1024 + 512.
  EXPECT_EQ(r.error, fmt::format("kernel 'tiles' CTA (0,0,0) thread (0,0,0) at tiles.ptx:{}: AtomUnmap: [{:#x}, "
                                 "{:#x}) of atom 1 is not inside one device allocation",
                                 hintLine(k, 1), buf, buf + 1536));
  KernelRunner small(kTiles, "tiles.ptx");
  small.hints = atoms(2);
  const uint64_t b2 = small.memory.allocate(700);
  r = small.launch("tiles", {1}, {32}, {b2});
  EXPECT_EQ(r.error, fmt::format("kernel 'tiles' CTA (0,0,0) thread (2,0,0) at tiles.ptx:{}: AtomMap: [{:#x}, "
                                 "{:#x}) of atom 0 is not inside one device allocation",
                                 hintLine(small, 0), b2 + 512, b2 + 768));
}

// nvcc's output for the header's device calls (src/ptx/testdata/xmem_device_calls.cu): the
// constants every call site passes arrive, so the operations are the ones the source wrote.
TEST(AtomHint, NvccOutputIssuesTheOperationsTheSourceWrote) {
  KernelRunner k(ptx::parseFile(std::string(WARPSIM_PTX_TESTDATA) + "/xmem_device_calls.ptx"));
  AtomOpLog log;
  k.options.observer = &log;
  k.hints = atoms(2);
  const uint64_t a = k.memory.allocate(32768);
  const LaunchResult r = k.launch("_Z5tilesPfi", {1}, {64}, {a, 4096});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<AtomOp> want;
  for (uint64_t t = 0; t < 2; ++t) {
    want.push_back(mapping(AtomOp::Kind::Map, 0, a + t * 1024, 1024, 0, 1024, 1, 1));
    want.push_back(mapping(AtomOp::Kind::Unmap, 1, a, 4096, 8, 64, 8, 1));
    want.push_back(mapping(AtomOp::Kind::Map, 1, a, 1024, 8, 64, 4, 2));
    want.push_back(onAtom(AtomOp::Kind::Activate, 0));
    want.push_back(onAtom(AtomOp::Kind::Deactivate, 1));
  }
  ASSERT_EQ(log.ops.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(describe(log.ops[i]), describe(want[i])) << "operation " << i;
  EXPECT_EQ(r.deviceAtomOps, 10u);  // thread 0 only: warp 1 executes none
}

}  // namespace
}  // namespace warpsim::func
