// libFuzzer target for the line-compression library (built with WARPSIM_FUZZ, see
// src/mech/caba/CMakeLists.txt; seed inputs in fuzz_corpus/).
// Input: byte 0 picks the algorithm (mod 5), byte 1 the line size (mod 3: 32, 64, 128 bytes), the
// rest is
//   1. handed to decompress() as an encoded line: any input must return cleanly, and a refusal
//      must come with a one-line reason;
//   2. taken as a line (zero-padded or cut to the line size) for compress() and back: the round
//      trip must be exact and the burst bookkeeping consistent.
// Buffers are heap copies of their exact sizes so that AddressSanitizer sees any stray access.
// Anything wrong aborts.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mech/caba/compression/line_compression.h"

namespace {

using warpsim::mech::caba::Algorithm;
using warpsim::mech::caba::CompressedLine;

void check(bool ok) {
  if (!ok) std::abort();
}

void decodeArbitraryBytes(Algorithm algorithm, const uint8_t* body, size_t size, uint32_t lineBytes) {
  std::vector<uint8_t> in(body, body + size);
  std::vector<uint8_t> line(lineBytes);
  std::string error;
  if (!warpsim::mech::caba::decompress(algorithm, in.data(), uint32_t(in.size()), line.data(), lineBytes, &error))
    check(!error.empty() && error.find('\n') == std::string::npos);
}

void roundTrip(Algorithm algorithm, const uint8_t* body, size_t size, uint32_t lineBytes) {
  std::vector<uint8_t> source(lineBytes, 0);
  std::memcpy(source.data(), body, std::min<size_t>(size, lineBytes));
  std::vector<uint8_t> out(lineBytes);
  const CompressedLine r = warpsim::mech::caba::compress(algorithm, source.data(), lineBytes, out.data());
  check(warpsim::mech::caba::compress(algorithm, source.data(), lineBytes, nullptr) == r);
  check(r.bytes >= 1 && r.bytes <= lineBytes);
  check(r.bursts == warpsim::mech::caba::burstsFor(r.bytes));
  check(r.compressible == (r.bursts < lineBytes / warpsim::mech::caba::kBurstBytes));

  const std::vector<uint8_t> encoded(out.begin(), out.begin() + r.bytes);
  std::vector<uint8_t> back(lineBytes);
  std::string error;
  check(warpsim::mech::caba::decompress(algorithm, encoded.data(), r.bytes, back.data(), lineBytes, &error));
  check(back == source);
  if (r.compressible) {  // one byte short is never a valid encoding
    const std::vector<uint8_t> cut(encoded.begin(), encoded.end() - 1);
    check(!warpsim::mech::caba::decompress(algorithm, cut.data(), uint32_t(cut.size()), back.data(), lineBytes,
                                           nullptr));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > 2 + 4096) return 0;
  const auto algorithm = Algorithm(data[0] % 5);
  const uint32_t lineBytes = 32u << (data[1] % 3);
  decodeArbitraryBytes(algorithm, data + 2, size - 2, lineBytes);
  roundTrip(algorithm, data + 2, size - 2, lineBytes);
  return 0;
}
