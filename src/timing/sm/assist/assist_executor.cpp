#include "timing/sm/assist/assist_executor.h"

#include <algorithm>
#include <cstring>

#include "func/exec_record.h"
#include "func/functional_gpu.h"

namespace warpsim::timing {

// A routine ready to run: its launch (one CTA of one warp), grid and CTA.
struct AssistExecutor::Prepared {
  func::LaunchConfig config;
  func::GridContext grid;
  std::unique_ptr<func::Cta> cta;
};

AssistExecutor::AssistExecutor(const AssistRoutineStore& store, uint32_t maxSteps)
    : store_(store), maxSteps_(maxSteps), memory_(uint64_t{1} << 20) {
  options_.numSms = 1;
  options_.localStackBytes = 0;
  prepared_.resize(store.program().module().functions.size());
  steps_.reserve(256);
}

AssistExecutor::~AssistExecutor() = default;

AssistExecutor::Prepared& AssistExecutor::prepare(uint32_t routine) {
  std::unique_ptr<Prepared>& p = prepared_[routine];
  if (!p) {
    p = std::make_unique<Prepared>();
    p->config.grid = {1, 1, 1};
    p->config.block = {32, 1, 1};
    p->config.params.assign(store_.paramBytes(routine), 0);
    p->grid = func::prepareGrid(store_.program(), routine, p->config, memory_, options_);
    p->cta = std::make_unique<func::Cta>(p->grid, 0);
  } else {
    p->cta->reset(0);
  }
  return *p;
}

bool AssistExecutor::run(uint32_t routine, uint32_t activeMask, const uint8_t* staging,
                         uint32_t stagingBytes, const uint64_t* liveIns, uint32_t numLiveIns) {
  steps_.clear();
  error_.clear();
  const ir::Function& f = store_.program().module().functions[routine];
  if (numLiveIns != f.params.size()) {
    error_ = "assist routine '" + f.name + "' takes " + std::to_string(f.params.size()) +
             " live-ins, given " + std::to_string(numLiveIns);
    return false;
  }
  Prepared& p = prepare(routine);
  current_ = &p;
  for (uint32_t i = 0; i < numLiveIns; ++i)
    std::memcpy(p.config.params.data() + f.params[i].offset, &liveIns[i],
                std::min<uint32_t>(f.params[i].size, 8));
  const uint32_t bytes = p.cta->sharedBytes();
  if (bytes != 0) {  // a routine without shared memory has no buffer (shared() may be null)
    uint8_t* shared = p.cta->shared();
    std::memset(shared, 0, bytes);
    const uint32_t staged = staging != nullptr ? std::min(stagingBytes, bytes) : 0;
    if (staged != 0) std::memcpy(shared, staging, staged);
  }
  func::Warp& warp = p.cta->warp(0);
  if (activeMask != func::kFullMask) warp.exitLanes(~activeMask);
  func::ExecRecord record;
  for (;;) {
    const func::StepStatus s = warp.step(&record);
    if (s == func::StepStatus::Error) {
      error_ = "assist routine '" + f.name + "': " + warp.error();
      return false;
    }
    if (record.instr != nullptr) {
      if (steps_.size() == maxSteps_) {
        error_ = "assist routine '" + f.name + "' ran more than " + std::to_string(maxSteps_) +
                 " instructions";
        return false;
      }
      AssistStep step;
      step.instr = &store_.decoded().at(record.function, record.pc);
      step.execMask = record.execMask;
      step.liveIn = record.space == ir::Space::KernelParam && !record.isStore &&
                    record.instr->op == ir::Op::Ld;
      steps_.push_back(step);
    }
    if (s == func::StepStatus::Exited || warp.done()) return true;
    if (s == func::StepStatus::AtBarrier) {
      error_ = "assist routine '" + f.name + "' waits at a barrier (one warp cannot)";
      return false;
    }
  }
}

const uint8_t* AssistExecutor::shared() const { return current_ ? current_->cta->shared() : nullptr; }

uint32_t AssistExecutor::sharedBytes() const { return current_ ? current_->cta->sharedBytes() : 0; }

}  // namespace warpsim::timing
