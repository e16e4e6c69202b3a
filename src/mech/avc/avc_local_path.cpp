#include "mech/avc/avc_local_path.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "ir/types.h"

namespace warpsim::mech::avc {

using timing::mem::kMaxRequestsPerInstruction;

namespace {

// Word `w` (0-based, 4 bytes each) of lane `lane` of a load's destination or a store's data.
// `regs`: numRegs elements of accessBytes / numRegs bytes each; narrower elements that fill a
// whole word (v4.u8, v2.u16) are packed little-endian.
uint32_t wordOf(const uint64_t* const* regs, const uint64_t* imm, unsigned numRegs,
                unsigned bytes, unsigned w, unsigned lane) {
  auto element = [&](unsigned k) { return regs[k] != nullptr ? regs[k][lane] : imm[k]; };
  if (numRegs == 0) return 0;
  const unsigned elemBytes = bytes / numRegs;
  if (elemBytes >= 4) {
    const unsigned perElem = elemBytes / 4;
    return static_cast<uint32_t>(element(w / perElem) >> (32 * (w % perElem)));
  }
  uint32_t v = 0;
  for (unsigned k = 0; k < numRegs; ++k) {
    const uint64_t e = element(k) & ((uint64_t{1} << (8 * elemBytes)) - 1);
    v |= static_cast<uint32_t>(e << (8 * elemBytes * k));
  }
  return v;
}

}  // namespace

AvcLocalPath::AvcLocalPath(const Context& c, const AvcParams& p)
    : params_(p),
      port_(c.port),
      sectorBytes_(c.l1SectorBytes),
      hitLatency_(c.l1HitLatency),
      layout_(c.layout),
      avc_(p.bytes, p.ways),
      words_(4096),
      transactions_(kMaxRequestsPerInstruction) {
  if (c.l1LineBytes != kBlockBytes) {
    throw std::invalid_argument("avc: the L1 line must be 128 bytes (one 32-lane word vector), "
                                "not " + std::to_string(c.l1LineBytes));
  }
  pending_.reserve(64);
}

uint32_t AvcLocalPath::sectorsOf(uint32_t lanes) const {
  const uint32_t perSector = sectorBytes_ / 4;
  const uint32_t group = perSector >= 32 ? ~0u : (1u << perSector) - 1;
  uint32_t sectors = 0;
  for (uint32_t s = 0; s * perSector < 32; ++s) {
    if ((lanes >> (s * perSector)) & group) sectors |= 1u << s;
  }
  return sectors;
}

void AvcLocalPath::request(uint64_t block, uint32_t lanes, bool aroundL1, bool byPath,
                           uint32_t bytes) {
  if (count_ >= kMaxRequestsPerInstruction) return;  // counted, not timed (never seen)
  Request& q = requests_[count_++];
  q.line = block;
  q.sectors = sectorsOf(lanes);
  q.bytes = bytes;
  q.aroundL1 = aroundL1;
  q.byPath = byPath;
  anyServed_ |= byPath;
}

uint32_t AvcLocalPath::formTransactions(const Access& a) {
  const func::ExecRecord& r = *a.record;
  const unsigned words = a.bytes > 4 ? a.bytes / 4 : 1;
  const uint8_t wordBytes = static_cast<uint8_t>(a.bytes > 4 ? 4 : a.bytes);
  const bool isFloat = r.instr != nullptr && ir::isFloat(r.instr->type);
  const uint64_t* const* regs = a.store ? r.storeValues : r.dstValues;
  const unsigned numRegs = a.store ? r.numStoreRegs : r.numDstRegs;
  uint32_t n = 0;
  for (unsigned w = 0; w < words; ++w) {
    const uint32_t first = n;
    for (uint32_t m = a.mask; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      const uint64_t address =
          timing::mem::localAddress(layout_, a.warp, lane, a.offset[lane] + 4 * w);
      const uint64_t block = address - address % kBlockBytes;
      uint32_t t = first;
      while (t < n && transactions_[t].block != block) ++t;
      if (t == n) {
        if (n == transactions_.size()) break;
        Transaction& fresh = transactions_[n++];
        fresh.block = block;
        fresh.mask = fresh.known = 0;
        fresh.bytes = wordBytes;
        fresh.isFloat = isFloat;
      }
      Transaction& x = transactions_[t];
      x.mask |= 1u << lane;
      x.byteOffset[lane] = static_cast<uint32_t>(address % 4);
      x.data[lane] = wordOf(regs, r.storeImm, numRegs, a.bytes, w, lane);
      if (wordBytes == 4) x.known |= 1u << lane;
    }
  }
  return n;
}

timing::mem::ILocalMemoryPath::Outcome AvcLocalPath::access(const Access& a, timing::Cycle) {
  retryWritebacks();
  requests_ = a.requests;
  count_ = 0;
  anyServed_ = false;
  const uint32_t n = formTransactions(a);
  for (uint32_t i = 0; i < n; ++i) {
    if (a.store) {
      store(transactions_[i]);
    } else {
      load(transactions_[i]);
    }
  }
  Outcome out;
  out.listed = true;
  out.count = count_;
  out.latency = a.store ? 1 : hitLatency_;
  if (!a.store && avc_.enabled()) out.extraLatency = params_.extraLatency;
  return out;
}

void AvcLocalPath::classifyInto(const Transaction& t, uint64_t* classes) {
  const Classification c = classify(t.data, t.mask);
  ++classes[static_cast<unsigned>(c.cls)];
  if (c.cls == ValueClass::Affine) {
    stats_.affineUnrepresentable += c.unrepresentable;
    stats_.affineFloatTyped += t.isFloat;
  }
  if (c.cls != ValueClass::Generic && std::popcount(t.mask) > 1 && !denseMask(t.mask)) {
    ++stats_.affineSparseMask;
  }
}

bool AvcLocalPath::encode(const Transaction& t, uint32_t mask, AffineCode& code) {
  AffineCode hw, exact;
  const bool okHw = encodeHardware(t.data, mask, hw);
  const bool okExact = encodeExact(t.data, mask, exact);
  if (okHw != okExact || (okHw && !(hw == exact))) ++stats_.encoderDisagreements;
  if (params_.encoder == EncoderMode::Exact) {
    code = exact;
    return okExact;
  }
  code = hw;
  return okHw;
}

void AvcLocalPath::checkWord(const Transaction& t, unsigned lane, uint32_t expected) {
  if (!params_.check || (t.known >> lane & 1) == 0) return;
  ++stats_.checkedWords;
  if (t.data[lane] != expected) ++stats_.mismatches;
}

// ---- Algorithm 1: read (a, m) -----------------------------------------------------------------

void AvcLocalPath::load(const Transaction& t) {
  if (t.bytes == 4) {
    classifyInto(t, stats_.loads);
  } else {
    ++stats_.subWordLoads;
  }
  uint32_t rest = t.mask;
  if (avc_.enabled()) {
    ++stats_.lookups;
    AvcVector* v = avc_.vector(t.block);
    const uint32_t hit = v != nullptr ? v->valid & t.mask : 0;
    if (hit != 0) {
      avc_.touch(t.block);
      request(t.block, hit, false, true);
      for (uint32_t m = hit; m != 0; m &= m - 1) {
        const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
        checkWord(t, lane, decodeLane(v->code, lane));
      }
      rest = t.mask & ~hit;
      if (rest == 0) {
        ++stats_.fullHits;
        return;
      }
      ++stats_.partialHits;
      ++stats_.replays;  // the missing lanes go round again, as a new read
    } else {
      ++stats_.misses;
    }
  }
  loadMiss(t, rest);
}

void AvcLocalPath::loadMiss(const Transaction& t, uint32_t lanes) {
  BlockWords* b = words_.l1(t.block);
  const uint32_t inL1 = b != nullptr ? b->valid & lanes : 0;
  if (inL1 != 0) {
    for (uint32_t m = inL1; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      if (b->known >> lane & 1) checkWord(t, lane, b->value[lane]);
    }
  }
  const uint32_t missing = lanes & ~inL1;
  if (missing == 0) {
    ++stats_.l1Hits;
    request(t.block, lanes, false, false);
    return;
  }
  if (inL1 != 0) ++stats_.l1PartialHits;
  // Memory.Read(a): the missing words come from below.
  for (uint32_t m = missing; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    uint32_t value;
    if (words_.below(t.block, lane, value)) checkWord(t, lane, value);
  }
  stats_.belowFillWords += static_cast<uint64_t>(std::popcount(missing));
  AffineCode code;
  const bool affine = avc_.enabled() && (t.known & missing) == missing && encode(t, missing, code);
  if (affine) {
    // AVC.Replace(a, b, s, m): an affine fill (conflict case 2 when another (b, s) is there).
    ++stats_.affineFills;
    ++stats_.belowFillsAvc;
    AvcVector& v = vectorFor(t.block);
    if (v.valid != 0 && v.code == code) {
      ++stats_.fillMerges;
      v.valid |= missing;
    } else {
      if (v.valid & ~missing) {
        ++stats_.fillConflicts;
        const uint32_t old = (params_.writebackClean ? v.valid : v.dirty) & ~missing;
        stats_.conflictWritebacks += writeBackVector(t.block, v, old);
      }
      v.code = code;
      v.valid = missing;
      v.dirty = 0;
    }
    avc_.touch(t.block);
    if (inL1 != 0) request(t.block, inL1, false, false);
    request(t.block, missing, true, false);
    return;
  }
  // L1.Replace(a, d): the words come into the L1 (clean).
  ++stats_.genericFills;
  ++stats_.belowFillsL1;
  BlockWords& w = words_.l1Make(t.block);
  w.valid |= missing;
  w.known = (w.known & ~missing) | (missing & t.known);
  for (uint32_t m = missing; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    w.value[lane] = t.data[lane];
  }
  request(t.block, lanes, false, false);
}

// ---- Algorithm 2: write (a, m, d), with the invalidation of AVC words on generic writes -----

void AvcLocalPath::store(const Transaction& t) {
  const bool whole = t.bytes == 4;
  if (whole) {
    classifyInto(t, stats_.stores);
  } else {
    ++stats_.subWordStores;
  }
  AffineCode code;
  if (whole && avc_.enabled() && encode(t, t.mask, code)) {
    AvcVector* existing = avc_.vector(t.block);
    AvcVector& v = existing != nullptr ? *existing : vectorFor(t.block);
    if (v.valid == 0) {
      ++stats_.writesAllocate;
      v.code = code;
      v.valid = v.dirty = t.mask;
    } else if (v.code == code) {
      ++stats_.writesMerge;  // silent-store-like: only the valid mask grows
      v.valid |= t.mask;
      v.dirty |= t.mask;
    } else if ((v.valid & ~t.mask) == 0) {
      ++stats_.writesOverwrite;
      v.code = code;
      v.valid = v.dirty = t.mask;
    } else {
      ++stats_.writesConflict;
      const uint32_t old = (params_.writebackClean ? v.valid : v.dirty) & ~t.mask;
      stats_.conflictWritebacks += writeBackVector(t.block, v, old);
      v.code = code;
      v.valid = v.dirty = t.mask;
    }
    avc_.touch(t.block);
    // AVC-valid words are invalid in the L1.
    if (BlockWords* b = words_.l1(t.block)) {
      stats_.l1WordsTakenOver += static_cast<uint64_t>(std::popcount(b->valid & t.mask));
      b->valid &= ~t.mask;
      b->dirty &= ~t.mask;
    }
    request(t.block, t.mask, false, true);
    return;
  }
  ++stats_.genericWrites;
  BlockWords& b = words_.l1Make(t.block);
  if (AvcVector* v = avc_.vector(t.block); v != nullptr && (v->valid & t.mask) != 0) {
    ++stats_.genericInvalidations;
    if (!whole) {
      // A sub-word store into AVC words: the words move to the L1 first (decoded, dirty if
      // they were), then the bytes are merged there.
      ++stats_.subWordEvictions;
      const uint32_t moved = v->valid & t.mask;
      for (uint32_t m = moved; m != 0; m &= m - 1) {
        const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
        b.value[lane] = decodeLane(v->code, lane);
      }
      b.valid |= moved;
      b.known |= moved;
    }
    v->valid &= ~t.mask;
    v->dirty &= ~t.mask;
  }
  for (uint32_t m = t.mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    if (whole) {
      b.value[lane] = t.data[lane];
      continue;
    }
    // Bytes of a word: merged when the rest of the word is known.
    bool known = (b.valid & b.known) >> lane & 1;
    uint32_t old = b.value[lane];
    if (!known) known = words_.below(t.block, lane, old);
    const uint32_t shift = 8 * t.byteOffset[lane];
    const uint32_t field = t.bytes == 1 ? 0xFFu : 0xFFFFu;
    b.value[lane] = (old & ~(field << shift)) | ((t.data[lane] & field) << shift);
    b.known = known ? b.known | (1u << lane) : b.known & ~(1u << lane);
  }
  if (whole) b.known |= t.mask;
  b.valid |= t.mask;
  b.dirty |= t.mask;
  request(t.block, t.mask, false, false,
          static_cast<uint32_t>(std::popcount(t.mask)) * t.bytes);
}

// ---- lines, eviction and write-back -------------------------------------------------------------

AvcVector& AvcLocalPath::vectorFor(uint64_t block) {
  if (AvcLine* l = avc_.find(block)) return l->vectors[AvcArray::vectorOf(block)];
  AvcLine& way = avc_.victimFor(block);
  if (way.allocated) evictLine(way);
  return avc_.install(block, way).vectors[AvcArray::vectorOf(block)];
}

void AvcLocalPath::evictLine(AvcLine& line) {
  ++stats_.lineEvictions;
  for (uint32_t i = 0; i < kVectorsPerLine; ++i) {
    const AvcVector& v = line.vectors[i];
    if (v.valid == 0) continue;
    ++stats_.evictedVectors;
    const uint64_t block = line.tag + uint64_t{i} * kBlockBytes;
    if (writeBackVector(block, v, params_.writebackClean ? v.valid : v.dirty)) {
      ++stats_.evictionVectorsWrittenBack;
    }
  }
}

bool AvcLocalPath::writeBackVector(uint64_t block, const AvcVector& v, uint32_t lanes) {
  // The L1's partial copy is merged on the memory side and invalidated: its dirty words go
  // down with the pipeline's own write-back of the line (l1Dropped follows).
  const bool l1Copy = words_.l1(block) != nullptr;
  if (lanes != 0) {
    uint32_t values[32];
    for (uint32_t m = lanes; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      values[lane] = decodeLane(v.code, lane);
    }
    words_.writeBelow(block, lanes, lanes, values);
    ++stats_.belowWritebacksAvc;
    stats_.belowWritebackWordsAvc += static_cast<uint64_t>(std::popcount(lanes));
    sendWriteback(block, lanes);
  }
  if (l1Copy) dropL1Copy(block);
  return lanes != 0;
}

void AvcLocalPath::dropL1Copy(uint64_t block) {
  ++stats_.l1Invalidations;
  port_->invalidateL1(block);  // the pipeline calls l1Dropped(block)
}

void AvcLocalPath::sendWriteback(uint64_t block, uint32_t lanes) {
  const uint32_t sectors = sectorsOf(lanes);
  if (!pending_.empty() || !port_->writeBack(block, sectors)) {
    ++stats_.deferredWritebacks;
    pending_.push_back(PendingWriteback{block, sectors});
  }
}

void AvcLocalPath::retryWritebacks() {
  size_t done = 0;
  while (done < pending_.size() && port_->writeBack(pending_[done].block, pending_[done].sectors)) {
    ++done;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
}

void AvcLocalPath::l1Dropped(uint64_t line) {
  const BlockWords* b = words_.l1(line);
  if (b == nullptr) return;
  const uint32_t dirty = b->dirty & b->valid;
  if (dirty != 0) {
    ++stats_.belowWritebacksL1;
    stats_.belowWritebackWordsL1 += static_cast<uint64_t>(std::popcount(dirty));
  }
  words_.l1Drop(line);
}

void AvcLocalPath::beginKernel() {
  // The kernel's local data is dead at its end: dropped without traffic, like the L1's. The
  // counters restart with the kernel, like the memory system's own.
  stats_ = AvcStats{};
  avc_.clear();
  words_.clear();
  pending_.clear();
}

void AvcLocalPath::reportStats(nlohmann::json& out) const {
  stats_.report(out, avc_.validWords(), avc_.enabled() ? params_.bytes : 0);
}

}  // namespace warpsim::mech::avc
