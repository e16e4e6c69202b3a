// Test helpers: cache lines built from little-endian values, and encoded bytes as vectors.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "mech/caba/compression/line_compression.h"
#include "mech/caba/compression/line_format.h"

namespace warpsim::mech::caba::testing {

using Bytes = std::vector<uint8_t>;

// A line of lineBytes from values of valueBytes each, repeated cyclically to fill it.
inline Bytes lineOf(uint32_t lineBytes, unsigned valueBytes, std::initializer_list<uint64_t> values) {
  Bytes line(lineBytes);
  const std::vector<uint64_t> v(values);
  for (uint32_t i = 0; i < lineBytes / valueBytes; ++i)
    format::storeLE(line.data() + i * valueBytes, v[i % v.size()], valueBytes);
  return line;
}

// A line of lineBytes whose i-th value of valueBytes is f(i).
template <typename F>
Bytes lineFrom(uint32_t lineBytes, unsigned valueBytes, F f) {
  Bytes line(lineBytes);
  for (uint32_t i = 0; i < lineBytes / valueBytes; ++i)
    format::storeLE(line.data() + i * valueBytes, uint64_t(f(i)), valueBytes);
  return line;
}

struct Encoded {
  CompressedLine line;
  Bytes bytes;  // the first line.bytes bytes of the output
};

inline Encoded encode(Algorithm algorithm, const Bytes& line) {
  Bytes out(line.size(), 0xEE);
  const CompressedLine r = compress(algorithm, line.data(), uint32_t(line.size()), out.data());
  out.resize(r.bytes);
  return {r, out};
}

inline bool decodes(Algorithm algorithm, const Bytes& in, uint32_t lineBytes, Bytes& line, std::string* error = nullptr) {
  line.assign(lineBytes, 0xEE);
  return decompress(algorithm, in.data(), uint32_t(in.size()), line.data(), lineBytes, error);
}

// Expects `encoded` to decompress under `algorithm` to `line`, exactly.
inline void expectRoundTrip(Algorithm algorithm, const Bytes& line, const Bytes& encoded) {
  Bytes back;
  std::string error;
  ASSERT_TRUE(decodes(algorithm, encoded, uint32_t(line.size()), back, &error)) << error;
  EXPECT_EQ(back, line);
}

}  // namespace warpsim::mech::caba::testing
