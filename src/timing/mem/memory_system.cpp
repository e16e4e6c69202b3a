#include "timing/mem/memory_system.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "timing/mem/baseline_plugins.h"
#include "timing/mem/hash_address_mapping.h"

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

namespace {

uint32_t sliceCount(const MemoryParams& p) { return p.dram.channels * p.l2.slicesPerChannel; }

std::unique_ptr<IAddressMapping> makeMapping(const MemoryParams& p, MemoryPlugins& plugins,
                                             config::Tree* tree) {
  IAddressMapping::Context c;
  c.tree = tree;
  c.channels = p.dram.channels;
  c.banks = p.dram.banks;
  c.rowBytes = p.dram.rowBytes;
  c.interleaveBytes = p.dram.interleaveBytes;
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
      mapping_(makeMapping(params, plugins, tree)),
      requests_(params.numSms, sliceCount(params), params.icnt, pool_),
      replies_(sliceCount(params), params.numSms, params.icnt, pool_) {
  validate(params);
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
    w.mapping = mapping_.get();
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

Cycle MemorySystemImpl::workCycle(uint32_t d, Cycle from) const {
  Cycle c = kNever;
  switch (d) {
    case kIcnt:
      c = std::min(requests_.nextWorkCycle(from), replies_.nextWorkCycle(from));
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
  return requests_.ejectionEmpty();
}

uint64_t MemorySystemImpl::progress() const {
  uint64_t n = requests_.moved() + replies_.moved();
  for (const auto& s : slices_) n += s->moved();
  return n;
}

void MemorySystemImpl::beginKernel() {
  for (auto& sm : sms_) sm->beginKernel();
  for (auto& s : slices_) s->beginKernel();
  for (auto& p : l2Policies_) p->beginKernel();
  for (auto& c : compression_) c->beginKernel();
  for (auto& ch : channels_) ch->resetStats();
  requests_.resetStats();
  replies_.resetStats();
  kernelStartDram_ = nextCycle(kDram);
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
  for (const auto& ch : channels_) dram += ch->stats();
  dram.cycles = (nextCycle(kDram) - kernelStartDram_) * channels_.size();
  l1.toJson(out["l1d"]);
  shared.toJson(out["shared"]);
  storageBanks.toJson(out["storage_banks"]);
  constant.toJson(out["const"]);
  icnt.toJson(out["icnt"]);
  l2.toJson(out["l2"]);
  dram.toJson(out["dram"]);
  if (!l1Policy.empty()) out["l1d_policy"] = std::move(l1Policy);
  if (!l2Policy.empty()) out["l2_policy"] = std::move(l2Policy);
  if (!localPath.empty()) out["local_path"] = std::move(localPath);
  if (!compression.empty()) out["compression"] = std::move(compression);
}

}  // namespace warpsim::timing::mem
