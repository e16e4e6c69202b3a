// The subcommands that work on an existing output directory:
//   warpsim sweep point DIR --task N   runs array task N of the SLURM job (its points)
//   warpsim sweep status DIR           counts the points by status, names the SLURM job
//   warpsim sweep table DIR            rebuilds table.csv and table.jsonl from the point files
#pragma once
#include <filesystem>
#include <string>

#include "sweep/spec.h"

namespace warpsim::sweep {

// Runs the points of task `task` (DIR/slurm/tasks.txt) that have not passed, `jobs` at a time.
// Exit status 0 when they all passed, 3 when some did not, 130 when stopped by a signal.
int runTask(const std::filesystem::path& dir, long task, unsigned jobs, const std::string& warpsim,
            bool terminal);

// Prints the counts (and the points that did not pass) on stdout; always 0.
int printStatus(const std::filesystem::path& dir, const std::string& warpsim);

// `spec` gives the columns (DIR/spec.toml, read by the caller). Returns 0.
int rebuildTable(const std::filesystem::path& dir, const Spec& spec);

}  // namespace warpsim::sweep
