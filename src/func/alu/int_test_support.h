// Test-only utilities for the integer ALU tests: run one instruction with the same source values in
// every lane and read back the (lane-uniform) result.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "func/alu/testing/alu_harness.h"

namespace warpsim::func::testing {

// The all-ones values of 32 and 64 bits (the unsigned maxima; -1 as signed).
inline constexpr uint64_t kU32Max = 0xFFFFFFFFu;
inline constexpr uint64_t kU64Max = ~0ull;

struct OpOptions {
  uint32_t flags = 0;
  ir::MulMode mode = ir::MulMode::None;
  ir::Type type2 = ir::Type::None;
  uint8_t sub = 0;
  unsigned dstBits = 0;  // destination register width (0: the type's width)
  unsigned srcBits = 0;  // source register width (0: the type's width)
};

inline unsigned regWidth(unsigned requested, ir::Type t) {
  if (requested != 0) return requested;
  unsigned b = ir::bits(t);
  return b < 16 ? 16 : b;
}

// Runs `op.type r0, r1, r2, ...` on a full warp with every lane holding `srcs`; expects all lanes
// to agree and returns lane 0's r0. Fails the test (returning ~0) when the op does not bind.
inline uint64_t evalUniform(ir::Op op, ir::Type type, std::initializer_list<uint64_t> srcs,
                            const OpOptions& o = {}) {
  AluHarness h;
  ir::Instr in = AluHarness::make(op, type, {AluHarness::R(0, regWidth(o.dstBits, type))}, {});
  uint32_t r = 1;
  for (uint64_t v : srcs) {
    in.ops[in.numDst + in.numSrc++] = AluHarness::R(r, regWidth(o.srcBits, type));
    h.setAll(r, v);
    ++r;
  }
  in.flags = o.flags;
  in.mulMode = o.mode;
  in.type2 = o.type2;
  in.sub = o.sub;
  h.setAll(0, 0xDEADBEEFDEADBEEFull);
  std::string err = h.tryRun(in);
  EXPECT_EQ(err, "");
  if (!err.empty()) return ~uint64_t{0};
  for (unsigned l = 1; l < kWarpSize; ++l) EXPECT_EQ(h.get(0, l), h.get(0, 0)) << "lane " << l;
  return h.get(0, 0);
}

// The bind error for an instruction with register operands (empty when it binds).
inline std::string bindError(ir::Op op, ir::Type type, unsigned numSrc, const OpOptions& o = {}) {
  AluHarness h;
  ir::Instr in = AluHarness::make(op, type, {AluHarness::R(0, regWidth(o.dstBits, type))}, {});
  for (unsigned i = 0; i < numSrc; ++i) {
    in.ops[in.numDst + in.numSrc++] = AluHarness::R(1 + i, regWidth(o.srcBits, type));
  }
  in.flags = o.flags;
  in.mulMode = o.mode;
  in.type2 = o.type2;
  in.sub = o.sub;
  return h.tryRun(in);
}

}  // namespace warpsim::func::testing
