// The launches of a concurrent batch and the binding of SMs to them (see launch_set.h).
#include "timing/launch_set.h"

#include <fmt/format.h>

#include "timing/gpu_impl.h"
#include "timing/stats_json.h"

namespace warpsim::timing {

LaunchSet::LaunchSet(Gpu::Impl& gpu, const std::vector<BatchLaunch>& launches)
    : gpu_(gpu), boundTo_(gpu.numSms, kNone), tenureOpen_(gpu.numSms, 0), hadWork_(gpu.numSms, 0) {
  runs_.reserve(launches.size());
  dispatchers_.reserve(launches.size());
  for (size_t i = 0; i < launches.size(); ++i) {
    runs_.push_back(std::make_unique<LaunchRun>(static_cast<uint32_t>(i), launches[i]));
    runs_.back()->smStats.resize(gpu.numSms);
    dispatchers_.emplace_back(*this, static_cast<uint32_t>(i));
  }
}

uint32_t LaunchSet::begin(Cycle now) {
  for (auto& r : runs_) {
    if (r->state == LaunchRun::State::Failed) {
      r->start = r->end = now;
    } else {
      ++unfinished_;
    }
  }
  for (auto& r : runs_) {
    if (r->state != LaunchRun::State::Waiting) continue;
    bool ready = true;
    for (uint32_t a : r->spec->after) ready = ready && runs_[a]->done();
    if (ready) {
      first_ = r->index;
      break;
    }
  }
  if (first_ == kNone) return kNone;
  // Every SM starts bound to the first launch, so a batch of one is a lone launch.
  LaunchRun& f = *runs_[first_];
  gpu_.memorySystem->beginKernel();
  for (uint32_t s = 0; s < gpu_.numSms; ++s) {
    gpu_.sms[s]->beginKernel(f.grid, now, &f.annotations);
    gpu_.resourceManagers[s]->beginKernel(f.need);  // fits: the probe said so
    gpu_.memorySystem->sm(s).setL1Bytes(gpu_.resourceManagers[s]->l1Bytes());
    beginMemoryLaunch(s, f, now);
    gpu_.sms[s]->setTrace(f.trace ? &*f.trace : nullptr);
    boundTo_[s] = first_;
    tenureOpen_[s] = 1;
  }
  startReady(now);
  return first_;
}

bool LaunchSet::schedule(Cycle now) {
  bool any = false;
  for (size_t i = 0; i < runs_.size(); ++i) {
    LaunchRun& r = *runs_[i];
    if (!r.running() || r.scheduler->pending() == 0) continue;
    const uint64_t before = r.started;
    r.scheduler->schedule(dispatchers_[i], now);
    any = any || r.started != before;
  }
  return any;
}

uint32_t LaunchSet::retire(uint32_t sm) {
  LaunchRun& r = *runs_[boundTo_[sm]];
  uint32_t n = 0;
  func::Cta* cta = nullptr;
  while (gpu_.sms[sm]->popRetired(cta)) {
    gpu_.resourceManagers[sm]->release(cta->ctaLinear());
    r.pool->release(*cta);
    ++n;
  }
  r.retired += n;
  retiredCtas_ += n;
  return n;
}

bool LaunchSet::becameIdle(uint32_t sm) {
  if (hadWork_[sm] == 0) return false;
  hadWork_[sm] = 0;
  for (const auto& r : runs_) {
    if (r->index != boundTo_[sm] && r->running() && r->scheduler->pending() != 0) return true;
  }
  return false;
}

bool LaunchSet::endLaunches(Cycle now, bool busy, bool& startedAny) {
  bool ended = false;
  for (auto& p : runs_) {
    LaunchRun& r = *p;
    if (!r.running() || r.retired != r.total) continue;
    if (unfinished_ == 1) {
      // The last launch: its memory traffic (stores in flight) drains too, so the next batch
      // starts with an idle memory system.
      if (busy || !gpu_.memorySystem->idle()) continue;
      finish(r, now + 1);
      return true;
    }
    bool idle = true;
    for (uint32_t s = 0; s < gpu_.numSms && idle; ++s) {
      idle = boundTo_[s] != r.index || !gpu_.needsCycle(s);
    }
    if (!idle) continue;
    finish(r, now + 1);
    ended = true;
  }
  if (ended && startReady(now + 1)) startedAny = true;
  return false;
}

uint32_t LaunchSet::overInstructionLimit(std::string& error) const {
  for (const auto& r : runs_) {
    if (!r->running()) continue;
    const uint64_t limit = r->grid.options->maxWarpInstructions;
    if (limit != 0 && r->grid.warpInstructions >= limit) {
      error = fmt::format(
          "kernel '{}': instruction limit of {} warp-instructions reached (infinite loop?)",
          r->name(), limit);
      return r->index;
    }
  }
  return kNone;
}

uint32_t LaunchSet::oldestRunning() const {
  for (const auto& r : runs_) {
    if (r->running()) return r->index;
  }
  return first_;
}

void LaunchSet::stop(Cycle now, uint32_t failed, std::string error) {
  const std::string culprit = runs_[failed]->name();
  for (auto& r : runs_) {
    if (r->done()) continue;
    if (r->running()) {
      for (uint32_t s = 0; s < gpu_.numSms; ++s) {
        if (boundTo_[s] == r->index && tenureOpen_[s] != 0) harvest(s, now);
      }
      r->memoryStats = nlohmann::json::object();
      gpu_.memorySystem->reportStats(r->memoryStats);
    } else {
      r->start = now + 1;  // never started
    }
    r->end = now + 1;
    r->out.result.ok = false;
    r->out.result.error =
        r->index == failed
            ? std::move(error)
            : fmt::format("kernel '{}': stopped: kernel '{}' running beside it failed", r->name(),
                          culprit);
  }
}

uint64_t LaunchSet::issued() const {
  uint64_t n = harvestedIssued_;
  for (uint32_t s = 0; s < gpu_.numSms; ++s) {
    if (tenureOpen_[s] != 0) n += gpu_.sms[s]->issuedInstructions();
  }
  return n;
}

uint64_t LaunchSet::warpInstructions() const {
  uint64_t n = 0;
  for (const auto& r : runs_) {
    if (r->state != LaunchRun::State::Failed) n += r->grid.warpInstructions;
  }
  return n;
}

uint64_t LaunchSet::threadInstructions() const {
  uint64_t n = 0;
  for (const auto& r : runs_) {
    if (r->state != LaunchRun::State::Failed) n += r->grid.threadInstructions;
  }
  return n;
}

uint32_t LaunchSet::Dispatcher::numSms() const { return set_->gpu_.numSms; }

bool LaunchSet::Dispatcher::canStart(uint32_t sm) const {
  const Gpu::Impl& gpu = set_->gpu_;
  if (set_->boundTo_[sm] != launch_) return set_->rebindable(sm, launch_);
  return gpu.resourceManagers[sm]->canAdmit() &&
         gpu.sms[sm]->freeWarpSlots() >= set_->runs_[launch_]->need.warpsPerCta();
}

void LaunchSet::Dispatcher::start(uint32_t cta, uint32_t sm) {
  Gpu::Impl& gpu = set_->gpu_;
  LaunchRun& r = *set_->runs_[launch_];
  if (set_->boundTo_[sm] != launch_) set_->bind(sm, launch_, gpu.now);
  func::Cta& c = r.pool->acquire(cta);
  gpu.resourceManagers[sm]->admit(cta);
  gpu.sms[sm]->admit(c, gpu.now);
  ++r.started;
  set_->hadWork_[sm] = 1;
}

uint32_t LaunchSet::Dispatcher::residentCtas(uint32_t sm) const {
  return set_->boundTo_[sm] == launch_ ? set_->gpu_.sms[sm]->residentCtas() : 0;
}

bool LaunchSet::rebindable(uint32_t sm, uint32_t launch) const {
  return boundTo_[sm] != launch && !gpu_.needsCycle(sm);
}

void LaunchSet::bind(uint32_t sm, uint32_t launch, Cycle now) {
  if (tenureOpen_[sm] != 0) harvest(sm, now);
  LaunchRun& r = *runs_[launch];
  gpu_.sms[sm]->beginKernel(r.grid, now, &r.annotations);
  gpu_.resourceManagers[sm]->beginKernel(r.need);  // fits: the probe said so
  gpu_.memorySystem->sm(sm).setL1Bytes(gpu_.resourceManagers[sm]->l1Bytes());
  beginMemoryLaunch(sm, r, now);
  gpu_.sms[sm]->setTrace(r.trace ? &*r.trace : nullptr);
  boundTo_[sm] = launch;
  tenureOpen_[sm] = 1;
}

void LaunchSet::beginMemoryLaunch(uint32_t sm, const LaunchRun& r, Cycle now) {
  const func::Dim3& g = r.spec->launch.grid;
  const uint32_t grid[3] = {g.x, g.y, g.z};
  gpu_.memorySystem->sm(sm).beginLaunch(r.spec->launch.hints.get(), grid, now);
}

void LaunchSet::harvest(uint32_t sm, Cycle end) {
  LaunchRun& r = *runs_[boundTo_[sm]];
  Sm& s = *gpu_.sms[sm];
  s.finishKernel(end);
  nlohmann::json one = nlohmann::json::object();
  s.reportStats(one);
  addInto(r.smStats[sm], one);
  nlohmann::json resources = nlohmann::json::object();
  gpu_.resourceManagers[sm]->reportStats(resources);
  addInto(r.resources, resources);
  harvestedIssued_ += s.issuedInstructions();
  tenureOpen_[sm] = 0;
}

void LaunchSet::startLaunch(LaunchRun& r, Cycle at) {
  r.state = LaunchRun::State::Running;
  r.start = at;
  ICtaScheduler::Launch launch;
  launch.numCtas = r.total;
  const func::Dim3& grid = r.spec->launch.grid;
  launch.grid[0] = grid.x;
  launch.grid[1] = grid.y;
  launch.grid[2] = grid.z;
  launch.hints = r.spec->launch.hints.get();
  launch.ctasPerSm = r.occupancy.ctasPerSm;
  gpu_.memorySystem->beginLaunch(launch.hints, launch.grid, launch.ctasPerSm);
  r.scheduler->beginLaunch(launch);
}

void LaunchSet::finish(LaunchRun& r, Cycle end) {
  for (uint32_t s = 0; s < gpu_.numSms; ++s) {
    if (boundTo_[s] == r.index && tenureOpen_[s] != 0) harvest(s, end);
  }
  r.memoryStats = nlohmann::json::object();
  gpu_.memorySystem->reportStats(r.memoryStats);
  r.end = end;
  r.state = LaunchRun::State::Finished;
  --unfinished_;
}

bool LaunchSet::startReady(Cycle at) {
  bool any = false;
  for (auto& r : runs_) {
    if (r->state != LaunchRun::State::Waiting) continue;
    bool ready = true;
    for (uint32_t a : r->spec->after) ready = ready && runs_[a]->done();
    if (!ready) continue;
    startLaunch(*r, at);
    any = true;
  }
  return any;
}

}  // namespace warpsim::timing
