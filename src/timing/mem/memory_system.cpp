#include "timing/mem/memory_system.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "func/device_memory.h"
#include "timing/mem/baseline_plugins.h"
#include "timing/mem/hash_address_mapping.h"
#include "timing/mem/line_routing.h"
#include "timing/mem/page_placements.h"
#include "timing/mem/paged_address_mapping.h"
#include "timing/mem/zone_placements.h"
#include "timing/mem/zoned_address_mapping.h"

namespace warpsim::timing::mem {

std::unique_ptr<ICachePolicy> BaselineMemoryPlugins::cachePolicy(const ICachePolicy::Context&) {
  return std::make_unique<LruAllocatePolicy>();
}
std::unique_ptr<IMemoryCompression> BaselineMemoryPlugins::compression(
    const IMemoryCompression::Context&) {
  return std::make_unique<NoCompression>();
}
std::unique_ptr<ILocalMemoryPath> BaselineMemoryPlugins::localPath(
    const ILocalMemoryPath::Context&) {
  return std::make_unique<NoLocalMemoryPath>();
}
std::unique_ptr<IAddressMapping> BaselineMemoryPlugins::addressMapping(
    const IAddressMapping::Context& c) {
  return std::make_unique<HashAddressMapping>(c.channels, c.banks, c.rowBytes, c.interleaveBytes);
}

std::unique_ptr<IZonePlacement> MemoryPlugins::zonePlacement(const std::string& name,
                                                             const IZonePlacement::Context& c) {
  if (name == "xor") return std::make_unique<XorZonePlacement>(c.zones, c.xorBit);
  if (name == "first-touch") return std::make_unique<FirstTouchZonePlacement>(c.zones, c.pageBytes);
  if (name == "interleave-bits")
    return std::make_unique<InterleaveBitsZonePlacement>(c.zones, c.xorBit);
  throw config::Error("config: error: zone_placement.impl = \"" + name +
                      "\" is not one of xor, first-touch, interleave-bits");
}

std::unique_ptr<IPagePlacement> MemoryPlugins::pagePlacement(const std::string& name,
                                                             const IPagePlacement::Context& c) {
  if (name == "identity") return std::make_unique<IdentityPagePlacement>();
  if (name == "random") return std::make_unique<RandomPagePlacement>(c.space.frames, c.seed);
  throw config::Error("config: error: page_placement.impl = \"" + name +
                      "\" is not one of identity, random");
}

namespace {

uint32_t sliceCount(const MemoryParams& p) { return p.dram.channels * p.l2.slicesPerChannel; }

// channels: those of one zone (all of them with one module).
// On a multi-module GPU the mapping sees a zone's local addresses (i_zone_placement.h: they
// start at 0 for first-touch) and the zone's share of the memory.
std::unique_ptr<IAddressMapping> makeMapping(const MemoryParams& p, MemoryPlugins& plugins,
                                             config::Tree* tree, const func::DeviceMemory* memory) {
  IAddressMapping::Context c;
  c.tree = tree;
  const uint32_t modules = std::max<uint32_t>(p.modules, 1);
  c.channels = p.dram.channels / modules;
  c.banks = p.dram.banks;
  c.rowBytes = p.dram.rowBytes;
  c.interleaveBytes = p.dram.interleaveBytes;
  c.memoryBytes = (memory != nullptr ? memory->capacity() : p.memoryBytes) / modules;
  c.baseAddress = modules > 1 ? 0
                  : memory != nullptr ? memory->baseAddress()
                                      : func::DeviceMemory::kBaseAddress;
  return plugins.addressMapping(c);
}

}  // namespace

MemorySystemImpl::MemorySystemImpl(const MemoryParams& params, MemoryPlugins& plugins,
                                   const func::DeviceMemory* memory, config::Tree* tree)
    : params_(params),
      clocks_{ClockDomain::fromMhz(params.clocks.icntMhz),
              ClockDomain::fromMhz(params.clocks.l2Mhz),
              ClockDomain::fromMhz(params.clocks.dramMhz)},
      pool_(4096),
      mapping_(makeMapping(params, plugins, tree, memory)),
      requests_(params.numSms + linkPorts(), sliceCount(params) + linkPorts(), params.icnt, pool_),
      replies_(sliceCount(params) + linkPorts(), params.numSms + linkPorts(), params.icnt, pool_) {
  validate(params);
  if (params.modules > 1) wireModules(plugins, tree);
  if (params.l2.partitions > 1) wirePartitions();
  if (params.pages.impl != "identity") wirePages(plugins, tree, memory);
  const uint32_t spc = params.l2.slicesPerChannel;
  for (uint32_t c = 0; c < params.dram.channels; ++c) {
    IMemoryCompression::Context cc;
    cc.tree = tree;
    cc.memory = memory;
    cc.channel = c;
    cc.lineBytes = params.l2.cache.lineBytes;
    cc.sectorBytes = params.l2.cache.sectorBytes;
    cc.mapping = mapping_.get();
    compression_.push_back(plugins.compression(cc));
    channels_.push_back(std::make_unique<DramChannel>(params.dram, spc));
    channels_.back()->setReceiverClock(&clocks_[kDram], &clocks_[kL2]);
  }
  CacheGeometry sliceGeometry = params.l2.cache;
  sliceGeometry.sizeBytes = params.l2.cache.sizeBytes / sliceCount(params);
  for (uint32_t s = 0; s < sliceCount(params); ++s) {
    ICachePolicy::Context pc;
    pc.tree = tree;
    pc.level = "l2";
    pc.instance = s;
    pc.sets = sliceGeometry.sets();
    pc.ways = sliceGeometry.assoc;
    pc.lineBytes = sliceGeometry.lineBytes;
    pc.sectorBytes = sliceGeometry.sectorBytes;
    l2Policies_.push_back(plugins.cachePolicy(pc));
    L2SliceWiring w;
    w.index = s;
    w.slicesPerChannel = spc;
    w.sliceInChannel = s % spc;
    w.requests = &requests_;
    w.replies = &replies_;
    w.dram = channels_[s / spc].get();
    w.pool = &pool_;
    w.policy = l2Policies_.back().get();
    w.compression = compression_[s / spc].get();
    w.mapping = mapping_.get();
    slices_.push_back(std::make_unique<L2Slice>(params.l2, sliceGeometry, w));
  }
  for (uint32_t i = 0; i < params.numSms; ++i) {
    ICachePolicy::Context pc;
    pc.tree = tree;
    pc.level = "l1";
    pc.instance = i;
    pc.sets = params.l1.cache.sets();
    pc.ways = params.l1.cache.assoc;
    pc.lineBytes = params.l1.cache.lineBytes;
    pc.sectorBytes = params.l1.cache.sectorBytes;
    SmMemoryWiring w;
    w.sm = i;
    w.requests = &requests_;
    w.replies = &replies_;
    w.pool = &pool_;
    w.mapping = zoned_ != nullptr
                    ? &zoned_->viewFor(i / (params.numSms / params.modules))
                    : mapping_.get();
    w.slicesPerChannel = spc;
    auto unit = std::make_unique<SmMemoryUnit>(params, w, plugins.cachePolicy(pc),
                                               std::make_unique<NoLocalMemoryPath>());
    ILocalMemoryPath::Context lc;
    lc.tree = tree;
    lc.sm = i;
    lc.memory = memory;
    lc.port = &unit->localPathPort();
    lc.l1LineBytes = params.l1.cache.lineBytes;
    lc.l1SectorBytes = params.l1.cache.sectorBytes;
    lc.l1HitLatency = params.l1.hitLatency;
    lc.layout = params.l1.localLayout;
    unit->setLocalPath(plugins.localPath(lc));
    sms_.push_back(std::move(unit));
  }
}

MemorySystemImpl::~MemorySystemImpl() = default;

void MemorySystemImpl::wirePartitions() {
  const uint32_t parts = params_.l2.partitions;
  std::vector<uint8_t> sm(params_.numSms), slice(sliceCount(params_));
  for (uint32_t s = 0; s < params_.numSms; ++s) sm[s] = static_cast<uint8_t>(uint64_t{s} * parts / params_.numSms);
  const uint32_t channelsPerPart = params_.dram.channels / parts;
  for (uint32_t s = 0; s < slice.size(); ++s)
    slice[s] = static_cast<uint8_t>(s / params_.l2.slicesPerChannel / channelsPerPart);
  requests_.setPartitions(sm, slice, params_.l2.farLatency);
  replies_.setPartitions(slice, sm, params_.l2.farLatency);
}

void MemorySystemImpl::wirePages(MemoryPlugins& plugins, config::Tree* tree,
                                 const func::DeviceMemory* memory) {
  const MemoryParams& p = params_;
  if (mapping_->granuleBytes() > p.pages.pageBytes)
    throw config::Error("config: error: page_placement.page_bytes = " + std::to_string(p.pages.pageBytes) +
                        " is smaller than the address mapping's granule of " +
                        std::to_string(mapping_->granuleBytes()) + " bytes");
  IPagePlacement::Context c;
  c.tree = tree;
  c.space.memory = memory;
  c.space.pageBytes = p.pages.pageBytes;
  c.space.frames = (memory != nullptr ? memory->capacity() : uint64_t{16} << 30) / p.pages.pageBytes;
  c.physical = mapping_.get();
  c.channels = p.dram.channels;
  c.banks = p.dram.banks;
  c.seed = p.pages.seed;
  std::unique_ptr<IPagePlacement> placement = plugins.pagePlacement(p.pages.impl, c);
  auto paged = std::make_unique<PagedAddressMapping>(std::move(mapping_), std::move(placement), c.space);
  paged_ = paged.get();
  mapping_ = std::move(paged);
}

void MemorySystemImpl::wireModules(MemoryPlugins& plugins, config::Tree* tree) {
  const uint32_t m = params_.modules, slices = sliceCount(params_), sms = params_.numSms;
  IZonePlacement::Context zc;
  zc.tree = tree;
  zc.zones = m;
  zc.xorBit = params_.zones.xorBit;
  zc.pageBytes = params_.zones.pageBytes;
  placement_ = plugins.zonePlacement(params_.zones.placement, zc);
  auto zoned = std::make_unique<ZonedAddressMapping>(*placement_, std::move(mapping_), m,
                                                     params_.dram.channels / m);
  zoned_ = zoned.get();
  mapping_ = std::move(zoned);
  // Ports: SMs / slices first, then one per module's link.
  auto modulesOf = [m](uint32_t count) {
    std::vector<uint16_t> v;
    for (uint32_t i = 0; i < count; ++i) v.push_back(static_cast<uint16_t>(i / (count / m)));
    for (uint32_t i = 0; i < m; ++i) v.push_back(static_cast<uint16_t>(i));
    return v;
  };
  requests_.setModules(modulesOf(sms), modulesOf(slices), slices);
  replies_.setModules(modulesOf(slices), modulesOf(sms), sms);
  LinkNetwork rq{&requests_, slices, sms, slices / m, false};
  LinkNetwork rp{&replies_, sms, slices, sms / m, true};
  links_ = std::make_unique<ModuleLinks>(m, params_.link, params_.clocks.icntMhz,
                                         params_.icnt.headerBytes, pool_, rq, rp);
  const uint32_t width = links_->flitsPerCycle(params_.icnt.flitBytes);
  for (uint32_t i = 0; i < m; ++i) {
    requests_.setWidth(true, slices + i, width);
    requests_.setWidth(false, sms + i, width);
    replies_.setWidth(true, sms + i, width);
    replies_.setWidth(false, slices + i, width);
  }
}

Cycle MemorySystemImpl::workCycle(uint32_t d, Cycle from) const {
  Cycle c = kNever;
  switch (d) {
    case kIcnt:
      c = std::min(requests_.nextWorkCycle(from), replies_.nextWorkCycle(from));
      if (links_) c = std::min(c, links_->nextWorkCycle(from));
      break;
    case kL2:
      for (const auto& s : slices_) c = std::min(c, s->nextWorkCycle(from));
      break;
    default:
      for (const auto& ch : channels_) c = std::min(c, ch->nextWorkCycle(from));
      break;
  }
  return c;
}

void MemorySystemImpl::tick(uint32_t d, Cycle c) {
  switch (d) {
    case kIcnt:
      if (links_) links_->cycle(c);
      requests_.cycle(c);
      replies_.cycle(c);
      if (replies_.delivered()) {
        for (const auto& sm : sms_) {
          if (!sm->hasInstructions()) sm->takeRepliesWhileEmpty();
        }
      }
      break;
    case kL2:
      for (const auto& s : slices_) {
        if (s->nextWorkCycle(c) <= c) s->cycle(c);
      }
      break;
    default:
      for (const auto& ch : channels_) {
        if (!ch->empty()) ch->cycle(c);
      }
      break;
  }
}

Cycle MemorySystemImpl::nextCycle(uint32_t d) const {
  if (!quiescent_) return next_[d];
  return std::max(next_[d], clocks_[d].firstCycleAtOrAfter(lastPs_ + 1));
}

void MemorySystemImpl::catchUp(uint64_t ps) {
  for (uint32_t d = 0; d < kDomains; ++d) {
    if (nextPs_[d] <= ps) setNext(d, clocks_[d].firstCycleAtOrAfter(ps + 1));
  }
}

void MemorySystemImpl::advanceTo(uint64_t ps) {
  if (quiescent_) {
    // Only an SM can wake the levels below, by sending a request.
    if (requests_.empty()) {
      lastPs_ = ps;
      return;
    }
    catchUp(lastPs_);
    quiescent_ = false;
  }
  for (;;) {
    uint32_t best = kDomains;
    uint64_t bestPs = kNever;
    Cycle bestCycle = kNever;
    for (uint32_t d = 0; d < kDomains; ++d) {
      const Cycle c = workCycle(d, next_[d]);
      if (c == kNever) continue;
      const uint64_t t = c == next_[d] ? nextPs_[d] : clocks_[d].timeOf(c);
      if (t < bestPs) {
        best = d;
        bestPs = t;
        bestCycle = c;
      }
    }
    if (best == kDomains) {
      quiescent_ = true;
      break;
    }
    if (bestPs > ps) break;
    tick(best, bestCycle);
    setNext(best, bestCycle + 1);
    // Cycles of the other domains that start before this one (or at the same time and come
    // earlier in the order) had nothing to do: they are over.
    for (uint32_t d = 0; d < kDomains; ++d) {
      if (d == best) continue;
      if (nextPs_[d] < bestPs || (nextPs_[d] == bestPs && d < best)) {
        setNext(d, clocks_[d].firstCycleAtOrAfter(d < best ? bestPs + 1 : bestPs));
      }
    }
  }
  lastPs_ = ps;
  if (!quiescent_) catchUp(ps);
}

uint64_t MemorySystemImpl::nextEventPs(uint64_t nowPs) const {
  if (quiescent_ && requests_.empty()) return kNever;
  uint64_t best = kNever;
  for (uint32_t d = 0; d < kDomains; ++d) {
    const Cycle c = workCycle(d, nextCycle(d));
    if (c != kNever) best = std::min(best, clocks_[d].timeOf(c));
  }
  return best == kNever ? kNever : std::max(best, nowPs + 1);
}

bool MemorySystemImpl::idle() const {
  if (!quiescent_ || !requests_.empty()) {
    for (uint32_t d = 0; d < kDomains; ++d) {
      if (workCycle(d, nextCycle(d)) != kNever) return false;
    }
  }
  for (const auto& ch : channels_) {
    if (!ch->completionsEmpty()) return false;
  }
  for (const auto& sm : sms_) {
    if (!sm->idle()) return false;
  }
  if (links_ && !links_->empty()) return false;
  return requests_.ejectionEmpty();
}

uint64_t MemorySystemImpl::progress() const {
  uint64_t n = requests_.moved() + replies_.moved() + (links_ ? links_->moved() : 0);
  for (const auto& s : slices_) n += s->moved();
  return n;
}

void MemorySystemImpl::beginKernel() {
  for (auto& sm : sms_) sm->beginKernel();
  for (auto& s : slices_) s->beginKernel();
  for (auto& p : l2Policies_) p->beginKernel();
  for (auto& c : compression_) c->beginKernel();
  const Cycle dramNow = nextCycle(kDram);
  for (auto& ch : channels_) {
    ch->settleRefresh(dramNow);  // refreshes of the idle time before this kernel are not its own
    ch->resetStats();
  }
  requests_.resetStats();
  replies_.resetStats();
  if (links_) links_->resetStats();
  if (zoned_ != nullptr) zoned_->resetStats();
  if (paged_ != nullptr) pagesAtKernelStart_ = paged_->pagesPlaced();
  kernelStartDram_ = nextCycle(kDram);
}

void MemorySystemImpl::beginLaunch(const hints::LaunchHints* hints, const uint32_t grid[3],
                                   uint32_t ctasPerSm) {
  if (placement_) placement_->beginLaunch(hints, grid, params_.numSms / params_.modules * ctasPerSm);
  if (paged_ != nullptr) paged_->placement().beginLaunch(hints);
  CacheLaunch launch;
  launch.hints = hints;
  for (int d = 0; d < 3; ++d) launch.grid[d] = grid[d];
  launch.numSms = params_.numSms;
  launch.levelCapacityBytes = params_.l2.cache.sizeBytes;
  launch.capacityBytes = launch.levelCapacityBytes / l2Policies_.size();
  for (size_t s = 0; s < l2Policies_.size(); ++s) {
    l2Policies_[s]->beginLaunch(launch);
    slices_[s]->setPinsFollowUse(l2Policies_[s]->pinsFollowUse());
  }
}

void MemorySystemImpl::warm(uint64_t address, uint32_t bytes, bool write) {
  const uint64_t lineBytes = params_.l2.cache.lineBytes, sectorBytes = params_.l2.cache.sectorBytes;
  const uint64_t end = address + std::max<uint32_t>(bytes, 1);
  for (uint64_t line = address / lineBytes * lineBytes; line < end; line += lineBytes) {
    const uint64_t from = std::max(address, line), to = std::min(end, line + lineBytes);
    const uint32_t sectors = sectorRange(static_cast<uint32_t>((from - line) / sectorBytes),
                                         static_cast<uint32_t>((to - 1 - line) / sectorBytes));
    const uint32_t slice = sliceOf(mapping_->map(line), mapping_->granuleBytes(), params_.l2.slicesPerChannel);
    slices_[slice]->warm(line, sectors, write);
  }
}

void MemorySystemImpl::hintOp(const hints::AtomOp& op, const hints::LaunchHints* launch) {
  for (auto& sm : sms_) sm->policy().hintOp(op, launch);
  for (auto& p : l2Policies_) p->hintOp(op, launch);
}

void MemorySystemImpl::reportStats(nlohmann::json& out) const {
  CacheStats l1, l2;
  SharedStats shared;
  StorageBankStats storageBanks;
  ConstStats constant;
  IcntStats icnt;
  DramStats dram;
  nlohmann::json l1Policy = nlohmann::json::object(), l2Policy = nlohmann::json::object(),
                 localPath = nlohmann::json::object(), compression = nlohmann::json::object();
  for (const auto& sm : sms_) {
    l1 += sm->l1().stats();
    shared += sm->sharedStats();
    storageBanks += sm->storageBankStats();
    constant += sm->constant().stats();
    sm->policy().reportStats(l1Policy);
    sm->localPath().reportStats(localPath);
  }
  for (const auto& s : slices_) l2 += s->stats();
  for (const auto& p : l2Policies_) p->reportStats(l2Policy);
  for (const auto& c : compression_) c->reportStats(compression);
  icnt += requests_.stats();
  icnt += replies_.stats();
  for (const auto& ch : channels_) dram += ch->statsAt(nextCycle(kDram));
  dram.cycles = (nextCycle(kDram) - kernelStartDram_) * channels_.size();
  l1.toJson(out["l1d"]);
  shared.toJson(out["shared"]);
  storageBanks.toJson(out["storage_banks"]);
  constant.toJson(out["const"]);
  icnt.toJson(out["icnt"]);
  l2.toJson(out["l2"]);
  dram.toJson(out["dram"]);
  if (!l1Policy.empty()) out["l1d_policy"] = std::move(l1Policy);
  if (params_.l1.countFootprint) {
    // The SMs' working sets: sum and count of those that touched memory (average = lines / sms).
    uint64_t lines = 0, active = 0;
    for (const auto& sm : sms_) {
      lines += sm->l1().footprint();
      active += sm->l1().footprint() != 0 ? 1 : 0;
    }
    out["l1d_footprint"] = {{"lines", lines}, {"sms", active}};
  }
  if (!l2Policy.empty()) out["l2_policy"] = std::move(l2Policy);
  if (!localPath.empty()) out["local_path"] = std::move(localPath);
  if (!compression.empty()) out["compression"] = std::move(compression);
  if (params_.modules > 1) reportModules(out["numa"]);
  if (paged_ != nullptr) {
    nlohmann::json& pages = out["pages"];
    pages["placed"] = paged_->pagesPlaced() - pagesAtKernelStart_;
    paged_->placement().reportStats(pages);
  }
}

void MemorySystemImpl::reportModules(nlohmann::json& out) const {
  // Counters only (launch totals add them up); the rates are derived beside the other rates
  // (timing/stats_totals.h addNumaRates).
  const uint32_t m = params_.modules, perZone = params_.dram.channels / m;
  std::vector<uint64_t> zoneRequests(m), dramBytes(m, 0), dramBusy(m, 0), dramCycles(m, 0);
  const uint64_t elapsed = nextCycle(kDram) - kernelStartDram_;
  for (uint32_t z = 0; z < m; ++z) {
    zoneRequests[z] = zoned_->zoneRequests(z);
    for (uint32_t c = z * perZone; c < (z + 1) * perZone; ++c) {
      const DramStats& d = channels_[c]->stats();
      dramBytes[z] += (d.readBursts + d.writeBursts) * uint64_t{32};  // 32-byte bursts
      dramBusy[z] += d.busyCycles;
    }
    dramCycles[z] = elapsed * perZone;
  }
  const ModuleLinkStats& l = links_->stats();
  out = {{"zone_requests", zoneRequests},
         {"local_requests", zoned_->localRequests()},
         {"remote_requests", zoned_->remoteRequests()},
         {"link_request_bytes", l.requestBytes},
         {"link_reply_bytes", l.replyBytes},
         {"link_out_bytes", l.outBytes},
         {"link_in_bytes", l.inBytes},
         {"link_packets", l.packets},
         {"link_stall_cycles", l.stallCycles},
         {"zone_dram_bytes", dramBytes},
         {"zone_dram_busy_cycles", dramBusy},
         {"zone_dram_cycles", dramCycles}};
  placement_->reportStats(out);
}

}  // namespace warpsim::timing::mem
