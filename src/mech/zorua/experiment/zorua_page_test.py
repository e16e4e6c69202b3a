"""Tests of the Zorua experiment's spec (spec.py), metrics (zorua_metrics.py, zorua_study.py),
headline rules (zorua_headlines.py) and page (zorua_page.py), on hand-made tables and a
hand-made sweep whose numbers are worked out by hand. Run (ctest: zorua_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/zorua/experiment -p '*_test.py'
"""

import json
import os
import sys
import tempfile
import tomllib
import unittest
from unittest import mock

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import spec  # noqa: E402
import sweep_report  # noqa: E402
import zorua_data as data  # noqa: E402
import zorua_headlines as hl  # noqa: E402
import zorua_metrics as m  # noqa: E402
import zorua_page  # noqa: E402
from sweep_fixture import write_tables  # noqa: E402
from zorua_study import Study  # noqa: E402

# What `warpsim list --specs` printed when the experiment was written (its format and values).
LIST_SPECS = """5 workloads accept resource specifications (warpsim run <name> [--threads-per-block N] [--shared-per-block BYTES]; registers per thread: --max-registers):

dct8x8
  --threads-per-block  64, 128, 256, 512, 1024
  --shared-per-block   9216, 12288, 16384, 24576, 32768
  threads: 8-row tiles of threads/8 pixels, shared: the CTA's total

barnes-hut
  --threads-per-block  64, 96, 128, 192, 256, 384, 512
  --shared-per-block   2048, 4096, 8192, 16384, 32768
  threads per CTA of every kernel

sssp
  --threads-per-block  32, 64, 128, 192, 256, 512, 768, 1024
  --shared-per-block   none
  threads per CTA of sssp_relax and frontier_scatter

mst
  --threads-per-block  32, 64, 128, 192, 256, 512, 768, 1024
  --shared-per-block   none
  threads per CTA of the four Boruvka kernels (a thread per vertex)

nqueens
  --threads-per-block  32, 64, 96, 128, 192, 256, 384, 512
  --shared-per-block   2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152
  threads per CTA (a thread per partial placement)
"""


class MetricsTest(unittest.TestCase):
    def test_range_is_one_minus_worst_over_best(self):
        self.assertAlmostEqual(m.performance_range({"a": 1.0, "b": 0.5, "c": 0.25}), 0.75)
        self.assertEqual(m.performance_range({"a": 2.0}), 0.0)
        self.assertIsNone(m.performance_range({}))

    def test_best_gain_compares_each_design_at_its_own_best(self):
        # The baseline's best is b (2), the design's a (2.5): 2.5 / 2 - 1.
        self.assertAlmostEqual(m.best_gain({"a": 1.0, "b": 2.0}, {"a": 2.5, "b": 1.0}), 0.25)
        self.assertIsNone(m.best_gain({}, {"a": 1.0}))

    def test_average_change_is_the_mean_of_per_spec_ratios(self):
        # Ratios 2, 1 and 0.5: mean 7/6, minus 1. A spec only one side has is left out.
        self.assertAlmostEqual(m.average_change({"a": 1.0, "b": 2.0, "c": 4.0, "x": 1.0},
                                                {"a": 2.0, "b": 2.0, "c": 2.0}), 1.0 / 6.0)
        self.assertIsNone(m.average_change({"a": 1.0}, {"b": 1.0}))

    def test_porting_loss_is_the_largest_over_pairs_and_near_best_specs(self):
        # Normalised: A p1 1, p2 0.96 (within 5%), p3 0.5; B p1 0.4, p2 1, p3 0.8; C p1 1, p2 0.7,
        # p3 1. A->B at p1 loses 0.6 (C->B at p1 too; the first found is kept); A->C at p2 0.3;
        # B->A at p2 0.04; B->C at p2 0.3; C->A at p3 0.5; C->B at p3 0.2.
        perf = {"A": {"p1": 10.0, "p2": 9.6, "p3": 5.0},
                "B": {"p1": 2.0, "p2": 5.0, "p3": 4.0},
                "C": {"p1": 3.0, "p2": 2.1, "p3": 3.0}}
        loss, where = m.porting_loss(perf)
        self.assertAlmostEqual(loss, 0.6)
        self.assertEqual(where, ("A", "B", "p1"))

    def test_porting_window_is_five_percent_of_the_source_best(self):
        # p2 at 0.951 of S's best is within the window and loses 0.8 on T; at 0.949 it is not,
        # and p1 (the best on both) loses nothing.
        inside = {"S": {"p1": 1.0, "p2": 0.951}, "T": {"p1": 1.0, "p2": 0.2}}
        outside = {"S": {"p1": 1.0, "p2": 0.949}, "T": {"p1": 1.0, "p2": 0.2}}
        self.assertAlmostEqual(m.porting_loss(inside)[0], 0.8)
        self.assertEqual(m.porting_loss(inside)[1], ("S", "T", "p2"))
        self.assertAlmostEqual(m.porting_loss(outside)[0], 0.0)
        self.assertAlmostEqual(m.porting_loss(outside, window=0.06)[0], 0.8)

    def test_porting_counts_only_specs_every_generation_has(self):
        # q runs only on S (and would lose everything on T): left out, and T's best is over p, r.
        perf = {"S": {"p": 1.0, "q": 5.0, "r": 0.5}, "T": {"p": 0.5, "r": 1.0}}
        loss, where = m.porting_loss(perf)
        self.assertAlmostEqual(loss, 0.5)
        self.assertIn(where, [("S", "T", "p"), ("T", "S", "r")])
        self.assertEqual(m.porting_loss({"S": {"p": 1.0}}), (None, None))

    def test_hit_rate(self):
        self.assertAlmostEqual(m.hit_rate(1000, 11), 0.989)
        self.assertEqual(m.hit_rate(50, 0), 1.0)
        self.assertIsNone(m.hit_rate(0, 0))


class DataTest(unittest.TestCase):
    def test_variant_names_round_trip(self):
        self.assertEqual(data.variant_name("zorua", 256, None), "zorua-t256")
        self.assertEqual(data.parse_variant("base-t64-s9216"), ("base", 64, 9216))
        self.assertEqual(data.parse_variant("wlm-t32"), ("wlm", 32, None))
        self.assertIsNone(data.parse_variant("gto"))

    def test_specs_order_budgets_from_minimal_down(self):
        specs = [(64, None, "16"), (32, None, "24"), (64, None, "minimal"), (32, None, "minimal")]
        self.assertEqual(sorted(specs, key=data.spec_order),
                         [(32, None, "minimal"), (64, None, "minimal"), (32, None, "24"), (64, None, "16")])
        self.assertEqual(data.spec_label((256, 9216, "12")), "256/9216/r12")
        self.assertEqual(data.spec_label((32, None, "minimal")), "32")


    def test_quoted_budgets_read_as_numbers(self):
        # The sweep keeps a budget written as a TOML string with its quotes: set:compiler.registers="24".
        class Point:
            def __init__(self, budget):
                self.axes = {"workload": "mst", "size": "small", "config": "gtx480", "variant": "base-t32",
                             data.BUDGET_AXIS: budget}
                self.status = "pass"

        class Report:
            points = [Point("minimal"), Point('"24"')]

            def stats(self, point):
                return None

        sweep = data.Sweep(Report())
        self.assertEqual(sweep.specs["mst"], [(32, None, "minimal"), (32, None, "24")])

    def test_sizes_as_words(self):
        sweep = object.__new__(data.Sweep)
        sweep.sizes = {"mst": "small", "barnes-hut": "1024", "sssp": "small"}
        self.assertEqual(sweep.size, "small; barnes-hut at 1024")
        sweep.sizes = {}
        self.assertIsNone(sweep.size)


class SpecTest(unittest.TestCase):
    def test_list_specs_parsed(self):
        accepted = spec.parse_specs(LIST_SPECS)
        self.assertEqual(accepted["mst"], ([32, 64, 128, 192, 256, 512, 768, 1024], []))
        self.assertEqual(accepted["dct8x8"][1], [9216, 12288, 16384, 24576, 32768])
        self.assertEqual(sorted(accepted), ["barnes-hut", "dct8x8", "mst", "nqueens", "sssp"])

    def test_full_sweep_size(self):
        # dct8x8 5x3x2, mst 8x3, nqueens 8x4x2, barnes-hut 7x3x2, sssp 8x3: 184 specifications;
        # x 3 designs x 3 generations.
        accepted = spec.parse_specs(LIST_SPECS)
        counts = {w: len(spec.app_specs(w, accepted)) for w in spec.APPS}
        self.assertEqual(counts, {"dct8x8": 30, "mst": 24, "nqueens": 64, "barnes-hut": 42, "sssp": 24})
        text = spec.spec_text(spec.APPS, "small", accepted, data.DESIGNS)
        parsed = tomllib.loads(text)
        self.assertEqual(parsed["axes"]["config"], ["gtx480", "k40", "gtx980"])
        self.assertEqual(parsed["axes"]["size"], ["small", 1024])
        points = grid(parsed)
        self.assertEqual(len(points), 184 * 9)
        # barnes-hut at 1024 bodies (one thread block per kernel at small), the others at small.
        self.assertEqual({(w, z) for w, z, *_ in points},
                         {(w, 1024 if w == "barnes-hut" else "small") for w in spec.APPS})

    def test_variants_carry_the_specification_and_the_design(self):
        accepted = spec.parse_specs(LIST_SPECS)
        parsed = tomllib.loads(spec.spec_text(["nqueens"], "small", accepted, ["base", "zorua"]))
        v = parsed["variants"]["zorua-t64-s6144"]
        self.assertEqual(v["overlays"], ["zorua"])
        self.assertEqual(v["options"], ["--sms", "1", "--threads-per-block", "64", "--shared-per-block", "6144"])
        self.assertNotIn("overlays", parsed["variants"]["base-t64-s6144"])
        self.assertEqual(parsed["axes"]["set"][data.BUDGET_KEY], ["minimal", "16"])

    def test_quick(self):
        accepted = spec.parse_specs(LIST_SPECS)
        self.assertEqual(spec.app_specs("mst", accepted, quick=True),
                         [(32, None, "minimal"), (256, None, "minimal"), (1024, None, "minimal")])
        self.assertEqual(len(spec.app_specs("nqueens", accepted, quick=True)), 6)

    def test_wlm_only_with_its_overlay(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(spec.designs_available(folder), ["base"])
            for name in ("wlm", "zorua"):
                open(os.path.join(folder, f"{name}.toml"), "w").close()
            self.assertEqual(spec.designs_available(folder), ["base", "wlm", "zorua"])


def grid(parsed):
    """The points of a parsed spec: (workload, size, config, variant, budget) not excluded."""
    axes = parsed["axes"]
    budgets = axes["set"][data.BUDGET_KEY]
    out = []
    for w in axes["workload"]:
        for z in axes["size"]:
            for c in axes["config"]:
                for v in axes["variant"]:
                    for b in budgets:
                        point = {"workload": w, "size": z, "config": c, "variant": v,
                                 "set": {data.BUDGET_KEY: b}}
                        if not any(excluded(point, e) for e in parsed.get("exclude", [])):
                            out.append((w, z, c, v, b))
    return out


def excluded(point, rule):
    for key, value in rule.items():
        if key == "set":
            for k, x in value.items():
                if point["set"][k] not in (x if isinstance(x, list) else [x]):
                    return False
        elif point[key] not in (value if isinstance(value, list) else [value]):
            return False
    return True


# The hand-made sweep: mst at 32 and 256 threads, nqueens at 32 and 64 threads (2048 shared bytes),
# budget minimal, on gtx480 and k40. Cycles on gtx480 (WLM runs as the baseline):
#   mst      base 2000, 1000   zorua 1250, 1000
#   nqueens  base 1000, 4000   zorua  800, 1000
# Ranges: base mst 0.5, nqueens 0.75 (mean 0.625); zorua 0.2 and 0.2 (mean 0.2): 68% smaller.
# Best gain: mst 0, nqueens 0.25 (mean 0.125). Average gain: mst (1.6 + 1) / 2 - 1 = 0.3,
# nqueens (1.25 + 4) / 2 - 1 = 1.625 (mean 0.9625).
# k40: mst base and WLM 1000, 1500; everything else as on gtx480. Porting loss: mst base and WLM
# 0.5 (k40 -> gtx480 at 32: 1 - 0.5), zorua 0; nqueens 0 for all. Means: 0.25, 0.25, 0.
# Energy: cycles x 1 nJ, Zorua's x 0.9: per spec 0.9 x Zorua's cycles / the baseline's:
# mst 0.5625, 0.9 (mean -0.26875); nqueens 0.72, 0.225 (mean -0.5275); mean -0.398125.
# Schedulable warps: baseline and WLM 10 resident warps; Zorua 11 schedulable: +10%.
# Registers: 1000 accesses, 11 off chip in every Zorua run: 98.9%; mst at 32 on gtx480 spilled
# one register set.
CYCLES = {("gtx480", "mst"): {"base": [2000, 1000], "zorua": [1250, 1000]},
          ("gtx480", "nqueens"): {"base": [1000, 4000], "zorua": [800, 1000]},
          ("k40", "mst"): {"base": [1000, 1500], "zorua": [1250, 1000]},
          ("k40", "nqueens"): {"base": [1000, 4000], "zorua": [800, 1000]}}
THREADS = {"mst": [32, 256], "nqueens": [32, 64]}
ACCEPTED = {"mst": ([32, 256], []), "nqueens": ([32, 64], [2048])}


def document(app, config, design, threads):
    i = THREADS[app].index(threads)
    cycles = CYCLES[(config, app)]["base" if design == "wlm" else design][i]
    zorua = design == "zorua"
    timing = {"energy": {"total_nj": cycles * (0.9 if zorua else 1.0)},
              "sm": {"active_cycles": 100, "resident_warp_cycles": 1000}, "resources": {}}
    if zorua:
        spilled = 1 if (app, config, threads) == ("mst", "gtx480", 32) else 0
        timing["resources"]["zorua"] = {
            "cycles": 100, "schedulable_warp_cycles": 1100, "oversubscribed_grants": spilled, "forced_grants": 0,
            "registers": {"accesses": 1000, "off_chip_accesses": 11, "spills": spilled, "fills": spilled},
            "scratchpad": {"spills": 0, "fills": 0}, "warp_slots": {"saves": 0, "restores": 0}}
    kernels = [{"name": "k", "cycles": cycles, "grid": [30, 1, 1], "regs_per_thread": 20,
                "timing": {"occupancy": {"ctas_per_sm": 2}}, "register_allocation": {"dynamic_spill_loads": 0}}]
    return {"warpsim_version": "test", "config": {"sms": 15}, "kernels": kernels,
            "totals": {"cycles": cycles, "warp_instructions": 1000, "instruction_mix": {"barrier": 5},
                       "timing": timing}}


def write_sweep(folder, designs=("base", "wlm", "zorua"), configs=("gtx480", "k40")):
    with mock.patch.dict(spec.BUDGETS, {"mst": [], "nqueens": []}, clear=True), \
            mock.patch.dict(spec.SHARED, {"nqueens": [2048]}, clear=True):
        text = spec.spec_text(["mst", "nqueens"], "small", ACCEPTED, list(designs), configs=list(configs))
    with open(os.path.join(folder, "spec.toml"), "w") as f:
        f.write(text)
    points, table = [], []
    for w, z, c, v, b in grid(tomllib.loads(text)):
        design, threads, _ = data.parse_variant(v)
        axes = {"workload": w, "size": z, "config": c, "variant": v, data.BUDGET_AXIS: b}
        pid = f"{len(points):016x}"
        points.append({"id": pid, "axes": axes, "argv": ["run", w]})
        table.append(dict({"id": pid}, **axes, status="pass", wall_seconds=1.0))
        os.makedirs(os.path.join(folder, "points", pid))
        with open(os.path.join(folder, "points", pid, "stats.json"), "w") as f:
            json.dump(document(w, c, design, threads), f)
    write_tables(folder, points, table)
    return sweep_report.Report(folder, os.path.join(folder, "docs", "zorua.md"), plots=False)


class StudyTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.report = write_sweep(self.folder.name)
        self.sweep = data.Sweep(self.report)
        self.s = Study(self.sweep)

    def tearDown(self):
        self.folder.cleanup()

    def test_sweep_read(self):
        self.assertEqual(self.sweep.apps, ["mst", "nqueens"])
        self.assertEqual(self.sweep.configs, ["gtx480", "k40"])
        self.assertEqual(self.sweep.designs, ["base", "wlm", "zorua"])
        self.assertEqual(self.sweep.specs["nqueens"], [(32, 2048, "minimal"), (64, 2048, "minimal")])
        self.assertEqual(len(self.sweep.runs), 2 * 2 * 3 * 2)
        self.assertEqual(self.s.config, "gtx480")

    def test_metrics_on_the_sweep(self):
        s = self.s
        self.assertAlmostEqual(s.range("mst", "base"), 0.5)
        self.assertAlmostEqual(s.range("nqueens", "zorua"), 0.2)
        self.assertAlmostEqual(s.over_apps(lambda a: s.range(a, "base")), 0.625)
        self.assertAlmostEqual(s.over_apps(lambda a: s.best_gain(a)), 0.125)
        self.assertAlmostEqual(s.over_apps(lambda a: s.average_gain(a)), 0.9625)
        self.assertAlmostEqual(s.porting("mst", "base")[0], 0.5)
        self.assertEqual(s.porting("mst", "base")[1], ("k40", "gtx480", (32, None, "minimal")))
        self.assertAlmostEqual(s.porting("mst", "zorua")[0], 0.0)
        self.assertAlmostEqual(s.over_apps(lambda a: s.energy_change(a)), -0.398125)
        self.assertAlmostEqual(s.warps_change("mst", "zorua"), 0.1)
        self.assertAlmostEqual(s.mean_warps("nqueens", "base"), 10.0)
        self.assertAlmostEqual(s.register_hit_rate("mst"), 0.989)
        self.assertEqual(s.swapping_runs(), (1, 4))

    def test_headlines(self):
        h = hl.Headlines(self.s).build()
        rows = {r.result: r for r in h.rows}
        r = rows["Performance range, Baseline -> Zorua (1 - worst/best, mean over applications)"]
        self.assertEqual((r.ours, r.verdict), ("62.5% -> 20.0% (68% smaller)", hl.MET))
        self.assertEqual(rows["Performance range of WLM, between the baseline's and Zorua's"].verdict, hl.MET)
        r = rows["Best-specification gain of Zorua over the baseline's best (mean over applications)"]
        self.assertEqual((r.ours, r.verdict), ("+12.5%", hl.MET))
        r = rows["Largest best-specification gain (the study's on DCT)"]
        self.assertEqual((r.ours, r.verdict), ("+25.0% (NQU)", hl.NOT_MET))
        r = rows["Maximum porting performance loss, Baseline -> Zorua (mean over applications)"]
        self.assertEqual((r.ours, r.verdict), ("25.0% -> 0.0%", hl.MET))
        r = rows["Schedulable warps, Zorua against the baseline (mean over specifications and applications)"]
        self.assertEqual((r.ours, r.verdict), ("+10.0%", hl.NOT_MET))
        self.assertEqual(r.reason, "ours +10.0%; the rule asks at least +16.4%")
        r = rows["Register accesses served on chip (1 - off-chip / accesses)"]
        self.assertEqual((r.ours, r.verdict), ("98.90%", hl.MET))
        self.assertIn("1 of the 4 Zorua runs moved anything to swap space", r.reason)
        self.assertEqual(rows["Scratchpad accesses served on chip"].verdict, hl.NOT_MEASURED)
        r = rows["Energy of Zorua against the baseline (mean of per-specification changes)"]
        self.assertEqual((r.ours, r.verdict), ("-39.8%", hl.MET))
        self.assertEqual(rows["NQU's energy rises under Zorua"].verdict, hl.NOT_MET)
        self.assertEqual(rows["SSSP: the one application whose range Zorua does not shrink"].verdict, hl.NO_DATA)
        self.assertEqual([r.result for r in h.not_met("warps")],
                         ["Schedulable warps, Zorua against the baseline (mean over specifications and applications)",
                          "Schedulable warps, WLM against the baseline (mean over specifications and applications)"])

    def test_change_rule(self):
        self.assertTrue(hl.change_met(0.064, 0.128))
        self.assertFalse(hl.change_met(0.063, 0.128))
        self.assertFalse(hl.change_met(-0.2, 0.128))
        self.assertTrue(hl.change_met(-0.05, -0.076))
        self.assertIsNone(hl.change_met(None, 0.1))


class PageTest(unittest.TestCase):
    def test_page_builds(self):
        with tempfile.TemporaryDirectory() as folder:
            page = zorua_page.render(write_sweep(folder))
        self.assertIn("| Performance range, Baseline -> Zorua (1 - worst/best, mean over applications) | "
                      "96.6% -> 48.2% (50% smaller) | 62.5% -> 20.0% (68% smaller) | met |", page)
        self.assertIn("| MST (`mst`) | 50.0% | 50.0% | 20.0% | 33.3% | 33.3% | 20.0% |", page)
        self.assertIn("| MST (`mst`) | 50.0% (k40 → gtx480 at 32) | 50.0% (k40 → gtx480 at 32) | "
                      "0.0% (gtx480 → k40 at 256) | 36.1% |", page)
        self.assertIn("| NQU (`nqueens`) | 2 | 32, 64 | 2048 | minimal: 20 | 1.0 | 5.0 |", page)
        self.assertIn("We run\n2 applications (MST (`mst`) and NQU (`nqueens`)) at 4 specifications", page)
        self.assertIn("- SP: survey propagation", page)
        self.assertNotIn("{", page.split("## Discussion")[1])
        self.assertNotIn("Points that did not pass", page)
        self.assertIn("Statistics: warpsim test, size small, 15 SM(s) per GPU,", page)

    def test_page_without_wlm(self):
        with tempfile.TemporaryDirectory() as folder:
            page = zorua_page.render(write_sweep(folder, designs=("base", "zorua")))
        self.assertIn("| WLM | `--overlay wlm` | **not run**", page)
        self.assertIn("| Performance range of WLM, between the baseline's and Zorua's | 88.3% | – | no data | "
                      "WLM was not run", page)
        self.assertIn("WLM was not run: configs/overlays/wlm.toml did not exist", page)

    def test_failed_point_leaves_its_spec_out(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder)
            failed = next(p for p in report.points if p.axes["workload"] == "mst" and p.axes["config"] == "gtx480"
                          and p.axes["variant"] == "wlm-t32")
            failed.status = "fail"
            s = Study(data.Sweep(report))
            # mst on gtx480 keeps only 256 threads, where every design runs 1000 cycles.
            self.assertEqual(s.specs("mst"), [(256, None, "minimal")])
            self.assertAlmostEqual(s.range("mst", "base"), 0.0)
            self.assertIn("## Points that did not pass", zorua_page.render(report))


if __name__ == "__main__":
    unittest.main()
