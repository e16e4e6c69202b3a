// div and rem on u16/u32/u64/s16/s32/s64.
//
// The PTX ISA 9.0 ("div", "rem") leaves division by zero unspecified ("machine-specific"); we
// define it the way NVIDIA hardware's integer division sequence behaves, and never trap:
//   * unsigned a / 0 = all ones (the largest value), unsigned a % 0 = a;
//   * signed a / 0 = -1 when a >= 0 and 1 when a < 0 (the unsigned quotient of |a| / 0, all
//     ones, negated when the operand signs differ), signed a % 0 = a;
//   * signed MIN / -1 = MIN (the quotient wraps) and MIN % -1 = 0.
// Signed division truncates toward zero and the remainder takes the dividend's sign, as in C.
#include <limits>

#include "func/alu/int_common.h"

namespace warpsim::func::intalu {
namespace {

template <class T>
inline T divide(T a, T b) {
  using U = UnsignedOf<T>;
  if (b == 0) {
    if constexpr (std::is_signed_v<T>) {
      return a < 0 ? T{1} : T{-1};
    } else {
      return std::numeric_limits<T>::max();
    }
  }
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(U{0} - static_cast<U>(a));  // MIN / -1 wraps to MIN
  }
  return static_cast<T>(a / b);
}

template <class T>
inline T remainder(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return T{0};  // MIN % -1 would overflow in C++
  }
  return static_cast<T>(a % b);
}

template <class T>
struct DivExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), lanes::dstMask(in.dst(), kBits<T>),
                [](uint64_t a, uint64_t b) {
                  return lanes::bitsOf(divide(static_cast<T>(a), static_cast<T>(b)));
                });
  }
};

template <class T>
struct RemExec {
  static void run(const ir::Instr& in, ExecCtx& ctx) {
    lanes::map2(ctx, in.dst(), in.src(0), in.src(1), lanes::dstMask(in.dst(), kBits<T>),
                [](uint64_t a, uint64_t b) {
                  return lanes::bitsOf(remainder(static_cast<T>(a), static_cast<T>(b)));
                });
  }
};

}  // namespace

ExecFn bindDivRem(const ir::Instr& in, std::string* error) {
  if (!expectRegs(in, 1, 2, error)) return nullptr;
  ExecFn fn = in.op == ir::Op::Div ? byIntType<DivExec>(in.type) : byIntType<RemExec>(in.type);
  return fn != nullptr ? fn : unsupported(in, error, "unsupported type");
}

}  // namespace warpsim::func::intalu
