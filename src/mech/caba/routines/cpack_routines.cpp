#include "mech/caba/routines/cpack_routines.h"
#include "mech/caba/routines/routine_text.h"

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "mech/caba/compression/cpack.h"

namespace warpsim::mech::caba {

namespace {

uint32_t cpackLaneMask(uint32_t lineBytes) {
  return cpackLanes(lineBytes) >= 32 ? ~0u : (1u << cpackLanes(lineBytes)) - 1;
}

// Algorithm 8. Registers: %r0 word (lane), %r1 buf, %r2 buf + 4 entries, %r4 the word's code,
// %r5 the word. %p0: the pattern takes a dictionary entry; %p1: it has a mismatch byte.
std::string cpackDecompressRoutine(uint32_t L) {
  const uint32_t W = cpackLanes(L);
  RoutineText t;
  t.emit("ld.param.u64 %rd0, [line];");  // the live-in (the line's address)
  t.emit("mov.u32 %r0, %tid.x;");
  t.emit("mov.u32 %r1, buf;");
  t.emit("ld.shared.u32 %r2, [buf];");
  t.emit("and.b32 %r2, %r2, 7;");  // dictionary entries
  // The codes start 1 byte after buf + 4 entries, the mismatch bytes 1 + W/2 bytes after.
  t.emit("mad.lo.u32 %r2, %r2, 4, %r1;");
  // This word's code: bits 8 + 4w from buf + 4 entries (a word-aligned address).
  t.emit("mad.lo.u32 %r3, %r0, 4, 8;");
  t.emit("shr.u32 %r4, %r3, 5;");
  t.emit("mad.lo.u32 %r4, %r4, 4, %r2;");
  t.emit("ld.shared.u32 %r4, [%r4];");
  t.emit("shf.r.wrap.b32 %r4, %r4, %r4, %r3;");  // rotate right by (8 + 4w) mod 32
  t.emit("and.b32 %r4, %r4, 15;");
  t.emit(fmt::format("and.b32 %r3, %r4, {};", unsigned(CPackPattern::Mmmm)));
  t.emit("setp.ne.u32 %p0, %r3, 0;");  // mmmm, mmmx
  t.emit(fmt::format("and.b32 %r3, %r4, {};", unsigned(CPackPattern::Zzzx)));
  t.emit("setp.ne.u32 %p1, %r3, 0;");  // zzzx, mmmx
  t.emit("mov.u32 %r5, 0;");           // zzzz
  // Entry i at bytes 1 + 4i: aligned words i and i + 1, shifted by a byte.
  t.emit("and.b32 %r3, %r4, 12;");
  t.emit("add.u32 %r3, %r3, %r1;");
  t.emit("@%p0 ld.shared.u32 %r5, [%r3];");
  t.emit("@%p0 ld.shared.u32 %r6, [%r3+4];");
  t.emit("@%p0 shf.r.wrap.b32 %r5, %r5, %r6, 8;");
  // The mismatch byte: the earlier words with one give its index.
  t.emit(fmt::format("vote.sync.ballot.b32 %r3, %p1, {:#x};", cpackLaneMask(L)));
  t.emit("mov.u32 %r6, %lanemask_lt;");
  t.emit("and.b32 %r3, %r3, %r6;");
  t.emit("popc.b32 %r3, %r3;");
  t.emit("add.u32 %r3, %r3, %r2;");
  t.emit(fmt::format("@%p1 ld.shared.u8 %r6, [%r3+{}];", 1 + W / 2));
  t.emit("@%p1 bfi.b32 %r5, %r6, %r5, 0, 8;");
  t.emit("mad.lo.u32 %r3, %r0, 4, %r1;");
  t.emit(fmt::format("st.shared.u32 [%r3+{}], %r5;", L));
  t.emit("exit;");
  return t.finish(kCPackDecompressName, 2 * L);
}

// Algorithm 9. Registers: %r0 word (lane), %r1 buf, %r2 the word, %r3 its upper three bytes,
// %r4 its entry, %r5 4 * its entry's index, then its code; %r6, %r7 the first uncovered lane
// and its word. %p0: the word is covered; %p2: the word is a dictionary entry; %p3: lane 0.
std::string cpackCompressRoutine(uint32_t L) {
  const uint32_t W = cpackLanes(L), mask = cpackLaneMask(L);
  RoutineText t;
  t.emit("ld.param.u64 %rd0, [line];");  // the live-in (the line's address)
  t.emit("mov.u32 %r0, %tid.x;");
  t.emit("mov.u32 %r1, buf;");
  t.emit("mad.lo.u32 %r2, %r0, 4, %r1;");
  t.emit("ld.shared.u32 %r2, [%r2];");
  t.emit("and.b32 %r3, %r2, -256;");
  t.emit("setp.eq.u32 %p0, %r3, 0;");  // zzzz, zzzx
  t.emit("setp.eq.u32 %p3, %r0, 0;");
  t.emit("mov.pred %p2, 0;");
  // A narrow word keeps entry 0 and index -2, so that the code below, pattern (2 when the
  // word equals its entry, else 3) + 4 * index, gives zzzz (0) for zero and zzzx (1) otherwise.
  t.emit("mov.u32 %r4, 0;");
  t.emit("mov.u32 %r5, -2;");
  for (uint32_t k = 0; k < kCPackDictionaryEntries; ++k) {
    t.emit(fmt::format("vote.sync.ballot.b32 %r6, !%p0, {:#x};", mask));
    t.emit("setp.eq.u32 %p1, %r6, 0;");
    t.emit("@%p1 bra CPACK_BUILT;");
    t.emit("brev.b32 %r6, %r6;");
    t.emit("clz.b32 %r6, %r6;");  // the first uncovered word becomes entry k
    t.emit(fmt::format("shfl.sync.idx.b32 %r7, %r2, %r6, 31, {:#x};", mask));
    t.emit("setp.eq.or.u32 %p2, %r0, %r6, %p2;");
    t.emit("and.b32 %r6, %r7, -256;");
    t.emit("setp.eq.u32 %p1, %r3, %r6;");  // mmmm or mmmx against entry k
    t.emit("@%p1 mov.u32 %r4, %r7;");
    t.emit(fmt::format("@%p1 mov.u32 %r5, {};", 4 * k));
    t.emit("or.pred %p0, %p0, %p1;");
  }
  t.emit(fmt::format("vote.sync.all.pred %p1, %p0, {:#x};", mask));
  t.emit("@!%p1 bra CPACK_NONE;");  // a word no pattern covers
  t.label("CPACK_BUILT");
  t.emit("setp.eq.u32 %p1, %r2, %r4;");  // zzzz, mmmm: no mismatch byte
  t.emit("selp.b32 %r3, 2, 3, %p1;");
  t.emit("add.u32 %r5, %r3, %r5;");
  t.emit(fmt::format("vote.sync.ballot.b32 %r4, !%p1, {:#x};", mask));  // words with a mismatch byte
  t.emit(fmt::format("vote.sync.ballot.b32 %r6, %p2, {:#x};", mask));
  t.emit("popc.b32 %r6, %r6;");  // entries
  t.emit("popc.b32 %r3, %r4;");
  // The size, 1 + 4 entries + W/2 + mismatch bytes, must save a burst.
  t.emit("mad.lo.u32 %r3, %r6, 4, %r3;");
  t.emit(fmt::format("setp.gt.u32 %p0, %r3, {};", L - kBurstBytes - 1 - W / 2));
  t.emit("@%p0 bra CPACK_NONE;");
  t.emit(fmt::format("or.b32 %r3, %r6, {:#x};", 2u << 6));  // the head: entries, tag 2
  t.emit(fmt::format("@%p3 st.shared.u8 [buf+{}], %r3;", L));
  // An entry's word, written by its lane at 1 + 4 index = its code (2 + 4 index) - 1.
  t.emit("add.u32 %r3, %r5, %r1;");
  t.emit(fmt::format("@%p2 st.shared.u8 [%r3+{}], %r2;", L - 1));
  for (uint32_t b = 1; b < 4; ++b) {
    t.emit(fmt::format("shr.u32 %r7, %r2, {};", 8 * b));
    t.emit(fmt::format("@%p2 st.shared.u8 [%r3+{}], %r7;", L - 1 + b));
  }
  // Code byte j: word 2j's code, then 2j + 1's in the high nibble, written by the even lane.
  t.emit(fmt::format("shfl.sync.down.b32 %r7, %r5, 1, 31, {:#x};", mask));
  t.emit("bfi.b32 %r7, %r7, %r5, 4, 4;");
  t.emit("mad.lo.u32 %r6, %r6, 4, %r1;");  // buf + 4 entries
  t.emit("and.b32 %r3, %r0, 1;");
  t.emit("setp.eq.u32 %p0, %r3, 0;");
  t.emit("shr.u32 %r3, %r0, 1;");
  t.emit("add.u32 %r3, %r3, %r6;");
  t.emit(fmt::format("@%p0 st.shared.u8 [%r3+{}], %r7;", L + 1));
  // Mismatch bytes, in word order after the codes.
  t.emit("mov.u32 %r3, %lanemask_lt;");
  t.emit("and.b32 %r3, %r3, %r4;");
  t.emit("popc.b32 %r3, %r3;");
  t.emit("add.u32 %r3, %r3, %r6;");
  t.emit(fmt::format("@!%p1 st.shared.u8 [%r3+{}], %r2;", L + 1 + W / 2));
  t.emit("exit;");
  t.label("CPACK_NONE");  // not compressible: 0xFF at the head
  t.emit(fmt::format("mov.u32 %r3, {};", kUncompressed));
  t.emit(fmt::format("@%p3 st.shared.u8 [buf+{}], %r3;", L));
  t.emit("exit;");
  return t.finish(kCPackCompressName, 2 * L);
}

}  // namespace

uint32_t cpackLanes(uint32_t lineBytes) { return lineBytes / 4; }

std::string cpackRoutines(uint32_t lineBytes) {
  if (lineBytes != 64 && lineBytes != 128)
    throw std::invalid_argument(fmt::format("cpack routines: {}-byte lines (64 or 128)", lineBytes));
  return cpackDecompressRoutine(lineBytes) + cpackCompressRoutine(lineBytes);
}

}  // namespace warpsim::mech::caba
