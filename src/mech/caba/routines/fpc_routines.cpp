#include "mech/caba/routines/fpc_routines.h"
#include "mech/caba/routines/routine_text.h"

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "mech/caba/compression/fpc.h"

namespace warpsim::mech::caba {

namespace {

constexpr uint32_t kSegmentLanes = kFpcWordsPerSegment;
// Payload bits per word (= payload bytes per segment) of code c, divided by 4, in nibble c:
// 0 4 8 16 16 16 8 32 for zero, sext4, sext8, sext16, halfword-padded, two-sext8-halfwords,
// repeated-bytes, raw (fpc.h).
constexpr uint32_t kPayloadNibbles = 0x82444210u;
// The library's pattern order (fewest payload bytes first, ties to the lower code); raw,
// which every word fits, is what a segment keeps when none of these fits.
constexpr uint32_t kSearchOrder[] = {0, 1, 2, 6, 3, 4, 5};

uint32_t fpcLaneMask(uint32_t lineBytes) {
  return fpcLanes(lineBytes) >= 32 ? ~0u : (1u << fpcLanes(lineBytes)) - 1;
}

// %r<b> = payload bits per word of the code in %r<code> (clobbers nothing else).
void payloadBits(RoutineText& t, int b, int code) {
  t.emit(fmt::format("shl.b32 %r{}, %r{}, 2;", b, code));
  t.emit(fmt::format("bfe.u32 %r{}, {:#x}, %r{}, 4;", b, kPayloadNibbles, b));
  t.emit(fmt::format("shl.b32 %r{}, %r{}, 2;", b, b));
}

// %r<incl> = the payload bytes of the segments up to this lane's, %r<b> holding this lane's
// segment's: an inclusive scan over the segments (lanes 8 apart). A shuffle whose source lane
// is out of range returns the lane's own value (PTX), so the predicated add leaves it as is.
void segmentScan(RoutineText& t, int incl, int tmp, int b, uint32_t lineBytes) {
  const uint32_t mask = fpcLaneMask(lineBytes);
  t.emit(fmt::format("shfl.sync.up.b32 %r{}|%p0, %r{}, {}, 0, {:#x};", incl, b, kSegmentLanes, mask));
  t.emit(fmt::format("@%p0 add.u32 %r{}, %r{}, %r{};", incl, incl, b));
  if (lineBytes / kFpcSegmentBytes == 4) {
    t.emit(fmt::format("shfl.sync.up.b32 %r{}|%p0, %r{}, {}, 0, {:#x};", tmp, incl, 2 * kSegmentLanes, mask));
    t.emit(fmt::format("@%p0 add.u32 %r{}, %r{}, %r{};", incl, tmp, incl));
  }
}

// %r<incl> becomes the bit position of this lane's payload in the encoded line:
// 8 * (head + the earlier segments' payload bytes) + (word in segment) * (payload bits).
void payloadPosition(RoutineText& t, int incl, int tmp, int b, uint32_t lineBytes) {
  t.emit(fmt::format("and.b32 %r{}, %r0, {};", tmp, kSegmentLanes - 1));
  t.emit(fmt::format("mad.lo.u32 %r{}, %r{}, %r{}, {};", tmp, tmp, b, 8 * fpcHeadBytes(lineBytes)));
  t.emit(fmt::format("sub.u32 %r{}, %r{}, %r{};", incl, incl, b));
  t.emit(fmt::format("mad.lo.u32 %r{}, %r{}, 8, %r{};", incl, incl, tmp));
}

// Algorithm 6. Registers: %r0 word (lane), %r1 buf, %r4 payload bits, %r5 code, %r6 position.
std::string fpcDecompressRoutine(uint32_t L) {
  RoutineText t;
  t.emit("ld.param.u64 %rd0, [line];");  // the live-in (the line's address)
  t.emit("mov.u32 %r0, %tid.x;");
  t.emit("mov.u32 %r1, buf;");
  t.emit("ld.shared.u32 %r2, [buf];");  // the head: segment 2j's code at bit 8j, 2j+1's at 8j+3
  t.emit(fmt::format("shr.u32 %r3, %r0, {};", std::countr_zero(kSegmentLanes)));  // segment s
  if (L == 128) {  // 3s, + 2 for segments 2 and 3 (head byte 1)
    t.emit("and.b32 %r4, %r3, 2;");
    t.emit("mad.lo.u32 %r4, %r3, 3, %r4;");
  } else {
    t.emit("mul.lo.u32 %r4, %r3, 3;");
  }
  t.emit("bfe.u32 %r5, %r2, %r4, 3;");
  payloadBits(t, 4, 5);
  segmentScan(t, 6, 7, 4, L);
  payloadPosition(t, 6, 2, 4, L);
  // The 32 bits from the payload's position: two aligned words, funnel-shifted (mod 32).
  t.emit("shr.u32 %r2, %r6, 3;");
  t.emit("and.b32 %r2, %r2, -4;");
  t.emit("add.u32 %r2, %r2, %r1;");
  t.emit("ld.shared.u32 %r3, [%r2];");
  t.emit("ld.shared.u32 %r7, [%r2+4];");
  t.emit("shf.r.wrap.b32 %r3, %r3, %r7, %r6;");
  // Zero, sext4, sext8, sext16, raw: the payload's low bits, sign-extended (0 bits give 0).
  t.emit("bfe.s32 %r7, %r3, 0, %r4;");
  t.emit(fmt::format("setp.eq.u32 %p0, %r5, {};", unsigned(FpcPattern::HalfwordPadded)));
  t.emit("@%p0 shl.b32 %r7, %r3, 16;");
  t.emit(fmt::format("setp.eq.u32 %p0, %r5, {};", unsigned(FpcPattern::TwoSext8Halfwords)));
  t.emit("@%p0 prmt.b32 %r7, %r3, 0, 0x9180;");  // byte 0, its sign, byte 1, its sign
  t.emit(fmt::format("setp.eq.u32 %p0, %r5, {};", unsigned(FpcPattern::RepeatedBytes)));
  t.emit("@%p0 prmt.b32 %r7, %r3, 0, 0x0000;");  // byte 0 four times
  t.emit("mad.lo.u32 %r2, %r0, 4, %r1;");
  t.emit(fmt::format("st.shared.u32 [%r2+{}], %r7;", L));
  t.emit("exit;");
  return t.finish(kFpcDecompressName, 2 * L);
}

// The lane test of pattern p on the word in %r2: %p0 set when it fits (uses %r5).
void patternTest(RoutineText& t, uint32_t p) {
  switch (FpcPattern(p)) {
    case FpcPattern::Zero: t.emit("setp.eq.u32 %p0, %r2, 0;"); return;
    case FpcPattern::Sext4: t.emit("bfe.s32 %r5, %r2, 0, 4;"); break;
    case FpcPattern::Sext8: t.emit("bfe.s32 %r5, %r2, 0, 8;"); break;
    case FpcPattern::Sext16: t.emit("bfe.s32 %r5, %r2, 0, 16;"); break;
    case FpcPattern::HalfwordPadded:
      t.emit("and.b32 %r5, %r2, 0xFFFF;");
      t.emit("setp.eq.u32 %p0, %r5, 0;");
      return;
    case FpcPattern::TwoSext8Halfwords:  // bytes 0 and 2, each with its sign above it
      t.emit("prmt.b32 %r5, %r2, 0, 0xA280;");
      break;
    case FpcPattern::RepeatedBytes: t.emit("prmt.b32 %r5, %r2, 0, 0x0000;"); break;
    case FpcPattern::Raw: throw std::logic_error("fpc: raw needs no test");
  }
  t.emit("setp.eq.u32 %p0, %r5, %r2;");
}

// Algorithm 7. Registers: %r0 word (lane), %r1 buf, %r2 the word, then its payload; %r3 the
// lanes of this lane's segment, then payload bits, then bits to write; %r4 the segment's code;
// %r5 the scan, then the payload's position, then its address. %p2: the segment has no pattern
// yet; %p1: lane 0.
std::string fpcCompressRoutine(uint32_t L) {
  const uint32_t mask = fpcLaneMask(L), W = fpcLanes(L), H = fpcHeadBytes(L);
  RoutineText t;
  t.emit("ld.param.u64 %rd0, [line];");  // the live-in (the line's address)
  t.emit("mov.u32 %r0, %tid.x;");
  t.emit("mov.u32 %r1, buf;");
  t.emit("mad.lo.u32 %r2, %r0, 4, %r1;");
  t.emit("ld.shared.u32 %r2, [%r2];");
  t.emit(fmt::format("and.b32 %r3, %r0, {};", (W - 1) & ~(kSegmentLanes - 1)));
  t.emit("shl.b32 %r3, 255, %r3;");
  // First fit, in the library's order: a ballot per pattern, the segment's 8 bits all set.
  for (size_t i = 0; i < std::size(kSearchOrder); ++i) {
    const uint32_t p = kSearchOrder[i];
    patternTest(t, p);
    t.emit(fmt::format("vote.sync.ballot.b32 %r5, %p0, {:#x};", mask));
    t.emit("and.b32 %r5, %r5, %r3;");
    if (i == 0) {
      t.emit("setp.ne.u32 %p2, %r5, %r3;");
      t.emit(fmt::format("selp.b32 %r4, {}, {}, %p2;", unsigned(FpcPattern::Raw), p));
    } else {
      t.emit("setp.eq.and.u32 %p0, %r5, %r3, %p2;");
      t.emit(fmt::format("@%p0 mov.u32 %r4, {};", p));
      t.emit("setp.ne.and.u32 %p2, %r5, %r3, %p2;");
    }
    if (i + 1 < std::size(kSearchOrder)) {  // every segment has its pattern: stop searching
      t.emit(fmt::format("vote.sync.any.pred %p0, %p2, {:#x};", mask));
      t.emit("@!%p0 bra FPC_CHOSEN;");
    }
  }
  t.label("FPC_CHOSEN");
  payloadBits(t, 3, 4);
  segmentScan(t, 5, 6, 3, L);
  // The encoded size: the head and every segment's payload; it must save a burst.
  t.emit(fmt::format("shfl.sync.idx.b32 %r6, %r5, {}, 31, {:#x};", W - 1, mask));
  t.emit("setp.eq.u32 %p1, %r0, 0;");
  t.emit(fmt::format("setp.gt.u32 %p0, %r6, {};", L - kBurstBytes - H));
  t.emit("@%p0 bra FPC_NONE;");
  // Head byte j: the codes of segments 2j and 2j + 1, written by lane 16j; the tag in byte 0.
  t.emit(fmt::format("shfl.sync.down.b32 %r6, %r4, {}, 31, {:#x};", kSegmentLanes, mask));
  t.emit("bfi.b32 %r6, %r6, %r4, 3, 3;");
  t.emit(fmt::format("@%p1 or.b32 %r6, %r6, {:#x};", 1u << 6));
  if (H == 2) {
    t.emit(fmt::format("and.b32 %r7, %r0, {};", 2 * kSegmentLanes - 1));
    t.emit("setp.eq.u32 %p0, %r7, 0;");
    t.emit(fmt::format("shr.u32 %r7, %r0, {};", std::countr_zero(2 * kSegmentLanes)));
    t.emit("add.u32 %r7, %r7, %r1;");
    t.emit(fmt::format("@%p0 st.shared.u8 [%r7+{}], %r6;", L));
  } else {
    t.emit(fmt::format("@%p1 st.shared.u8 [buf+{}], %r6;", L));
  }
  // The payload: the word's low bytes, but the high halfword (halfword-padded) or bytes 0 and 2
  // (two-sext8-halfwords); a sext4 pair's even lane takes its odd neighbour's nibble.
  payloadPosition(t, 5, 7, 3, L);
  t.emit(fmt::format("setp.eq.u32 %p0, %r4, {};", unsigned(FpcPattern::HalfwordPadded)));
  t.emit("@%p0 shr.u32 %r2, %r2, 16;");
  t.emit(fmt::format("setp.eq.u32 %p0, %r4, {};", unsigned(FpcPattern::TwoSext8Halfwords)));
  t.emit("@%p0 prmt.b32 %r2, %r2, 0, 0x0020;");
  t.emit(fmt::format("shfl.sync.down.b32 %r6, %r2, 1, 31, {:#x};", mask));
  t.emit(fmt::format("setp.eq.u32 %p0, %r4, {};", unsigned(FpcPattern::Sext4)));
  t.emit("@%p0 bfi.b32 %r2, %r6, %r2, 4, 4;");
  // Bits to write: the payload's, none for a sext4 odd lane (its position is 4 mod 8).
  t.emit("and.b32 %r6, %r5, 4;");
  t.emit("sub.u32 %r3, %r3, %r6;");
  t.emit("shr.u32 %r5, %r5, 3;");
  t.emit("add.u32 %r5, %r5, %r1;");
  t.emit("setp.ne.u32 %p0, %r3, 0;");
  t.emit(fmt::format("@%p0 st.shared.u8 [%r5+{}], %r2;", L));
  for (uint32_t k = 1; k < 4; ++k) {
    t.emit(fmt::format("setp.gt.u32 %p0, %r3, {};", 8 * k));
    t.emit(fmt::format("shr.u32 %r6, %r2, {};", 8 * k));
    t.emit(fmt::format("@%p0 st.shared.u8 [%r5+{}], %r6;", L + k));
  }
  t.emit("exit;");
  t.label("FPC_NONE");  // not compressible: 0xFF at the head
  t.emit(fmt::format("mov.u32 %r6, {};", kUncompressed));
  t.emit(fmt::format("@%p1 st.shared.u8 [buf+{}], %r6;", L));
  t.emit("exit;");
  return t.finish(kFpcCompressName, 2 * L);
}

}  // namespace

uint32_t fpcLanes(uint32_t lineBytes) { return lineBytes / 4; }

std::string fpcRoutines(uint32_t lineBytes) {
  if (lineBytes != 64 && lineBytes != 128)
    throw std::invalid_argument(fmt::format("fpc routines: {}-byte lines (64 or 128)", lineBytes));
  return fpcDecompressRoutine(lineBytes) + fpcCompressRoutine(lineBytes);
}

}  // namespace warpsim::mech::caba
