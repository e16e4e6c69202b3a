// Register value state under byte-prefix (G-Scalar), word-scalar and BDI encodings: what each
// write stores, what each read and write costs, and the rebuild of a register from its stored
// form. The cost rules are the ones documented in register_state.h and digest s5.3-s5.6.
#include "mech/gscalar/register_state.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <stdexcept>

namespace warpsim::mech::gscalar {

namespace {

constexpr unsigned kBytes = 4;

uint32_t rawLane(const uint8_t* bytes, unsigned lane) {
  return uint32_t{bytes[lane]} | uint32_t{bytes[kLanes + lane]} << 8 |
         uint32_t{bytes[2 * kLanes + lane]} << 16 | uint32_t{bytes[3 * kLanes + lane]} << 24;
}

// Writes bytes 0 .. count-1 of `value` into the byte arrays of `lane`; the others keep what they hold.
void storeLowBytes(uint8_t* bytes, unsigned lane, uint32_t value, unsigned count) {
  for (unsigned b = 0; b < count; ++b) bytes[b * kLanes + lane] = static_cast<uint8_t>(value >> (8 * b));
}

// Bits of the `common` most significant bytes (0 -> none, 4 -> all).
uint32_t commonBits(unsigned common) { return common == 0 ? 0u : ~0u << (8 * (kBytes - common)); }

// Lane-sliced arrays (4 lanes each) holding at least one lane of `mask`.
unsigned activeLaneGroups(uint32_t mask) {
  uint32_t any = mask | mask >> 1;
  any |= any >> 2;
  return static_cast<unsigned>(std::popcount(any & 0x11111111u));
}

unsigned activeHalves(uint32_t mask) { return ((mask & kLowHalf) != 0) + ((mask & kHighHalf) != 0); }

ReadKind kindOfCommonBytes(unsigned common) {
  switch (common) {
    case 4: return ReadKind::Scalar;
    case 3: return ReadKind::Bytes3;
    case 2: return ReadKind::Bytes2;
    case 1: return ReadKind::Bytes1;
    default: return ReadKind::Bytes0;
  }
}

// BDI keeps 4 - delta bytes in common[0]: 0 -> uncompressed (delta 4).
unsigned bdiDeltaOf(const Metadata& m) { return m.common[0] == 0 ? 4 : 4 - m.common[0]; }
uint32_t bdiStoredBytes(unsigned delta) { return delta == 4 ? 128 : 4 + 32 * delta; }

uint32_t signExtend(uint32_t value, unsigned bytes) {
  if (bytes == 0) return 0;
  const unsigned shift = 32 - 8 * bytes;
  return static_cast<uint32_t>(static_cast<int32_t>(value << shift) >> shift);
}

bool wordScalar(const Metadata& m) { return m.written && !m.divergent && m.common[0] == 4; }

}  // namespace

RegisterState::RegisterState(const StateOptions& options, uint32_t slots, uint32_t regsPerSlot)
    : options_(options),
      regsPerSlot_(regsPerSlot),
      meta_(size_t{slots} * regsPerSlot),
      values_(new uint32_t[size_t{slots} * regsPerSlot * kLanes]),
      bytes_(options.keepStoredForm ? new uint8_t[size_t{slots} * regsPerSlot * kLanes * kBytes] : nullptr) {
  if (options.halfRegister && options.encoding != Encoding::BytePrefix) {
    throw std::invalid_argument("gscalar: half-register compression needs the byte-prefix encoding");
  }
}

void RegisterState::resetSlot(uint32_t slot) {
  std::fill_n(meta_.begin() + static_cast<std::ptrdiff_t>(at(slot, 0)), regsPerSlot_, Metadata{});
}

void RegisterState::clearIfUnwritten(size_t i) {
  if (meta_[i].written) return;
  std::fill_n(valuesAt(i), kLanes, 0u);
  std::fill_n(bytesAt(i), kLanes * kBytes, uint8_t{0});
}

const Metadata& RegisterState::meta(uint32_t slot, uint32_t reg) const { return meta_[at(slot, reg)]; }

const uint32_t* RegisterState::values(uint32_t slot, uint32_t reg) const {
  static constexpr uint32_t kZeros[kLanes] = {};
  const size_t i = at(slot, reg);
  return meta_[i].written ? &values_[i * kLanes] : kZeros;
}

bool RegisterState::needsSpecialMove(uint32_t slot, uint32_t reg, uint32_t mask) const {
  if (mask == kFullMask || mask == 0) return false;
  const Metadata& m = meta_[at(slot, reg)];
  if (!m.written || m.divergent) return false;
  switch (options_.encoding) {
    case Encoding::BytePrefix: return m.common[0] > 0 || m.common[1] > 0;  // [1] is 0 outside half mode
    case Encoding::Word: return m.common[0] == 4;
    case Encoding::Bdi: return m.common[0] > 0;
  }
  return false;
}

void RegisterState::requireNoSpecialMove(uint32_t slot, uint32_t reg, uint32_t mask, const char* what) const {
  if (!needsSpecialMove(slot, reg, mask)) return;
  char line[160];
  std::snprintf(line, sizeof line,
                "gscalar: %s under mask 0x%08x to compressed register %u of warp slot %u "
                "without the special move first",
                what, mask, reg, slot);
  throw std::logic_error(line);
}

AccessCost RegisterState::specialMove(uint32_t slot, uint32_t reg) {
  AccessCost cost = read(slot, reg, kFullMask, nullptr);
  uint32_t lanes[kLanes];
  decompress(slot, reg, lanes);  // the move writes what the decompressor produced
  const size_t i = at(slot, reg);
  uint8_t* bytes = bytesAt(i);
  for (unsigned l = 0; l < kLanes; ++l) storeLowBytes(bytes, l, lanes[l], kBytes);
  Metadata& m = meta_[i];
  m = Metadata{};
  m.written = true;
  m.bvr[0] = lanes[0];
  if (halfMode()) m.bvr[1] = lanes[16];
  cost.arrays = static_cast<uint8_t>(cost.arrays + 8);
  cost.crossbarBytes = static_cast<uint16_t>(cost.crossbarBytes + 128);
  cost.metadata = options_.encoding != Encoding::Word;
  cost.decompressed = true;
  return cost;
}

AccessCost RegisterState::write(uint32_t slot, uint32_t reg, const uint32_t* laneValues, uint32_t mask) {
  if (mask == 0) return {};
  const size_t i = at(slot, reg);
  if (mask == kFullMask) return writeFull(i, laneValues);
  requireNoSpecialMove(slot, reg, mask, "divergent write");
  writeActiveLanes(i, laneValues, 0, mask);
  meta_[i].common[0] = static_cast<uint8_t>(commonMsbBytes(laneValues, kFullMask, mask));
  return divergentWriteCost(mask, true);
}

AccessCost RegisterState::writeScalar(uint32_t slot, uint32_t reg, uint32_t value, uint32_t mask) {
  if (mask == 0) return {};
  const size_t i = at(slot, reg);
  if (mask != kFullMask) {
    requireNoSpecialMove(slot, reg, mask, "divergent scalar write");
    writeActiveLanes(i, nullptr, value, mask);
    meta_[i].common[0] = 4;
    return divergentWriteCost(mask, false);
  }
  std::fill_n(valuesAt(i), kLanes, value);
  Metadata& m = meta_[i];
  m = Metadata{};
  m.written = true;
  m.common[0] = 4;
  m.bvr[0] = value;
  if (halfMode()) {
    m.common[1] = 4;
    m.bvr[1] = value;
    m.fullScalar = true;
  }
  AccessCost cost;
  cost.crossbarBytes = 4;
  switch (options_.encoding) {
    case Encoding::BytePrefix: cost.metadata = true; break;
    case Encoding::Word: cost.scalarRf = true; break;
    case Encoding::Bdi:  // delta 0: the 4-byte base alone, in one array
      cost.arrays = 1;
      cost.metadata = true;
      break;
  }
  return cost;
}

AccessCost RegisterState::writeFull(size_t i, const uint32_t* v) {
  std::copy_n(v, kLanes, valuesAt(i));
  uint8_t* bytes = bytesAt(i);
  Metadata& m = meta_[i];
  m = Metadata{};
  m.written = true;
  m.bvr[0] = v[0];
  AccessCost cost;
  switch (options_.encoding) {
    case Encoding::BytePrefix: {
      cost.metadata = true;
      cost.decompressed = true;
      if (!halfMode()) {
        const unsigned n = commonMsbBytes(v, kFullMask, kFullMask);
        m.common[0] = static_cast<uint8_t>(n);
        for (unsigned l = 0; l < kLanes; ++l) storeLowBytes(bytes, l, v[l], kBytes - n);
        cost.arrays = static_cast<uint8_t>(2 * (kBytes - n));
        // As a read: the compressed bytes, or the 4-byte BVR of a scalar.
        cost.crossbarBytes = static_cast<uint16_t>(n == kBytes ? 4 : (kBytes - n) * 32);
        break;
      }
      const unsigned nLow = commonMsbBytes(v, kLowHalf, kFullMask);
      const unsigned nHigh = commonMsbBytes(v, kHighHalf, kFullMask);
      m.common[0] = static_cast<uint8_t>(nLow);
      m.common[1] = static_cast<uint8_t>(nHigh);
      m.bvr[1] = v[16];
      m.fullScalar = nLow == 4 && nHigh == 4 && v[0] == v[16];
      for (unsigned l = 0; l < kLanes; ++l) storeLowBytes(bytes, l, v[l], kBytes - (l < 16 ? nLow : nHigh));
      cost.arrays = static_cast<uint8_t>((kBytes - nLow) + (kBytes - nHigh));
      cost.crossbarBytes = static_cast<uint16_t>((kBytes - nLow) * 16 + (kBytes - nHigh) * 16);
      if (nLow == kBytes && nHigh == kBytes) cost.crossbarBytes = m.fullScalar ? 4 : 8;
      break;
    }
    case Encoding::Word: {
      if (commonMsbBytes(v, kFullMask, kFullMask) == 4) {  // to the scalar register file
        m.common[0] = 4;
        cost.scalarRf = true;
        cost.crossbarBytes = 4;
        break;
      }
      for (unsigned l = 0; l < kLanes; ++l) storeLowBytes(bytes, l, v[l], kBytes);
      cost.arrays = 8;
      cost.crossbarBytes = 128;
      break;
    }
    case Encoding::Bdi: {
      const unsigned delta = bdiDeltaBytes(v);
      m.common[0] = static_cast<uint8_t>(delta == 4 ? 0 : 4 - delta);
      for (unsigned l = 0; l < kLanes; ++l) storeLowBytes(bytes, l, delta == 4 ? v[l] : v[l] - v[0], delta);
      const uint32_t stored = bdiStoredBytes(delta);
      cost.arrays = static_cast<uint8_t>((stored + 15) / 16);
      cost.crossbarBytes = static_cast<uint16_t>(stored);
      cost.metadata = true;
      cost.decompressed = true;
      break;
    }
  }
  return cost;
}

// A divergent write: active lanes' values go uncompressed into the arrays (per-byte write
// enables); the register is then D = 1 with the writer's mask in the BVR. laneValues == nullptr
// writes `value` to every active lane. common[0] is left to the caller.
void RegisterState::writeActiveLanes(size_t i, const uint32_t* laneValues, uint32_t value, uint32_t mask) {
  clearIfUnwritten(i);
  uint32_t* values = valuesAt(i);
  uint8_t* bytes = bytesAt(i);
  for (unsigned l = 0; l < kLanes; ++l) {
    if ((mask >> l & 1u) == 0) continue;
    values[l] = laneValues ? laneValues[l] : value;
    storeLowBytes(bytes, l, values[l], kBytes);
  }
  Metadata& m = meta_[i];
  m = Metadata{};
  m.written = true;
  m.divergent = true;
  m.bvr[0] = mask;
}

AccessCost RegisterState::divergentWriteCost(uint32_t mask, bool compressorRan) const {
  AccessCost cost;
  cost.crossbarBytes = static_cast<uint16_t>(4 * std::popcount(mask));
  if (options_.encoding == Encoding::BytePrefix) {
    cost.arrays = static_cast<uint8_t>(options_.divergentWriteAllArrays ? 8 : 4 * activeHalves(mask));
    cost.metadata = true;
    cost.decompressed = compressorRan;  // the comparator still computes enc over the active lanes
  } else {
    cost.arrays = static_cast<uint8_t>(activeLaneGroups(mask));
    cost.metadata = options_.encoding == Encoding::Bdi;
  }
  return cost;
}

AccessCost RegisterState::read(uint32_t slot, uint32_t reg, uint32_t mask, ReadKind* kind) const {
  const Metadata& m = meta_[at(slot, reg)];
  AccessCost cost;
  ReadKind k = ReadKind::Bytes0;
  const bool uncompressed = !m.written || m.divergent;
  if (uncompressed) {
    cost.arrays = 8;
    cost.crossbarBytes = 128;
    k = m.divergent ? ReadKind::Divergent : ReadKind::Bytes0;
  }
  switch (options_.encoding) {
    case Encoding::BytePrefix: {
      cost.metadata = true;
      if (uncompressed) {
        cost.decompressed = !m.divergent;  // D = 0 reads pass the decompressor
        break;
      }
      cost.decompressed = true;
      if (!halfMode()) {
        const unsigned n = m.common[0];
        cost.arrays = static_cast<uint8_t>(2 * (kBytes - n));
        cost.crossbarBytes = static_cast<uint16_t>(n == 4 ? 4 : (kBytes - n) * 32);  // n = 4: the BVR
        k = kindOfCommonBytes(n);
        break;
      }
      const unsigned nLow = m.common[0], nHigh = m.common[1];
      cost.arrays = static_cast<uint8_t>((kBytes - nLow) + (kBytes - nHigh));
      // Both halves scalar: the BVRs cross instead (one when they hold the same value).
      const unsigned bytesMoved = (kBytes - nLow) * 16 + (kBytes - nHigh) * 16;
      cost.crossbarBytes = static_cast<uint16_t>(bytesMoved != 0 ? bytesMoved : m.fullScalar ? 4 : 8);
      // Whole-register view. Both halves uniform but different: the common prefix of the two BVRs.
      unsigned n = std::min(nLow, nHigh);
      if (n == 4 && !m.fullScalar) n = static_cast<unsigned>(std::countl_zero(m.bvr[0] ^ m.bvr[1])) / 8;
      k = m.fullScalar ? ReadKind::Scalar : kindOfCommonBytes(std::min(n, 3u));
      break;
    }
    case Encoding::Word: {
      if (wordScalar(m)) {
        cost.scalarRf = true;
        cost.crossbarBytes = 4;
        k = ReadKind::Scalar;
      } else {
        cost.arrays = 8;
        cost.crossbarBytes = 128;
      }
      break;
    }
    case Encoding::Bdi: {
      cost.metadata = true;
      if (uncompressed) break;
      const unsigned delta = bdiDeltaOf(m);
      const uint32_t stored = bdiStoredBytes(delta);
      cost.arrays = static_cast<uint8_t>((stored + 15) / 16);
      cost.crossbarBytes = static_cast<uint16_t>(stored);
      cost.decompressed = delta < 4;
      k = delta == 4 ? ReadKind::Bytes0 : kindOfCommonBytes(4 - delta);
      break;
    }
  }
  if (mask != kFullMask) k = ReadKind::Divergent;  // Fig. 8: a divergent reader's own category
  if (kind) *kind = k;
  return cost;
}

void RegisterState::decompress(uint32_t slot, uint32_t reg, uint32_t* out) const {
  const size_t i = at(slot, reg);
  const Metadata& m = meta_[i];
  if (!m.written) {
    std::fill_n(out, kLanes, 0u);
    return;
  }
  if (!bytes_) {  // the arrays' contents are not kept: the values they would rebuild
    std::copy_n(&values_[i * kLanes], kLanes, out);
    return;
  }
  const uint8_t* bytes = &bytes_[i * 128];
  if (m.divergent) {
    for (unsigned l = 0; l < kLanes; ++l) out[l] = rawLane(bytes, l);
    return;
  }
  switch (options_.encoding) {
    case Encoding::BytePrefix: {
      // The decompressor's per-byte mux: common bytes from the BVR, the others from the arrays.
      for (unsigned l = 0; l < kLanes; ++l) {
        const unsigned h = halfMode() && l >= 16 ? 1 : 0;
        const uint32_t fromBvr = commonBits(m.common[h]);
        out[l] = (m.bvr[h] & fromBvr) | (rawLane(bytes, l) & ~fromBvr);
      }
      return;
    }
    case Encoding::Word: {
      for (unsigned l = 0; l < kLanes; ++l) out[l] = m.common[0] == 4 ? m.bvr[0] : rawLane(bytes, l);
      return;
    }
    case Encoding::Bdi: {
      const unsigned delta = bdiDeltaOf(m);
      for (unsigned l = 0; l < kLanes; ++l) {
        out[l] = delta == 4 ? rawLane(bytes, l) : m.bvr[0] + signExtend(rawLane(bytes, l), delta);
      }
      return;
    }
  }
}

RegisterState::Stored RegisterState::stored(uint32_t slot, uint32_t reg) const {
  const Metadata& m = meta_[at(slot, reg)];
  const bool uncompressed = !m.written || m.divergent;
  Stored s;
  s.arrayBytes = 128;
  switch (options_.encoding) {
    case Encoding::BytePrefix: {
      s.metadataBits = halfMode() ? 76 : 38;
      if (uncompressed) break;
      if (halfMode()) {
        s.arrayBytes = (kBytes - m.common[0]) * 16 + (kBytes - m.common[1]) * 16;
        s.baseBytes = m.common[0] + m.common[1];
      } else {
        s.arrayBytes = (kBytes - m.common[0]) * 32;
        s.baseBytes = m.common[0];
      }
      break;
    }
    case Encoding::Word: {
      s.metadataBits = 1;
      if (wordScalar(m)) {
        s.arrayBytes = 0;
        s.baseBytes = 4;
      }
      break;
    }
    case Encoding::Bdi: {
      s.metadataBits = 2;
      if (!uncompressed) s.arrayBytes = bdiStoredBytes(bdiDeltaOf(m));
      break;
    }
  }
  return s;
}

}  // namespace warpsim::mech::gscalar
