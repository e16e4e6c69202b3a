#include "mech/xmem/atom_cache_policy.h"

#include <algorithm>
#include <string>

#include "hints/launch_hints.h"

namespace warpsim::mech::xmem {

using timing::mem::CacheAccessInfo;
using timing::mem::InsertPosition;
using timing::mem::PinKind;

AtomPolicyOptions AtomPolicyOptions::read(config::Tree& tree, const char* level) {
  config::Section s = tree.section(std::string(level) + ".atoms");
  AtomPolicyOptions o;
  o.bypass = s.flag("bypass", o.bypass, "lines of an active atom of reuse 0 are not allocated");
  o.pinning = s.flag("pinning", o.pinning, "the atoms of the most reuse are pinned, within pin_share");
  o.prefetch = s.flag("prefetch", o.prefetch,
                      "a miss on the unpinned part of a REGULAR atom prefetches along its stride");
  o.releasePins = s.flag("release_pins", o.releasePins,
                         "at the L2, pins last while the lines are read again under the current rules: a launch "
                         "clears them and every read hit renews them");
  o.pinShare = s.f64("pin_share", o.pinShare, "share of the cache's capacity pinned atoms may take", 0.0, 1.0);
  o.prefetchDegree = s.u32("prefetch_degree", o.prefetchDegree, "lines prefetched per miss", 0, 16);
  o.amu.albEntries = s.u32("alb_entries", o.amu.albEntries, "entries of the atom lookaside buffer", 1);
  o.amu.albWays = s.u32("alb_ways", o.amu.albWays, "ways of the atom lookaside buffer", 1);
  o.amu.chunkBytes = s.u64("chunk_bytes", o.amu.chunkBytes, "bytes per atom address map entry (a power of two)", 1);
  o.amu.pageBytes = s.u64("page_bytes", o.amu.pageBytes, "bytes per ALB tag (a power of two)", 1);
  return o;
}

AtomCachePolicy::AtomCachePolicy(const AtomPolicyOptions& options, uint32_t lineBytes)
    : options_(options), lineBytes_(lineBytes), amu_(options.amu) {}

void AtomCachePolicy::beginKernel() {
  amu_.resetCounts();
  counts_.fill(AtomCounts{});
}

void AtomCachePolicy::catchUp(const hints::LaunchAtoms& atoms, bool countOps) {
  // Segments are only ever added (the runtime's history), so a count of them says whether any
  // operation is new in O(1), as a kernel's every operation asks; a launch counts them all.
  if (countOps ? atoms.opCount() != appliedOps_ : atoms.history.size() != appliedSegments_) {
    atoms.forEachOpFrom(appliedOps_, [&](const hints::AtomOp& op) { amu_.apply(op); });
    appliedOps_ = atoms.opCount();
    appliedSegments_ = atoms.history.size();
    rulesStale_ = true;
  }
  if (attributes_.size() != atoms.attributes.size()) {  // atoms are only ever added
    attributes_ = atoms.attributes;
    rulesStale_ = true;
  }
}

void AtomCachePolicy::beginLaunch(const timing::mem::CacheLaunch& launch) {
  if (launch.hints == nullptr || launch.hints->atoms.empty()) return;  // nothing new: the rules stand
  levelCapacity_ = launch.levelCapacityBytes;
  catchUp(launch.hints->atoms, true);
  rulesStale_ = true;  // the capacity may have changed
  refreshRules();
  memoLine_ = ~uint64_t{0};  // the mappings may have changed
}

void AtomCachePolicy::hintOp(const hints::AtomOp& op, const hints::LaunchHints* launch) {
  if (launch != nullptr) catchUp(launch->atoms, false);  // the host's operations before the launch come first
  amu_.apply(op);
  ++deviceOps_;
  rulesStale_ = true;
  memoLine_ = ~uint64_t{0};
}

void AtomCachePolicy::refreshRules() const {
  if (!rulesStale_) return;
  rulesStale_ = false;
  const uint64_t chunk = amu_.aam().chunkBytes();
  rules_ = translateForCache(
      attributes_, [&](uint32_t id) { return amu_.ast().isActive(id); },
      [&](uint32_t id) { return amu_.aam().chunksOwnedBy(id) * chunk; }, levelCapacity_, options_.pinShare);
  for (uint32_t id = 0; id < hints::kMaxAtoms; ++id) {
    CacheAtomRule& r = rules_[id];
    const uint64_t ws = id < attributes_.size() && amu_.ast().isActive(id) ? amu_.aam().chunksOwnedBy(id) * chunk : 0;
    workingSet_[id] = ws;
    r.bypass = r.bypass && options_.bypass;
    // The translator marks the remainder of a partly pinned REGULAR atom; without pinning the
    // prefetcher still follows that atom's stride.
    r.prefetchRemainder = options_.prefetch && options_.prefetchDegree > 0 && r.prefetchRemainder && !r.bypass;
    if (!options_.pinning) r.pinThreshold = 0;
    pinnedBytes_[id] = r.pinsAll() ? ws : ws * r.pinThreshold / CacheAtomRule::kHashRange;
  }
}

uint32_t AtomCachePolicy::atomOf(const CacheAccessInfo& access) {
  if (access.space != ir::Space::Global || (appliedOps_ | deviceOps_) == 0) return kNone;
  if (rulesStale_) refreshRules();
  if (access.line != memoLine_) {
    memoLine_ = access.line;
    const AtomManagementUnit::Lookup found = amu_.lookup(access.line);
    memoAtom_ = found.atom ? *found.atom : kNone;
  }
  return memoAtom_;
}

bool AtomCachePolicy::pinned(uint32_t atom, uint64_t line) const {
  const CacheAtomRule& r = rules_[atom];
  return r.pinsAll() || (r.pinThreshold > 0 && lineHash(line) < r.pinThreshold);
}

bool AtomCachePolicy::bypass(const CacheAccessInfo& access) {
  const uint32_t atom = atomOf(access);
  if (atom == kNone || !rules_[atom].bypass) return false;
  ++counts_[atom].bypassed;
  return true;
}

InsertPosition AtomCachePolicy::insertion(const CacheAccessInfo& access) {
  const uint32_t atom = atomOf(access);
  // The part of a partly pinned atom that is not kept passes through; a prefetched line is about
  // to be read; an atom with no pins is cached as undescribed data are.
  if (atom == kNone || access.prefetch || !rules_[atom].partial() || pinned(atom, access.line)) {
    return InsertPosition::Mru;
  }
  return InsertPosition::Lru;
}

PinKind AtomCachePolicy::pin(const CacheAccessInfo& access) {
  const uint32_t atom = atomOf(access);
  if (atom == kNone || rules_[atom].pinThreshold == 0 || !pinned(atom, access.line)) return PinKind::None;
  if (!access.hit) ++counts_[atom].pinnedLines;  // a hit renews a pin (pinsFollowUse)
  return PinKind::Soft;
}

uint32_t AtomCachePolicy::prefetch(const CacheAccessInfo& access, uint64_t* lines, uint32_t max) {
  const uint32_t atom = atomOf(access);
  if (atom == kNone) return 0;
  AtomCounts& c = counts_[atom];
  ++c.reads;
  if (access.hit) ++c.readHits;
  const CacheAtomRule& r = rules_[atom];
  if (access.hit || !r.prefetchRemainder || pinned(atom, access.line)) return 0;
  // Whole lines along the stride, at least one line, in its direction.
  const int64_t line = lineBytes_;
  const int64_t step = r.strideBytes > 0 ? std::max(r.strideBytes, line) / line * line
                                         : -(std::max(-r.strideBytes, line) / line * line);
  uint32_t n = 0;
  uint64_t target = access.line;
  for (uint32_t k = 0; k < options_.prefetchDegree && n < max; ++k) {
    target += static_cast<uint64_t>(step);
    const std::optional<uint32_t> owner = amu_.aam().owner(target);
    if (!owner || *owner != atom) break;  // the atom's data ends here
    if (pinned(atom, target)) continue;   // kept in the cache already
    lines[n++] = target;
  }
  c.prefetches += n;
  return n;
}

void AtomCachePolicy::reportStats(nlohmann::json& out) const {
  refreshRules();
  amu_.reportStats(out["amu"]);
  nlohmann::json& atoms = out["atoms"];
  if (!atoms.is_array()) atoms = nlohmann::json::array();
  for (size_t id = 0; id < attributes_.size(); ++id) {
    while (atoms.size() <= id) atoms.push_back(nlohmann::json::object());
    nlohmann::json& a = atoms[id];
    const AtomCounts& c = counts_[id];
    const auto add = [&a](const char* name, uint64_t v) { a[name] = a.value(name, uint64_t{0}) + v; };
    add("reads", c.reads);
    add("read_hits", c.readHits);
    add("bypassed", c.bypassed);
    add("pinned_lines", c.pinnedLines);
    add("prefetches", c.prefetches);
    // The rule is the same in every cache of the level: reported once.
    const auto once = [&a](const char* name, uint64_t v) { a[name] = std::max(a.value(name, uint64_t{0}), v); };
    once("working_set_bytes", workingSet_[id]);
    once("pinned_bytes", pinnedBytes_[id]);
  }
}

}  // namespace warpsim::mech::xmem
