#include "mech/orf_lrf/allocation_pass.h"

#include <nlohmann/json.hpp>

#include "mech/orf_lrf/allocation.h"
#include "mech/orf_lrf/orf_params.h"
#include "mech/orf_lrf/strands.h"

namespace warpsim::mech::orf_lrf {

namespace {

const char* causeName(StrandCause c) {
  switch (c) {
    case StrandCause::FunctionEntry: return "function_entry";
    case StrandCause::LongLatency: return "long_latency";
    case StrandCause::BackwardBranch: return "backward_branch";
    case StrandCause::LoopHead: return "loop_head";
    case StrandCause::Barrier: return "barrier";
    case StrandCause::Call: return "call";
  }
  return "?";
}

class AllocationPass final : public timing::IIrPass {
 public:
  explicit AllocationPass(const OrfParams& params) : params_(params) {}

  void run(const func::Program& program, uint32_t, nlohmann::json& stats,
           timing::InstructionAnnotations& annotations) override {
    auto& placement = annotations.add<OperandPlacement>(kPlacementTable);
    auto& marks = annotations.add<timing::DescheduleMark>(timing::kDescheduleMarks);
    AllocationCounts counts;
    uint64_t causes[kStrandCauses] = {}, instructions = 0;
    for (uint32_t f = 0; f < placement.functions(); ++f) {
      if (placement.size(f) == 0) continue;
      const FunctionCode code = decodeFunction(program, f);
      const Strands strands = formStrands(code);
      allocateFunction(code, strands, params_, &placement.at(f, 0), counts);
      for (uint32_t start : strands.start) marks.at(f, start).boundary = true;
      for (StrandCause c : strands.cause) ++causes[static_cast<unsigned>(c)];
      instructions += code.code.size();
    }
    nlohmann::json& s = stats["strands"];
    uint64_t total = 0;
    for (unsigned c = 0; c < kStrandCauses; ++c) {
      s[causeName(static_cast<StrandCause>(c))] = causes[c];
      total += causes[c];
    }
    stats["strand_count"] = total;
    stats["instructions"] = instructions;
    stats["values"] = counts.values;
    stats["lrf_values"] = counts.lrfValues;
    stats["orf_values"] = counts.orfValues;
    stats["dual_writes"] = counts.dualWrites;
    stats["read_operand_groups"] = counts.readOperandGroups;
    stats["partial_ranges"] = counts.partialRanges;
    stats["reads"] = counts.reads;
    stats["upper_level_reads"] = counts.upperReads;
  }

 private:
  OrfParams params_;
};

}  // namespace

std::unique_ptr<timing::IIrPass> makeAllocationPass(config::Tree* tree) {
  return std::make_unique<AllocationPass>(readOrfParams(tree->section("sm").sub("register_file")));
}

}  // namespace warpsim::mech::orf_lrf
