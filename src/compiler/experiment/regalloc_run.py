#!/usr/bin/env python3
"""Runs the register-allocation experiment (see run.sh, which calls this) and writes its page.

Every workload runs on --config gtx480 with --profile-values four times: --max-registers off (the
unconstrained reference), minimal, and at B75 = ceil(0.75 x) and B50 = ceil(0.5 x) its minimal
count (the most registers any of its kernels needs). A budget the allocator refuses ("... the
smallest feasible budget is F") is rerun at F. Beside each allocated run, `ptxas -v` compiles the
workload's PTX (workloads/<name>/*.ptx) for its .target: by default for minimal, with
-maxrregcount B for the budgets. Statistics go to OUT/<run>/<workload>.json, logs beside them,
ptxas reports to OUT/ptxas/<run>/<workload>.txt.

Exit status: 0 done, 1 error, 2 bad usage, 3 a run failed or did not verify (the runs not yet
started are then skipped; those in flight finish).
"""

import argparse
import collections
import concurrent.futures as futures
import datetime
import glob
import os
import shutil
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
import regalloc_page  # noqa: E402 (after the line above on purpose)
import regalloc_stats as rs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def find_ptxas(given):
    """The ptxas to use, as warpsim finds it (WARPSIM_PTXAS, PATH, /usr/local/cuda/bin), or None."""
    if given == "none":
        return None
    for candidate in (given, os.environ.get("WARPSIM_PTXAS"), shutil.which("ptxas"),
                      "/usr/local/cuda/bin/ptxas"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def ptx_target(path):
    """sm_XX from the .target line of a PTX file (sm_80 when there is none)."""
    with open(path, encoding="utf-8", errors="replace") as stream:
        for line in stream:
            words = line.split()
            if len(words) >= 2 and words[0] == ".target":
                return words[1].split(",")[0]
    return "sm_80"


def run_ptxas(ptxas, workload, limit, path):
    """Writes ptxas -v's report on the workload's PTX files to `path`; '' or what went wrong."""
    files = sorted(glob.glob(os.path.join(ROOT, "workloads", workload, "*.ptx")))
    if not files:
        return f"no PTX in workloads/{workload}"
    lines, problem = [], ""
    for ptx in files:
        command = [ptxas, "-v", "--gpu-name", ptx_target(ptx)]
        command += ["-maxrregcount", str(limit)] if limit else []
        command += ["-o", "/dev/null", ptx]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, check=False)
        lines.append("# " + " ".join(command).replace(ROOT + os.sep, ""))
        lines.append(done.stdout.rstrip("\n"))
        if done.returncode != 0:
            lines.append(f"# exit status {done.returncode}")
            problem = f"ptxas failed on {os.path.basename(ptx)}"
    with open(path, "w", encoding="utf-8") as stream:
        stream.write("\n".join(lines) + "\n")
    return problem


class Experiment:
    def __init__(self, args, ptxas, total):
        self.args, self.ptxas, self.total = args, ptxas, total
        self.lock = threading.Lock()
        self.finished = 0
        self.failures = []

    def budget(self, run, workload):
        """The --max-registers value of a run; None when B75/B50 has no minimal count."""
        if run not in rs.BUDGET_PERCENT:
            return run
        document = rs.load_json(os.path.join(self.args.out, "minimal", f"{workload}.json"))
        minimal = rs.Run(document).registers() if document else None
        return rs.budget_for(minimal, rs.BUDGET_PERCENT[run])

    def run_one(self, run, workload):
        """Runs one workload at one budget (and ptxas beside it); returns whether it passed."""
        json_path = os.path.join(self.args.out, run, f"{workload}.json")
        log_path = json_path[:-5] + ".log"
        start = time.monotonic()
        budget, notes, reason = self.budget(run, workload), [], ""
        if budget is None:
            reason = "no minimal register count (the minimal run has none)"
        while budget is not None:
            if os.path.exists(json_path):
                os.remove(json_path)  # a stale file must not pass for this run's statistics
            command = [self.args.warpsim, "run", workload, "--config", "gtx480", "--size",
                       self.args.size, "--max-registers", str(budget), "--profile-values", "-q",
                       "--stats", json_path]
            with open(log_path, "w", encoding="utf-8") as log:
                status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                                        check=False).returncode
            with open(log_path, encoding="utf-8", errors="replace") as log:
                output = log.read()
            feasible = rs.feasible_minimum(output) if status != 0 else None
            if run in rs.BUDGET_PERCENT and feasible and feasible > budget:
                notes.append(f"budget {budget} infeasible, rerun at {feasible}")
                budget = feasible
                continue
            if status == 3:
                reason = "did not verify"
            elif status != 0:
                reason = f"exit status {status}"
            elif not os.path.exists(json_path) or os.path.getsize(json_path) == 0:
                reason = "no statistics written"
            if reason:
                first = output.strip().splitlines()[0][:200] if output.strip() else ""
                reason += (f": {first}" if first else "") + \
                    f"\n    command: {' '.join(command)}\n    log: {log_path}"
            elif not output.strip():
                os.remove(log_path)
            break
        if not reason and self.ptxas and run in rs.PTXAS_RUNS:
            limit = budget if run in rs.BUDGET_PERCENT else None
            problem = run_ptxas(self.ptxas, workload, limit,
                                os.path.join(self.args.out, "ptxas", run, f"{workload}.txt"))
            notes += [problem] if problem else []
        self.report(run, workload, budget, reason, notes, time.monotonic() - start)
        return not reason

    def report(self, run, workload, budget, reason, notes, seconds):
        with self.lock:
            self.finished += 1
            shown = "" if budget in (None, run) else f" at {budget}"
            note = f"  ({'; '.join(notes)})" if notes else ""
            print(f"[{self.finished:3d}/{self.total}] {run + shown:<12} {workload:<15} "
                  f"{'FAIL' if reason else 'PASS'} {seconds:6.1f} s{note}", flush=True)
            if reason:
                self.failures.append(f"{run} {workload}: {reason}")

    def run_all(self, workloads):
        """off and minimal of every workload; B75 and B50 of one as soon as its minimal is done,
        ahead of what is queued. Stops starting runs after the first failure."""
        pending = collections.deque((run, w) for w in workloads for run in ("off", "minimal"))
        with futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            running = {}
            while pending or running:
                while pending and len(running) < self.args.jobs and not self.failures:
                    job = pending.popleft()
                    running[pool.submit(self.run_one, *job)] = job
                if not running:
                    break
                done, _ = futures.wait(running, return_when=futures.FIRST_COMPLETED)
                for future in done:
                    run, workload = running.pop(future)
                    if future.result() and run == "minimal":
                        pending.extendleft([("b50", workload), ("b75", workload)])


def list_workloads(warpsim):
    """The names `warpsim list` prints: a count line, a header starting with "name", one a line."""
    listing = subprocess.run([warpsim, "list"], stdout=subprocess.PIPE, text=True, check=True)
    names, header = [], False
    for line in listing.stdout.splitlines():
        words = line.split()
        if header and words:
            names.append(words[0])
        header = header or (words[:1] == ["name"])
    return names


def commit():
    def git(*words):
        return subprocess.run(["git", "-C", ROOT, *words], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=False).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return head + (" (with uncommitted changes)" if dirty else "")


def ptxas_version(ptxas):
    if not ptxas:
        return "not found"
    done = subprocess.run([ptxas, "--version"], stdout=subprocess.PIPE, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    named = [line for line in lines if "release" in line] or lines[-1:] or ["version unknown"]
    return f"{ptxas}, {named[0]}"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="run.sh", description=__doc__.split("\n\n")[1].replace("\n", " "),
        epilog="Default paths are relative to the repository root, paths given as options to "
               "the current directory. " + __doc__.split("\n\n")[2].replace("\n", " "))
    here = os.getcwd()

    def path(text):
        return os.path.join(here, text)
    parser.add_argument("--warpsim", type=path,
                        default=os.path.join(ROOT, "build", "apps", "warpsim", "warpsim"),
                        help="simulator (default build/apps/warpsim/warpsim)")
    parser.add_argument("--ptxas", type=lambda t: t if t == "none" else path(t),
                        help="ptxas (default: as warpsim finds it); none, or none found: the "
                        "ptxas columns read n/a")
    parser.add_argument("--size", default="small", help="workload size (default small)")
    parser.add_argument("--jobs", type=int, default=2, help="runs in parallel (default 2)")
    parser.add_argument("--out", type=path,
                        default=os.path.join(ROOT, "build", "experiments", "register-allocation"),
                        help="statistics folder (default build/experiments/register-allocation)")
    parser.add_argument("--workloads", help="only these workloads, a,b (default: `warpsim list`)")
    parser.add_argument("--docs", type=path, default=os.path.join(ROOT, "docs", "results"),
                        help="where register-allocation.md goes (default docs/results)")
    parser.add_argument("--no-run", action="store_true",
                        help="run nothing: rebuild the page from the statistics in --out")
    parser.add_argument("--command", default="src/compiler/experiment/run.sh",
                        help=argparse.SUPPRESS)  # the command line run.sh was given, for the page
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: expected a positive whole number")
    if not args.size:
        parser.error("--size: empty")
    return args


def main(argv):
    args = parse_arguments(argv)
    page_options = ["--out", args.out, "--docs", args.docs, "--command", args.command]
    page_options += ["--workloads", args.workloads] if args.workloads else []
    if args.no_run:
        return regalloc_page.main(page_options)
    if not (os.path.isfile(args.warpsim) and os.access(args.warpsim, os.X_OK)):
        print(f"run.sh: no simulator at {args.warpsim} (build it: cmake --build build --target "
              "warpsim; or --warpsim PATH)", file=sys.stderr)
        return 1
    try:
        known = list_workloads(args.warpsim)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"run.sh: '{args.warpsim} list' failed ({error})", file=sys.stderr)
        return 1
    workloads = args.workloads.split(",") if args.workloads else known
    for w in workloads:
        if w not in known:
            print(f"run.sh: --workloads: unknown workload '{w}' (see {args.warpsim} list)",
                  file=sys.stderr)
            return 2
    ptxas = find_ptxas(args.ptxas)
    for run in rs.RUNS:
        os.makedirs(os.path.join(args.out, run), exist_ok=True)
    for run in rs.PTXAS_RUNS:
        folder = os.path.join(args.out, "ptxas", run)
        os.makedirs(folder, exist_ok=True)
        for w in workloads:  # a report from an earlier run must not pass for this one's
            if os.path.exists(os.path.join(folder, f"{w}.txt")):
                os.remove(os.path.join(folder, f"{w}.txt"))
    with open(os.path.join(args.out, "workloads.txt"), "w", encoding="utf-8") as stream:
        stream.write("".join(f"{w}\n" for w in workloads))

    total = len(rs.RUNS) * len(workloads)
    plural = "s" if len(workloads) != 1 else ""
    print(f"run.sh: {total} runs ({len(workloads)} workload{plural} x {', '.join(rs.RUNS)}), size "
          f"{args.size}, {args.jobs} in parallel, statistics in {args.out}; ptxas: "
          f"{ptxas or 'not found, its columns will read n/a'}", flush=True)
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    start = time.monotonic()
    experiment = Experiment(args, ptxas, total)
    experiment.run_all(workloads)
    elapsed = round(time.monotonic() - start)
    if experiment.failures:
        print(f"run.sh: stopped after {elapsed} s; these runs failed (the runs not yet started "
              "were skipped):", file=sys.stderr)
        for failure in experiment.failures:
            print("  " + failure, file=sys.stderr)
        return 3
    print(f"run.sh: all {total} runs passed in {elapsed} s")
    info = {"command": args.command, "started": started, "seconds": elapsed,
            "commit": commit(), "size": args.size, "jobs": args.jobs,
            "ptxas": ptxas_version(ptxas)}
    with open(os.path.join(args.out, "run-info.txt"), "w", encoding="utf-8") as stream:
        stream.write("".join(f"{key}={value}\n" for key, value in info.items()))
    return regalloc_page.main(page_options)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
