"""The CABA experiment's sweep (run.sh calls it): writes the `warpsim sweep` spec of every run the
results page (caba_page.py) needs, on fermi-caba:

  - the study's eight designs at the configuration's DRAM bandwidth: Base and the overlays
    hw-bdi-mem, hw-bdi, ideal-bdi, caba-bdi, caba-fpc, caba-cpack, caba-best;
  - the study's uncompressed-L2 option: CABA-BDI with lines compressed in DRAM only (variant
    caba-bdi-ul2, overlays caba-bdi and caba-uncompressed-l2);
  - the study's cache-compression designs: CABA-BDI with the L1 or the L2 holding lines
    compressed, with 2x or 4x the tags (variants caba-bdi-l1x2, -l1x4, -l2x2, -l2x4; overlays
    caba-bdi and caba-l1-2x, ...), and Direct-Load (caba-bdi-dl: caba-bdi and caba-direct-load);
  - the bandwidth study: Base, HW-BDI, Ideal-BDI and CABA-BDI with the DRAM clock at 0.5x and
    2x the configuration's (variants DESIGN-bw50, DESIGN-bw200; clocks.dram, read from the
    configuration's TOML files, so the spec follows the configuration);
  - every workload of the suite (the study's motivation covers its whole suite; the page shows
    the compressible cases in detail and the rest on average).

Sizes: "mixed" (the default) runs AT_DEFAULT at size default, where their data are larger than
the 768 KB L2 and the runs bandwidth-bound enough for compression to matter, and every other
workload at small; any other size runs every workload at that size. AT_DEFAULT holds the
study's applications whose data compress (at least 10% of the DRAM bursts saved at small) and
whose twenty-two runs at default are affordable. bfs at default (a 23% DRAM-utilised run, where
its small size is L2-resident) takes about five times as long as each of the others; sssp
(twice bfs, 11% of the bandwidth) and page-view-count (L2-resident at default too) stay at
small.

Usage: python3 spec.py SPEC_OUT [--size mixed|small|default|large|N] [--workloads a,b,...]
                                [--warpsim PATH]
--workloads: only these (default: every workload `warpsim list` shows, in its order).
"""

import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources it imports
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import caba_data as data  # noqa: E402
from spec_options import ROOT, add_warpsim_option, named_workloads, spec_parser  # noqa: E402
from spec_text import axes_lines, size_value, toml_list, variant_lines  # noqa: E402

CONFIG = "fermi-caba"
AT_DEFAULT = ["jpeg-decode", "laplace3d", "nw", "page-view-rank", "mst", "bfs"]
PERCENTS = [50, 200]
BANDWIDTH_DESIGNS = ["base", "hw-bdi", "ideal-bdi", "caba-bdi"]
DESCRIPTIONS = {
    "base": "the baseline: no compression",
    "hw-bdi-mem": "BDI by dedicated logic at the memory controllers, lines compressed in DRAM only",
    "hw-bdi": "BDI by dedicated logic, lines compressed in the L2, in DRAM and on the interconnect",
    "ideal-bdi": "as HW-BDI, without compression or decompression latency",
    "caba-bdi": "as HW-BDI, decompressed by assist warps (BDI routines) at the SM",
    "caba-fpc": "CABA with FPC routines",
    "caba-cpack": "CABA with C-Pack routines",
    "caba-best": "CABA, each line in whichever of BDI, FPC and C-Pack compresses it best",
}
UNCOMPRESSED_L2 = ("CABA-BDI with an uncompressed L2: DRAM fills cross compressed and are "
                   "decompressed by assist warps, L2 hits plain", ["caba-bdi", "caba-uncompressed-l2"], [])


def suite(warpsim):
    """The workloads `warpsim list` shows, in its order (the first word of each row of its table)."""
    out = subprocess.run([warpsim, "list"], check=True, capture_output=True, text=True).stdout
    names, in_table = [], False
    for line in out.splitlines():
        if line.startswith("name "):
            in_table = True
        elif in_table and line.strip():
            names.append(line.split()[0])
    if not names:
        raise SystemExit(f"spec.py: no workloads in the output of `{warpsim} list`")
    return names


def variants(dram_mhz):
    """{name: (description, overlays, sets)} in the sweep's order."""
    v = {d: (DESCRIPTIONS[d], [] if d == "base" else [d], []) for d in data.DESIGNS}
    v[data.UNCOMPRESSED_L2] = UNCOMPRESSED_L2
    for name, (level, factor) in data.CACHE_COMPRESSION.items():
        v[name] = (f"CABA-BDI with the {level} holding lines compressed in their size, {factor}x "
                   "the tags", ["caba-bdi", f"caba-{level.lower()}-{factor}x"], [])
    v[data.DIRECT_LOAD] = ("CABA-BDI with Direct-Load: the L1 keeps lines compressed, each load "
                           "adds the base to the deltas the coalescer extracts",
                           ["caba-bdi", "caba-direct-load"], [])
    for p in PERCENTS:
        for d in BANDWIDTH_DESIGNS:
            v[data.variant_name(d, p)] = (
                f"{DESCRIPTIONS[d]}; DRAM bandwidth {p / 100:g}x (clock {p}% of the configuration's)",
                [] if d == "base" else [d], [f"clocks.dram={round(dram_mhz * p / 100, 6)}"])
    return v


def spec_text(workloads, size, dram_mhz):
    v = variants(dram_mhz)
    at_default = [w for w in workloads if w in AT_DEFAULT]
    rest = [w for w in workloads if w not in AT_DEFAULT]
    if size == "mixed":
        sizes = (["default"] if at_default else []) + (["small"] if rest else [])
    else:
        sizes = [size_value(size)]
    lines = [
        "# Generated by src/mech/caba/experiment/spec.py: the CABA experiment.",
        f'name = "caba-{size}"',
        'description = "CABA: the study\'s compression designs and the DRAM bandwidth study on the suite"',
        "",
        *axes_lines(workloads, sizes, [CONFIG], list(v)),
    ]
    if len(sizes) == 2:  # mixed: one size per workload, AT_DEFAULT at default, the rest at small
        lines += ["[[exclude]]", f"workload = {toml_list(rest)}", 'size = "default"', "",
                  "[[exclude]]", f"workload = {toml_list(at_default)}", 'size = "small"', ""]
    for name, (description, overlays, sets) in v.items():
        lines += variant_lines(name, description, overlays, sets)
        lines.append("")
    lines += ["[columns]", 'cycles = "totals.cycles"', 'ipc = "totals.timing.ipc"',
              'dram_utilisation = "totals.timing.dram_bandwidth_utilisation"',
              'energy_nj = "totals.timing.energy.total_nj"',
              'dram_bursts = "totals.timing.memory.compression.dram_reads.bursts"',
              'baseline_bursts = "totals.timing.memory.compression.dram_reads.baseline_bursts"', "",
              "# Against Base at the configuration's bandwidth (the page compares each bandwidth",
              "# with Base at the same one).", "[derived.speedup]", 'ratio = "cycles"',
              'baseline = { variant = "base" }', ""]
    return "\n".join(lines)


def main(argv):
    parser = spec_parser(__doc__, size="mixed")
    add_warpsim_option(parser)
    args = parser.parse_args(argv[1:])
    dram = data.config_value(os.path.join(ROOT, "configs"), CONFIG, "clocks.dram")
    if not isinstance(dram, (int, float)):
        raise SystemExit(f"spec.py: no clocks.dram in configs/{CONFIG}.toml or its bases")
    workloads = named_workloads(args.workloads) or suite(args.warpsim)
    with open(args.out, "w") as f:
        f.write(spec_text(workloads, args.size, dram))


if __name__ == "__main__":
    main(sys.argv)
