// warpsim: run bundled example programs on the simulator and inspect PTX files.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "commands/commands.h"
#include "runtime/error.h"

namespace {

// One line on stderr: messages that already name their location ("file:line: error: ...")
// are printed as they are.
int fail(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  if (line.find("error:") != std::string::npos) {
    std::fprintf(stderr, "%s\n", line.c_str());
  } else {
    std::fprintf(stderr, "warpsim: error: %s\n", line.c_str());
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"warpsim: an execution-driven GPU simulator for nvcc-generated PTX"};
  app.set_version_flag("--version", std::string("warpsim ") + WARPSIM_VERSION);
  app.require_subcommand(1);
  std::vector<warpsim::app::Subcommand> commands = {
      warpsim::app::addRunCommand(app),
      warpsim::app::addListCommand(app),
      warpsim::app::addPtxCheckCommand(app),
  };

  // CLI11 reports an unknown command only as "a subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const warpsim::app::Subcommand& c : commands) {
      known = known || c.command->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + c.command->get_name();
    }
    if (!known) {
      fail(std::string("unknown command '") + argv[1] + "' (commands: " + names + ")");
      return 2;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fail(std::string(e.what()) + " (see warpsim --help)");
    return e.get_exit_code() != 0 ? e.get_exit_code() : 2;
  }

  try {
    for (const warpsim::app::Subcommand& c : commands) {
      if (c.command->parsed()) return c.run();
    }
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return 0;
}
