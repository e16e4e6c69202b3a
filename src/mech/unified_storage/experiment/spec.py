"""The unified-storage experiment's sweep (run.sh calls it): writes the `warpsim sweep` spec of every
run the results page (unified_page.py) needs, all on fermi-unified with one SM (the study simulated
a single SM; digest s7.2):

  - applications (unified_data.APPS): the study's six, Needle as `nw` at its three blocking
    factors (`--threads-per-block 16/32/64`; the page takes the fastest that fits each design),
    DGEMM as `dgemm-tiled --threads-per-block 256`;
  - designs (s7.5, unified_data.DESIGNS): the fixed partitions, Fermi's limited splits and the
    unified pools, each an overlay on fermi-unified; every design allocates registers with the
    budget "minimal" (the fewest without spills, s7.4 step 1), as the unified overlays do;
  - the bank study (s7.3, s7.6; unified_data.MODS): unified-384 with registers and memory apart
    in the banks (`--set sm.storage_banks.shared_with_registers=false`), 256/64/64 and
    unified-384 with the register-file hierarchy in front (overlay orf-lrf after the design's),
    and the aggressive variant (overlay unified-aggressive on unified-384) only when
    configs/overlays/unified-aggressive.toml exists when this runs;
  - the sensitivity study (s7.2, unified_data.SENS_*): one unified pool, unbounded, at register
    budgets x threads per SM (Fig 7.1), Needle's blockings (Fig 7.2) and L1 sizes (Fig 7.3);
  - one SM's share of the chip (ONE_SM_SHARE): with `--sms 1` the simulated GPU is one SM of
    fermi-unified's 32 with the whole chip's static power and DRAM bandwidth. The study's
    single SM had its share of both (s1.3: 8 B/cycle/SM of DRAM; s2.3: core leakage falls with
    run time beside SRAM leakage per KB of the SM's own storage), so every run sets the static
    power to the chip's over its SMs and lengthens each DRAM burst by the same factor;
  - sizes: the sweep's size, except at small, where SIZE_AT gives each application a size whose
    launches fill one SM several times (at the suite's small size mummer and dgemm-tiled launch
    one wave) and whose time keeps the sweep near 20 minutes on two cores.

Usage: python3 spec.py SPEC_OUT [--size small|default|large|N] [--workloads a,b,...] [--quick]
                                [--warpsim PATH]
--quick: the baseline and unified-384 with the bank study only, for trying the pipeline.
"""

import json
import os
import subprocess
import sys
import tomllib

sys.dont_write_bytecode = True  # no __pycache__ beside the sources it imports
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import unified_data as data  # noqa: E402
from spec_options import ROOT, add_warpsim_option, spec_parser, study_workloads  # noqa: E402
from spec_text import axes_lines, exclude_lines, first_seen, size_value, toml_list  # noqa: E402

SMS = 1
# At small: per application, its size (elements as `warpsim list` gives them). Measured on the
# 2-core machine at these sizes, one point takes 1 to 2.6 s (run.sh's header).
SIZE_AT = {"small": {"nw": "1024", "mummer": "4096", "bfs": "65536", "dgemm-tiled": "256", "pcr": "512",
                     "hotspot": "256"}}
QUICK_DESIGNS = [data.BASELINE, data.UNIFIED]


def app_size(app, size):
    return SIZE_AT.get(str(size), {}).get(app, str(size))


def one_sm_share(config):
    """The `--set`s that give one SM its share of a resolved configuration (a dict of
    `warpsim config show`): static power over the SMs, each DRAM burst that many times longer."""
    sms = config["gpu"]["num_sms"]
    return [f"energy.static_watts={config['energy']['static_watts'] / sms!r}",
            f"dram.burst_cycles={config['dram']['burst_cycles'] * sms}"]


def resolved_config(warpsim):
    text = subprocess.run([warpsim, "config", "show", data.CONFIG], check=True, capture_output=True,
                          text=True).stdout
    return tomllib.loads(text)


def app_variants(app, designs, mods, quick=False):
    """The app's variants, in the page's order: designs, their modifications, then the sensitivity
    study (left out with quick)."""
    blockings = data.THREADS_PER_BLOCK.get(app, [None])
    out = [data.Variant(design=d, tpb=t) for d in designs for t in blockings]
    for mod in mods:
        on = data.ORF_LRF_DESIGNS if mod == "orflrf" else [data.MODS[mod][0]]
        out += [data.Variant(design=d, mod=mod, tpb=t) for d in on if d in designs for t in blockings]
    if quick:
        return out
    if app in data.SENS_APPS:
        t = blockings[0]
        for budget in ["minimal"] + data.SENS_BUDGETS[app]:
            out += [data.Variant(budget=budget, threads=n, l1_kb=data.SENS_CACHE_KB, tpb=t) for n in data.SENS_THREADS]
        for n in data.CACHE_THREADS.get(app, [data.FULL_THREADS]):
            out += [data.Variant(budget="minimal", threads=n, l1_kb=k, tpb=t) for k in data.SENS_L1_KB]
    if app == data.NEEDLE:
        out += [data.Variant(budget="minimal", threads=data.FULL_THREADS, l1_kb=data.SENS_CACHE_KB, tpb=t)
                for t in blockings]
    unique = []
    for v in out:
        if v not in unique:
            unique.append(v)
    return unique


def variant_lines(v, share):
    """The [variants.NAME] table of one variant."""
    sets = [f'{data.BUDGET_KEY}="{v.budget or "minimal"}"']
    if v.sensitivity:
        overlays = [data.UNIFIED]
        sets += [f"resources.unified.pool_bytes={data.SENS_POOL_BYTES}",
                 f"resources.unified.min_l1_bytes={v.l1_kb * 1024}",
                 f"resources.unified.max_l1_bytes={v.l1_kb * 1024}",
                 f"resources.unified.max_threads={v.threads}"]
        words = (f"sensitivity: one unbounded unified pool, registers {v.budget}, at most {v.threads} threads "
                 f"per SM, a {v.l1_kb} KB L1")
    else:
        overlays = [v.design]
        words = f"{v.design}: {data.design_words(v.design)}"
        if v.mod == "orflrf":
            overlays.append("orf-lrf")
        elif v.mod == "aggr":
            overlays.append(data.AGGRESSIVE_OVERLAY)
        elif v.mod == "noarb":
            sets.append(f"{data.ARBITRATION_KEY}=false")
        if v.mod:
            words += "; " + data.MODS[v.mod][1]
    options = ["--sms", str(SMS)] + ([] if v.tpb is None else ["--threads-per-block", str(v.tpb)])
    if v.tpb is not None:
        words += f"; {v.tpb} threads per block"
    return [f"[variants.{v.name}]", f"description = {json.dumps(words)}", f"overlays = {toml_list(overlays)}",
            f"sets = {toml_list(sets + share)}", f"options = {toml_list(options)}", ""]


def spec_text(workloads, size, designs, mods, share, quick=False):
    per_app = {w: app_variants(w, designs, mods, quick) for w in workloads}
    variants = first_seen(v for w in workloads for v in per_app[w])
    sizes = first_seen(app_size(w, size) for w in workloads)
    name = f"unified-storage-{size}" + ("-quick" if quick else "")
    lines = [
        "# Generated by src/mech/unified_storage/experiment/spec.py: the unified-storage experiment.",
        f'name = "{name}"',
        'description = "Unified storage: designs x applications, the bank study and the sensitivity study"',
        "",
        *axes_lines(workloads, [size_value(z) for z in sizes], [data.CONFIG], [v.name for v in variants]),
    ]
    for w in workloads:
        lines += exclude_lines(w, "size", [size_value(z) for z in sizes if z != app_size(w, size)])
        lines += exclude_lines(w, "variant", [v.name for v in variants if v not in per_app[w]])
    for v in variants:
        lines += variant_lines(v, share)
    lines += ["[columns]", 'cycles = "totals.cycles"', 'dram_read_bursts = "totals.timing.memory.dram.read_bursts"',
              'dram_write_bursts = "totals.timing.memory.dram.write_bursts"',
              'energy_nj = "totals.timing.energy.total_nj"', ""]
    return "\n".join(lines)


def mods_available(overlays_dir):
    """The bank study's modifications; the aggressive variant only with its overlay."""
    return [m for m in data.MODS
            if m != "aggr" or os.path.isfile(os.path.join(overlays_dir, f"{data.AGGRESSIVE_OVERLAY}.toml"))]


def main(argv):
    parser = spec_parser(__doc__)
    parser.add_argument("--quick", action="store_true")
    add_warpsim_option(parser)
    args = parser.parse_args(argv[1:])
    workloads = study_workloads(args.workloads, data.APPS)
    designs = QUICK_DESIGNS if args.quick else data.DESIGNS
    mods = mods_available(os.path.join(ROOT, "configs", "overlays"))
    share = one_sm_share(resolved_config(args.warpsim))
    with open(args.out, "w") as f:
        f.write(spec_text(workloads, args.size, designs, mods, share, args.quick))


if __name__ == "__main__":
    main(sys.argv)
