// Running one workload for `warpsim run` and `warpsim run --all`.
#pragma once
#include <string>

#include "commands/commands.h"
#include "commands/run_summary.h"
#include "workloads/workload.h"

namespace warpsim::app {

// Throws runtime::Error unless `mode` is one `warpsim run` can run ("functional").
void checkMode(const std::string& mode);

// Runs `w` at args.size (a preset name or a number) on a fresh device, with the resource
// specification asked for. Throws runtime::Error for a bad size or a specification `w` does not
// accept; launch errors propagate.
RunSummary runOne(const workloads::Workload& w, const RunArgs& args);

}  // namespace warpsim::app
