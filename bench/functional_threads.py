#!/usr/bin/env python3
"""Parallel functional mode's speed: every workload of the suite in functional mode with
`--threads 1` and `--threads N`, the simulation seconds of each (host.simulation_seconds, the
median of --repeat runs), the speed-up per workload and over the suite, and a check that the
statistics are the same apart from the host's time. Prints a Markdown table (docs/performance.md,
"Parallel functional mode").

    bench/functional_threads.py [--warpsim build/apps/warpsim/warpsim] [--size default]
                                [--threads 2] [--repeat 3] [--workloads a,b,...]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^(PASS|FAIL) (\S+)\s")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"functional_threads: {' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    return r


def workloads(args):
    out = run([args.warpsim, "run", "--all", "--size", "small", "--mode", "functional"]).stdout
    return [m.group(2) for m in map(LINE.match, out.splitlines()) if m]


def without_host_time(stats):
    stats = dict(stats)
    stats.pop("host", None)
    for k in stats.get("kernels", []):
        k.pop("wall_seconds", None)
        k.pop("thread_instructions_per_second", None)
    return stats


def measure(args, workload, threads):
    """(median simulation seconds, statistics without host time) of --repeat runs."""
    seconds, stats = [], None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stats.json")
        for _ in range(args.repeat):
            run([args.warpsim, "run", workload, "--size", args.size, "--mode", "functional",
                 "--threads", str(threads), "--stats", path, "-q"])
            with open(path) as f:
                d = json.load(f)
            if not d["verified"]:
                sys.exit(f"functional_threads: {workload} did not verify with {threads} threads")
            seconds.append(d["host"]["simulation_seconds"])
            stats = without_host_time(d)
    return statistics.median(seconds), stats


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--warpsim", default=os.path.join(ROOT, "build/apps/warpsim/warpsim"))
    p.add_argument("--size", default="default")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--workloads", default="")
    args = p.parse_args()
    names = args.workloads.split(",") if args.workloads else workloads(args)

    print(f"| workload | 1 thread (s) | {args.threads} threads (s) | speed-up |")
    print("|---|---:|---:|---:|")
    total1 = totaln = 0.0
    for name in names:
        s1, stats1 = measure(args, name, 1)
        sn, statsn = measure(args, name, args.threads)
        if stats1 != statsn:
            sys.exit(f"functional_threads: {name}: statistics differ between 1 and {args.threads} threads")
        total1 += s1
        totaln += sn
        print(f"| {name} | {s1:.3f} | {sn:.3f} | {s1 / sn:.2f}x |", flush=True)
    print(f"| **suite** ({len(names)} workloads) | {total1:.2f} | {totaln:.2f} | {total1 / totaln:.2f}x |")


if __name__ == "__main__":
    main()
