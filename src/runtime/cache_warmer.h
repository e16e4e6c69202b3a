// Functional warming for kernel sampling's estimated launches (runtime/kernel_sampler.h): every
// global access the functional engine executes is handed to the timing model's shared caches
// (timing::Gpu::warm), so that the next timed launch finds in the L2 what the estimated ones
// left there, as it would have after timing them. Each record is passed on to `next`.
#pragma once
#include "func/exec_record.h"
#include "func/launch.h"

namespace warpsim::timing {
class Gpu;
}

namespace warpsim::runtime {

class CacheWarmer final : public func::ExecObserver {
 public:
  CacheWarmer(timing::Gpu& gpu, func::ExecObserver* next) : gpu_(gpu), next_(next) {}
  void onExec(const func::ExecRecord& record) override;
  func::ExecObserver* next() const { return next_; }

 private:
  timing::Gpu& gpu_;
  func::ExecObserver* next_;
};

}  // namespace warpsim::runtime
