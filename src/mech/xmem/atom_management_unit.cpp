#include "mech/xmem/atom_management_unit.h"

#include <algorithm>

namespace warpsim::mech::xmem {

AtomManagementUnit::AtomManagementUnit(const AmuParams& params)
    : params_(params), aam_(params.pageBytes, params.chunkBytes), alb_(params.albEntries, params.albWays) {}

void AtomManagementUnit::apply(const hints::AtomOp& op) {
  switch (op.kind) {
    case hints::AtomOp::Kind::Map:
      hints::forEachRun(op, [&](uint64_t start, uint64_t bytes) {
        aam_.map(op.atom, start, bytes);
        counts_.bytesMapped += bytes;
      });
      ++counts_.maps;
      break;
    case hints::AtomOp::Kind::Unmap:
      hints::forEachRun(op, [&](uint64_t start, uint64_t bytes) { aam_.unmap(op.atom, start, bytes); });
      ++counts_.unmaps;
      break;
    case hints::AtomOp::Kind::Activate:
      ast_.activate(op.atom);
      ++counts_.activates;
      break;
    case hints::AtomOp::Kind::Deactivate:
      ast_.deactivate(op.atom);
      ++counts_.deactivates;
      break;
  }
}

AtomManagementUnit::Lookup AtomManagementUnit::lookup(uint64_t address) {
  ++counts_.lookups;
  Lookup result;
  result.albHit = alb_.access(aam_.pageOf(address));
  if (!result.albHit) ++counts_.aamReads;  // the ALB's fill reads the page's entry
  const std::optional<uint32_t> owner = aam_.owner(address);
  if (!owner) {
    ++counts_.lookupsNoAtom;
  } else if (!ast_.isActive(*owner)) {
    ++counts_.lookupsInactive;
  } else {
    result.atom = owner;
  }
  return result;
}

AtomManagementUnit::Stats AtomManagementUnit::stats() const {
  Stats s = counts_;
  s.chunksWritten = aam_.chunksWritten() - chunksWrittenBefore_;
  s.albHits = alb_.hits() - albHitsBefore_;
  s.albMisses = alb_.misses() - albMissesBefore_;
  return s;
}

void AtomManagementUnit::resetCounts() {
  counts_ = Stats{};
  albHitsBefore_ = alb_.hits();
  albMissesBefore_ = alb_.misses();
  chunksWrittenBefore_ = aam_.chunksWritten();
}

void AtomManagementUnit::reportStats(nlohmann::json& out) const {
  const Stats s = stats();
  if (out.is_null()) out = nlohmann::json::object();  // json::value() refuses null
  const auto add = [&out](const char* name, uint64_t value) { out[name] = out.value(name, uint64_t{0}) + value; };
  const auto once = [&out](const char* name, uint64_t value) {
    out[name] = std::max(out.value(name, uint64_t{0}), value);
  };
  once("maps", s.maps);
  once("unmaps", s.unmaps);
  once("activates", s.activates);
  once("deactivates", s.deactivates);
  once("bytes_mapped", s.bytesMapped);
  once("chunks_written", s.chunksWritten);
  add("lookups", s.lookups);
  add("alb_hits", s.albHits);
  add("alb_misses", s.albMisses);
  add("aam_reads", s.aamReads);
  add("lookups_inactive", s.lookupsInactive);
  add("lookups_no_atom", s.lookupsNoAtom);
}

}  // namespace warpsim::mech::xmem
