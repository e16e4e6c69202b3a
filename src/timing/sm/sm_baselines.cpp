#include "timing/sm/sm_baselines.h"

#include "timing/plugin_registry.h"
#include "timing/sm/banked_register_file.h"
#include "timing/sm/i_assist_warp.h"
#include "timing/sm/last_reads.h"
#include "timing/sm/warp_schedulers.h"

namespace warpsim::timing {

namespace {

// No assist warps: the SM sees active() == false and never calls the other hooks.
class NoAssistWarp final : public IAssistWarp {
 public:
  bool active() const override { return false; }
  bool next(uint32_t, Priority, Cycle, AssistInstr&) override { return false; }
  void onIssued(const AssistInstr&, Cycle) override {}
  void onCompleted(uint32_t, Cycle) override {}
  bool blocksWarp(uint32_t) const override { return false; }
  Cycle nextEvent(Cycle) const override { return kNever; }
};

}  // namespace

void registerSmBaselines(PluginRegistry& registry) {
  registry.add<IWarpScheduler>("lrr", "loose round robin", makeLrrScheduler);
  registry.add<IWarpScheduler>("gto", "greedy then oldest", makeGtoScheduler);
  registry.add<IWarpScheduler>("two-level", "two-level active/pending warp sets (active_warps)",
                               makeTwoLevelScheduler);
  registry.add<IRegisterFile>("banked", "banked register file with operand collectors", makeBankedRegisterFile);
  registry.add<IAssistWarp>("none", "no assist warps",
                            [](const IAssistWarp::Context&) { return std::make_unique<NoAssistWarp>(); });
  registry.add<IIrPass>(kLastReads,
                        "per instruction, the value registers it reads for the last time (SIMT-safe "
                        "liveness hints for register-file caches)",
                        [](const IIrPass::Context&) { return makeLastReadsPass(); });
}

}  // namespace warpsim::timing
