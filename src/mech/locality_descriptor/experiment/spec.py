"""The Locality Descriptor experiment's sweep (run.sh calls it): writes the `warpsim sweep` spec of
every run the results page (ldesc_page.py) needs, all on gtx480 with the overlay ldesc-chip (the
study's single-chip GPU, Table 3; digest s2.5) and `l1.count_footprint = true`:

  - the selection filter (s2.6) on every application: Baseline and a 4x L1 (`l1.size`);
  - the motivation study (s2.2) on every application: the 48 fixed cluster shapes
    (ldesc_data.SHAPES), each run once per distinct shape on the app's grids (GRID_DIMS);
  - the six single-chip configurations (s2.6) on the Fig. 20 set (ldesc_data.FIG20): Baseline,
    BCS, LDesc-Sched, LDesc-Pref, LDesc-Cache, LDesc (the overlays of those names after
    ldesc-chip);
  - the NUMA study (s2.2 case study 2, s2.6) on mcm-4gpm: its selection filter on every
    application (Baseline and 2x memory bandwidth, `dram.channels` doubled), and the four NUMA
    configurations (Baseline, FirstTouch-Distrib, LDesc-Placement, LDesc: no overlay, then the
    overlays numa-first-touch, ldesc-placement, ldesc-numa) on the applications its discussion
    names (ldesc_data.NUMA_SET);
  - sizes: the sweep's size, except at small, where SIZE_AT gives each application a size whose
    launches fill the 15 SMs (where the kernel allows it at a cost the sweep can bear: see
    SIZE_AT) and keeps the single-chip sweep near 10 minutes at --jobs 2 on two cores, and
    NUMA_SIZE_AT one for the 64 SMs of mcm-4gpm, the NUMA part near 10 minutes more.

Usage: python3 spec.py SPEC_OUT [--size small|default|large|N] [--workloads a,b,...] [--quick]
--quick: no motivation study (the filters and the configurations of both studies), for trying the
pipeline.
"""

import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources it imports

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import ldesc_data as data  # noqa: E402
from spec_options import spec_parser, study_workloads  # noqa: E402
from spec_text import axes_lines, first_seen, size_value, toml_list  # noqa: E402
from spec_text import variant_lines as variant_table  # noqa: E402

# At small: per application, its size (as `warpsim list` gives them), the CTAs of its largest
# launch in brackets, and the time of one Baseline point measured on the 2-core machine: syrk
# 192 (144 CTAs, 3.0 s), doitgen 64 (16 CTAs in each of 128 launches, 2.7 s; 80 takes 10 s),
# dwt2d 1024 (2,048, 3.7 s), conv2d 768 (2,304, 1.4 s), spmv 16384 (2,048, 2.7 s), libor 2048
# (32 CTAs of 64 threads, 4.9 s), lavamd 4 (64 boxes, 7.7 s), histogram 1048576 (64, 0.8 s), atax
# and mvt 672 (3 CTAs: a thread per row in CTAs of 256; filling the 15 SMs needs 3,840 rows, and
# 2048 rows already takes 58 s, so they stay small), transpose 384 (720, 0.6 s), scalar-prod 128
# (128, 0.4 s), laplace3d 80 (60, 2.3 s), pathfinder 16384 (74, 1.5 s), particlefilter 8192 (32,
# 3.4 s), streamcluster 8192 (26 CTAs in each of 308 launches, 2.7 s).
SIZE_AT = {"small": {"syrk": "192", "doitgen": "64", "dwt2d": "1024", "conv2d": "768", "spmv": "16384",
                     "libor": "2048", "lavamd": "4", "histogram": "1048576", "atax": "672", "mvt": "672",
                     "transpose": "384", "scalar-prod": "128", "laplace3d": "80", "pathfinder": "16384",
                     "particlefilter": "8192", "streamcluster": "8192"}}

# The NUMA study at small, on the 64 SMs of mcm-4gpm: per application its size, the CTAs of its
# largest launch and the time of its Baseline point in the sweep (2-core machine, --jobs 2):
# syrk 256 (256 CTAs, 20 s), libor 8192 (128, 24 s), lavamd 5 (125, 23 s), laplace3d 128 (128,
# 11 s), pathfinder 65536 (293, 10 s), spmv 32768 (4,096, 10 s), scalar-prod 512 (512, 2 s),
# histogram 1048576 (64 CTAs, its most at any size, 1 s), dwt2d, conv2d and transpose as SIZE_AT
# (filter only). doitgen 64 (16 CTAs in each of 128 launches, 9 s; 80 costs four times as
# much), atax and mvt 672 (3 CTAs; see SIZE_AT), particlefilter and streamcluster (filter only)
# stay small and leave most SMs idle. The 65 NUMA points take 649 s of run time, about 5.5
# minutes at --jobs 2.
NUMA_SIZE_AT = {"small": {"syrk": "256", "doitgen": "64", "dwt2d": "1024", "conv2d": "768", "spmv": "32768",
                          "libor": "8192", "lavamd": "5", "histogram": "1048576", "atax": "672", "mvt": "672",
                          "transpose": "384", "scalar-prod": "512", "laplace3d": "128", "pathfinder": "65536",
                          "particlefilter": "8192", "streamcluster": "8192"}}


def app_size(app, size):
    return SIZE_AT.get(str(size), {}).get(app, str(size))


def numa_size(app, size):
    return NUMA_SIZE_AT.get(str(size), {}).get(app, str(size))


def numa_variants(app):
    """The app's NUMA variants, in the page's order: the filter, then the four configurations
    (on the NUMA set)."""
    out = [data.NUMA_BASELINE, data.NUMA_FILTER]
    if app in data.NUMA_SET:
        out += [v for v, _, overlay in data.NUMA_CONFIGS if overlay]
    return out


def numa_variant_lines(variant):
    """The [variants.NAME] table of one NUMA variant (on mcm-4gpm)."""
    if variant == data.NUMA_BASELINE:
        return variant_table(variant, "NUMA Baseline: XOR-hashed zone placement, round-robin CTA scheduling",
                             [], []) + [""]
    if variant == data.NUMA_FILTER:
        return variant_table(variant, f"the NUMA selection filter: {data.BW_FACTOR}x memory bandwidth (twice "
                             "the channels, same DRAM timing)", [], [numa_filter_set()]) + [""]
    overlay = dict((v, o) for v, _, o in data.NUMA_CONFIGS)[variant]
    return variant_table(variant, f"NUMA {data.NUMA_NAMES[variant]}", [overlay], []) + [""]


def numa_filter_set():
    return f"dram.channels={data.CHANNELS * data.BW_FACTOR}"


def exclude_table(workload, config, axis, values):
    """An [[exclude]] table leaving the `values` of `axis` out for `workload` on `config`."""
    if not values:
        return []
    return ["[[exclude]]", f'workload = "{workload}"', f'config = "{config}"', f"{axis} = {toml_list(values)}", ""]


def app_variants(app, quick=False):
    """The app's variants, in the page's order: the filter, the configurations (Fig. 20 set),
    then the motivation study's shapes (left out with quick)."""
    out = [data.BASELINE, data.FILTER]
    if app in data.FIG20:
        out += [v for v, _, overlay in data.CONFIGS if overlay]
    if not quick:
        out += [data.shape_name(s) for s in data.app_shapes(app)]
    return out


def variant_lines(variant):
    """The [variants.NAME] table of one variant."""
    overlays, sets = [data.CHIP], [data.FOOTPRINT]
    shape = data.parse_shape(variant)
    if variant == data.BASELINE:
        words = "Baseline: round-robin CTA scheduling, LRU allocate-on-miss L1"
    elif variant == data.FILTER:
        sets.append(f"l1.size={data.L1_BYTES * data.FILTER_FACTOR}")
        words = f"the selection filter: a {data.FILTER_FACTOR}x L1"
    elif shape:
        sets += data.shape_sets(shape)
        words = "motivation: clusters of {} x {} x {} CTAs on one SM".format(*shape)
    else:
        overlays.append(variant)
        words = data.CONFIG_NAMES[variant]
    return [f"[variants.{variant}]", f"description = {json.dumps(words)}", f"overlays = {toml_list(overlays)}",
            f"sets = {toml_list(sets)}", ""]


def spec_text(workloads, size, quick=False):
    per_app = {w: app_variants(w, quick) for w in workloads}
    per_app_numa = {w: numa_variants(w) for w in workloads}
    chip_variants = first_seen(v for w in workloads for v in per_app[w])
    numa = first_seen(v for w in workloads for v in per_app_numa[w])
    variants = chip_variants + numa
    sizes = first_seen([app_size(w, size) for w in workloads] + [numa_size(w, size) for w in workloads])
    name = f"locality-descriptor-{size}" + ("-quick" if quick else "")
    lines = [
        "# Generated by src/mech/locality_descriptor/experiment/spec.py: the Locality Descriptor experiment.",
        f'name = "{name}"',
        'description = "Locality Descriptor: single chip (the selection filter, the motivation study, the six '
        'configurations) and NUMA (the filter, the four configurations on mcm-4gpm)"',
        "",
        *axes_lines(workloads, [size_value(z) for z in sizes], [data.CONFIG, data.NUMA_CONFIG], variants),
    ]
    for w in workloads:
        for config, own_size, own in ((data.CONFIG, app_size(w, size), per_app[w]),
                                      (data.NUMA_CONFIG, numa_size(w, size), per_app_numa[w])):
            lines += exclude_table(w, config, "size", [size_value(z) for z in sizes if z != own_size])
            lines += exclude_table(w, config, "variant", [v for v in variants if v not in own])
    for v in chip_variants:
        lines += variant_lines(v)
    for v in numa:
        lines += numa_variant_lines(v)
    lines += ["[columns]", 'cycles = "totals.cycles"', 'l1_accesses = "totals.timing.memory.l1d.accesses"',
              'l1_hits = "totals.timing.memory.l1d.hits"', 'l1_mshr_merges = "totals.timing.memory.l1d.mshr_merges"',
              'footprint_lines = "totals.timing.memory.l1d_footprint.lines"',
              'local_requests = "totals.timing.memory.numa.local_requests"',
              'remote_requests = "totals.timing.memory.numa.remote_requests"',
              'zone_requests = "totals.timing.memory.numa.zone_requests"', ""]
    return "\n".join(lines)


def main(argv):
    parser = spec_parser(__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv[1:])
    workloads = study_workloads(args.workloads, data.APP_NAMES)
    with open(args.out, "w") as f:
        f.write(spec_text(workloads, args.size, args.quick))


if __name__ == "__main__":
    main(sys.argv)
