#!/usr/bin/env python3
"""Kernel sampling's accuracy and speed: every workload of the suite with at least
--min-launches launches, fully timed and with `sampling.launches=K`, on one configuration.
Prints a Markdown table (docs/performance.md, "Kernel sampling"): launches, how many were
estimated, total cycles both ways and the error, simulation seconds both ways and the speed-up.

    bench/kernel_sampling.py [--warpsim build/apps/warpsim/warpsim] [--config gtx480]
                             [--size small] [--launches 3] [--tolerance 0.05] [--check-every 4]
                             [--min-launches 8] [--workloads a,b,...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^(PASS|FAIL) (\S+)\s+\S+\s+\d+\s+(\d+) kernels")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 3):
        sys.exit(f"kernel_sampling: {' '.join(cmd)} failed ({r.returncode}):\n{r.stderr}")
    return r


def many_launches(args):
    """(workload, launches) of every workload with at least --min-launches launches."""
    out = run([args.warpsim, "run", "--all", "--size", args.size, "--mode", "functional",
               "--config", args.config, "--jobs", str(args.jobs)]).stdout
    found = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m and int(m.group(3)) >= args.min_launches:
            found.append((m.group(2), int(m.group(3))))
    return found


def timed(args, workload, sets):
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        cmd = [args.warpsim, "run", workload, "--size", args.size, "--config", args.config,
               "--stats", stats, "-q"]
        for s in sets:
            cmd += ["--set", s]
        r = run(cmd)
        with open(stats) as f:
            d = json.load(f)
    if not d["verified"]:
        sys.exit(f"kernel_sampling: {workload} did not verify: {r.stdout}{r.stderr}")
    estimates = d["totals"].get("cycle_estimates", {})
    return {"cycles": d["totals"]["cycles"], "seconds": d["host"]["simulation_seconds"],
            "estimated": estimates.get("launches", 0), "spread": estimates.get("spread_cycles", 0)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--warpsim", default=os.path.join(ROOT, "build/apps/warpsim/warpsim"))
    p.add_argument("--config", default="gtx480")
    p.add_argument("--size", default="small")
    p.add_argument("--launches", type=int, default=3)
    p.add_argument("--tolerance", type=float, default=0.05)
    p.add_argument("--check-every", type=int, default=4)
    p.add_argument("--min-launches", type=int, default=8)
    p.add_argument("--jobs", type=int, default=1, help="processes for the selecting pass")
    p.add_argument("--workloads", default="", help="comma-separated: only these (still of at least --min-launches)")
    args = p.parse_args()

    sampling = [f"sampling.launches={args.launches}", f"sampling.ipc_tolerance={args.tolerance}",
                f"sampling.check_every={args.check_every}"]
    rows, full_cycles, sampled_cycles, full_s, sampled_s = [], 0, 0, 0.0, 0.0
    only = set(w for w in args.workloads.split(",") if w)
    for workload, launches in many_launches(args):
        if only and workload not in only:
            continue
        full = timed(args, workload, [])
        fast = timed(args, workload, sampling)
        error = fast["cycles"] / full["cycles"] - 1
        rows.append(f"| {workload} | {launches} | {fast['estimated']} | {full['cycles']:,} | "
                    f"{fast['cycles']:,} (+-{fast['spread']:,}) | {100 * error:+.1f}% | "
                    f"{full['seconds']:.2f} | {fast['seconds']:.2f} | "
                    f"{full['seconds'] / max(fast['seconds'], 1e-9):.1f}x |")
        full_cycles += full["cycles"]
        sampled_cycles += fast["cycles"]
        full_s += full["seconds"]
        sampled_s += fast["seconds"]
    print(f"`bench/kernel_sampling.py --config {args.config} --size {args.size} --launches "
          f"{args.launches} --tolerance {args.tolerance} --check-every {args.check_every}`: workloads of at least {args.min_launches} "
          f"launches, timed in full and sampled.\n")
    print("| workload | launches | estimated | cycles, all timed | cycles, sampled (spread) | error | "
          "simulation s, all timed | simulation s, sampled | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if rows:
        print(f"| all | | | {full_cycles:,} | {sampled_cycles:,} | "
              f"{100 * (sampled_cycles / full_cycles - 1):+.1f}% | {full_s:.2f} | {sampled_s:.2f} | "
              f"{full_s / max(sampled_s, 1e-9):.1f}x |")


if __name__ == "__main__":
    main()
