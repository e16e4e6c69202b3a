#include "mech/caba/compressed_memory.h"

#include <bit>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "func/device_memory.h"
#include "timing/mem/line_data.h"

namespace warpsim::mech::caba {

namespace {

// The reserved DRAM region of the per-line metadata (above every device allocation), one part
// per memory controller, indexed by the line's address within its channel.
constexpr uint64_t kMetadataRegion = uint64_t{0xF} << 40;
constexpr uint64_t kMetadataPerChannel = uint64_t{1} << 32;

}  // namespace

CompressedMemory::CompressedMemory(const Context& c, const MemoryCompressionParams& p)
    : params_(p),
      memory_(c.memory),
      mapping_(c.mapping),
      channel_(c.channel),
      lineBytes_(c.lineBytes),
      sectorBytes_(c.sectorBytes),
      fullBursts_(c.lineBytes / kBurstBytes),
      allSectors_((1u << (c.lineBytes / c.sectorBytes)) - 1),
      metadata_(p.metadataCacheBytes, p.metadataCacheWays, p.metadataLineBytes) {
  if (!isSupportedLineSize(lineBytes_) || sectorBytes_ != kBurstBytes)
    throw config::Error("config: error: l2.compression = \"line-compression\" needs 32-byte "
                        "sectors and 32-, 64- or 128-byte lines (l2.line = " +
                        std::to_string(lineBytes_) + ", l2.sector = " +
                        std::to_string(sectorBytes_) + ")");
  dram_.reserve(1 << 16);
}

CompressedMemory::LineState CompressedMemory::compressNow(uint64_t line) {
  if (!inDeviceMemory(line)) return plainState(false);  // values unknown: never compressed
  timing::mem::readLineData(*memory_, line, lineBytes_, data_);
  const CompressedLine c =
      compress(params_.algorithm, data_, lineBytes_, params_.check ? encoded_ : nullptr);
  LineState s;
  s.known = true;
  s.bursts = static_cast<uint8_t>(c.compressible ? c.bursts : fullBursts_);
  s.algorithm = static_cast<uint8_t>(c.algorithm);
  s.encoding = c.encoding;
  s.bytes = static_cast<uint16_t>(c.compressible ? c.bytes : lineBytes_);
  ++stats_.compressions;
  stats_.lineBursts += s.bursts;
  stats_.lineBurstsFull += fullBursts_;
  if (c.compressible) ++stats_.encodings[s.algorithm][s.encoding];
  if (params_.check && c.compressible) {
    ++stats_.checked;
    std::string error;
    if (!decompress(params_.algorithm, encoded_, c.bytes, decoded_, lineBytes_, &error) ||
        std::memcmp(decoded_, data_, lineBytes_) != 0)
      ++stats_.checkFailures;
  }
  return s;
}

bool CompressedMemory::inDeviceMemory(uint64_t line) const {
  return memory_ != nullptr && memory_->allocationOf(line, lineBytes_) != nullptr;
}

CompressedMemory::LineState& CompressedMemory::dramState(uint64_t line) {
  LineState& s = dram_[line];
  if (!s.known) {  // stored compressed before the kernel
    const bool plain = s.sentPlain;
    s = compressNow(line);
    s.sentPlain = plain;
  }
  return s;
}

CompressedMemory::LineState CompressedMemory::plainState(bool sentPlain) const {
  LineState s{static_cast<uint8_t>(fullBursts_), 0, 0, static_cast<uint16_t>(lineBytes_)};
  s.known = true;
  s.sentPlain = sentPlain;
  return s;
}

bool CompressedMemory::sentPlain(uint64_t line) const {
  const auto it = dram_.find(line);
  return it != dram_.end() && it->second.sentPlain;
}

void CompressedMemory::metadataAccess(uint64_t line, bool write, timing::mem::CompressedTransfer& t) {
  const uint64_t local = mapping_ != nullptr ? mapping_->map(line).local : line;
  const uint64_t entryBits = (local / lineBytes_) * params_.metadataBitsPerLine;
  const uint64_t addr = kMetadataRegion + channel_ * kMetadataPerChannel +
                        entryBits / 8 / params_.metadataLineBytes * params_.metadataLineBytes;
  if (!params_.metadataCache) {
    ++stats_.metadataMisses;
    (write ? t.metadataWrite : t.metadataRead) = addr;
    return;
  }
  const MetadataCache::Result r = metadata_.access(addr, write);
  if (r.hit) {
    ++stats_.metadataHits;
  } else {
    ++stats_.metadataMisses;
    t.metadataRead = addr;  // a write of 2 bits needs the rest of the line too
  }
  if (r.evictedDirty) {
    ++stats_.metadataWritebacks;
    t.metadataWrite = r.evicted;
  }
}

timing::mem::CompressedTransfer CompressedMemory::transfer(uint64_t line, uint32_t sectors,
                                                           bool write) {
  timing::mem::CompressedTransfer t;
  const uint32_t asked = static_cast<uint32_t>(std::popcount(sectors));
  if (!inDeviceMemory(line)) {
    // Local memory and kernel parameters are never compressed: the controller knows the
    // compressible region (the device allocations), so their accesses read no metadata.
    ++stats_.unknownLines;
    t.bursts = asked;
    DirectionCounters& d = write ? stats_.writes : stats_.reads;
    ++d.lines;
    d.baselineBursts += asked;
    d.bursts += asked;
    return t;
  }
  if (!write) {
    const LineState& s = dramState(line);
    metadataAccess(line, false, t);
    DirectionCounters& d = stats_.reads;
    ++d.lines;
    d.baselineBursts += asked;
    if (compressed(s)) {
      ++d.compressedLines;
      t.sectors = allSectors_;
      t.bursts = s.bursts;
      const bool controllerDecompresses =
          params_.placement == Placement::Dram && params_.agent == Agent::Hardware;
      t.extraCycles = controllerDecompresses ? params_.decompressCycles : 0;
    } else {
      t.bursts = asked;
    }
    d.bursts += t.bursts;
    return t;
  }
  DirectionCounters& d = stats_.writes;
  ++d.lines;
  d.baselineBursts += asked;
  LineState& s = dramState(line);
  if (s.sentPlain) {
    s = plainState(true);
  } else if (sectors == allSectors_) {
    s = compressNow(line);
  } else if (compressed(s)) {
    // Merge into the compressed copy: read it whole, write the merged line whole.
    ++stats_.readModifyWrites;
    stats_.readModifyWriteBursts += s.bursts;
    t.readFirstBursts = s.bursts;
    s = compressNow(line);
    t.sectors = allSectors_;
  } else {
    s = plainState(false);
  }
  if (compressed(s)) {
    ++d.compressedLines;
    t.sectors = allSectors_;
    t.bursts = s.bursts;
  } else {
    t.bursts = t.sectors == allSectors_ ? fullBursts_ : asked;
  }
  d.bursts += t.bursts;
  metadataAccess(line, true, t);
  return t;
}

timing::mem::ReplyCost CompressedMemory::reply(uint64_t line, uint32_t sectors, uint32_t bytes,
                                               bool fromDram) {
  (void)sectors;
  ++stats_.replies;
  stats_.replyBaselineBytes += bytes;
  timing::mem::ReplyCost r{bytes, 0};
  // Compressed on the way: what the L2 holds (placement l2), or, with an uncompressed L2 and
  // assist warps, what DRAM sent for this request.
  const bool fromCompressedCopy =
      params_.placement == Placement::L2 ||
      (params_.agent == Agent::AssistWarp && fromDram && inDeviceMemory(line) &&
       compressed(dramState(line)));
  if (fromCompressedCopy && !sentPlain(line)) {
    const LineState s = compressNow(line);  // the copy's form, compressed from its data
    if (compressed(s) && s.bytes < bytes) {
      ++stats_.compressedReplies;
      r = params_.agent == Agent::AssistWarp
              ? timing::mem::ReplyCost{s.bytes, 0, kCompressedReply}
              : timing::mem::ReplyCost{s.bytes, params_.decompressCycles, 0};
    }
  }
  stats_.replyBytes += r.bytes;
  return r;
}

bool CompressedMemory::refusesWrite(uint64_t line, uint32_t sectors) {
  // Only the assist-warp designs with a compressed L2 have no logic there to merge with; the
  // L2's copy is taken in the form its current data gives (the store is already in it).
  if (params_.agent != Agent::AssistWarp || params_.placement != Placement::L2 ||
      sectors == allSectors_ || !inDeviceMemory(line) || sentPlain(line))
    return false;
  if (!compressed(compressNow(line))) return false;
  ++stats_.storesRefused;
  return true;
}

uint32_t CompressedMemory::storedBytes(uint64_t line) {
  if (params_.placement != Placement::L2 || !inDeviceMemory(line) || sentPlain(line)) return 0;
  timing::mem::readLineData(*memory_, line, lineBytes_, data_);
  const CompressedLine c = compress(params_.algorithm, data_, lineBytes_, nullptr);
  if (!c.compressible) return 0;
  ++stats_.l2Sized;
  stats_.l2SizedBytes += c.bytes;
  return c.bytes;
}

void CompressedMemory::written(uint64_t line, uint32_t sectors, uint8_t format) {
  if (params_.agent != Agent::AssistWarp) return;
  if (sectors != allSectors_) {
    ++stats_.storesPartial;
  } else if (format != 0) {
    ++stats_.storesCompressed;
    const auto it = dram_.find(line);
    if (it != dram_.end()) it->second.sentPlain = false;
  } else {
    ++stats_.storesPlain;
    dram_[line].sentPlain = true;  // compressed from its data later if never met yet
  }
}

void CompressedMemory::reportStats(nlohmann::json& out) const {
  stats_.report(out, params_.algorithm);
}

}  // namespace warpsim::mech::caba
