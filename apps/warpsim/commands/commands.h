// The warpsim subcommands. Each registers its options on a CLI11 subcommand and runs when
// that subcommand was given; errors are thrown (runtime::Error) and reported by main().
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace warpsim::app {

// A subcommand registered on the application, and what runs it (returns the exit status).
struct Subcommand {
  CLI::App* command;
  std::function<int()> run;
};

Subcommand addListCommand(CLI::App& app);
Subcommand addRunCommand(CLI::App& app);
Subcommand addPtxCheckCommand(CLI::App& app);

}  // namespace warpsim::app
