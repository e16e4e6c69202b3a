#!/usr/bin/env python3
"""Writes docs/validation.md from runs: `warpsim calibrate --markdown` for every calibrated GPU,
the end-to-end kernels on v100 at the measured card's clock, beside the published figures, and
micro_probe's strided streams (the address mapping check).

    scripts/validation/make_page.py [--warpsim build/apps/warpsim/warpsim]
        [--micro-probe build/workloads/micro/micro_probe] [--out docs/validation.md]

Every simulated number on the page comes from the runs this script makes; the published figures
come from configs/calibration/*.toml and the table END_TO_END below (each with its source).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap

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


def run_v100(warpsim, workload, size, sets=()):
    """Runs `workload` on v100 at the measured card's clock; returns its statistics JSON."""
    clocks = [f"clocks.{c}={END_TO_END_CLOCK}" for c in ("core", "icnt", "l2")]
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        cmd = [warpsim, "run", workload, "--size", str(size), "--config", "v100", "--quiet",
               "--stats", stats]
        for s in clocks + list(sets):
            cmd += ["--set", s]
        run(cmd)
        with open(stats) as f:
            return json.load(f)


def cycles_of(stats):
    return sum(k["cycles"] for k in stats["kernels"])


def config_values(warpsim, gpu):
    """{"section.key": "value"} of `warpsim config show GPU`."""
    values, section = {}, ""
    for line in run([warpsim, "config", "show", gpu]).splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif "=" in line:
            key, value = (x.strip() for x in line.split("=", 1))
            values[f"{section}.{key}"] = value.strip('"')
    return values


def end_to_end(warpsim):
    rows, runs = [], {}
    for workload, size, published, what in END_TO_END:
        j = run_v100(warpsim, workload, size)
        runs[workload] = j
        cycles = cycles_of(j)
        l1 = j["kernels"][0]["timing"]["l1d_hit_rate"]
        err = (cycles - published) / published
        rows.append(f"| `{workload} --size {size}` | {what} | {cycles / 1e6:.2f} M | "
                    f"{published / 1e6:.2f} M | {100 * err:+.0f}% | {'yes' if abs(err) <= 0.30 else 'no'} "
                    f"| {100 * l1:.1f}% |")
    return rows, runs


def sgemv_dram(warpsim, stats):
    """The sgemv-naive paragraph's figures: its DRAM activations, what they cost when each
    channel opens one row at a time (one activation per tRC), and the run with one bank per
    channel, which makes that so in the model."""
    workload, size, published, _ = END_TO_END[0]
    cfg = config_values(warpsim, "v100")
    channels = int(cfg["dram.channels"])
    banks = int(cfg["dram.banks"])
    t_rc = int(cfg["dram.t_rc"])
    dram_mhz = float(cfg["clocks.dram"])
    dram = stats["totals"]["timing"]["memory"]["dram"]
    activates = dram["activates"]
    row_hit_rate = stats["totals"]["timing"]["dram_row_buffer_hit_rate"]
    serialized = activates / channels * t_rc / dram_mhz * END_TO_END_CLOCK
    one_bank = cycles_of(run_v100(warpsim, workload, size, ["dram.banks=1"]))
    return textwrap.fill(
           f"The kernel's {activates / 1e6:.2f} M DRAM activations (row-buffer hit rate "
            f"{100 * row_hit_rate:.1f}%: every sector opens a row) spread over {channels} channels "
            f"and one tRC ({t_rc} DRAM cycles at {dram_mhz:.0f} MHz) each take "
            f"{serialized / 1e6:.2f} M core cycles at {END_TO_END_CLOCK} MHz when a channel opens one "
            f"row at a time, {100 * (serialized - published) / published:+.0f}% from the published "
            f"{published / 1e6:.2f} M; with `--set dram.banks=1` (one bank per channel, so that the "
            f"activations of a channel cannot overlap) the simulated kernel takes "
            f"{one_bank / 1e6:.2f} M cycles ({100 * (one_bank - published) / published:+.0f}%). "
            f"So the real card serves this kernel as if its rows 16 KB apart fell in one bank of a "
            f"channel, where `v100`'s hashed mapping spreads them over its {banks} banks and the L1 "
            f"port, not the DRAM, sets the pace.", width=99)


STRIDES = [128, 256, 512, 1024, 2048, 4096, 8192]


def stride_sweep(micro_probe):
    """Rows of the strided-stream table: per GPU, the DRAM bandwidth (B/cycle) of a stream of
    128-byte lines at each stride, with the DRAM's row buffers as configured and ideal (every
    access a row hit: what the mapping alone allows)."""
    if not os.path.exists(micro_probe):
        sys.exit(f"make_page: {micro_probe} not found (built with -DWARPSIM_BENCH=ON)")
    rows = []
    for gpu, _ in GPUS:
        figures = {}
        for label, sets in (("as configured", []), ("ideal row buffer", ["dram.ideal_row_buffer=true"])):
            out = run([micro_probe, gpu, "--only", "stride"] + sets)
            values = [float(line.split()[-2]) for line in out.splitlines() if line.startswith("stream ")]
            if len(values) != len(STRIDES):
                sys.exit(f"make_page: micro_probe {gpu} printed {len(values)} strides, expected {len(STRIDES)}")
            figures[label] = values
        for label, values in figures.items():
            dense = values[0]
            cells = " | ".join(f"{v:.0f}" for v in values)
            rows.append(f"| {gpu} | {label} | {cells} | {100 * min(values) / dense:.0f}% |")
    header = ["| GPU | DRAM rows | " + " | ".join(f"{s} B" if s < 1024 else f"{s // 1024} KB" for s in STRIDES)
              + " | lowest / dense |",
              "|---|---|" + "---|" * len(STRIDES) + "---|"]
    return "\n".join(header + rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build/apps/warpsim/warpsim"))
    ap.add_argument("--micro-probe", default=os.path.join(ROOT, "build/workloads/micro/micro_probe"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs/validation.md"))
    args = ap.parse_args()
    template = open(os.path.join(os.path.dirname(__file__), "template.md")).read()
    sections = []
    for gpu, title in GPUS:
        table = run([args.warpsim, "calibrate", gpu, "--markdown"])
        # Figures of 1000 and more in full (the table prints three significant digits).
        table = re.sub(r"\b(\d\.\d+)e\+0([3-5])\b",
                       lambda m: f"{float(m.group(1)) * 10 ** int(m.group(2)):.0f}", table)
        sections.append(f"### {title}\n\n{table}")
    page = template.replace("{{CALIBRATION}}", "\n".join(sections))
    rows, runs = end_to_end(args.warpsim)
    page = page.replace("{{END_TO_END}}", "\n".join(
        ["| run | kernel | simulated | published | difference | within 30% | L1 hit rate |",
         "|---|---|---|---|---|---|---|"] + rows))
    page = page.replace("{{SGEMV_DRAM}}", sgemv_dram(args.warpsim, runs[END_TO_END[0][0]]))
    page = page.replace("{{STRIDE}}", stride_sweep(args.micro_probe))
    with open(args.out, "w") as f:
        f.write(page)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
