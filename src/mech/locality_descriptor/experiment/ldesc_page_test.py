"""Tests of the Locality Descriptor experiment's spec (spec.py), metrics (ldesc_metrics.py,
ldesc_study.py), headline rules (ldesc_headlines.py) and page (ldesc_page.py, ldesc_numa_page.py),
on a hand-made sweep of both parts of the study whose numbers are worked out by hand. Run (ctest: locality_descriptor_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/locality_descriptor/experiment -p '*_test.py'
"""

import json
import os
import sys
import tempfile
import tomllib
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import ldesc_data as data  # noqa: E402
import ldesc_headlines as hl  # noqa: E402
import ldesc_metrics as m  # noqa: E402
import ldesc_page  # noqa: E402
import spec  # noqa: E402
import sweep_report  # noqa: E402
from ldesc_study import Study  # noqa: E402
from sweep_fixture import write_tables  # noqa: E402


def spec_points(parsed):
    """(workload, size, config, variant) of each point of a parsed spec that no [[exclude]]
    leaves out, in the sweep's order (sweep_fixture's, with the config axis this spec has)."""
    axes = parsed["axes"]
    out = []
    for w in axes["workload"]:
        for z in axes["size"]:
            for c in axes["config"]:
                for v in axes["variant"]:
                    point = {"workload": w, "size": z, "config": c, "variant": v}
                    if not any(all(point[k] in (x if isinstance(x, list) else [x]) for k, x in e.items())
                               for e in parsed.get("exclude", [])):
                        out.append((w, z, c, v))
    return out


class MetricsTest(unittest.TestCase):
    def test_numbers(self):
        self.assertAlmostEqual(m.speedup(1000, 800), 1.25)
        self.assertIsNone(m.speedup(None, 800))
        self.assertAlmostEqual(m.reduction(100, 40), 0.6)
        self.assertIsNone(m.reduction(0, 40))
        self.assertAlmostEqual(m.change(0.5, 0.54), 0.04)
        self.assertAlmostEqual(m.gain(1.25), 0.25)

    def test_filter_threshold_is_strict(self):
        self.assertTrue(m.in_cache_set(1000, 900, 0.10))    # +11.1%
        self.assertFalse(m.in_cache_set(1000, 910, 0.10))   # +9.9%
        self.assertFalse(m.in_cache_set(1100, 1000, 0.10))  # exactly +10%: not more than 10%
        self.assertIsNone(m.in_cache_set(None, 900, 0.10))

    def test_rules_at_their_edges(self):
        self.assertTrue(hl.change_met(0.2725, 0.545))
        self.assertFalse(hl.change_met(0.2724, 0.545))
        self.assertFalse(hl.change_met(-0.5, 0.545))
        self.assertIsNone(hl.change_met(None, 0.545))
        self.assertTrue(hl.small_met(0.066, 0.033))
        self.assertTrue(hl.small_met(-0.066, 0.033))
        self.assertFalse(hl.small_met(0.0661, 0.033))
        self.assertIsNone(hl.small_met(None, 0.033))


class DataTest(unittest.TestCase):
    def test_shapes(self):
        self.assertEqual(len(data.SHAPES), 48)
        self.assertEqual(data.SHAPES[:5], [(1, 1, 1), (2, 1, 1), (4, 1, 1), (8, 1, 1), (1, 2, 1)])
        self.assertEqual(data.parse_shape("fixed-2x4x1"), (2, 4, 1))
        self.assertIsNone(data.parse_shape("ldesc"))
        self.assertEqual(data.run_shape("syrk", (2, 4, 2)), (2, 4, 1))
        self.assertEqual(data.run_shape("libor", (2, 4, 2)), (2, 1, 1))
        self.assertEqual(len(data.app_shapes("syrk")), 16)
        self.assertEqual(data.app_shapes("libor"), [(1, 1, 1), (2, 1, 1), (4, 1, 1), (8, 1, 1)])


class SpecTest(unittest.TestCase):
    def test_full_sweep(self):
        # Single chip: filter 16 x 2; configurations 8 x 5; shapes 6 apps x 16 + 10 x 4: 208.
        # NUMA: filter 16 x 2; configurations 11 x 3: 65.
        parsed = tomllib.loads(spec.spec_text(data.APP_NAMES, "small"))
        points = spec_points(parsed)
        self.assertEqual(len(points), 273)
        chip = [(w, z, v) for w, z, c, v in points if c == data.CONFIG]
        numa = [(w, z, v) for w, z, c, v in points if c == data.NUMA_CONFIG]
        self.assertEqual(len(chip), 208)
        self.assertEqual(len(numa), 65)
        self.assertEqual({(w, z) for w, z, _ in chip}, {(w, int(spec.SIZE_AT["small"][w])) for w in data.APP_NAMES})
        self.assertEqual({(w, z) for w, z, _ in numa},
                         {(w, int(spec.NUMA_SIZE_AT["small"][w])) for w in data.APP_NAMES})
        counts = {}
        for w, _, _ in chip:
            counts[w] = counts.get(w, 0) + 1
        self.assertEqual(counts["syrk"], 23)
        self.assertEqual(counts["libor"], 11)
        self.assertEqual(counts["transpose"], 18)
        self.assertEqual(counts["atax"], 6)
        self.assertEqual(sorted(v for w, _, v in numa if w == "syrk"),
                         sorted(["numa-base", "numa-bw2x", "numa-first-touch", "ldesc-placement", "ldesc-numa"]))
        self.assertEqual(sorted(v for w, _, v in numa if w == "dwt2d"), ["numa-base", "numa-bw2x"])
        self.assertEqual(len(spec_points(tomllib.loads(spec.spec_text(data.APP_NAMES, "small", quick=True)))),
                         72 + 65)

    def test_a_number_size_is_every_application_s_in_both_studies(self):
        points = spec_points(tomllib.loads(spec.spec_text(["syrk", "dwt2d"], "100")))
        self.assertEqual({z for _, z, _, _ in points}, {100})
        self.assertEqual(len(points), 23 + 23 + 5 + 2)  # both in the Fig. 20 set

    def test_variants(self):
        v = tomllib.loads(spec.spec_text(["syrk"], "default"))["variants"]
        self.assertEqual(v["base"]["overlays"], ["ldesc-chip"])
        self.assertEqual(v["base"]["sets"], ["l1.count_footprint=true"])
        self.assertEqual(v["l1x4"]["sets"], ["l1.count_footprint=true", "l1.size=131072"])
        self.assertEqual(v["ldesc-pref"]["overlays"], ["ldesc-chip", "ldesc-pref"])
        self.assertEqual(v["fixed-2x4x1"]["sets"], ["l1.count_footprint=true", 'cta_scheduler.impl="clusters"',
                                                    'cta_scheduler.clusters="fixed"', "cta_scheduler.cluster_x=2",
                                                    "cta_scheduler.cluster_y=4", "cta_scheduler.cluster_z=1"])
        # The NUMA variants: no overlay for Baseline, 64 channels for the filter, one overlay each.
        self.assertNotIn("overlays", v["numa-base"])
        self.assertNotIn("sets", v["numa-base"])
        self.assertEqual(v["numa-bw2x"]["sets"], ["dram.channels=64"])
        self.assertNotIn("overlays", v["numa-bw2x"])
        self.assertEqual(v["numa-first-touch"]["overlays"], ["numa-first-touch"])
        self.assertEqual(v["ldesc-placement"]["overlays"], ["ldesc-placement"])
        self.assertEqual(v["ldesc-numa"]["overlays"], ["ldesc-numa"])


# The hand-made sweep. Every run: 1000 L1 accesses, 15 SMs. Baseline: 1000 cycles, 500 hits
# (50%), 100 MSHR merges (10%), 1500 footprint lines (working set 100 per SM).
# Filter (4x L1) cycles: syrk 800, doitgen 850, dwt2d 900, conv2d 910 (+9.9%: out), atax 800,
# others 1000: the cache set is SK, DT, D2D, ATX; 3 of the 8 Fig. 20 applications.
# Motivation (every other shape as Baseline): syrk 2x2x1 working set 40 (-60%), 950 cycles, 540
# hits (+4 pp), 300 merges (+20 pp), and 4x1x1 900 cycles (the fastest, +11.1%); doitgen 1x2x1 working
# set 70 (-30%), 200 merges (+10 pp); conv2d 8x8x1 working set 50 (-50%), 900 hits (+40 pp, an
# exception of L-M2). Sensitive: SK, DT, C2D (mean 46.7%); best speedups: SK +11.1%, the 15 others
# 0 (mean +0.69%); hit change without D2D and C2D: SK +4 pp over 14 (+0.29 pp); in-flight: 30 pp over
# 16 (+1.88 pp).
# Configurations (others as Baseline): LDesc cycles syrk 700 (+42.9%), doitgen 800, libor 800 (+25%),
# mean +11.6% over 8; syrk 1000 hits (+50 pp; mean +6.25 pp); 100 prefetches, 60 hits, 10 late, 20
# unused, 5 pinned evictions, 7 + 3 bypassed. LDesc-Cache lavamd 900 (beats LDesc's 1000 by 11.1%),
# libor 900, histogram 1020 (-1.96%). LDesc-Sched syrk working set 20 (-80%), 950 cycles (+5.26%),
# 600 merges (+50 pp). LDesc-Pref libor 1100, lavamd 1050, spmv 995 (+0.5%).
MOTIVATION = {("syrk", (2, 2, 1)): {"ws": 40, "cycles": 950, "hits": 540, "merges": 300},
              ("syrk", (4, 1, 1)): {"cycles": 900},
              ("doitgen", (1, 2, 1)): {"ws": 70, "merges": 200},
              ("conv2d", (8, 8, 1)): {"ws": 50, "hits": 900}}
FILTER = {"syrk": 800, "doitgen": 850, "dwt2d": 900, "conv2d": 910, "atax": 800}
CONFIG = {("syrk", "ldesc"): {"cycles": 700, "hits": 1000}, ("doitgen", "ldesc"): {"cycles": 800},
          ("libor", "ldesc"): {"cycles": 800}, ("lavamd", "ldesc-cache"): {"cycles": 900},
          ("libor", "ldesc-cache"): {"cycles": 900}, ("histogram", "ldesc-cache"): {"cycles": 1020},
          ("syrk", "ldesc-sched"): {"ws": 20, "cycles": 950, "merges": 600},
          ("libor", "ldesc-pref"): {"cycles": 1100}, ("lavamd", "ldesc-pref"): {"cycles": 1050},
          ("spmv", "ldesc-pref"): {"cycles": 995}}


# The NUMA study (mcm-4gpm, 64 SMs). Every run: 1000 requests, link bytes 100,000 requests +
# 200,000 replies. NUMA Baseline: 2000 cycles, 250 local (25%), zones 250 each.
# Filter (2x bandwidth) cycles: syrk 1400 (+42.9%: in), doitgen 1430 (+39.9%: out), spmv 1000
# (+100%), libor 1500, dwt2d 1000 (in, outside the named set); others 2000. Of the 11 named: 2.
# Configurations (others as the NUMA Baseline):
#   LDesc: syrk 1000 cycles, 900 local, zones 260/240/250/250; doitgen 1600; spmv 400 local.
#     Gains over Baseline: SK +100%, DT +25%: mean 1.25 / 11 = +11.4%; largest 2.00x (SK).
#     Over FirstTouch-Distrib: SK 1200 / 1000 (+20%), DT 2000 / 1600 (+25%): mean +4.1%, largest 1.25x (DT).
#     Efficiency: (0.9 + 0.4 + 9 x 0.25) / 11 = 32.3%; over Baseline (0.65 + 0.15) / 11 = +7.3 pp.
#     Largest share: (0.26 + 10 x 0.25) / 11 = 25.1%.
#   FirstTouch-Distrib: syrk 1200 cycles, 600 local, zones 700/100/100/100; scalar-prod 800 local;
#     atax zones 400/200/200/200, mvt 500/200/150/150.
#     Efficiency (0.6 + 0.8 + 9 x 0.25) / 11 = 33.2%; largest share (0.7 + 0.4 + 0.5 + 8 x 0.25) / 11 = 32.7%.
#   LDesc-Placement: syrk 1900 cycles, 350 local: efficiency 2.85 / 11 = 25.9%; gain 0.0526 / 11 = +0.5%.
NUMA_FILTER = {"syrk": 1400, "doitgen": 1430, "spmv": 1000, "libor": 1500, "dwt2d": 1000}
NUMA_CONFIG = {("syrk", "ldesc-numa"): {"cycles": 1000, "local": 900, "zones": [260, 240, 250, 250]},
               ("doitgen", "ldesc-numa"): {"cycles": 1600}, ("spmv", "ldesc-numa"): {"local": 400},
               ("syrk", "numa-first-touch"): {"cycles": 1200, "local": 600, "zones": [700, 100, 100, 100]},
               ("scalar-prod", "numa-first-touch"): {"local": 800},
               ("atax", "numa-first-touch"): {"zones": [400, 200, 200, 200]},
               ("mvt", "numa-first-touch"): {"zones": [500, 200, 150, 150]},
               ("syrk", "ldesc-placement"): {"cycles": 1900, "local": 350}}
PLACEMENT = {"ranges": [{"base": 0, "bytes": 262144, "bit": 12}, {"base": 262144, "bytes": 524288, "bit": 16}],
             "predicted_local_fraction": 0.75}


def numa_numbers(app, variant):
    n = {"cycles": 2000, "local": 250, "zones": [250, 250, 250, 250]}
    if variant == data.NUMA_FILTER:
        n["cycles"] = NUMA_FILTER.get(app, 2000)
    else:
        n.update(NUMA_CONFIG.get((app, variant), {}))
    return n


def numa_document(app, variant):
    n = numa_numbers(app, variant)
    numa = {"zone_requests": n["zones"], "local_requests": n["local"], "remote_requests": 1000 - n["local"],
            "link_request_bytes": 100000, "link_reply_bytes": 200000}
    kernel_numa = dict(numa)
    if variant in ("ldesc-numa", "ldesc-placement"):
        kernel_numa["placement"] = PLACEMENT
    kernel = {"name": "k", "grid": [4, 4, 1] if app in data.GRID_DIMS else [16, 1, 1], "cycles": n["cycles"],
              "timing": {"memory": {"numa": kernel_numa}}}
    return {"warpsim_version": "test", "config": {"name": "mcm-4gpm", "sms": 64}, "kernels": [kernel],
            "totals": {"cycles": n["cycles"], "timing": {"memory": {"l1d": {"accesses": 1000, "hits": 500},
                                                                    "numa": numa}}}}


def numbers(app, variant):
    n = {"ws": 100, "cycles": 1000, "hits": 500, "merges": 100}
    shape = data.parse_shape(variant)
    if shape:
        n.update(MOTIVATION.get((app, shape), {}))
    elif variant == data.FILTER:
        n["cycles"] = FILTER.get(app, 1000)
    else:
        n.update(CONFIG.get((app, variant), {}))
    return n


def document(app, variant, grid_of=None):
    n = numbers(app, variant)
    l1 = {"accesses": 1000, "hits": n["hits"], "mshr_merges": n["merges"]}
    kernel = {"name": "k", "grid": grid_of or ([4, 4, 1] if app in data.GRID_DIMS else [16, 1, 1]),
              "cycles": n["cycles"], "timing": {"memory": {}}}
    if variant == "ldesc-sched" and app in data.GRID_DIMS:
        kernel["timing"]["cta_scheduler"] = {"cluster_dims": [2, 1, 1], "clusters": 8, "clusters_stolen": 1,
                                             "ctas_stolen": 2}
    if variant == "ldesc":
        l1.update(prefetches=100, prefetch_hits=60, prefetch_late=10, prefetch_unused=20, pinned_evictions=5)
        kernel["timing"]["memory"]["l1d_policy"] = {"descriptors": [{"bypassed": 7, "hard_pins": 4},
                                                                    {"bypassed": 3, "soft_pins": 2}]}
    return {"warpsim_version": "test", "config": {"name": "gtx480", "sms": 15}, "kernels": [kernel],
            "totals": {"cycles": n["cycles"],
                       "timing": {"memory": {"l1d": l1, "l1d_footprint": {"lines": 15 * n["ws"], "sms": 15}}}}}


MCM = """[gpu]
num_sms = 64
modules = 4
[clocks]
core = 1400.0
dram = 750.0
[sm]
registers = 32768
shared_bytes = 49152
schedulers = 2
[sm.warp_scheduler]
impl = "gto"
[cta_scheduler]
impl = "round-robin"
[l1]
size = 32768
assoc = 4
[l2]
size = 4194304
assoc = 16
[dram]
channels = 32
banks = 16
scheduler = "fr-fcfs"
burst_cycles = 1
[module_link]
gbps = 96
[zone_placement]
impl = "xor"
page_bytes = 65536
"""


def write_sweep(folder, quick=False, broken=None, bad_grid=False, chip=True, numa=True, skip=()):
    """The hand-made sweep in folder/sweep; `broken` (workload, variant) fails, `bad_grid` gives
    libor's runs a 2-D grid, `chip` writes the resolved configurations beside the sweep (mcm-4gpm's
    with 96 GB/s links), `numa` False leaves the NUMA study's points out, `skip` names (workload,
    variant) points that are missing (listed but not run)."""
    sweep = os.path.join(folder, "sweep")
    os.makedirs(sweep)
    text = spec.spec_text(data.APP_NAMES, "small", quick)
    with open(os.path.join(sweep, "spec.toml"), "w") as f:
        f.write(text)
    if chip:
        with open(os.path.join(folder, "ldesc-chip.toml"), "w") as f:
            f.write('[gpu]\nnum_sms = 15\n[l1]\nsize = 16384\nassoc = 4\n')
        with open(os.path.join(folder, "mcm-4gpm.toml"), "w") as f:
            f.write(MCM)
    points, table = [], []
    for w, z, c, v in spec_points(tomllib.loads(text)):
        if c == data.NUMA_CONFIG and not numa:
            continue
        pid = f"{len(points):016x}"
        axes = {"workload": w, "size": z, "config": c, "variant": v}
        points.append({"id": pid, "axes": axes, "argv": ["run", w]})
        point_dir = os.path.join(sweep, "points", pid)
        os.makedirs(point_dir)
        if (w, v) == broken:
            with open(os.path.join(point_dir, "result.json"), "w") as f:
                json.dump({"id": pid, "status": "fail", "stderr_tail": ["warpsim: error: something"]}, f)
            table.append(dict({"id": pid}, **axes, status="fail"))
            continue
        if (w, v) in skip:
            table.append(dict({"id": pid}, **axes, status="missing"))
            continue
        table.append(dict({"id": pid}, **axes, status="pass"))
        with open(os.path.join(point_dir, "stats.json"), "w") as f:
            json.dump(numa_document(w, v) if c == data.NUMA_CONFIG else
                      document(w, v, [4, 2, 1] if bad_grid and w == "libor" else None), f)
    write_tables(sweep, points, table)
    return sweep_report.Report(sweep, os.path.join(folder, "docs", "locality-descriptor.md"), plots=False)


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.report = write_sweep(self.folder.name)
        self.s = Study(data.Sweep(self.report))

    def tearDown(self):
        self.folder.cleanup()

    def test_filter(self):
        self.assertEqual(self.s.cache_set(), ["syrk", "doitgen", "dwt2d", "atax"])
        self.assertAlmostEqual(self.s.filter_speedup("conv2d"), 1000 / 910)
        self.assertFalse(self.s.in_cache_set("conv2d"))

    def test_motivation(self):
        s = self.s
        self.assertEqual(s.smallest_ws("syrk")[0], (2, 2, 1))
        self.assertEqual(s.fastest("syrk")[0], (4, 1, 1))
        self.assertAlmostEqual(s.ws_reduction("syrk"), 0.6)
        self.assertAlmostEqual(s.best_speedup("syrk"), 1000 / 900)
        self.assertAlmostEqual(s.smallest_ws_speedup("syrk"), 1000 / 950)
        self.assertAlmostEqual(s.motivation_hit_change("syrk"), 0.04)
        self.assertAlmostEqual(s.motivation_inflight_change("syrk"), 0.20)
        self.assertEqual(s.smallest_ws("libor")[0], (1, 1, 1))  # a tie: the first shape
        self.assertFalse(s.sensitive("libor"))
        # A 1-D application's 48 strategies come from its 4 runs.
        self.assertEqual(len(s.shape_runs("libor")), 48)
        self.assertAlmostEqual(s.ws_by_shape("doitgen")[(1, 2, 4)], 0.7)

    def test_configurations(self):
        s = self.s
        self.assertAlmostEqual(s.speedup("syrk", "ldesc"), 1000 / 700)
        self.assertAlmostEqual(s.hit_change("syrk", "ldesc"), 0.5)
        self.assertAlmostEqual(s.ws_change("syrk", "ldesc-sched"), 0.8)
        self.assertAlmostEqual(s.inflight_change("syrk", "ldesc-sched"), 0.5)
        r = s.run("syrk", "ldesc")
        self.assertEqual((r.counter("prefetch_unused"), r.counter("pinned_evictions"), r.bypassed()), (20, 5, 10))
        self.assertEqual((r.policy_count("hard_pins"), r.policy_count("soft_pins")), (4, 2))
        self.assertIsNone(s.run("syrk", "base").bypassed())
        self.assertEqual(s.clusters("syrk"), [{"name": "k", "grid": (4, 4, 1), "launches": 1, "base_cycles": 1000,
                                               "cycles": 950, "speedup": 1000 / 950,
                                               "scheduler": {"cluster_dims": [2, 1, 1], "clusters": 8,
                                                             "clusters_stolen": 1, "ctas_stolen": 2}}])
        self.assertEqual(s.run("syrk", "base").counter("prefetches"), 0)

    def test_headlines(self):
        h = hl.Headlines(self.s).build()
        got = {(r.ref, r.result): (r.ours, r.verdict) for r in h.rows if r.group != "numa"}
        self.maxDiff = None
        self.assertEqual(got, {
            ("s2.6", "The Fig. 20 applications are cache-sensitive (a 4x L1 gives more than +10%)"):
                ("3 of 8", hl.NOT_MET),
            ("L-M1", "Working-set reduction of the smallest-working-set strategy, scheduling-sensitive applications "
                     "(mean)"): ("46.7%", hl.MET),
            ("L-M1", "Speedup of each application's best strategy, mean over all applications"): ("+0.7%", hl.MET),
            ("L-M2", "L1 hit-rate change of the smallest-working-set strategy (mean, D2D and C2D aside)"):
                ("+0.3 pp", hl.MET),
            ("L-M2", "L1 in-flight hit-rate change of the smallest-working-set strategy (mean)"):
                ("+1.9 pp", hl.NOT_MET),
            ("L-R1", "LDesc's speedup over Baseline (mean over the Fig. 20 set)"): ("+11.6%", hl.NOT_MET),
            ("L-R1", "LDesc's largest speedup over Baseline"): ("+42.9% (SK)", hl.MET),
            ("L-R1", "LDesc at least as fast as every single technique"): ("on 7 of 8", hl.NOT_MET),
            ("L-R2", "L1 hit-rate change, LDesc over Baseline (mean)"): ("+6.2 pp", hl.NOT_MET),
            ("L-R2", "Largest L1 hit-rate change, LDesc over Baseline"): ("+50.0 pp (SK)", hl.MET),
            ("L-R3", "LDesc-Sched's working-set reduction, INTER-THREAD applications (mean)"): ("16.0%", hl.NOT_MET),
            ("L-R3", "LDesc-Sched's speedup, INTER-THREAD applications (mean)"): ("+1.1%", hl.MET),
            ("L-R3", "LDesc-Sched's in-flight hit-rate change, INTER-THREAD applications (mean)"):
                ("+10.0 pp", hl.MET),
            ("L-R4", "LIB, LMD and SPMV gain nothing from CTA scheduling (LDesc-Sched)"):
                ("LIB +0.0%, LMD +0.0%, SPMV +0.0%", hl.MET),
            ("L-R4", "Prefetching hurts LIB, LMD and SPMV (LDesc-Pref)"):
                ("LIB -9.1%, LMD -4.8%, SPMV +0.5%", hl.NOT_MET),
            ("L-R4", "Cache management helps LIB and LMD (LDesc-Cache)"): ("LIB +11.1%, LMD +11.1%", hl.MET),
            ("L-R4", "Cache management can hurt D2D and HS (LDesc-Cache)"): ("D2D +0.0%, HS -2.0%", hl.MET),
            ("L-R4", "LDesc-Sched beats BCS (mean speedup over the Fig. 20 set)"): ("+0.7% against +0.0%", hl.MET),
            ("L-R4", "Prefetching and scheduling together are synergistic"): ("–", hl.NO_DATA),
        })
        rows = {r.result: r for r in h.rows}
        self.assertEqual(rows["LDesc at least as fast as every single technique"].reason,
                         "faster than LDesc by more than 1%: LMD (LDesc-Cache +11.1%)")
        self.assertEqual(rows["Prefetching hurts LIB, LMD and SPMV (LDesc-Pref)"].reason,
                         "LDesc-Pref over Baseline; not on SPMV +0.5%")
        self.assertTrue(rows["Working-set reduction of the smallest-working-set strategy, scheduling-sensitive "
                             "applications (mean)"].reason.startswith(
            "scheduling-sensitive (a strategy cuts the working set by 10% or more): SK 60.0%, DT 30.0%, C2D 50.0%"))
        self.assertEqual(rows["Cache management can hurt D2D and HS (LDesc-Cache)"].reason, "slower on HS")
        self.assertEqual([r.ref for r in h.not_met("observations")], ["L-R4"])


class NumaTest(unittest.TestCase):
    """The NUMA study on the hand-made sweep (numbers worked out above NUMA_FILTER), written once
    for the class (no test changes it)."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.report = write_sweep(cls.folder.name)
        cls.s = Study(data.Sweep(cls.report))

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_filter_and_sizes(self):
        s = self.s
        self.assertEqual(s.numa_set(), ["syrk", "dwt2d", "spmv"])
        self.assertAlmostEqual(s.bandwidth_speedup("doitgen"), 2000 / 1430)
        self.assertFalse(s.in_numa_set("doitgen"))
        self.assertEqual(s.numa_config_apps, [a for a in data.APP_NAMES if a in data.NUMA_SET])
        self.assertEqual(s.sweep.numa_sizes["syrk"], spec.NUMA_SIZE_AT["small"]["syrk"])
        self.assertEqual(s.sweep.sizes["syrk"], spec.SIZE_AT["small"]["syrk"])
        self.assertEqual(len(s.sweep.numa_runs()), 65)
        self.assertEqual(len(s.sweep.chip_runs()), 208)

    def test_metrics(self):
        s = self.s
        self.assertAlmostEqual(s.numa_speedup("syrk", "ldesc-numa"), 2.0)
        self.assertAlmostEqual(s.numa_speedup("syrk", "ldesc-numa", "numa-first-touch"), 1.2)
        self.assertAlmostEqual(s.efficiency("syrk", "ldesc-numa"), 0.9)
        self.assertAlmostEqual(s.efficiency("atax", "numa-base"), 0.25)
        self.assertEqual(s.shares("mvt", "numa-first-touch"), [0.5, 0.2, 0.15, 0.15])
        self.assertAlmostEqual(s.largest_share("syrk", "numa-first-touch"), 0.7)
        self.assertAlmostEqual(s.skew("syrk", "numa-first-touch"), 7.0)
        self.assertEqual(s.link_bytes("syrk", "numa-base"), 300000)
        self.assertEqual(s.run("syrk", "ldesc-numa").placement_ranges(), (PLACEMENT["ranges"], 0.75))
        self.assertEqual(s.run("syrk", "numa-base").placement_ranges(), (None, None))
        self.assertIsNone(s.efficiency("syrk", "base"))  # a single-chip run has no NUMA counters
        self.assertIsNone(m.skew([0.5, 0.5, 0.0, 0.0]))

    def test_counters_summed_over_launches_without_totals(self):
        doc = numa_document("syrk", "numa-first-touch")
        doc["kernels"].append(json.loads(json.dumps(doc["kernels"][0])))
        del doc["totals"]["timing"]["memory"]["numa"]
        r = data.Run(doc, "two launches")
        self.assertEqual((r.local_requests, r.remote_requests), (1200, 800))
        self.assertEqual(r.zone_requests, [1400, 200, 200, 200])
        self.assertEqual(r.link_bytes, 600000)
        self.assertAlmostEqual(r.access_efficiency(), 0.6)
        self.assertIsNone(data.Run({"kernels": [{"timing": {"memory": {}}}]}, "none").zone_shares())

    def test_headlines(self):
        h = hl.Headlines(self.s).build()
        got = {(r.ref, r.result): (r.ours, r.verdict) for r in h.rows if r.group == "numa"}
        self.maxDiff = None
        self.assertEqual(got, {
            ("s2.6", "The NUMA applications are memory-bandwidth-sensitive (2x memory bandwidth gives more than "
                     "+40%, on the 4-module GPU)"): ("2 of 11", hl.NOT_MET),
            ("L-N1", "LDesc's speedup over Baseline, 4-module GPU (mean)"): ("+11.4%", hl.NOT_MET),
            ("L-N1", "LDesc's largest speedup over Baseline, 4-module GPU"): ("2.00x (SK)", hl.MET),
            ("L-N1", "LDesc's speedup over FirstTouch-Distrib, 4-module GPU (mean)"): ("+4.1%", hl.NOT_MET),
            ("L-N1", "LDesc's largest speedup over FirstTouch-Distrib, 4-module GPU"): ("1.25x (DT)", hl.NOT_MET),
            ("L-N2", "Access efficiency, Baseline (mean)"): ("25.0%", hl.MET),
            ("L-N2", "Access efficiency, FirstTouch-Distrib (mean)"): ("33.2%", hl.MET),
            ("L-N2", "Access efficiency, LDesc-Placement (mean)"): ("25.9%", hl.MET),
            ("L-N2", "Access efficiency, LDesc (mean)"): ("32.3%", hl.NOT_MET),
            ("L-N2", "Access efficiency, LDesc over Baseline (mean)"): ("+7.3 pp", hl.NOT_MET),
            ("L-N2", "Access efficiency's order of the four configurations (means)"):
                ("FirstTouch-Distrib > LDesc > LDesc-Placement > Baseline", hl.NOT_MET),
            ("L-N2", "Baseline's requests spread evenly over the zones, largest zone's share (mean)"):
                ("25.0%", hl.MET),
            ("L-N2", "LDesc's requests close to even over the zones (Fig. 23), largest zone's share (mean)"):
                ("25.1%", hl.MET),
            ("L-N3", "FirstTouch-Distrib has the best access efficiency on SP and PT"): ("SP 80.0%, PT 25.0%", hl.MET),
            ("L-N3", "FirstTouch-Distrib's requests heavily skewed on ATX, MVT and LIB (largest zone's share)"):
                ("ATX 40.0%, MVT 50.0%, LIB 25.0%", hl.NOT_MET),
            ("L-N3", "FirstTouch-Distrib's access efficiency low on DT, HS, SK and SPMV"):
                ("DT 25.0%, HS 25.0%, SK 60.0%, SPMV 25.0%", hl.NOT_MET),
            ("L-N4", "LDesc less effective on SPMV, LPS, PT, LMD and HS (access efficiency)"):
                ("SPMV 40.0%, LPS 25.0%, PT 25.0%, LMD 25.0%, HS 25.0%", hl.NOT_MET),
            ("L-N5", "LDesc-Placement alone largely ineffective (mean speedup over Baseline)"): ("+0.5%", hl.MET),
            ("L-N5", "LDesc-Placement's requests less skewed than FirstTouch-Distrib's (largest zone's share, mean)"):
                ("25.0% against 32.7%", hl.MET),
        })
        rows = {r.result: r for r in h.rows}
        self.assertEqual(rows["FirstTouch-Distrib's requests heavily skewed on ATX, MVT and LIB (largest zone's "
                              "share)"].reason, "not on LIB 25.0%")
        self.assertEqual(rows["FirstTouch-Distrib's access efficiency low on DT, HS, SK and SPMV"].reason,
                         "FirstTouch-Distrib's mean is 33.2%; not on SK 60.0%")
        self.assertEqual(rows["LDesc-Placement alone largely ineffective (mean speedup over Baseline)"].reason,
                         "LDesc's is +11.4%; the rule asks at most +5.7%")
        self.assertEqual(rows["LDesc's largest speedup over FirstTouch-Distrib, 4-module GPU"].reason,
                         "the rule asks at least 1.65x")
        self.assertTrue(rows["Access efficiency, LDesc (mean)"].reason.endswith("the rule asks 38.0% to 100.0%"))
        self.assertEqual([r.ref for r in h.not_met("numa")][:2], ["s2.6", "L-N1"])

    def test_rules_at_their_edges(self):
        self.assertTrue(hl.level_met(0.11, 0.22))
        self.assertTrue(hl.level_met(0.44, 0.22))
        self.assertFalse(hl.level_met(0.1099, 0.22))
        self.assertFalse(hl.level_met(0.4401, 0.22))
        self.assertIsNone(hl.level_met(None, 0.22))
        self.assertFalse(m.in_bandwidth_set(1400, 1000, 0.40))   # exactly +40%: not more
        self.assertTrue(m.in_bandwidth_set(1401, 1000, 0.40))
        self.assertAlmostEqual(hl.EVEN_MAX_SHARE, 0.375)

    def test_missing_numa_points(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, skip={("syrk", "ldesc-numa"), ("syrk", "numa-first-touch"),
                                               ("doitgen", "numa-bw2x")})
            s = Study(data.Sweep(report))
            self.assertIsNone(s.numa_speedup("syrk", "ldesc-numa"))
            self.assertIsNone(s.in_numa_set("doitgen"))
            h = hl.Headlines(s).build()
            page = ldesc_page.render(report)
        got = {r.result: (r.ours, r.verdict) for r in h.rows if r.group == "numa"}
        # Without syrk's LDesc run the largest speedup is doitgen's; the filter counts 10
        # applications, of which SK and SPMV pass.
        self.assertEqual(got["LDesc's largest speedup over Baseline, 4-module GPU"], ("1.25x (DT)", hl.NOT_MET))
        self.assertEqual(got["The NUMA applications are memory-bandwidth-sensitive (2x memory bandwidth gives "
                             "more than +40%, on the 4-module GPU)"], ("2 of 10", hl.NOT_MET))
        self.assertIn("| SK (`syrk`) | 1.000 | – | 1.053 | – | – |", page)

    def test_without_the_numa_study(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, numa=False)
            h = hl.Headlines(Study(data.Sweep(report))).build()
            page = ldesc_page.render(report)
        self.assertEqual({r.verdict for r in h.rows if r.group == "numa"}, {hl.NO_DATA})
        self.assertIn("## The NUMA study\n\nNot run.", page)
        self.assertIn("The NUMA study's four configurations", page.split("## Not yet")[1])

    def test_page(self):
        page = ldesc_page.render(self.report)
        numa = page.split("## The NUMA study")[1].split("## Not yet")[0]
        self.assertIn("| SK (`syrk`) | 256 | 16 | 2,000 | 1,400 | 1.429 | yes | yes |", numa)
        self.assertIn("| D2D (`dwt2d`) | 1024 | 16 | 2,000 | 1,000 | 2.000 | yes | no |", numa)
        self.assertIn("| SK (`syrk`) | 1.000 | 1.667 | 1.053 | 2.000 | 1.200 |", numa)
        self.assertIn("| DT (`doitgen`) | 1.000 | 1.000 | 1.000 | 1.250 | 1.250 |", numa)
        self.assertIn("| SK (`syrk`) | 25.0% | 60.0% | 35.0% | 90.0% |", numa)
        self.assertIn("| **mean** | 25.0% | 33.2% | 25.9% | 32.3% |", numa)
        self.assertIn("| SK (`syrk`) | 25 / 25 / 25 / 25 | 70 / 10 / 10 / 10 | 25 / 25 / 25 / 25 | 26 / 24 / 25 / 25 |",
                      numa)
        self.assertIn("| SK (`syrk`) | 25.0% | 70.0% | 25.0% | 26.0% |", numa)
        self.assertIn("| SK (`syrk`) | 0.30 | 0.30 | 0.30 | 0.30 | bit 12 (256 KB), bit 16 (512 KB) | 75.0% |", numa)
        self.assertIn("| GPU modules (NUMA zones) | 4 | `gpu.modules` = 4 | same |", numa)
        self.assertIn("| inter-module bandwidth, GB/s | 192 | `module_link.gbps` = 96 | differs |", numa)
        self.assertIn("| DRAM bandwidth, GB/s (192 per module) | 768 | `dram.channels` x 32 B / `dram.burst_cycles` x "
                      "`clocks.dram` = 768.0 | same |", numa)
        self.assertIn("The filter's runs have 1536.0 GB/s.", numa)
        self.assertIn("The NUMA runs' statistics name 64 SMs.", numa)
        self.assertIn("| L-N1 | LDesc's largest speedup over Baseline, 4-module GPU | up to 2.80x | 2.00x (SK) | met |",
                      page)
        self.assertIn("The runs' statistics name 15 SMs.", page)  # the single-chip runs only
        self.assertIn("NUMA study: configuration mcm-4gpm, sizes: syrk 256,", page)
        discussion = page.split("## Discussion")[1]
        self.assertIn("study's bandwidth filter passes\nSK, D2D and SPMV", discussion)
        self.assertIn("of the others, the ones that pass:\nD2D.", discussion)
        self.assertIn("- *Access efficiency, LDesc (mean)*:", discussion)
        self.assertNotIn("{", discussion)

    def test_without_the_resolved_numa_configuration(self):
        with tempfile.TemporaryDirectory() as folder:
            page = ldesc_page.render(write_sweep(folder, chip=False))
        self.assertIn("is missing, so Table 3's NUMA column is not compared here", page)


class PageTest(unittest.TestCase):
    def test_page_builds(self):
        with tempfile.TemporaryDirectory() as folder:
            page = ldesc_page.render(write_sweep(folder))
        self.assertIn("| SK (`syrk`) | 192 | 16 | INTER (COACCESSED, REGULAR), NO-REUSE | 1,000 | 800 | 1.250 | yes | "
                      "yes |", page)
        self.assertIn("| C2D (`conv2d`) | 768 | 16 | INTER (NEARBY) | 1,000 | 910 | 1.099 | no | yes |", page)
        self.assertIn("| SK (`syrk`) | 16 | 100 | 2x2x1 | 60.0% | +5.3% | +4.0 pp | +20.0 pp | 4x1x1 | +11.1% | yes |",
                      page)
        self.assertIn("| LIB (`libor`) | 4 | 100 | 1x1x1 | 0.0% | +0.0% | +0.0 pp | +0.0 pp | 1x1x1 | +0.0% | no |",
                      page)
        self.assertIn("| SK (`syrk`) | 1.000 | 1.000 | 1.053 | 1.000 | 1.000 | 1.429 |", page)
        self.assertIn("| SK (`syrk`) | LDesc | 100 | 60 | 10 | 20 | 5 | 10 | 4 | 2 |", page)
        self.assertIn("| SK (`syrk`) | `k` | 4x4x1 | 1 | 2x1x1 | 8 | 1 / 2 | 1.053 |", page)
        self.assertIn("| LIB (`libor`) | `k` | 16x1x1 | 1 | – | – | – / – | 1.000 |", page)
        self.assertIn("| SK (`syrk`) | LDesc-Pref | 0 | 0 | 0 | 0 | 0 | – | – | – |", page)
        self.assertIn("| SMs | 15 | `gpu.num_sms` = 15 | same |", page)
        self.assertIn("| L1 bytes | 32768 | `l1.size` = 16384 | differs |", page)
        self.assertIn("| L1 ways | 4 | `l1.assoc` = 4 | same |", page)
        self.assertIn("| SK (`syrk`) | 50.0% | 50.0% | 50.0% | 50.0% | 50.0% | 100.0% |", page)
        self.assertNotIn("NUMA", page.split("## Not yet")[1].split("## Discussion")[0])
        self.assertNotIn("not in the suite yet", page)
        self.assertNotIn("{", page.split("## Discussion")[1])
        self.assertNotIn("Points that did not pass", page)

    def test_without_the_resolved_configuration(self):
        with tempfile.TemporaryDirectory() as folder:
            page = ldesc_page.render(write_sweep(folder, chip=False))
        self.assertIn("is missing, so Table 3 is not compared here", page)

    def test_quick_page(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, quick=True)
            h = hl.Headlines(Study(data.Sweep(report))).build()
            page = ldesc_page.render(report)
        verdicts = {r.result: r.verdict for r in h.rows if r.ref in ("L-M1", "L-M2")}
        self.assertEqual(set(verdicts.values()), {hl.NO_DATA})
        self.assertIn("## Motivation: 48 CTA-clustering strategies\n\nNot run (`run.sh --quick`).", page)
        self.assertIn("| L-R1 | LDesc's largest speedup over Baseline | up to +46.6% | +42.9% (SK) | met |", page)

    def test_a_failed_point_is_listed_and_its_comparisons_left_out(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, broken=("syrk", "ldesc"))
            s = Study(data.Sweep(report))
            self.assertIsNone(s.speedup("syrk", "ldesc"))
            h = hl.Headlines(s).build()
            page = ldesc_page.render(report)
        row = next(r for r in h.rows if r.result == "LDesc's largest speedup over Baseline")
        self.assertEqual((row.ours, row.verdict), ("+25.0% (DT)", hl.MET))
        self.assertIn("## Points that did not pass", page)
        self.assertIn("- syrk ldesc: fail (warpsim: error: something)", page)
        self.assertIn("| SK (`syrk`) | 1.000 | 1.000 | 1.053 | 1.000 | 1.000 | – |", page)

    def test_a_grid_outside_grid_dims_stops_the_page(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, bad_grid=True)
            with self.assertRaises(sweep_report.ReportError) as caught:
                ldesc_page.render(report)
        self.assertIn("a launch's grid spans y, which ldesc_data.GRID_DIMS does not list for libor",
                      str(caught.exception))

    def test_no_runs_at_all_gives_no_data(self):
        s = Study(type("Empty", (), {"apps": [], "motivation_apps": lambda self: [], "config_apps": lambda self: [],
                                     "run": lambda self, a, v: None})())
        h = hl.Headlines(s).build()
        self.assertEqual({r.verdict for r in h.rows}, {hl.NO_DATA})
        self.assertTrue(all(r.reason for r in h.rows))


if __name__ == "__main__":
    unittest.main()
