#include "mech/locality_descriptor/descriptor_cache_policy.h"

#include <nlohmann/json.hpp>

#include "config/config.h"

namespace warpsim::mech::locality_descriptor {

using timing::mem::CacheAccessInfo;
using timing::mem::PinKind;

DescriptorPolicyOptions DescriptorPolicyOptions::read(config::Tree& tree) {
  config::Section s = tree.section("l1.descriptors");
  DescriptorPolicyOptions o;
  o.bypass = s.flag("bypass", o.bypass, "NO_REUSE data bypasses the L1");
  o.pinning = s.flag("pinning", o.pinning,
                     "INTRA_THREAD data hard-pinned, COACCESSED IRREGULAR data soft-pinned");
  o.prefetch = s.flag("prefetch", o.prefetch,
                      "the guided prefetcher (NEARBY: next line; COACCESSED REGULAR: stride)");
  o.unpinPeriod = s.u64("unpin_period", o.unpinPeriod,
                        "core cycles between the L1's resets of its hard pins", 1);
  o.activeWindow = s.u32("active_window", o.activeWindow,
                         "prefetch-triggering misses a D-Tile stays active after its last", 1,
                         1u << 20);
  return o;
}

DescriptorCachePolicy::DescriptorCachePolicy(const DescriptorPolicyOptions& options,
                                             uint32_t lineBytes)
    : options_(options), lineBytes_(lineBytes), active_(options.activeWindow) {}

void DescriptorCachePolicy::beginKernel() {
  lookups_ = 0;
  for (Counters& c : counters_) c = Counters{};
}

void DescriptorCachePolicy::beginLaunch(const timing::mem::CacheLaunch& launch) {
  l1Bytes_ = launch.capacityBytes;
  plan_ = launch.hints == nullptr
              ? LaunchPlan{}
              : planLaunch(*launch.hints, Dims{launch.grid[0], launch.grid[1], launch.grid[2]},
                           launch.numSms);
  std::vector<hints::HintRange> ranges;
  hardPins_ = false;
  for (size_t i = 0; i < plan_.descriptors.size(); ++i) {
    const TileGeometry& g = plan_.descriptors[i].geometry;
    ranges.push_back(hints::HintRange{g.base, g.base + structureBytes(g), static_cast<uint32_t>(i)});
    hardPins_ = hardPins_ || (options_.pinning && plan_.descriptors[i].cache == CacheAction::HardPin);
  }
  table_ = hints::HintTable(ranges);
  counters_.assign(plan_.descriptors.size(), Counters{});
  lastLine_ = UINT64_MAX;
  lastRecord_ = -1;
  active_.clear();
}

const DescriptorPlan* DescriptorCachePolicy::lookup(const CacheAccessInfo& access) {
  if (table_.empty() || access.space != ir::Space::Global) return nullptr;
  if (access.line != lastLine_) {
    ++lookups_;
    const hints::HintRange* r = table_.find(access.line);
    lastLine_ = access.line;
    lastRecord_ = r == nullptr ? -1 : static_cast<int64_t>(r->record);
  }
  return lastRecord_ < 0 ? nullptr : &plan_.descriptors[static_cast<size_t>(lastRecord_)];
}

bool DescriptorCachePolicy::bypass(const CacheAccessInfo& access) {
  const DescriptorPlan* p = lookup(access);
  return p != nullptr && options_.bypass && p->cache == CacheAction::Bypass && !access.atomic;
}

PinKind DescriptorCachePolicy::pin(const CacheAccessInfo& access) {
  const DescriptorPlan* p = lookup(access);
  if (p == nullptr || !options_.pinning) return PinKind::None;
  Counters& c = counters_[static_cast<size_t>(p - plan_.descriptors.data())];
  if (p->cache == CacheAction::HardPin) {
    ++c.hardPins;
    return PinKind::Hard;
  }
  if (p->cache == CacheAction::SoftPin) {
    ++c.softPins;
    return PinKind::Soft;
  }
  return PinKind::None;
}

uint32_t DescriptorCachePolicy::prefetch(const CacheAccessInfo& access, uint64_t* lines,
                                         uint32_t max) {
  const DescriptorPlan* p = lookup(access);
  if (p == nullptr) return 0;
  const size_t index = static_cast<size_t>(p - plan_.descriptors.data());
  Counters& c = counters_[index];
  ++c.reads;
  if (access.hit) {
    ++c.hits;
    return 0;
  }
  // A miss of a line no descriptor lets the L1 keep was a bypass (lines of such structures are
  // never installed).
  if (options_.bypass && p->cache == CacheAction::Bypass) ++c.bypassed;
  if (!options_.prefetch || max == 0 || p->prefetch == PrefetchAction::None) return 0;
  std::optional<uint64_t> target;
  if (p->prefetch == PrefetchAction::NextLine) {
    target = nextLinePrefetch(p->geometry, access.line, lineBytes_);
  } else {
    const std::optional<uint64_t> tile = dataTileAt(p->geometry, access.line);
    if (!tile) return 0;
    const uint32_t active = active_.touch((uint64_t{index} << 48) | *tile);
    const uint64_t width = uint64_t{p->geometry.dataTile.x} * p->geometry.elementBytes;
    target = stridePrefetch(p->geometry, access.line, p->strideBytes,
                            strideDistance(l1Bytes_, active, width));
  }
  if (!target) return 0;
  lines[0] = *target / lineBytes_ * lineBytes_;
  ++c.prefetches;
  return 1;
}

void DescriptorCachePolicy::reportStats(nlohmann::json& out) const {
  if (counters_.empty() && lookups_ == 0) return;
  out["lookups"] = out.value("lookups", uint64_t{0}) + lookups_;
  nlohmann::json& list = out["descriptors"];
  if (!list.is_array()) list = nlohmann::json::array();
  static constexpr const char* kTypes[] = {"", "INTRA_THREAD", "INTER_THREAD", "NO_REUSE"};
  for (size_t i = 0; i < counters_.size(); ++i) {
    if (list.size() <= i) {
      const DescriptorPlan& p = plan_.descriptors[i];
      list.push_back({{"type", kTypes[p.type]},
                      {"base", p.geometry.base},
                      {"reads", 0},
                      {"read_hits", 0},
                      {"bypassed", 0},
                      {"hard_pins", 0},
                      {"soft_pins", 0},
                      {"prefetches", 0}});
    }
    nlohmann::json& e = list[i];
    const Counters& c = counters_[i];
    e["reads"] = e["reads"].get<uint64_t>() + c.reads;
    e["read_hits"] = e["read_hits"].get<uint64_t>() + c.hits;
    e["bypassed"] = e["bypassed"].get<uint64_t>() + c.bypassed;
    e["hard_pins"] = e["hard_pins"].get<uint64_t>() + c.hardPins;
    e["soft_pins"] = e["soft_pins"].get<uint64_t>() + c.softPins;
    e["prefetches"] = e["prefetches"].get<uint64_t>() + c.prefetches;
  }
}

}  // namespace warpsim::mech::locality_descriptor
