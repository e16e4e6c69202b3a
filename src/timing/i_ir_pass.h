// Extension point "ir_pass": compiler passes over a kernel's IR, run before it launches in
// timing mode. A pass reads the decoded module (instructions, CFG, reconvergence points,
// liveness: ir/module.h) and records what it found; the results go into the launch's statistics
// under "compiler".<pass name>. The configuration names the passes to run, in order:
//   [compiler]
//   passes = "liveness"        # comma-separated names of registered passes
// A pass never changes program behaviour (functional results stay those of the functional
// engine); mechanisms that need per-instruction compiler information (register allocation to
// a register-file hierarchy, phase boundaries, last-read bits) compute it in their own pass and
// publish it as per-instruction annotations (instruction_annotations.h). Passes a model needs
// run without being named in `passes`: the model asks for them (PassRequests).
//
// Baseline "liveness": per kernel, the peak number of live value registers (ir::analyze), the
// number of basic blocks and of instructions.
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "config/config.h"
#include "func/program.h"
#include "timing/instruction_annotations.h"

namespace warpsim::timing {

class IIrPass {
 public:
  static constexpr const char* kPoint = "ir_pass";
  struct Context {
    config::Tree* tree = nullptr;   // the pass's keys under "compiler.<name>"
  };
  virtual ~IIrPass() = default;
  // Analyses the kernel `function` of `program` (about to launch), writes its findings into
  // `stats` (a JSON object) and publishes any per-instruction tables into `annotations` (sized
  // for every function of the program). Deterministic; called once per launch.
  virtual void run(const func::Program& program, uint32_t function, nlohmann::json& stats,
                   InstructionAnnotations& annotations) = 0;
};

}  // namespace warpsim::timing
