// The line-compression entry points: line-size checks, the uncompressed case, the format tag,
// BestOfAll's per-line choice, and the names used in statistics.
#include "mech/caba/compression/line_compression.h"

#include <stdexcept>
#include <string>

#include "mech/caba/compression/bdi.h"
#include "mech/caba/compression/cpack.h"
#include "mech/caba/compression/fpc.h"
#include "mech/caba/compression/line_format.h"

namespace warpsim::mech::caba {
namespace {

CompressedLine compressWith(Algorithm algorithm, const uint8_t* line, uint32_t lineBytes, uint8_t* out) {
  switch (algorithm) {
    case Algorithm::Bdi: return compressBdi(line, lineBytes, out, false);
    case Algorithm::BdiCaba: return compressBdi(line, lineBytes, out, true);
    case Algorithm::Fpc: return compressFpc(line, lineBytes, out);
    case Algorithm::CPack: return compressCPack(line, lineBytes, out);
    case Algorithm::BestOfAll: break;
  }
  // BestOfAll: the fewest bursts, then the fewest bytes, then BDI, FPC, C-Pack in that order.
  // No selection metadata: the winner's format tag in its head byte says which decoder to use.
  CompressedLine best = format::resultFor(Algorithm::BestOfAll, kUncompressed, 0, lineBytes);
  for (Algorithm candidate : {Algorithm::BdiCaba, Algorithm::Fpc, Algorithm::CPack}) {
    const CompressedLine r = compressWith(candidate, line, lineBytes, nullptr);
    if (r.compressible && (!best.compressible || r.bursts < best.bursts ||
                           (r.bursts == best.bursts && r.bytes < best.bytes)))
      best = r;
  }
  if (best.compressible && out) compressWith(best.algorithm, line, lineBytes, out);
  return best;
}

uint8_t tagOf(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::Fpc: return format::kTagFpc;
    case Algorithm::CPack: return format::kTagCPack;
    default: return format::kTagBdi;
  }
}

// A set of pattern codes (bit p = code p) as "name+name".
template <typename NameOf>
std::string patternSetName(uint8_t set, unsigned count, NameOf nameOf) {
  if (set == 0 || (set >> count) != 0) return "invalid";
  std::string name;
  for (unsigned code = 0; code < count; ++code) {
    if (!(set >> code & 1u)) continue;
    if (!name.empty()) name += '+';
    name += nameOf(uint8_t(code));
  }
  return name;
}

}  // namespace

bool isSupportedLineSize(uint32_t lineBytes) { return lineBytes == 32 || lineBytes == 64 || lineBytes == 128; }

CompressedLine compress(Algorithm algorithm, const uint8_t* line, uint32_t lineBytes, uint8_t* out) {
  if (!isSupportedLineSize(lineBytes))
    throw std::invalid_argument("line compression: a " + std::to_string(lineBytes) +
                                "-byte line is not supported (32, 64 or 128 bytes)");
  const CompressedLine r = compressWith(algorithm, line, lineBytes, out);
  if (!r.compressible && out)
    for (uint32_t i = 0; i < lineBytes; ++i) out[i] = line[i];
  return r;
}

bool decompress(Algorithm algorithm, const uint8_t* in, uint32_t inBytes, uint8_t* line, uint32_t lineBytes,
                std::string* error) {
  if (!isSupportedLineSize(lineBytes))
    return format::fail(error, "line compression: a " + std::to_string(lineBytes) +
                                   "-byte line is not supported (32, 64 or 128 bytes)");
  if (inBytes == lineBytes) {  // stored uncompressed
    for (uint32_t i = 0; i < lineBytes; ++i) line[i] = in[i];
    return true;
  }
  if (inBytes > lineBytes)
    return format::fail(error, std::string(algorithmName(algorithm)) + ": " + std::to_string(inBytes) +
                                   " bytes are longer than the " + std::to_string(lineBytes) + "-byte line");
  if (inBytes == 0) return format::fail(error, std::string(algorithmName(algorithm)) + ": empty input");

  const uint8_t tag = format::headTag(in[0]);
  if (algorithm == Algorithm::BestOfAll) {
    switch (tag) {
      case format::kTagBdi: algorithm = Algorithm::BdiCaba; break;
      case format::kTagFpc: algorithm = Algorithm::Fpc; break;
      case format::kTagCPack: algorithm = Algorithm::CPack; break;
      default: return format::fail(error, "best-of-all: format tag 3 names no algorithm");
    }
  } else if (tag != tagOf(algorithm)) {
    return format::fail(error, std::string(algorithmName(algorithm)) + ": the head's format tag is " +
                                   std::to_string(tag) + ", not " + std::to_string(tagOf(algorithm)));
  }
  switch (algorithm) {
    case Algorithm::Bdi: return decompressBdi(in, inBytes, line, lineBytes, false, error);
    case Algorithm::BdiCaba: return decompressBdi(in, inBytes, line, lineBytes, true, error);
    case Algorithm::Fpc: return decompressFpc(in, inBytes, line, lineBytes, error);
    case Algorithm::CPack: return decompressCPack(in, inBytes, line, lineBytes, error);
    case Algorithm::BestOfAll: break;
  }
  return format::fail(error, "line compression: unknown algorithm");
}

std::string_view algorithmName(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::Bdi: return "bdi";
    case Algorithm::BdiCaba: return "bdi-caba";
    case Algorithm::Fpc: return "fpc";
    case Algorithm::CPack: return "cpack";
    case Algorithm::BestOfAll: return "best-of-all";
  }
  return "invalid";
}

std::string encodingName(Algorithm algorithm, uint8_t encoding) {
  if (encoding == kUncompressed) return "uncompressed";
  switch (algorithm) {
    case Algorithm::Bdi: return std::string(bdiEncodingName(encoding));
    case Algorithm::BdiCaba:
      return encoding < kBdiEncodingCount && bdiShape(BdiEncoding(encoding)).deltaBytes != 0
                 ? std::string(bdiEncodingName(encoding))
                 : "invalid";
    case Algorithm::Fpc: return patternSetName(encoding, kFpcPatternCount, fpcPatternName);
    case Algorithm::CPack: return patternSetName(encoding, kCPackPatternCount, cpackPatternName);
    case Algorithm::BestOfAll: break;  // a compressed line names its winner instead
  }
  return "invalid";
}

}  // namespace warpsim::mech::caba
