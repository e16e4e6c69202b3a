// Atom operations a kernel issues (include/warpsim/xmem.h device calls, ir::Op::AtomHint) reach the
// caches' atom management units when the warp issues them, in timing mode: the kernel maps and
// activates a buffer, then reads it, and the L2's reads are those of the atom it mapped.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/device.h"
#include "runtime/report_json.h"

namespace warpsim {
namespace {

// Lane 0 maps (map_or_unmap = mou) [buf, buf + 1024) to atom 0 and activates it; after the
// barrier every lane reads buf[8 * tid] (one word in each 32-byte sector: 8 lines of 128 bytes)
// and other[8 * tid] (8 lines no atom owns), and stores their sum to out[tid].
const char* kReadTile = R"(.version 8.0
.target sm_80
.address_size 64
.func warpsim_device_atom_map(.param .b32 a, .param .b64 s, .param .b64 n, .param .b32 m)
{
  ret;
}
.func warpsim_device_atom_activate(.param .b32 a)
{
  ret;
}
.visible .entry read_tile(.param .u64 buf, .param .u64 other, .param .u64 out, .param .u32 mou)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [buf];
  ld.param.u64 %rd2, [other];
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r2, [mou];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  mov.u32 %r3, 0;
  mov.u64 %rd4, 1024;
  {
  .param .b32 p0;
  st.param.b32 [p0], %r3;
  .param .b64 p1;
  st.param.b64 [p1], %rd1;
  .param .b64 p2;
  st.param.b64 [p2], %rd4;
  .param .b32 p3;
  st.param.b32 [p3], %r2;
  @%p1 call.uni warpsim_device_atom_map, (p0, p1, p2, p3);
  }
  {
  .param .b32 p0;
  st.param.b32 [p0], %r3;
  @%p1 call.uni warpsim_device_atom_activate, (p0);
  }
  bar.sync 0;
  mul.wide.u32 %rd5, %r1, 32;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.u32 %r4, [%rd6];
  add.s64 %rd7, %rd2, %rd5;
  ld.global.u32 %r5, [%rd7];
  add.s32 %r6, %r4, %r5;
  mul.wide.u32 %rd8, %r1, 4;
  add.s64 %rd9, %rd3, %rd8;
  st.global.u32 [%rd9], %r6;
  ret;
}
)";

runtime::DeviceOptions timingOn(const std::vector<std::string>& sets) {
  runtime::DeviceOptions o;
  o.resources = runtime::DeviceOptions::Resources::Estimate;
  o.mode = "timing";
  o.config = "gtx480";
  o.sets = sets;
  return o;
}

TEST(DeviceAtomOps, AKernelsMapReachesTheCachesAsItIssues) {
  runtime::Device gpu(timingOn({"l2.policy=atoms", "l1.policy=atoms", "gpu.num_sms=2"}));
  runtime::Module m = gpu.loadModule(kReadTile, "read_tile.ptx");
  hints::AtomAttributes tile;
  tile.reuse = 8;  // kept, not bypassed; NON_DET: no prefetch
  EXPECT_EQ(gpu.createAtom("tile", tile), 0u);
  const uint64_t buf = gpu.upload(std::vector<uint32_t>(256, 1));
  const uint64_t other = gpu.upload(std::vector<uint32_t>(256, 2));
  const uint64_t out = gpu.malloc(32 * 4);
  const runtime::LaunchReport r = gpu.launch(m.kernel("read_tile"), {1}, {32}, 0, buf, other, out, 1u);
  ASSERT_TRUE(r.result.ok) << r.result.error;
  EXPECT_EQ(gpu.download<uint32_t>(out, 32), std::vector<uint32_t>(32, 3));  // results unchanged
  EXPECT_EQ(r.atomOps, 0u);  // the host issued nothing
  EXPECT_EQ(r.result.deviceAtomOps, 2u);
  EXPECT_EQ(runtime::toJson(r)["xmem"], (nlohmann::json{{"atoms", 1}, {"host_ops", 0}, {"device_ops", 2}}));
  ASSERT_TRUE(r.timing != nullptr);
  const nlohmann::json& l2 = (*r.timing)["memory"]["l2_policy"];
  // Every slice's unit applied the map and the activation (reported once); the buffer's 8 lines
  // were read from the L2 as the atom's, the other buffer's 8 and the output's line (written) as
  // no atom's.
  EXPECT_EQ(l2["amu"]["maps"], 1);
  EXPECT_EQ(l2["amu"]["activates"], 1);
  EXPECT_EQ(l2["amu"]["bytes_mapped"], 1024);
  EXPECT_EQ(l2["atoms"][0]["reads"], 8);
  EXPECT_EQ(l2["atoms"][0]["working_set_bytes"], 1024);
  EXPECT_EQ(l2["amu"]["lookups_no_atom"], 9);
  // The L1s (both SMs, one ran no CTA) applied them too.
  const nlohmann::json& l1 = (*r.timing)["memory"]["l1d_policy"];
  EXPECT_EQ(l1["amu"]["maps"], 1);
  EXPECT_EQ(l1["amu"]["activates"], 1);

  // The next launch unmaps the buffer before reading it: no read is the atom's any more.
  const runtime::LaunchReport r2 = gpu.launch(m.kernel("read_tile"), {1}, {32}, 0, buf, other, out, 0u);
  ASSERT_TRUE(r2.result.ok) << r2.result.error;
  const nlohmann::json& l2b = (*r2.timing)["memory"]["l2_policy"];
  EXPECT_EQ(l2b["amu"]["unmaps"], 1);
  EXPECT_EQ(l2b["amu"]["maps"], 0);
  EXPECT_EQ(l2b["atoms"][0]["reads"], 0);
  EXPECT_EQ(l2b["atoms"][0]["working_set_bytes"], 0);
}

}  // namespace
}  // namespace warpsim
