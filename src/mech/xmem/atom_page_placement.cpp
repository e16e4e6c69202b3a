#include "mech/xmem/atom_page_placement.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "hints/launch_hints.h"

namespace warpsim::mech::xmem {

using timing::mem::FramePool;

AtomPlacementOptions AtomPlacementOptions::read(config::Tree& tree) {
  config::Section s = tree.section("page_placement");
  AtomPlacementOptions o;
  o.isolateShare = s.f64("isolate_share", o.isolateShare,
                         "atoms placement: share of the DRAM banks reserved for isolated (REGULAR, "
                         "intense) atoms",
                         0.0, 1.0);
  o.isolateMinIntensity = s.u32("isolate_min_intensity", o.isolateMinIntensity,
                                "atoms placement: the least intensity of a REGULAR atom that gets "
                                "banks of its own",
                                0, 255);
  o.chunkBytes = s.u64("chunk_bytes", o.chunkBytes,
                       "atoms placement: bytes per atom address map entry (a power of two)", 1);
  return o;
}

AtomPagePlacement::AtomPagePlacement(const Context& context, const AtomPlacementOptions& options)
    : context_(context),
      options_(options),
      aam_(std::max<uint64_t>(context.space.pageBytes, options.chunkBytes), options.chunkBytes),
      pool_(context.space.frames),
      cursor_(std::max<uint32_t>(context.banks, 1), 0),
      isolated_(hints::kMaxAtoms),
      atomPages_(hints::kMaxAtoms, 0) {
  if (context.physical == nullptr) throw std::invalid_argument("atoms page placement: no address mapping");
  partition();
}

uint32_t AtomPagePlacement::colourOf(uint64_t frame) const {
  return context_.physical->map(context_.space.address(frame)).bank;
}

void AtomPagePlacement::beginLaunch(const hints::LaunchHints* hints) {
  counts_ = Counts{};
  std::fill(atomPages_.begin(), atomPages_.end(), 0);
  if (hints == nullptr || hints->atoms.empty()) return;
  const hints::LaunchAtoms& atoms = hints->atoms;
  atoms.forEachOpFrom(appliedOps_, [&](const hints::AtomOp& op) {
    if (!op.isMapping()) return;
    hints::forEachRun(op, [&](uint64_t start, uint64_t bytes) {
      if (op.kind == hints::AtomOp::Kind::Map)
        aam_.map(op.atom, start, bytes);
      else
        aam_.unmap(op.atom, start, bytes);
    });
  });
  appliedOps_ = atoms.opCount();
  attributes_ = atoms.attributes;
  partition();
}

void AtomPagePlacement::partition() {
  const uint32_t banks = static_cast<uint32_t>(cursor_.size());
  std::vector<uint32_t> candidates;
  for (uint32_t id = 0; id < attributes_.size(); ++id) {
    const hints::AtomAttributes& a = attributes_[id];
    if (a.pattern == hints::AtomPattern::Regular && a.intensity >= options_.isolateMinIntensity &&
        aam_.chunksOwnedBy(id) > 0)
      candidates.push_back(id);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](uint32_t x, uint32_t y) { return attributes_[x].intensity > attributes_[y].intensity; });
  const uint32_t reserved = std::min<uint32_t>(
      banks - 1, static_cast<uint32_t>(std::lround(banks * options_.isolateShare)));  // one bank left to share
  const uint32_t k = std::min<uint32_t>(static_cast<uint32_t>(candidates.size()), reserved);
  for (BankSet& s : isolated_) s.banks.clear();
  for (uint32_t i = 0; i < k; ++i) {
    BankSet& s = isolated_[candidates[i]];
    for (uint32_t b = i * reserved / k; b < (i + 1) * reserved / k; ++b) s.banks.push_back(b);
    s.next = 0;
  }
  shared_.banks.clear();
  for (uint32_t b = k == 0 ? 0 : reserved; b < banks; ++b) shared_.banks.push_back(b);
  shared_.next = 0;
}

uint64_t AtomPagePlacement::takeOfColour(uint32_t bank) {
  uint64_t& at = cursor_[bank];
  while (at < pool_.frames()) {
    const uint64_t f = pool_.nextFree(at);
    if (f == FramePool::kNone || f < at) break;  // none free from here on (no wrapping)
    at = f + 1;
    if (colourOf(f) == bank) {
      pool_.take(f);
      return f;
    }
  }
  return FramePool::kNone;
}

uint64_t AtomPagePlacement::takeFrom(BankSet& set) {
  for (size_t tried = 0; tried < set.banks.size(); ++tried) {
    const uint32_t bank = set.banks[set.next];
    set.next = (set.next + 1) % static_cast<uint32_t>(set.banks.size());
    const uint64_t f = takeOfColour(bank);
    if (f != FramePool::kNone) return f;
  }
  return FramePool::kNone;
}

uint64_t AtomPagePlacement::frameFor(uint64_t, uint64_t address) {
  const std::optional<uint32_t> atom = aam_.owner(address);
  const bool isolated = atom && !isolated_[*atom].banks.empty();
  uint64_t f = takeFrom(isolated ? isolated_[*atom] : shared_);
  if (!atom)
    ++counts_.unannotated;
  else {
    ++(isolated ? counts_.isolated : counts_.spread);
    ++atomPages_[*atom];
  }
  if (f == FramePool::kNone) {
    f = pool_.nextFree(0);
    if (f == FramePool::kNone) throw std::runtime_error("atoms page placement: no free frame left");
    pool_.take(f);
    ++counts_.fallback;
  }
  return f;
}

void AtomPagePlacement::reportStats(nlohmann::json& out) const {
  auto add = [&](nlohmann::json& j, const char* key, uint64_t v) {
    j[key] = (j.contains(key) ? j[key].get<uint64_t>() : 0) + v;
  };
  add(out, "isolated_pages", counts_.isolated);
  add(out, "spread_pages", counts_.spread);
  add(out, "unannotated_pages", counts_.unannotated);
  add(out, "fallback_pages", counts_.fallback);
  nlohmann::json& atoms = out["atoms"];  // by atom id, the program's atoms
  if (!atoms.is_array()) atoms = nlohmann::json::array();
  for (uint32_t id = 0; id < attributes_.size(); ++id) {
    if (atoms.size() <= id) atoms.push_back({{"pages", 0}});
    nlohmann::json& a = atoms[id];
    a["pages"] = a["pages"].get<uint64_t>() + atomPages_[id];
  }
}

}  // namespace warpsim::mech::xmem
