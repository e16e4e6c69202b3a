// Compiler pass "zorua-phases" (Zorua, thesis ch. 4 §4.3.1; digest A.4, README.md "Compiler
// pass: phases and phase specifiers"): cuts every function a kernel can reach into phases whose
// register and scratchpad needs differ, and publishes them as the core table kResourcePhases
// (timing/instruction_annotations.h): per instruction its phase id, the phase's register sets,
// static shared bytes and dynamic-area flag, its own register sets, whether a phase specifier
// starts the phase there, and whether it is a barrier or fence (an implicit boundary).
//
// A new phase starts at instruction i (functions are walked in pc order) when
//   (a) the registers live at i, or the static shared bytes live at i, differ by at least
//       `min_change` (0.25) of their value at the start of the current phase, or the dynamic
//       area's liveness differs from it; and
//   (b) at least `min_instructions` (10) instructions have passed since the phase began; and
//   (c) i is a convergent point: in no divergent region (divergent_regions.h), in a function no
//       call can enter from a divergent point; and
//   (d) i does not end the thread (exit, trap, ret in a kernel: the warp releases all there).
// Every function's first instruction starts a phase. Barriers and fences are marked, and start
// no phase of their own. Liveness: register_sets.h (registers),
// shared_liveness.h and shared_accesses.h (scratchpad).
//
// Keys, under [compiler.zorua-phases]: min_change, min_instructions.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "func/program.h"
#include "timing/i_ir_pass.h"

namespace warpsim::timing {
class PluginRegistry;
// Registers the pass "zorua-phases" (IIrPass).
void registerZoruaPhasePass(PluginRegistry& registry);
}  // namespace warpsim::timing

namespace warpsim::mech::zorua {

inline constexpr const char* kPhasePassName = "zorua-phases";

struct PhaseParams {
  double minChange = 0.25;        // relative change of live registers or shared bytes
  uint32_t minInstructions = 10;  // instructions a phase has at least (unless the function ends)
};
// Reads [compiler.zorua-phases] (defaults without a tree).
PhaseParams readPhaseParams(config::Tree* tree);

// One phase as the pass found it.
struct PhaseInfo {
  uint32_t id = 0;
  uint32_t function = 0;
  uint32_t firstPc = 0, instructions = 0;
  uint64_t registerSets = 0;
  uint32_t peakLiveRegisters = 0;  // the most registers live at one of its instructions
  uint32_t sharedBytes = 0;
  bool sharedDynamic = false;
};

struct PhaseResult {
  std::vector<PhaseInfo> phases;       // in id order (the kernel's first)
  std::vector<uint32_t> functions;     // functions segmented: the kernel, then its callees
  uint64_t implicitBoundaries = 0;     // barrier / fence instructions marked
  uint32_t maxLiveRegisters = 0;       // the kernel's
  bool physicalRegisters = false;      // the kernel's registers are the allocator's
  uint32_t sharedVariables = 0, sharedAccesses = 0, unknownSharedAccesses = 0;
};

// Fills `table` (sized for every function of the program) for `kernel` and every function it can
// call; other functions' records stay zero.
PhaseResult computePhases(const func::Program& program, uint32_t kernel, const PhaseParams& params,
                          timing::AnnotationTable<timing::ResourcePhase>& table);
// The statistics the pass writes (phases, specifiers, implicit boundaries, the kernel's phases).
void writePhaseStats(const PhaseResult& result, nlohmann::json& stats);

std::unique_ptr<timing::IIrPass> makePhasePass(config::Tree* tree);

}  // namespace warpsim::mech::zorua
