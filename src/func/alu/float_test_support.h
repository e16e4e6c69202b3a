// Test-only helpers for the floating-point and cvt executor tests: bit casts, and running one
// instruction over a warp with lane-uniform or per-lane source values.
#pragma once
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "func/alu/testing/alu_harness.h"

namespace warpsim::func::testing {

inline uint32_t f2b(float f) { return std::bit_cast<uint32_t>(f); }
inline float b2f(uint64_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b)); }
inline uint64_t d2b(double d) { return std::bit_cast<uint64_t>(d); }
inline double b2d(uint64_t b) { return std::bit_cast<double>(b); }

struct FOpt {
  ir::Round round = ir::Round::None;
  uint32_t flags = 0;
  ir::Type type2 = ir::Type::None;  // cvt source type, set comparison type
  uint8_t sub = 0;
  unsigned dstBits = 0;  // destination register width (0: derived from the type)
  unsigned srcBits = 0;  // source register width (0: derived from the source type)
};

inline unsigned widthFor(unsigned requested, ir::Type t) {
  if (requested != 0) return requested;
  const unsigned b = ir::bits(t);
  return b < 16 ? 16 : b;
}

// Builds `op d, s1, s2, ...` with d = r0 and sources r1.. (source type: type2 for cvt).
inline ir::Instr buildOp(ir::Op op, ir::Type type, unsigned numSrc, const FOpt& o) {
  ir::Instr in = AluHarness::make(op, type, {AluHarness::R(0, widthFor(o.dstBits, type))}, {});
  const ir::Type srcType = (op == ir::Op::Cvt && o.type2 != ir::Type::None) ? o.type2 : type;
  for (unsigned i = 0; i < numSrc; ++i) {
    in.ops[in.numDst + in.numSrc++] = AluHarness::R(1 + i, widthFor(o.srcBits, srcType));
  }
  in.round = o.round;
  in.flags = o.flags;
  in.type2 = o.type2;
  in.sub = o.sub;
  return in;
}

// Runs the op with every lane holding `srcs`; expects all lanes to agree; returns lane 0's d.
inline uint64_t run1(ir::Op op, ir::Type type, std::initializer_list<uint64_t> srcs,
                     const FOpt& o = {}) {
  AluHarness h;
  ir::Instr in = buildOp(op, type, static_cast<unsigned>(srcs.size()), o);
  uint32_t r = 1;
  for (uint64_t v : srcs) h.setAll(r++, v);
  h.setAll(0, 0xDEADBEEFDEADBEEFull);
  const std::string err = h.tryRun(in);
  EXPECT_EQ(err, "");
  if (!err.empty()) return 0xBADBADBADBADBADBull;
  for (unsigned l = 1; l < kWarpSize; ++l) EXPECT_EQ(h.get(0, l), h.get(0, 0)) << "lane " << l;
  return h.get(0, 0);
}

// `cvt.<dst>.<src>` of v (dstBits/srcBits: register widths, 0 for the types' own).
inline uint64_t cvt(ir::Type dst, ir::Type src, uint64_t v, ir::Round r = ir::Round::None,
                    uint32_t flags = 0, unsigned dstBits = 0, unsigned srcBits = 0) {
  return run1(ir::Op::Cvt, dst, {v},
              {.round = r, .flags = flags, .type2 = src, .dstBits = dstBits, .srcBits = srcBits});
}

// Runs the op once with per-lane sources: srcs[i][lane] is source i in `lane`.
inline std::array<uint64_t, kWarpSize> runLanes(
    ir::Op op, ir::Type type, const std::vector<std::array<uint64_t, kWarpSize>>& srcs,
    const FOpt& o = {}) {
  AluHarness h;
  ir::Instr in = buildOp(op, type, static_cast<unsigned>(srcs.size()), o);
  for (unsigned i = 0; i < srcs.size(); ++i) {
    for (unsigned l = 0; l < kWarpSize; ++l) h.setLane(1 + i, l, srcs[i][l]);
  }
  std::array<uint64_t, kWarpSize> out{};
  const std::string err = h.tryRun(in);
  EXPECT_EQ(err, "");
  for (unsigned l = 0; l < kWarpSize; ++l) out[l] = h.get(0, l);
  return out;
}

// The bind error for `op d, s1..sN` (empty when it binds).
inline std::string bindErr(ir::Op op, ir::Type type, unsigned numSrc, const FOpt& o = {}) {
  AluHarness h;
  return h.tryRun(buildOp(op, type, numSrc, o));
}

}  // namespace warpsim::func::testing
