// Compiler pass "gscalar-traits": publishes every instruction's static scalar-execution traits
// (instruction_traits.h) for the "gscalar" register-file model, which asks for it.
#include <nlohmann/json.hpp>

#include "mech/gscalar/instruction_traits.h"
#include "mech/gscalar/traits_pass.h"

namespace warpsim::mech::gscalar {

namespace {

class TraitsPass final : public timing::IIrPass {
 public:
  void run(const func::Program& program, uint32_t, nlohmann::json& stats,
           timing::InstructionAnnotations& annotations) override {
    auto& table = annotations.add<InstructionTraits>(kTraitsPass);
    uint64_t candidates = 0;
    for (uint32_t f = 0; f < table.functions(); ++f) {
      const func::LinkedFunction& lf = program.function(f);
      for (uint32_t pc = 0; pc < table.size(f); ++pc) {
        table.at(f, pc) = staticTraitsOf(lf.code[pc]);
        candidates += table.at(f, pc).cls != ScalarClass::None;
      }
    }
    stats["scalar_candidate_instructions"] = candidates;
  }
};

}  // namespace

std::unique_ptr<timing::IIrPass> makeTraitsPass() { return std::make_unique<TraitsPass>(); }

}  // namespace warpsim::mech::gscalar
