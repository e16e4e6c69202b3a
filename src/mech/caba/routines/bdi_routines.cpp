#include "mech/caba/routines/bdi_routines.h"

#include <cstring>

#include <fmt/format.h>

namespace warpsim::mech::caba {

namespace {

constexpr BdiEncoding kBaseDelta[] = {BdiEncoding::B8D1, BdiEncoding::B8D2, BdiEncoding::B8D4,
                                      BdiEncoding::B4D1, BdiEncoding::B4D2, BdiEncoding::B2D1};

uint32_t values(BdiEncoding e, uint32_t lineBytes) { return lineBytes / bdiShape(e).baseBytes; }

// Value v from its delta (%r12, sign-extended) and the base (%rd1 when 8 bytes, else `base32`),
// or the zero base where bit tid of the selector bits (`bits()` emits their load, if any, and
// names their register) is set; written at [lineBytes + v * B], the routine's output.
template <class Emit, class Bits>
void emitValue(Emit& emit, uint32_t B, const std::string& base32, const std::string& v,
               uint32_t L, bool mask, Bits bits) {
  if (B == 8) {
    emit("cvt.s64.s32 %rd2, %r12;");
    emit("add.s64 %rd3, %rd1, %rd2;");
  } else {
    emit(fmt::format("add.u32 %r14, {}, %r12;", base32));
  }
  if (mask) {
    emit(fmt::format("bfe.u32 %r19, {}, %r0, 1;", bits()));
    emit("setp.ne.u32 %p0, %r19, 0;");
    emit(B == 8 ? "selp.b64 %rd3, %rd2, %rd3, %p0;" : "selp.b32 %r14, %r12, %r14, %p0;");
  }
  emit(fmt::format("mul.lo.u32 %r8, {}, {};", v, B));
  if (B == 8) {
    emit(fmt::format("st.shared.u64 [%r8+{}], %rd3;", L));
  } else if (B == 4) {
    emit(fmt::format("st.shared.u32 [%r8+{}], %r14;", L));
  } else {
    emit("cvt.u16.u32 %rs0, %r14;");
    emit(fmt::format("st.shared.u16 [%r8+{}], %rs0;", L));
  }
}

// Decompression: lane v rebuilds value v (and v + 32) from the base and its delta. The staging
// buffer is the routine's only shared variable, at shared address 0, so a lane's addresses are
// its index scaled plus a constant offset.
std::string bdiDecompressRoutine(BdiEncoding e, bool mask, uint32_t L) {
  const BdiShape s = bdiShape(e);
  const uint32_t B = s.baseBytes, D = s.deltaBytes, n = values(e, L);
  const uint32_t BO = 1 + (mask ? bdiMaskBytes(n) : 0), DO = BO + B;
  std::string t;
  auto emit = [&t](const std::string& line) { t += "  " + line + "\n"; };
  t += fmt::format(".entry {}(.param .u64 line)\n{{\n", bdiDecompressName(e, mask));
  t += "  .reg .pred %p<1>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<4>;\n  .reg .b16 %rs<1>;\n";
  t += fmt::format("  .shared .align 8 .b8 buf[{}];\n", 2 * L);
  emit("ld.param.u64 %rd0, [line];");  // the live-in move (the line's address)
  emit("mov.u32 %r0, %tid.x;");
  // 32 bits from any byte offset of the head: broadcast loads of the aligned words around it
  // (each loaded once: words 0-3 in %r2, %r3, %r4, %r16), funnel-shifted into place.
  bool loaded[4] = {};
  auto word = [&](uint32_t w) {  // the head's words 0-3 (the base ends by byte 11)
    constexpr int kWordRegister[] = {2, 3, 4, 16};
    const std::string r = fmt::format("%r{}", kWordRegister[w]);
    if (!loaded[w]) emit(fmt::format("ld.shared.u32 {}, [buf+{}];", r, 4 * w));
    loaded[w] = true;
    return r;
  };
  auto bitsAt = [&](uint32_t offset, const std::string& out) {
    const std::string lo = word(offset / 4);
    if (offset % 4 == 0) return lo;
    const std::string hi = word(offset / 4 + 1);
    emit(fmt::format("shf.r.wrap.b32 {}, {}, {}, {};", out, lo, hi, (offset % 4) * 8));
    return out;
  };
  const std::string baseLo = bitsAt(BO, "%r5");
  const std::string baseHi = B == 8 ? bitsAt(BO + 4, "%r6") : "";
  if (B == 8) emit(fmt::format("mov.b64 %rd1, {{{}, {}}};", baseLo, baseHi));
  for (uint32_t pass = 0; pass * 32 < n; ++pass) {
    // %r7 holds v = tid + 32 * pass (the first pass uses tid itself).
    const std::string v = pass == 0 ? "%r0" : "%r7";
    if (pass != 0) emit(fmt::format("add.u32 %r7, %r0, {};", 32 * pass));
    // The delta at DO + v * D: one sign-extending byte load when it is a byte; wider deltas are
    // unaligned, so two aligned words are loaded and funnel-shifted.
    if (D == 1) {
      emit(fmt::format("ld.shared.s8 %r12, [{}+{}];", v, DO));
    } else {
      emit(fmt::format("mad.lo.u32 %r8, {}, {}, {};", v, D, DO));
      emit("and.b32 %r9, %r8, -4;");
      emit("ld.shared.u32 %r10, [%r9];");
      emit("and.b32 %r11, %r8, 3;");
      emit("shl.b32 %r11, %r11, 3;");
      emit("ld.shared.u32 %r13, [%r9+4];");
      emit("shf.r.wrap.b32 %r12, %r10, %r13, %r11;");
      if (D == 2) emit("bfe.s32 %r12, %r12, 0, 16;");
    }
    // Bit v of the mask (from byte 1): this pass's 32 bits, bit tid the zero base.
    emitValue(emit, B, baseLo, v, L, mask, [&] { return bitsAt(1 + 4 * pass, "%r15"); });
  }
  emit("exit;");
  t += "}\n\n";
  return t;
}


// Direct-Load (digest B.9): the coalescer hands the routine the line's base, its selector bits
// and each lane's delta, steered into place as it steers any loaded value (staged aligned:
// bdiDirectLoadStaging); the routine only adds base and delta and writes the value to the parent's
// destination register (the store at [buf + lineBytes + v * B] stands for that write, which keeps
// the output checkable like a decompression's).
std::string directLoadRoutine(BdiEncoding e, bool mask, uint32_t L) {
  const BdiShape s = bdiShape(e);
  const uint32_t B = s.baseBytes, D = s.deltaBytes, n = values(e, L);
  std::string t;
  auto emit = [&t](const std::string& line) { t += "  " + line + "\n"; };
  t += fmt::format(".entry {}()\n{{\n", bdiDirectLoadName(e, mask));
  t += "  .reg .pred %p<1>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<4>;\n  .reg .b16 %rs<1>;\n";
  t += fmt::format("  .shared .align 8 .b8 buf[{}];\n", 2 * L);
  emit(B == 8 ? "ld.shared.u64 %rd1, [buf];" : "ld.shared.u32 %r5, [buf];");  // the base
  emit("mov.u32 %r0, %tid.x;");
  for (uint32_t pass = 0; pass * 32 < n; ++pass) {
    const std::string v = pass == 0 ? "%r0" : "%r7";
    if (pass != 0) emit(fmt::format("add.u32 %r7, %r0, {};", 32 * pass));
    if (D == 1) {
      emit(fmt::format("ld.shared.s8 %r12, [{}+{}];", v, kBdiDirectLoadDeltas));
    } else {
      emit(fmt::format("mul.lo.u32 %r8, {}, {};", v, D));
      emit(fmt::format("ld.shared.s{} %r12, [%r8+{}];", 8 * D, kBdiDirectLoadDeltas));
    }
    emitValue(emit, B, "%r5", v, L, mask, [&] {  // the selector bits, staged at 8
      emit(fmt::format("ld.shared.u32 %r15, [buf+{}];", 8 + 4 * pass));
      return std::string("%r15");
    });
  }
  emit("exit;");
  t += "}\n\n";
  return t;
}

// Compression (the seed's Algorithm 2): for each base size, the values are loaded once; for each
// delta size, lanes test their value against the zero base, the explicit base (the first value
// that does not fit the zero base, found with a ballot and broadcast with a shuffle) is tested
// next, and a warp-wide vote decides; the first encoding every value fits is written with byte
// stores. None fits: 0xFF at the head.
std::string bdiCompressRoutine(uint32_t L) {
  std::string t;
  auto emit = [&t](const std::string& line) { t += "  " + line + "\n"; };
  t += fmt::format(".entry {}(.param .u64 line)\n{{\n", kBdiCompressName);
  t += "  .reg .pred %p<12>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<12>;\n  .reg .b16 %rs<2>;\n";
  t += fmt::format("  .shared .align 8 .b8 buf[{}];\n", 2 * L);
  emit("ld.param.u64 %rd0, [line];");
  emit("mov.u32 %r0, %tid.x;");
  emit("mov.u32 %r1, buf;");
  emit("setp.eq.u32 %p10, %r0, 0;");
  uint32_t lastBase = 0;
  int label = 0;
  for (BdiEncoding e : kBaseDelta) {
    if (!bdiCabaKeeps(e, L)) continue;
    const BdiShape s = bdiShape(e);
    const uint32_t B = s.baseBytes, D = s.deltaBytes, n = L / B, passes = (n + 31) / 32;
    const bool wide = B == 8;
    const std::string ty = wide ? "u64" : "u32", bty = wide ? "b64" : "b32";
    const uint64_t H = uint64_t{1} << (8 * D - 1);
    if (B != lastBase) {  // load this base size's values: pass p's value in %rd<2+p> / %r<2+p>
      lastBase = B;
      for (uint32_t p = 0; p < passes; ++p) {
        emit(p == 0 ? "mov.u32 %r4, %r0;" : fmt::format("add.u32 %r4, %r0, {};", 32 * p));
        emit(fmt::format("setp.lt.u32 %p{}, %r4, {};", p, n));
        emit(fmt::format("mad.lo.u32 %r5, %r4, {}, %r1;", B));
        if (wide) {
          emit(fmt::format("mov.u64 %rd{}, 0;", 2 + p));
          emit(fmt::format("@%p{} ld.shared.u64 %rd{}, [%r5];", p, 2 + p));
        } else {
          emit(fmt::format("mov.u32 %r{}, 0;", 2 + p));
          emit(fmt::format("@%p{} ld.shared.u{} %r{}, [%r5];", p, 8 * B, 2 + p));
        }
      }
    }
    const std::string next = fmt::format("BDI_NEXT_{}", label++);
    auto v = [&](uint32_t p) { return (wide ? std::string("%rd") : std::string("%r")) + std::to_string(2 + p); };
    // Per pass: zero-base fit %p<2+p>, ballot of values needing the explicit base %r<6+p>.
    for (uint32_t p = 0; p < passes; ++p) {
      if (B == 2) {
        emit(fmt::format("bfe.s32 %r8, {}, 0, 16;", v(p)));
        emit(fmt::format("add.u32 %r8, %r8, {};", H));
        emit(fmt::format("setp.lt.u32 %p{}, %r8, {};", 2 + p, 2 * H));
      } else {
        emit(fmt::format("add.{} {}, {}, {};", ty, wide ? "%rd6" : "%r8", v(p), H));
        emit(fmt::format("setp.lt.{} %p{}, {}, {};", ty, 2 + p, wide ? "%rd6" : "%r8", 2 * H));
      }
      emit(fmt::format("not.pred %p4, %p{};", 2 + p));
      emit(fmt::format("and.pred %p4, %p4, %p{};", p));
      emit(fmt::format("vote.sync.ballot.b32 %r{}, %p4, -1;", 6 + p));
    }
    // The explicit base: the value of the first lane whose bit is set (0 when none).
    emit("brev.b32 %r9, %r6;");
    emit("clz.b32 %r9, %r9;");
    if (passes == 2) {
      emit("brev.b32 %r10, %r7;");
      emit("clz.b32 %r10, %r10;");
      emit("add.u32 %r10, %r10, 32;");
      emit("setp.eq.u32 %p5, %r6, 0;");
      emit("selp.b32 %r9, %r10, %r9, %p5;");
      emit("or.b32 %r11, %r6, %r7;");
    } else {
      emit("mov.b32 %r11, %r6;");
    }
    emit("and.b32 %r12, %r9, 31;");
    if (wide) {
      emit("mov.b64 {%r13, %r14}, %rd2;");
      emit("shfl.sync.idx.b32 %r13, %r13, %r12, 31, -1;");
      emit("shfl.sync.idx.b32 %r14, %r14, %r12, 31, -1;");
      emit("mov.b64 %rd7, {%r13, %r14};");
      emit("setp.eq.u32 %p5, %r11, 0;");
      emit("selp.b64 %rd7, 0, %rd7, %p5;");
    } else {
      emit("shfl.sync.idx.b32 %r13, %r2, %r12, 31, -1;");
      if (passes == 2) {
        emit("shfl.sync.idx.b32 %r14, %r3, %r12, 31, -1;");
        emit("setp.ge.u32 %p5, %r9, 32;");
        emit("selp.b32 %r13, %r14, %r13, %p5;");
      }
      emit("setp.eq.u32 %p5, %r11, 0;");
      emit("selp.b32 %r15, 0, %r13, %p5;");
    }
    // Explicit-base fit %p<6+p>, delta %rd<8+p> / %r<16+p>; every in-range value must fit one base.
    for (uint32_t p = 0; p < passes; ++p) {
      const std::string d = wide ? "%rd" + std::to_string(8 + p) : "%r" + std::to_string(16 + p);
      if (wide) {
        emit(fmt::format("sub.s64 {}, {}, %rd7;", d, v(p)));
        emit(fmt::format("add.u64 %rd6, {}, {};", d, H));
        emit(fmt::format("setp.lt.u64 %p{}, %rd6, {};", 6 + p, 2 * H));
      } else {
        emit(fmt::format("sub.u32 {}, {}, %r15;", d, v(p)));
        if (B == 2) emit(fmt::format("bfe.s32 {}, {}, 0, 16;", d, d));
        emit(fmt::format("add.u32 %r8, {}, {};", d, H));
        emit(fmt::format("setp.lt.u32 %p{}, %r8, {};", 6 + p, 2 * H));
      }
      emit(fmt::format("not.pred %p4, %p{};", p));
      emit(fmt::format("or.pred %p4, %p4, %p{};", 6 + p));
      emit(fmt::format("or.pred %p4, %p4, %p{};", 2 + p));
      emit(fmt::format("vote.sync.all.pred %p4, %p4, -1;"));
      emit(fmt::format("@!%p4 bra {};", next));
    }
    // It fits: the zero base where the explicit one does not (ballot %r<20+p>), then the bytes.
    for (uint32_t p = 0; p < passes; ++p) {
      emit(fmt::format("not.pred %p4, %p{};", 6 + p));
      emit(fmt::format("and.pred %p4, %p4, %p{};", 2 + p));
      emit(fmt::format("and.pred %p4, %p4, %p{};", p));
      emit(fmt::format("vote.sync.ballot.b32 %r{}, %p4, -1;", 20 + p));
      // The delta this value stores: the value itself on the zero base.
      if (wide) {
        emit(fmt::format("selp.b64 %rd{}, {}, %rd{}, %p4;", 8 + p, v(p), 8 + p));
      } else {
        emit(fmt::format("selp.b32 %r{}, {}, %r{}, %p4;", 16 + p, v(p), 16 + p));
      }
    }
    if (passes == 2) {
      emit("or.b32 %r22, %r20, %r21;");
    } else {
      emit("mov.b32 %r22, %r20;");
    }
    emit("setp.ne.u32 %p5, %r22, 0;");
    emit(fmt::format("selp.b32 %r23, {}, {}, %p5;", static_cast<uint32_t>(e) | 0x10u,
                     static_cast<uint32_t>(e)));
    emit("cvt.u16.u32 %rs0, %r23;");
    emit(fmt::format("@%p10 st.shared.u8 [buf+{}], %rs0;", L));
    const uint32_t MB = bdiMaskBytes(n);
    emit(fmt::format("selp.b32 %r24, {}, 1, %p5;", 1 + MB));  // the base's offset
    // Mask bytes: lane j < MB writes byte j.
    emit(fmt::format("setp.lt.u32 %p8, %r0, {};", MB));
    emit("and.pred %p8, %p8, %p5;");
    emit("and.b32 %r25, %r0, 3;");
    emit("shl.b32 %r25, %r25, 3;");
    if (passes == 2) {
      emit("setp.ge.u32 %p9, %r0, 4;");
      emit("selp.b32 %r26, %r21, %r20, %p9;");
      emit("bfe.u32 %r26, %r26, %r25, 8;");
    } else {
      emit("bfe.u32 %r26, %r20, %r25, 8;");
    }
    emit("cvt.u16.u32 %rs0, %r26;");
    emit("add.u32 %r27, %r1, %r0;");
    emit(fmt::format("@%p8 st.shared.u8 [%r27+{}], %rs0;", L + 1));
    // Base bytes: lane k < B writes byte k.
    emit(fmt::format("setp.lt.u32 %p8, %r0, {};", B));
    emit("shl.b32 %r25, %r0, 3;");
    if (wide) {
      emit("shr.u64 %rd6, %rd7, %r25;");
      emit("cvt.u32.u64 %r28, %rd6;");
    } else {
      emit("shr.u32 %r28, %r15, %r25;");
    }
    emit("cvt.u16.u32 %rs0, %r28;");
    emit("add.u32 %r29, %r27, %r24;");
    emit(fmt::format("@%p8 st.shared.u8 [%r29+{}], %rs0;", L));
    // Deltas: D bytes per value at BO + B + v * D.
    for (uint32_t p = 0; p < passes; ++p) {
      emit(p == 0 ? "mov.u32 %r4, %r0;" : fmt::format("add.u32 %r4, %r0, {};", 32 * p));
      emit(fmt::format("mad.lo.u32 %r30, %r4, {}, %r1;", D));
      emit("add.u32 %r30, %r30, %r24;");
      for (uint32_t k = 0; k < D; ++k) {
        if (wide) {
          emit(fmt::format("shr.u64 %rd6, %rd{}, {};", 8 + p, 8 * k));
          emit("cvt.u32.u64 %r31, %rd6;");
        } else {
          emit(fmt::format("shr.u32 %r31, %r{}, {};", 16 + p, 8 * k));
        }
        emit("cvt.u16.u32 %rs0, %r31;");
        emit(fmt::format("@%p{} st.shared.u8 [%r30+{}], %rs0;", p, L + B + k));
      }
    }
    emit("exit;");
    t += next + ":\n";
  }
  emit("mov.u16 %rs0, 255;");
  emit(fmt::format("@%p10 st.shared.u8 [buf+{}], %rs0;", L));
  emit("exit;");
  t += "}\n\n";
  return t;
}

}  // namespace

std::string bdiDecompressName(BdiEncoding e, bool mask) {
  return fmt::format("bdi_dec_{}{}", bdiEncodingName(static_cast<uint8_t>(e)), mask ? "_mask" : "");
}

std::string bdiDirectLoadName(BdiEncoding e, bool mask) {
  return fmt::format("bdi_load_{}{}", bdiEncodingName(static_cast<uint8_t>(e)), mask ? "_mask" : "");
}

uint32_t bdiDirectLoadStaging(const uint8_t* encoded, uint32_t lineBytes, uint8_t* staging) {
  const auto e = static_cast<BdiEncoding>(encoded[0] & 0xF);
  const bool mask = (encoded[0] & 0x10) != 0;
  const BdiShape s = bdiShape(e);
  const uint32_t n = values(e, lineBytes);
  const uint32_t bo = 1 + (mask ? bdiMaskBytes(n) : 0);
  std::memset(staging, 0, kBdiDirectLoadDeltas);
  std::memcpy(staging, encoded + bo, s.baseBytes);
  if (mask) std::memcpy(staging + 8, encoded + 1, bdiMaskBytes(n));
  std::memcpy(staging + kBdiDirectLoadDeltas, encoded + bo + s.baseBytes, n * s.deltaBytes);
  return kBdiDirectLoadDeltas + n * s.deltaBytes;
}

uint32_t bdiLanes(BdiEncoding e, uint32_t lineBytes) {
  const uint32_t n = values(e, lineBytes);
  return n >= 32 ? 32 : n;
}

std::string bdiRoutines(uint32_t lineBytes) {
  std::string t;
  for (BdiEncoding e : kBaseDelta) {
    if (!bdiCabaKeeps(e, lineBytes)) continue;
    t += bdiDecompressRoutine(e, false, lineBytes);
    t += bdiDecompressRoutine(e, true, lineBytes);
    t += directLoadRoutine(e, false, lineBytes);
    t += directLoadRoutine(e, true, lineBytes);
  }
  t += bdiCompressRoutine(lineBytes);
  return t;
}

}  // namespace warpsim::mech::caba
