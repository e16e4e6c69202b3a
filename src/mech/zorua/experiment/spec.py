"""The Zorua experiment's sweep (run.sh calls it): writes the `warpsim sweep` spec of every run the
results page (zorua_page.py) needs: each application of the study that the suite has, at many
resource specifications, under each design, on three GPU generations.

  - applications (APPS): the study's DCT, MST, NQU, BH and SSSP (digest A.9) as dct8x8, mst,
    nqueens, barnes-hut and sssp, the suite's workloads that accept resource specifications
    (`warpsim list --specs`). The study's barrier-heavy applications are DCT and NQU (phases end
    at their `__syncthreads()`, digest A.4); scan, the suite's other barrier-heavy program, takes
    no specification and is left out;
  - resource specifications: threads per block x shared bytes per block x a register budget.
    Threads: every value the workload accepts. Shared: a subset of its values (SHARED; all of
    them would give 240 specifications for nqueens). Registers: the allocator's "minimal" (the
    fewest registers without spills) and one or two budgets below each application's spill-free
    count, which spill (BUDGETS). The allocator only caps registers per thread, so a
    specification cannot ask for more registers than a kernel needs. 184 specifications, from
    24 (mst, sssp) to 64 (nqueens), 36.8 on average (the study: 8-65, 36 on average);
  - designs: `base` (static CTA allocation), `wlm` (overlay wlm: warp-level resource management,
    Xiang et al.; left out, and the page says so, when configs/overlays/wlm.toml is absent) and
    `zorua` (overlay zorua). Every design runs every budget through
    `--set compiler.registers="B"` (a string, as the overlays spell it, so that the overlays'
    "minimal" and a number do not clash in type; `--max-registers N` with an overlay that sets
    compiler.registers is refused);
  - GPU generations: gtx480 (Fermi), k40 (Kepler), gtx980 (Maxwell), each with one SM (SMS):
    the study's cliffs are the thread blocks one SM holds at once, and they show only when a
    kernel launches several times that many. At the sizes a sweep of 1,656 points can afford,
    a launch fills 15 SMs about once (mst 0.3-1.1 times, barnes-hut and sssp one to a few
    blocks); on one SM the same launches are 4 to 16 waves. The memory system stays the whole
    GPU's, so one SM sees more bandwidth per SM than with all of them busy;
  - sizes: the sweep's size for every application except those in SIZE_AT (barnes-hut at small
    has 128 bodies, one thread block per kernel: it runs at 1,024 bodies instead).

A variant is a design at a (threads, shared) pair: `base-t256-s9216`, `zorua-t64`; the register
budget is the axis `set:compiler.registers`. Each workload excludes the variants and budgets that
are not its own.

Usage: python3 spec.py SPEC_OUT [--size small|default|large|N] [--workloads a,b,...] [--quick]
                                [--warpsim PATH]
--quick: a handful of specifications per application (QUICK), for trying the pipeline.
"""

import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources it imports
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import zorua_data as data  # noqa: E402
from spec_options import ROOT, add_warpsim_option, spec_parser, study_workloads  # noqa: E402
from spec_text import axes_lines, exclude_lines, first_seen, size_value, toml_list  # noqa: E402

# Shared bytes per block of the workloads that take them (a subset of `warpsim list --specs`),
# chosen to span the occupancy each allows on a 48 KB Fermi SM: dct8x8 5, 2 and 1 CTAs; nqueens
# from none of the backtracking stack in shared memory at 512 threads to all of it at 32
# (workloads/README.md); barnes-hut 32 to 512 stack entries per warp.
SHARED = {
    "dct8x8": [9216, 16384, 32768],
    "nqueens": [2048, 6144, 16384, 49152],
    "barnes-hut": [2048, 8192, 32768],
}
# Register budgets below each application's spill-free register count (its largest kernel at
# "minimal", `warpsim run W --mode functional --max-registers minimal`: dct8x8 15, mst 28,
# nqueens 20, barnes-hut 38, sssp 26): each makes the allocator spill.
BUDGETS = {
    "dct8x8": ["12"],
    "mst": ["24", "20"],
    "nqueens": ["16"],
    "barnes-hut": ["32"],
    "sssp": ["24", "20"],
}
APPS = list(BUDGETS)
# SMs of every run (options --sms): see above.
SMS = 1
# An application's size in place of the sweep's: {application: {sweep size: its size}}.
SIZE_AT = {"barnes-hut": {"small": "1024"}}
# --quick: the smallest, a middle and the largest threads per block, the first and last shared
# value, and "minimal" only.
QUICK_THREADS = 3
DESIGN_TEXT = {
    "base": "baseline: static allocation per CTA of registers, shared memory and warp slots",
    "wlm": "WLM: warp-level allocation of registers and warp slots (Xiang et al.), overlay wlm",
    "zorua": "Zorua: registers, scratchpad and warp slots virtualised per warp and phase, overlay zorua",
}


def accepted_specs(warpsim):
    """{workload: (threads values, shared values)} from `warpsim list --specs`."""
    return parse_specs(subprocess.run([warpsim, "list", "--specs"], check=True, capture_output=True,
                                      text=True).stdout)


def parse_specs(text):
    """`warpsim list --specs` as {workload: ([threads per block], [shared bytes per block])}: a
    workload's name alone on a line, then its indented --threads-per-block and --shared-per-block
    lines (values separated by commas, or "none")."""
    specs, name = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" ") and ":" not in line:
            name = line.strip()
            specs[name] = ([], [])
        elif name and line.strip().startswith("--threads-per-block"):
            specs[name] = ([int(v) for v in line.split(None, 1)[1].split(",")], specs[name][1])
        elif name and line.strip().startswith("--shared-per-block"):
            values = line.split(None, 1)[1].strip()
            specs[name] = (specs[name][0], [] if values == "none" else [int(v) for v in values.split(",")])
    return specs


def app_specs(app, accepted, quick=False):
    """[(threads, shared or None, budget)] of one application, in the page's order."""
    threads, shared = accepted[app]
    shared_values = [s for s in SHARED.get(app, []) if s in shared] or [None]
    budgets = ["minimal"] + BUDGETS[app]
    if quick:
        middle = threads[len(threads) // 2]
        threads = sorted({threads[0], middle, threads[-1]})[:QUICK_THREADS]
        shared_values = sorted({shared_values[0], shared_values[-1]}, key=lambda s: s or 0)
        budgets = ["minimal"]
    return [(t, s, b) for b in budgets for s in shared_values for t in threads]


def app_size(app, size):
    """The size an application runs at when the sweep's is `size`."""
    return SIZE_AT.get(app, {}).get(str(size), str(size))


def spec_text(workloads, size, accepted, designs, quick=False, configs=None):
    configs = configs or list(data.GENERATIONS)
    per_app = {w: app_specs(w, accepted, quick) for w in workloads}
    sizes = first_seen(app_size(w, size) for w in workloads)
    pairs = first_seen((t, s) for w in workloads for t, s, _ in per_app[w])
    pairs.sort(key=lambda p: (p[0], p[1] or 0))
    variants = [data.variant_name(d, t, s) for d in designs for t, s in pairs]
    budgets = []
    for w in workloads:
        for _, _, b in per_app[w]:
            if b not in budgets:
                budgets.append(b)
    budgets.sort(key=data.budget_order)
    name = f"zorua-{size}" + ("-quick" if quick else "")
    lines = [
        "# Generated by src/mech/zorua/experiment/spec.py: the Zorua specification sweep.",
        f'name = "{name}"',
        'description = "Zorua: applications x resource specifications x designs x GPU generations"',
        "",
        *axes_lines(workloads, [size_value(z) for z in sizes], configs, variants),
        "[axes.set]",
        f'"{data.BUDGET_KEY}" = {toml_list(budgets)}',
        "",
    ]
    for w in workloads:
        lines += exclude_lines(w, "size", [size_value(z) for z in sizes if z != app_size(w, size)])
        own = {(t, s) for t, s, _ in per_app[w]}
        lines += exclude_lines(w, "variant", [v for v in variants if data.parse_variant(v)[1:] not in own])
        other_budgets = [b for b in budgets if b not in {b for _, _, b in per_app[w]}]
        if other_budgets:
            lines += ["[[exclude]]", f'workload = "{w}"',
                      f'set = {{ "{data.BUDGET_KEY}" = {toml_list(other_budgets)} }}', ""]
    for v in variants:
        design, t, s = data.parse_variant(v)
        options = ["--sms", str(SMS), "--threads-per-block", str(t)]
        options += [] if s is None else ["--shared-per-block", str(s)]
        spec_words = f"{t} threads per block" + ("" if s is None else f", {s} shared bytes per block")
        lines += [f"[variants.{v}]", f"description = {json.dumps(DESIGN_TEXT[design] + '; ' + spec_words)}"]
        if design != "base":
            lines.append(f"overlays = {toml_list([design])}")
        lines += [f"options = {toml_list(options)}", ""]
    lines += ["[columns]", 'cycles = "totals.cycles"', 'ipc = "totals.timing.ipc"',
              'energy_nj = "totals.timing.energy.total_nj"', ""]
    return "\n".join(lines)


def designs_available(overlays_dir):
    """The designs whose overlays exist (base needs none)."""
    return [d for d in data.DESIGNS
            if d == "base" or os.path.isfile(os.path.join(overlays_dir, f"{d}.toml"))]


def main(argv):
    parser = spec_parser(__doc__)
    parser.add_argument("--quick", action="store_true")
    add_warpsim_option(parser)
    args = parser.parse_args(argv[1:])
    accepted = accepted_specs(args.warpsim)
    workloads = study_workloads(args.workloads, APPS)
    for w in workloads:
        if w not in accepted:
            raise SystemExit(f"spec.py: {w} accepts no resource specification (`{args.warpsim} list --specs`)")
        missing = [s for s in SHARED.get(w, []) if s not in accepted[w][1]]
        if missing:
            raise SystemExit(f"spec.py: {w} does not accept --shared-per-block {missing[0]}")
    designs = designs_available(os.path.join(ROOT, "configs", "overlays"))
    with open(args.out, "w") as f:
        f.write(spec_text(workloads, args.size, accepted, designs, args.quick))


if __name__ == "__main__":
    main(sys.argv)
