"""Tests of the Locality Descriptor experiment's spec (spec.py), metrics (ldesc_metrics.py,
ldesc_study.py), headline rules (ldesc_headlines.py) and page (ldesc_page.py), on a hand-made sweep
whose numbers are worked out by hand. Run (ctest: locality_descriptor_experiment_page):
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
from sweep_fixture import spec_points, write_tables  # noqa: E402


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
        # Filter 16 x 2; configurations 8 x 5; shapes 6 apps x 16 + 10 x 4: 208.
        parsed = tomllib.loads(spec.spec_text(data.APP_NAMES, "small"))
        points = spec_points(parsed)
        self.assertEqual(len(points), 208)
        self.assertEqual({(w, z) for w, z, _ in points}, {(w, int(spec.SIZE_AT["small"][w])) for w in data.APP_NAMES})
        counts = {}
        for w, _, _ in points:
            counts[w] = counts.get(w, 0) + 1
        self.assertEqual(counts["syrk"], 23)
        self.assertEqual(counts["libor"], 11)
        self.assertEqual(counts["transpose"], 18)
        self.assertEqual(counts["atax"], 6)
        self.assertEqual(len(spec_points(tomllib.loads(spec.spec_text(data.APP_NAMES, "small", quick=True)))), 72)

    def test_variants(self):
        v = tomllib.loads(spec.spec_text(["syrk"], "default"))["variants"]
        self.assertEqual(v["base"]["overlays"], ["ldesc-chip"])
        self.assertEqual(v["base"]["sets"], ["l1.count_footprint=true"])
        self.assertEqual(v["l1x4"]["sets"], ["l1.count_footprint=true", "l1.size=131072"])
        self.assertEqual(v["ldesc-pref"]["overlays"], ["ldesc-chip", "ldesc-pref"])
        self.assertEqual(v["fixed-2x4x1"]["sets"], ["l1.count_footprint=true", 'cta_scheduler.impl="clusters"',
                                                    'cta_scheduler.clusters="fixed"', "cta_scheduler.cluster_x=2",
                                                    "cta_scheduler.cluster_y=4", "cta_scheduler.cluster_z=1"])


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


def write_sweep(folder, quick=False, broken=None, bad_grid=False, chip=True):
    """The hand-made sweep in folder/sweep; `broken` (workload, variant) fails, `bad_grid` gives
    libor's runs a 2-D grid, `chip` writes the resolved configuration beside the sweep."""
    sweep = os.path.join(folder, "sweep")
    os.makedirs(sweep)
    text = spec.spec_text(data.APP_NAMES, "small", quick)
    with open(os.path.join(sweep, "spec.toml"), "w") as f:
        f.write(text)
    if chip:
        with open(os.path.join(folder, "ldesc-chip.toml"), "w") as f:
            f.write('[gpu]\nnum_sms = 15\n[l1]\nsize = 16384\nassoc = 4\n')
    points, table = [], []
    for w, z, v in spec_points(tomllib.loads(text)):
        pid = f"{len(points):016x}"
        axes = {"workload": w, "size": z, "config": data.CONFIG, "variant": v}
        points.append({"id": pid, "axes": axes, "argv": ["run", w]})
        point_dir = os.path.join(sweep, "points", pid)
        os.makedirs(point_dir)
        if (w, v) == broken:
            with open(os.path.join(point_dir, "result.json"), "w") as f:
                json.dump({"id": pid, "status": "fail", "stderr_tail": ["warpsim: error: something"]}, f)
            table.append(dict({"id": pid}, **axes, status="fail"))
            continue
        table.append(dict({"id": pid}, **axes, status="pass"))
        with open(os.path.join(point_dir, "stats.json"), "w") as f:
            json.dump(document(w, v, [4, 2, 1] if bad_grid and w == "libor" else None), f)
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
        got = {(r.ref, r.result): (r.ours, r.verdict) for r in h.rows}
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
        self.assertIn("The NUMA study", page.split("## Not yet")[1])
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
