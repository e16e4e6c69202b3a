// Atoms are hints: atoms that lie about their data (reuse 0 on data read again, a REGULAR
// pattern with an absurd stride, top intensity on a cold structure) or that describe memory the
// program has freed change when things happen, never what a kernel computes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "runtime/device.h"

namespace warpsim {
namespace {

// out[i] = in[i] + in[(7 i) mod n]: a stream and a gather over the same array.
const char* kStreamGather = R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry stream_gather(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  ld.param.u32 %r1, [pn];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.lo.s32 %r6, %r5, 7;
  rem.u32 %r7, %r6, %r1;
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r8, [%rd6];
  mul.wide.u32 %rd7, %r7, 4;
  add.s64 %rd8, %rd3, %rd7;
  ld.global.u32 %r9, [%rd8];
  add.s32 %r8, %r8, %r9;
  add.s64 %rd9, %rd4, %rd5;
  st.global.u32 [%rd9], %r8;
DONE:
  ret;
}
)";

constexpr uint32_t kN = 1 << 16;

struct Outcome {
  std::vector<uint32_t> out;
  nlohmann::json memory;
};

Outcome runKernel(bool misleadingAtoms) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.mode = "timing";
  o.config = "gtx480";
  o.overlays = {"xmem"};
  o.sets = {"l1.policy=atoms"};
  runtime::Device gpu(o);
  runtime::Module m = gpu.loadModule(kStreamGather, "stream_gather.ptx");
  std::vector<uint32_t> in(kN);
  for (uint32_t i = 0; i < kN; ++i) in[i] = i * 2654435761u;
  const uint64_t din = gpu.upload(in), dout = gpu.upload(std::vector<uint32_t>(kN, 0));
  if (misleadingAtoms) {
    using hints::AtomOp;
    hints::AtomAttributes noReuse;  // the array is read twice
    noReuse.pattern = hints::AtomPattern::Regular;
    noReuse.strideBytes = 1 << 20;
    noReuse.intensity = 255;
    noReuse.reuse = 0;
    hints::AtomAttributes hotOutput;  // written once, never read
    hotOutput.reuse = 255;
    hotOutput.intensity = 255;
    hotOutput.pattern = hints::AtomPattern::Regular;
    hotOutput.strideBytes = 4;
    const uint32_t a = gpu.createAtom("misleading:in", noReuse);
    const uint32_t b = gpu.createAtom("misleading:out", hotOutput);
    const uint32_t stale = gpu.createAtom("misleading:freed", hotOutput);
    const uint64_t temp = gpu.upload(std::vector<uint32_t>(4096, 1));
    gpu.issueAtomOp(AtomOp{AtomOp::Kind::Map, a, din, kN * 4, 1, kN * 4, 1, 1});
    gpu.issueAtomOp(AtomOp{AtomOp::Kind::Map, b, dout, kN * 4, 1, kN * 4, 1, 1});
    gpu.issueAtomOp(AtomOp{AtomOp::Kind::Map, stale, temp, 4096 * 4, 1, 4096 * 4, 1, 1});
    for (uint32_t id : {a, b, stale}) gpu.issueAtomOp(AtomOp{AtomOp::Kind::Activate, id});
    gpu.free(temp);  // the atom still describes it
  }
  runtime::LaunchReport r = gpu.launch(m.kernel("stream_gather"), {kN / 256}, {256}, 0, din, dout, kN);
  return {gpu.download<uint32_t>(dout, kN), (*r.timing)["memory"]};
}

TEST(MisleadingAtoms, ChangeWhatTheMemorySystemDoesButNeverTheResult) {
  const Outcome plain = runKernel(false), misled = runKernel(true);
  std::vector<uint32_t> expect(kN);
  for (uint32_t i = 0; i < kN; ++i) expect[i] = i * 2654435761u + static_cast<uint32_t>((7ull * i % kN) * 2654435761u);
  EXPECT_EQ(plain.out, expect);
  EXPECT_EQ(misled.out, expect);
  // The lies were acted on: the array's reads bypassed the L2, its pages and the output's were
  // isolated (both REGULAR and intense), none was left unplaced.
  EXPECT_GT(misled.memory["l2_policy"]["atoms"][0]["bypassed"].get<uint64_t>(), 0u);
  EXPECT_EQ(plain.memory["pages"]["isolated_pages"].get<uint64_t>(), 0u);
  EXPECT_EQ(misled.memory["pages"]["isolated_pages"].get<uint64_t>(),
            misled.memory["pages"]["placed"].get<uint64_t>() - misled.memory["pages"]["unannotated_pages"].get<uint64_t>());
  EXPECT_GT(misled.memory["pages"]["isolated_pages"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace warpsim
