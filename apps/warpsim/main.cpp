// warpsim: run the workload suite on the simulator and inspect PTX files. This file wires
// the command-line options (CLI11) to the subcommands in commands/.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "commands/commands.h"
#include "commands/calibrate_command.h"
#include "commands/config_command.h"
#include "commands/config_model.h"
#include "commands/report_command.h"
#include "commands/sweep_command.h"
#include "compiler/register_allocation.h"

namespace {

// One line on stderr: messages that already name their location ("file:line: error: ...")
// are printed as they are.
int fail(const std::string& message, int status) {
  std::string line = message.substr(0, message.find('\n'));
  if (line.find("error:") != std::string::npos) {
    std::fprintf(stderr, "%s\n", line.c_str());
  } else {
    std::fprintf(stderr, "warpsim: error: %s\n", line.c_str());
  }
  return status;
}

// Accepts whole numbers of at least 1 (CLI::PositiveNumber prints an unreadable range).
const CLI::Validator kAtLeastOne(
    [](std::string& value) -> std::string {
      try {
        size_t used = 0;
        long long v = std::stoll(value, &used);
        if (used == value.size() && v >= 1) return "";
      } catch (const std::exception&) {
      }
      return "must be a whole number of at least 1, not '" + value + "'";
    },
    "N>=1");

// off, minimal or a register count 1..255 (compiler/register_allocation.h).
const CLI::Validator kRegisterBudget(
    [](std::string& value) -> std::string {
      try {
        warpsim::compiler::parseRegisterBudget(value);
        return "";
      } catch (const std::exception&) {
        return "must be off, minimal or a register count from 1 to 255, not '" + value + "'";
      }
    },
    "off|minimal|N");

}  // namespace

int main(int argc, char** argv) {
  using namespace warpsim::app;
  CLI::App app{"warpsim: an execution-driven GPU simulator for nvcc-generated PTX"};
  app.set_version_flag("--version", std::string("warpsim ") + WARPSIM_VERSION);
  app.require_subcommand(1);

  RunArgs run;
  CLI::App* runCmd = app.add_subcommand(
      "run", "Run a workload of the suite, verify it against its CPU reference and print a "
             "summary (exit status 3 when verification fails, 1 on an error)");
  runCmd->add_option("workload", run.workload,
                     "Workload to run (see `warpsim list`); default: sgemm-tiled");
  runCmd->add_option("--size", run.size,
                     "small, default, large, or a problem size (meaning depends on the workload)")
      ->capture_default_str();
  runCmd->add_option("--mode", run.mode,
                     "timing (the cycle-level model of the configured GPU) or functional "
                     "(results and instruction statistics only)")->capture_default_str();
  runCmd->add_flag("--all", run.all, "Run every workload, one line each, and count the passes");
  runCmd->add_option("--jobs", run.jobs,
                     "With --all: run this many workloads at once, each in a process of its own "
                     "(the lines keep the suite's order)")
      ->check(kAtLeastOne);
  runCmd->add_option("--threads", run.threads,
                     "Host threads the simulation may use (host.threads; default: the machine's "
                     "cores). Functional mode runs a launch's CTAs on them with the result of "
                     "running them one after another; the timing model runs on one thread")
      ->check(kAtLeastOne);
  runCmd->add_option("--seed", run.seed, "Seed of the input generator")->capture_default_str();
  runCmd->add_option("--stats", run.statsFile, "Write the statistics as JSON to this file");
  runCmd->add_option("--sms", run.sms, "Number of SMs the CTAs are spread over (%nsmid)")
      ->check(kAtLeastOne);
  runCmd->add_flag("--estimate-resources", run.estimate,
                   "Estimate registers/shared/local instead of running ptxas");
  runCmd->add_flag("--detail", run.detail,
                   "Also print instruction mix, memory traffic and branches per kernel");
  runCmd->add_flag("--profile-values", run.profileValues,
                   "Classify every register write and local store by value similarity "
                   "(profile.value_similarity=true; counts in --stats and --detail)");
  runCmd->add_option("--max-registers", run.maxRegisters,
                     "Register allocation before the run: off (virtual registers), minimal "
                     "(fewest registers without spills) or N (at most N per thread, spilling to "
                     "local memory, like nvcc -maxrregcount); sets compiler.registers")
      ->check(kRegisterBudget);
  runCmd->add_flag("--memcheck", run.memcheck,
                   "Make every access outside a device allocation an error (by default one that "
                   "stays in mapped memory works as on a GPU, with one warning line per launch)");
  runCmd->add_flag("--initcheck", run.initcheck,
                   "Report reads of device memory never written, one line per launch, and exit "
                   "with status 1 if there were any");
  runCmd->add_option("--threads-per-block", run.threadsPerBlock,
                     "Resource specification: threads per CTA of the workload's main kernels, "
                     "one of the values it accepts (warpsim list --specs); it changes how the "
                     "work is laid out, never the result")
      ->check(kAtLeastOne);
  runCmd->add_option("--shared-per-block", run.sharedPerBlock,
                     "Resource specification: shared memory bytes per CTA of the workload's main "
                     "kernels, one of the values it accepts (warpsim list --specs)")
      ->check(kAtLeastOne);
  runCmd->add_option("--tile-bytes", run.tileBytes,
                     "A tiled workload's tile: the bytes of data one tile holds (what its code was "
                     "tuned to fit), one of the values it accepts (warpsim list --specs)")
      ->check(kAtLeastOne);
  runCmd->add_flag("-q,--quiet", run.quiet, "Print nothing (use with --stats)");
  runCmd->add_option("--config", run.config, "GPU configuration: a bundled name or a TOML file");
  // One value per occurrence: `--set k=v sgemm-tiled` leaves the workload alone.
  runCmd->add_option("--overlay", run.overlays, "Configuration overlay, applied in order (repeatable)")
      ->allow_extra_args(false);
  runCmd->add_option("--set", run.sets, "Configuration override key=value (repeatable)")
      ->allow_extra_args(false);
  runCmd->add_option("--sample-interval", run.sampleInterval,
                     "Timing mode: record a statistics time series every N core cycles "
                     "(gpu.sample_interval)")->check(kAtLeastOne);
  runCmd->footer("warpsim run [options] -- PROGRAM [ARGS...] runs a CUDA program built with "
                 "`nvcc -cudart shared` on the simulator and exits with its status.");

  CLI::App* listCmd = app.add_subcommand(
      "list", "List the workloads: name, category, description and sizes");
  bool listSpecs = false;
  listCmd->add_flag("--specs", listSpecs,
                    "List the resource specifications (threads and shared memory per block) "
                    "the workloads accept, and what they change");

  CLI::App* configCmd = app.add_subcommand(
      "config", "List the bundled GPU configurations and overlays, or show one resolved");
  configCmd->require_subcommand(1);
  CLI::App* configListCmd = configCmd->add_subcommand(
      "list", "List the bundled configurations and overlays with their descriptions");
  std::string configName;
  std::vector<std::string> configOverlays, configSets;
  CLI::App* configShowCmd = configCmd->add_subcommand(
      "show", "Build the model for a configuration and print every key it uses: value, where it "
              "was set (file:line, --set or default) and what it means");
  configShowCmd->add_option("name", configName, "Bundled configuration name or TOML file")
      ->required();
  configShowCmd->add_option("--overlay", configOverlays,
                            "Configuration overlay, applied in order (repeatable)");
  configShowCmd->add_option("--set", configSets, "Configuration override key=value (repeatable)");

  CheckArgs check;
  CLI::App* checkCmd = app.add_subcommand(
      "ptx-check", "Parse and link a PTX file; list its kernels (parameters, resource usage), "
                   "functions and module variables");
  checkCmd->add_option("file", check.file, "PTX file")->required();
  checkCmd->add_flag("--estimate-resources", check.estimate,
                     "Estimate registers/shared/local instead of running ptxas");
  checkCmd->add_option("--allocate", check.allocate,
                       "Register-allocate every function (minimal or N registers) and print it "
                       "with physical registers, spill code and PTX source lines")
      ->check(kRegisterBudget);

  SweepArgs sweep;
  CLI::App* sweepCmd = app.add_subcommand(
      "sweep", "Run an experiment: the grid of `warpsim run` points a TOML spec describes, "
               "locally or on SLURM, resumably, into a directory of results and a table "
               "(docs/experiments.md); exit status 3 when a point did not pass");
  sweepCmd->add_option("spec", sweep.spec, "The sweep spec (TOML)");
  sweepCmd->add_option("--out", sweep.out, "Output directory (results of earlier runs are kept)");
  sweepCmd->add_option("--jobs", sweep.jobs, "Runs at once (default: the machine's hardware "
                       "threads)")->check(kAtLeastOne);
  sweepCmd->add_flag("--retry-failed", sweep.retryFailed, "Run the points that failed again");
  sweepCmd->add_flag("--dry-run", sweep.dryRun, "Print the points (id, axes, command), run none");
  sweepCmd->add_option("--executor", sweep.executor, "local or slurm")->capture_default_str();
  sweepCmd->add_option("--partition", sweep.slurm.partition, "slurm: partition");
  sweepCmd->add_option("--time", sweep.slurm.time, "slurm: time limit of an array task");
  sweepCmd->add_option("--mem", sweep.slurm.mem, "slurm: memory of an array task");
  sweepCmd->add_option("--cpus-per-task", sweep.slurm.cpusPerTask,
                       "slurm: CPUs of an array task, which runs that many points at once")
      ->check(kAtLeastOne)->capture_default_str();
  sweepCmd->add_option("--max-parallel", sweep.slurm.maxParallel,
                       "slurm: array tasks running at once (--array=0-M%P)")->check(kAtLeastOne);
  sweepCmd->add_option("--chunk", sweep.slurm.chunk, "slurm: points per array task")
      ->check(kAtLeastOne)->capture_default_str();
  sweepCmd->add_option("--slurm-option", sweep.slurm.extra,
                       "slurm: another sbatch option, e.g. --account=NAME (repeatable)")
      ->allow_extra_args(false);
  sweepCmd->add_flag("--no-wait", sweep.slurm.noWait, "slurm: submit the job and return");
  sweepCmd->add_option("--sbatch", sweep.slurm.sbatch, "slurm: the sbatch to use (default: "
                       "$PATH; squeue is looked for beside it)");
  sweepCmd->add_option("--poll", sweep.slurm.poll, "slurm: seconds between looks at the job")
      ->capture_default_str();
  CLI::App* sweepPointCmd = sweepCmd->add_subcommand(
      "point", "Run one array task of a SLURM sweep (what DIR/slurm/job.sh runs)");
  sweepPointCmd->add_option("dir", sweep.dir, "Output directory of the sweep")->required();
  sweepPointCmd->add_option("--task", sweep.task, "Array task ($SLURM_ARRAY_TASK_ID)")->required();
  sweepPointCmd->add_option("--jobs", sweep.jobs, "Points run at once (default 1)")
      ->check(kAtLeastOne);
  CLI::App* sweepStatusCmd = sweepCmd->add_subcommand(
      "status", "Count a sweep's points by status (passed, failed, missing); name its SLURM job");
  sweepStatusCmd->add_option("dir", sweep.dir, "Output directory of the sweep")->required();
  CLI::App* sweepTableCmd = sweepCmd->add_subcommand(
      "table", "Rebuild DIR/table.csv and table.jsonl from the point files and DIR/spec.toml");
  sweepTableCmd->add_option("dir", sweep.dir, "Output directory of the sweep")->required();

  ReportArgs report;
  CLI::App* reportCmd = app.add_subcommand(
      "report", "Write a Markdown page with PNG plots from a sweep's table: per column a table, "
                "bar charts with a geometric mean and line plots over numeric axes, or a "
                "template's page (docs/experiments.md); needs Python 3.11+ with matplotlib");
  reportCmd->add_option("dir", report.dir, "Output directory of `warpsim sweep`")->required();
  reportCmd->add_option("--out", report.out, "The page to write, plots beside it (default "
                        "DIR/report.md)");
  reportCmd->add_option("--template", report.templateFile,
                        "A Python file whose render(report) writes the page instead");
  reportCmd->add_option("--baseline", report.baseline,
                        "AXIS=VALUE: normalise the columns to the point with this value "
                        "(repeatable: one value per axis, together one point)")
      ->allow_extra_args(false);

  CalibrateArgs calibrate;
  CLI::App* calibrateCmd = app.add_subcommand(
      "calibrate", "Run the calibration microbenchmarks on a GPU configuration and compare them "
                   "with the published figures of its targets file (configs/calibration/); "
                   "--fit searches the latency keys that bring them there (exit status 3 when a "
                   "target is missed)");
  calibrateCmd->add_option("config", calibrate.config, "GPU configuration: a bundled name or a TOML file");
  calibrateCmd->add_option("--overlay", calibrate.overlays, "Configuration overlay, applied in order (repeatable)");
  calibrateCmd->add_option("--set", calibrate.sets, "Configuration override key=value (repeatable)");
  calibrateCmd->add_option("--targets", calibrate.targets,
                           "Targets file (default: configs/calibration/CONFIG.toml)");
  calibrateCmd->add_flag("--fit", calibrate.fit,
                         "Fit each target's `fit` key, in file order, before comparing");
  calibrateCmd->add_option("--write", calibrate.write, "With --fit: write the fitted keys to this overlay file");
  calibrateCmd->add_flag("--list", calibrate.list, "List the measurements and what each runs");
  calibrateCmd->add_flag("--markdown", calibrate.markdown,
                         "Print the comparison as a Markdown table only (docs/validation.md)");

  // CLI11 reports an unknown command only as "a subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    std::string given = argv[1];
    if (given != "run" && given != "list" && given != "ptx-check" && given != "config" &&
        given != "sweep" && given != "report" && given != "calibrate") {
      return fail("unknown command '" + given +
                      "' (commands: run, list, config, ptx-check, sweep, report, calibrate)",
                  2);
    }
  }
  // `run ... -- PROGRAM ARGS`: everything after the first "--" is the program's command line.
  for (int i = 2; argc > 2 && std::string(argv[1]) == "run" && i < argc; ++i) {
    if (std::string(argv[i]) != "--") continue;
    run.program.assign(argv + i + 1, argv + argc);
    if (run.program.empty()) return fail("run: no program after --", 2);
    argc = i;
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
    return fail(std::string(e.what()) + " (see warpsim --help)",
                e.get_exit_code() != 0 ? e.get_exit_code() : 2);
  }

  try {
    if (runCmd->parsed() && !run.program.empty()) return runProgram(run);
    if (runCmd->parsed()) return run.all ? runAllWorkloads(run) : runWorkload(run);
    if (listCmd->parsed()) return listWorkloads(listSpecs);
    if (configListCmd->parsed()) return listConfigs();
    if (configShowCmd->parsed()) return showModelConfig(configName, configOverlays, configSets);
    if (checkCmd->parsed()) return checkPtx(check);
    if (sweepPointCmd->parsed()) return sweepPointCommand(sweep);
    if (sweepStatusCmd->parsed()) return sweepStatusCommand(sweep);
    if (sweepTableCmd->parsed()) return sweepTableCommand(sweep);
    if (reportCmd->parsed()) return reportCommand(report);
    if (calibrateCmd->parsed()) return calibrateCommand(calibrate);
    if (sweepCmd->parsed()) {
      if (sweep.spec.empty()) return fail("sweep: no spec (warpsim sweep SPEC --out DIR)", 2);
      return runSweepCommand(sweep);
    }
  } catch (const std::exception& e) {
    return fail(e.what(), 1);
  }
  return 0;
}
