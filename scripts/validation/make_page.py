#!/usr/bin/env python3
"""Writes docs/validation.md from runs: `warpsim calibrate --markdown` for every calibrated GPU
and the end-to-end kernels on v100 at the measured card's clock, beside the published figures.

    scripts/validation/make_page.py [--warpsim build/apps/warpsim/warpsim] [--out docs/validation.md]

Every simulated number on the page comes from the runs this script makes; the published figures
come from configs/calibration/*.toml and the table END_TO_END below (each with its source).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GPUS = [
    ("v100", "Tesla V100 (configs/v100.toml), against Jia et al.'s V100 PCIe at 1380 MHz"),
    ("a100", "A100 (configs/a100.toml), against Luo et al.'s and Abdelkhalik et al.'s A100 PCIe 40 GB"),
    ("h100", "H100 (configs/h100.toml), against Luo et al.'s H800 PCIe at 1755 MHz"),
]

# End-to-end kernels: (workload, size, published core cycles, what was measured). The
# published figures are measurements of the same textbook kernels on a Quadro GV100 at
# 1132 MHz, whole kernel (the issue of record cites them).
END_TO_END = [
    ("sgemv-naive", 4096, 3.3e6, "matrix-vector product, one thread per row, 4096 x 4096"),
    ("sgemm-naive", 512, 0.59e6, "dense GEMM, one thread per element, 512 x 512 x 512"),
]
END_TO_END_CLOCK = 1132


def run(cmd):
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode not in (0, 3):
        sys.exit(f"make_page: {' '.join(cmd)} failed ({r.returncode}):\n{r.stderr}")
    return r.stdout


def end_to_end(warpsim):
    rows = []
    clocks = [f"clocks.{c}={END_TO_END_CLOCK}" for c in ("core", "icnt", "l2")]
    for workload, size, published, what in END_TO_END:
        with tempfile.TemporaryDirectory() as tmp:
            stats = os.path.join(tmp, "stats.json")
            cmd = [warpsim, "run", workload, "--size", str(size), "--config", "v100", "--quiet",
                   "--stats", stats]
            for s in clocks:
                cmd += ["--set", s]
            run(cmd)
            with open(stats) as f:
                j = json.load(f)
        cycles = sum(k["cycles"] for k in j["kernels"])
        l1 = j["kernels"][0]["timing"]["l1d_hit_rate"]
        err = (cycles - published) / published
        rows.append(f"| `{workload} --size {size}` | {what} | {cycles / 1e6:.2f} M | "
                    f"{published / 1e6:.2f} M | {100 * err:+.0f}% | {'yes' if abs(err) <= 0.30 else 'no'} "
                    f"| {100 * l1:.1f}% |")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build/apps/warpsim/warpsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs/validation.md"))
    args = ap.parse_args()
    template = open(os.path.join(os.path.dirname(__file__), "template.md")).read()
    sections = []
    for gpu, title in GPUS:
        table = run([args.warpsim, "calibrate", gpu, "--markdown"])
        sections.append(f"### {title}\n\n{table}")
    page = template.replace("{{CALIBRATION}}", "\n".join(sections))
    page = page.replace("{{END_TO_END}}", "\n".join(
        ["| run | kernel | simulated | published | difference | within 30% | L1 hit rate |",
         "|---|---|---|---|---|---|---|"] + end_to_end(args.warpsim)))
    with open(args.out, "w") as f:
        f.write(page)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
