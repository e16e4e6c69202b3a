// Similarity classes of one 32-bit word across the active lanes of a warp: how a warp-wide
// register (or stored vector) of 32 lanes could be stored compactly. The classes follow the
// register-value studies behind G-Scalar (common most-significant bytes, a prefix rule) and the
// Affine Vector Cache (uniform and affine vectors); see src/profile/README.md.
#pragma once
#include <cstddef>
#include <cstdint>

namespace warpsim::profile {

// Exclusive classes, tested in this order (the first that holds wins), over the active lanes:
//   Uniform  every active lane holds the same word (also when one lane is active)
//   Affine   lane i holds base + i * stride (mod 2^32) for every active lane i, for some
//            stride != 0; base is what lane 0 would hold (lane 0 itself may be inactive)
//   Msb3     the 3 most-significant bytes are equal in every active lane
//   Msb2     the 2 most-significant bytes are equal
//   Msb1     the most-significant byte is equal
//   Random   none of the above (the most-significant byte differs)
// The byte classes are a prefix rule: equal low bytes under a differing high byte do not count.
enum class WordClass : uint8_t { Uniform, Affine, Msb3, Msb2, Msb1, Random };
inline constexpr size_t kNumWordClasses = 6;

// The class of words[lane] over the lanes set in `mask`; inactive lanes' words are ignored.
// `mask` must not be 0. No allocation; a few passes over the 32 lanes.
WordClass classifyWords(const uint32_t words[32], uint32_t mask);

// "uniform", "affine", "msb3", "msb2", "msb1", "random" (the names in statistics).
const char* wordClassName(WordClass c);

}  // namespace warpsim::profile
