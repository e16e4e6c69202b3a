// Baseline IR pass "liveness" (see i_ir_pass.h).
#include <nlohmann/json.hpp>

#include "timing/baselines_internal.h"
#include "timing/i_ir_pass.h"
#include "timing/plugin_registry.h"

namespace warpsim::timing {

namespace {

class LivenessPass final : public IIrPass {
 public:
  void run(const func::Program& program, uint32_t function, nlohmann::json& out,
           InstructionAnnotations&) override {
    const ir::Function& f = program.module().functions[function];
    out["max_live_registers"] = f.maxLiveRegs;
    out["basic_blocks"] = f.blocks.size();
    out["instructions"] = f.code.size();
  }
};

}  // namespace

void registerLivenessPass(PluginRegistry& registry) {
  registry.add<IIrPass>("liveness",
                        "peak live value registers, basic blocks and instructions of the kernel",
                        [](const IIrPass::Context&) { return std::make_unique<LivenessPass>(); });
}

}  // namespace warpsim::timing
