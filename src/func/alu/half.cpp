// Named binary16 / bfloat16 conversions, for callers that want a function rather than the
// header's templates (the executors instantiate the templates directly).
#include "func/alu/half.h"

namespace warpsim::func::fp {

uint32_t f16ToF32(uint16_t h) {
  return static_cast<uint32_t>(convertFormat<kF16, kF32>(h, Rounding::NearestEven));
}
uint32_t bf16ToF32(uint16_t h) {
  return static_cast<uint32_t>(convertFormat<kBf16, kF32>(h, Rounding::NearestEven));
}
uint16_t f32ToF16(uint32_t f, Rounding r) {
  return static_cast<uint16_t>(convertFormat<kF32, kF16>(f, r));
}
uint16_t f64ToF16(uint64_t d, Rounding r) {
  return static_cast<uint16_t>(convertFormat<kF64, kF16>(d, r));
}
uint16_t f32ToBf16(uint32_t f, Rounding r) {
  return static_cast<uint16_t>(convertFormat<kF32, kBf16>(f, r));
}
uint16_t f64ToBf16(uint64_t d, Rounding r) {
  return static_cast<uint16_t>(convertFormat<kF64, kBf16>(d, r));
}
uint32_t f64ToF32(uint64_t d, Rounding r) {
  return static_cast<uint32_t>(convertFormat<kF64, kF32>(d, r));
}
uint16_t f16ToBf16(uint16_t h, Rounding r) {
  return static_cast<uint16_t>(convertFormat<kF16, kBf16>(h, r));
}
uint16_t bf16ToF16(uint16_t h, Rounding r) {
  return static_cast<uint16_t>(convertFormat<kBf16, kF16>(h, r));
}

}  // namespace warpsim::func::fp
