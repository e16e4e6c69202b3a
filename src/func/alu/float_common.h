// Shared pieces of the floating-point executors: lane values as float/double, flush-to-zero,
// saturation, NaN results, and the scope that applies a directed rounding mode.
//
// NaN results (see docs in float_bind.cpp): f32 results are the canonical NaN 0x7FFFFFFF (what
// the hardware produces, CUDA's CUDART_NAN_F); f64 results keep the payload of a NaN input, as
// PTX specifies, and an invalid operation gives the host's default NaN 0xFFF8000000000000 (the
// same value as CUDART_NAN).
#pragma once
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <string>

#include "func/alu/half.h"
#include "func/alu/lanes.h"
#include "func/exec_context.h"
#include "ir/instr.h"

namespace warpsim::func::fp {

// ---- lane slots as floating-point values -----------------------------------------------------

inline float f32Of(uint64_t slot) { return std::bit_cast<float>(static_cast<uint32_t>(slot)); }
inline double f64Of(uint64_t slot) { return std::bit_cast<double>(slot); }
inline uint64_t slotOf(float v) { return std::bit_cast<uint32_t>(v); }
inline uint64_t slotOf(double v) { return std::bit_cast<uint64_t>(v); }

inline constexpr uint32_t kF32NaN = 0x7FFFFFFFu;

// Keeps the sign only when the exponent field is zero (a subnormal or zero): branch-free so the
// lane loops vectorise.
[[gnu::always_inline]] inline uint32_t flushF32(uint32_t b) {
  return b & ((b & 0x7F800000u) != 0 ? 0xFFFFFFFFu : 0x80000000u);
}

// An f32 source value, flushed to a signed zero when subnormal and Ftz.
template <bool Ftz>
[[gnu::always_inline]] inline float inF32(uint64_t slot) {
  uint32_t b = static_cast<uint32_t>(slot);
  if constexpr (Ftz) b = flushF32(b);
  return std::bit_cast<float>(b);
}

// Clamp to [0, 1]; NaN and -0 give +0.
[[gnu::always_inline]] inline float saturate(float v) {
  if (!(v > 0.0f)) return 0.0f;
  return v > 1.0f ? 1.0f : v;
}
[[gnu::always_inline]] inline double saturate(double v) {
  if (!(v > 0.0)) return 0.0;
  return v > 1.0 ? 1.0 : v;
}

// An f32 result as a lane slot: NaN canonicalised, then flushed and saturated as asked.
template <bool Ftz, bool Sat>
[[gnu::always_inline]] inline uint64_t outF32(float v) {
  if constexpr (Sat) v = saturate(v);
  uint32_t b = std::bit_cast<uint32_t>(v);
  if constexpr (!Sat) b = v != v ? kF32NaN : b;
  if constexpr (Ftz) b = flushF32(b);
  return b;
}

// ---- rounding modes --------------------------------------------------------------------------

// The rounding direction of an instruction; `None` means the default, round to nearest even.
// Returns false for integer rounding modes and .rna/.rs, which these callers do not accept.
inline bool floatRounding(ir::Round r, Rounding* out) {
  switch (r) {
    case ir::Round::None:
    case ir::Round::Rn: *out = Rounding::NearestEven; return true;
    case ir::Round::Rz: *out = Rounding::TowardZero; return true;
    case ir::Round::Rm: *out = Rounding::Down; return true;
    case ir::Round::Rp: *out = Rounding::Up; return true;
    default: return false;
  }
}

// Runs host floating-point arithmetic in a directed rounding mode for the lifetime of the scope
// (one scope per executor call, around the whole lane loop). The host's SSE arithmetic, sqrt and
// fma honour the mode, so results are correctly rounded in it. Ordering is safe without
// -frounding-math: a compiler barrier follows each mode change, so every operand is loaded from
// the register file after the mode is set and every result is stored before it is restored; the
// arithmetic depends on those loads, and nothing the compiler could fold depends on the mode.
template <Rounding R>
class RoundingScope {
 public:
  RoundingScope() {
    if constexpr (R != Rounding::NearestEven) {
      saved_ = std::fegetround();
      std::fesetround(hostMode());
      compilerBarrier();
    }
  }
  ~RoundingScope() {
    if constexpr (R != Rounding::NearestEven) {
      compilerBarrier();
      std::fesetround(saved_);
    }
  }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  static void compilerBarrier() { asm volatile("" ::: "memory"); }
  static constexpr int hostMode() {
    switch (R) {
      case Rounding::TowardZero: return FE_TOWARDZERO;
      case Rounding::Down: return FE_DOWNWARD;
      case Rounding::Up: return FE_UPWARD;
      default: return FE_TONEAREST;
    }
  }
  int saved_ = FE_TONEAREST;
};

// ---- bind-time checks and messages -----------------------------------------------------------

// A value source the executors can read as a register: a Reg, or an Imm backed by its hidden
// constant register. (Special registers and addresses are the engine's to resolve.)
inline bool isRegLike(const ir::Operand& o) {
  return (o.kind == ir::OperandKind::Reg || o.kind == ir::OperandKind::Imm) && o.reg != ir::kNoReg;
}
// Sources [first, last) are all register-like.
inline bool sourcesRegLike(const ir::Instr& in, unsigned first, unsigned last) {
  for (unsigned i = first; i < last; ++i) {
    if (!isRegLike(in.src(i))) return false;
  }
  return true;
}

// "cvt.rn.f16.f32"-style spelling of an instruction, for bind errors.
std::string describe(const ir::Instr& in);
// A bind error: "<describe(in)>: <why>". Always returns nullptr for `return fail(...)`.
ExecFn fail(const ir::Instr& in, std::string* error, const char* why);
// An executor that does nothing (a result written only to the sink `_`).
void execNothing(const ir::Instr&, ExecCtx&);

}  // namespace warpsim::func::fp
