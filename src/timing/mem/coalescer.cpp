#include "timing/mem/coalescer.h"

#include <algorithm>
#include <bit>

#include "timing/mem/line_routing.h"

namespace warpsim::timing::mem {

namespace {

// Index of the request for `line` in out[begin, count), or count when there is none. `hint` is
// the request found last (lanes of a warp mostly fall in the line of the previous lane).
inline uint32_t findLine(const LineRequest* out, uint32_t begin, uint32_t count, uint64_t line,
                         uint32_t hint) {
  if (hint < count && out[hint].line == line) return hint;
  for (uint32_t i = begin; i < count; ++i) {
    if (out[i].line == line) return i;
  }
  return count;
}

// Most lanes of `lanes` that share one address (the atomic unit serialises them).
uint32_t maxSharedAddress(const uint64_t* addr, uint32_t lanes) {
  uint32_t best = 1;
  for (uint32_t m = lanes; m != 0; m &= m - 1) {
    const unsigned a = static_cast<unsigned>(std::countr_zero(m));
    uint32_t same = 0;
    for (uint32_t n = lanes; n != 0; n &= n - 1) {
      same += addr[std::countr_zero(n)] == addr[a];
    }
    best = std::max(best, same);
  }
  return best;
}

}  // namespace

uint32_t coalesce(const uint64_t* addr, uint32_t mask, uint32_t bytes, uint32_t lineBytes,
                  uint32_t sectorBytes, LineRequest* out, uint32_t count, bool atomic) {
  const uint32_t begin = count;
  const uint64_t lineMask = ~uint64_t{lineBytes - 1};
  const unsigned sectorShift =
      static_cast<unsigned>(std::countr_zero(sectorBytes));  // powers of two
  const uint32_t n = std::max<uint32_t>(bytes, 1);
  if (mask == 0) return count;
  // Fast path for the common coalesced case: every access inside one line.
  uint64_t lo = UINT64_MAX, hi = 0;
  if (mask == ~0u) {
    for (unsigned lane = 0; lane < 32; ++lane) {  // no dependency on the mask: pipelines well
      lo = std::min(lo, addr[lane]);
      hi = std::max(hi, addr[lane]);
    }
  } else {
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint64_t a = addr[std::countr_zero(m)];
      lo = std::min(lo, a);
      hi = std::max(hi, a);
    }
  }
  const uint64_t first = lo & lineMask;
  if (first == ((hi + n - 1) & lineMask) && count < kMaxRequestsPerInstruction) {
    uint32_t sectors = 0;
    if (mask == ~0u && n <= sectorBytes) {
      // Each access touches at most two sectors: its first and its last.
      for (unsigned lane = 0; lane < 32; ++lane) {
        const uint64_t a = addr[lane] - first;
        sectors |= (1u << (a >> sectorShift)) | (1u << ((a + n - 1) >> sectorShift));
      }
    } else {
      for (uint32_t m = mask; m != 0; m &= m - 1) {
        const uint64_t a = addr[std::countr_zero(m)] - first;
        sectors |= sectorRange(static_cast<uint32_t>(a >> sectorShift),
                               static_cast<uint32_t>((a + n - 1) >> sectorShift));
      }
    }
    out[count] =
        LineRequest{first, sectors, mask, static_cast<uint32_t>(std::popcount(mask)) * n, 1};
    if (atomic && std::popcount(mask) > 1) out[count].atomicOps = maxSharedAddress(addr, mask);
    return count + 1;
  }
  uint32_t hint = count;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    uint64_t a = addr[lane];
    const uint64_t end = a + n;
    while (a < end) {
      const uint64_t line = a & lineMask;
      const uint64_t pieceEnd = std::min(end, line + lineBytes);
      const uint32_t sectors =
          sectorRange(static_cast<uint32_t>((a - line) >> sectorShift),
                      static_cast<uint32_t>((pieceEnd - 1 - line) >> sectorShift));
      uint32_t i = findLine(out, begin, count, line, hint);
      if (i == count) {
        if (count == kMaxRequestsPerInstruction) return count;  // cannot happen for <= 16 bytes
        out[count++] = LineRequest{line, 0, 0, 0, 1};
      }
      out[i].sectors |= sectors;
      out[i].lanes |= 1u << lane;
      out[i].bytes += static_cast<uint32_t>(pieceEnd - a);
      hint = i;
      a = pieceEnd;
    }
  }
  if (atomic) {
    for (uint32_t i = begin; i < count; ++i) {
      if (std::popcount(out[i].lanes) > 1) out[i].atomicOps = maxSharedAddress(addr, out[i].lanes);
    }
  }
  return count;
}

uint64_t localAddress(LocalLayout layout, const LocalWarp& warp, uint32_t lane, uint64_t offset) {
  const uint64_t inThread = offset % kLocalBytesPerThread;
  const uint64_t word = inThread / 4;
  const uint64_t inWord = uint64_t{lane} * 4 + inThread % 4;
  if (layout == LocalLayout::WordMajor) {
    const uint64_t row = std::max<uint32_t>(warp.rowBlocks, 1);
    return kLocalRegionBase + (word * row + warp.slot % row) * 128 + inWord;
  }
  const uint64_t warpBlock = (uint64_t{warp.ctaLinear} * 32 + warp.warpInCta) % kLocalWarpBlocks;
  return kLocalRegionBase + warpBlock * kLocalBytesPerThread * 32 + word * 128 + inWord;
}

uint32_t coalesceLocal(const uint64_t* offset, uint32_t mask, uint32_t bytes, LocalLayout layout,
                       const LocalWarp& warp, uint32_t lineBytes, uint32_t sectorBytes,
                       LineRequest* out, uint32_t count, uint64_t* scratch) {
  const uint32_t words = bytes > 4 ? bytes / 4 : 1;
  const uint32_t wordBytes = bytes > 4 ? 4 : std::max<uint32_t>(bytes, 1);
  for (uint32_t w = 0; w < words; ++w) {
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      scratch[lane] = localAddress(layout, warp, lane, offset[lane] + 4 * w);
    }
    count = coalesce(scratch, mask, wordBytes, lineBytes, sectorBytes, out, count);
  }
  return count;
}

uint32_t distinctAddresses(const uint64_t* addr, uint32_t mask, uint64_t* out) {
  uint32_t count = 0;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint64_t a = addr[std::countr_zero(m)];
    if (count != 0 && out[count - 1] == a) continue;
    if (std::find(out, out + count, a) == out + count) out[count++] = a;
  }
  return count;
}

}  // namespace warpsim::timing::mem
