// Scalar-execution eligibility (digest s5.5): the mechanism's decision from source metadata, and
// the oracle's from the sources' actual lane values.
#include "mech/gscalar/register_state.h"

namespace warpsim::mech::gscalar {

namespace {

bool classSwitchOn(ScalarClass cls, const ScalarSwitches& on) {
  switch (cls) {
    case ScalarClass::Alu: return on.alu;
    case ScalarClass::Sfu: return on.sfu;
    case ScalarClass::Mem: return on.mem;
    case ScalarClass::None: return false;
  }
  return false;
}

// Scalar for the whole warp, written by a non-divergent writer (a D = 0 register's BVR holds it).
bool nonDivergentScalar(const Metadata& m, Encoding encoding, bool halfRegister) {
  if (!m.written || m.divergent) return false;
  switch (encoding) {
    case Encoding::BytePrefix:
      return halfRegister ? m.common[0] == 4 && m.common[1] == 4 && m.fullScalar : m.common[0] == 4;
    case Encoding::Word: return m.common[0] == 4;
    case Encoding::Bdi: return false;
  }
  return false;
}

Scalarity fromHalves(bool low, bool high) {
  if (low && high) return Scalarity::HalfBoth;
  if (low) return Scalarity::HalfLow;
  if (high) return Scalarity::HalfHigh;
  return Scalarity::Vector;
}

}  // namespace

Scalarity decideScalar(const SourceView* sources, unsigned numSources, uint32_t mask, ScalarClass cls,
                       bool uniformInputs, Encoding encoding, bool halfRegister, const ScalarSwitches& on) {
  // Word-level and BDI designs have no divergent scalar; BDI (Warped-Compression) none at all.
  if (cls == ScalarClass::None || !uniformInputs || encoding == Encoding::Bdi) return Scalarity::Vector;
  if (mask != kFullMask) {
    if (!on.divergent || encoding != Encoding::BytePrefix) return Scalarity::Vector;
    for (unsigned s = 0; s < numSources; ++s) {
      const Metadata& m = *sources[s].meta;
      // The divergent-scalar rule needs the writer's mask to equal the reader's exactly.
      const bool divergentScalar = m.written && m.divergent && m.common[0] == 4 && m.bvr[0] == mask;
      if (!divergentScalar && !nonDivergentScalar(m, encoding, halfRegister)) return Scalarity::Vector;
    }
    return Scalarity::Divergent;
  }
  bool full = true;
  for (unsigned s = 0; s < numSources && full; ++s) full = nonDivergentScalar(*sources[s].meta, encoding, halfRegister);
  // A full scalar whose class is switched off runs as a vector (not as two half scalars): each
  // switch removes exactly its category.
  if (full) return classSwitchOn(cls, on) ? Scalarity::Full : Scalarity::Vector;
  if (!halfRegister || !on.half || encoding != Encoding::BytePrefix) return Scalarity::Vector;
  bool low = true, high = true;
  for (unsigned s = 0; s < numSources; ++s) {
    const Metadata& m = *sources[s].meta;
    const bool usable = m.written && !m.divergent;
    low = low && usable && m.common[0] == 4;
    high = high && usable && m.common[1] == 4;
  }
  return fromHalves(low, high);
}

Scalarity oracleScalar(const uint32_t* const* sourceValues, unsigned numSources, uint32_t mask, ScalarClass cls,
                       bool uniformInputs) {
  if (cls == ScalarClass::None || !uniformInputs) return Scalarity::Vector;
  auto allUniform = [&](uint32_t lanes) {
    for (unsigned s = 0; s < numSources; ++s) {
      if (commonMsbBytes(sourceValues[s], lanes, mask) != 4) return false;
    }
    return true;
  };
  if (mask != kFullMask) return allUniform(kFullMask) ? Scalarity::Divergent : Scalarity::Vector;
  if (allUniform(kFullMask)) return Scalarity::Full;
  return fromHalves(allUniform(kLowHalf), allUniform(kHighHalf));
}

}  // namespace warpsim::mech::gscalar
