"""Tests of the unified-storage experiment's spec (spec.py), metrics (unified_metrics.py,
unified_study.py), headline rules (unified_headlines.py), sweep check (sweep_check.py) and page
(unified_page.py), on a hand-made sweep whose numbers are worked out by hand. Run (ctest:
unified_storage_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/unified_storage/experiment -p '*_test.py'
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
import spec  # noqa: E402
import sweep_check  # noqa: E402
import sweep_report  # noqa: E402
import unified_data as data  # noqa: E402
import unified_headlines as hl  # noqa: E402
import unified_metrics as m  # noqa: E402
import unified_page  # noqa: E402
from sweep_fixture import spec_points, write_tables  # noqa: E402
from unified_data import Variant  # noqa: E402
from unified_study import Study  # noqa: E402

SHARE = ["energy.static_watts=0.5", "dram.burst_cycles=32"]
NO_FIT = ("warpsim: error: kernel 'nw_tile_diagonal_b64' cannot run on fermi-unified: a CTA needs 17536 bytes of "
          "shared memory, the SM has 16384")


class MetricsTest(unittest.TestCase):
    def test_ratios(self):
        self.assertAlmostEqual(m.speedup(1000, 800), 1.25)
        self.assertIsNone(m.speedup(None, 800))
        self.assertAlmostEqual(m.normalised(850, 1000), 0.85)
        self.assertAlmostEqual(m.perf_per_watt(2000, 1000), 2.0)
        self.assertAlmostEqual(m.minus_one(1.25), 0.25)
        self.assertAlmostEqual(m.loss(920, 900), 20 / 900)

    def test_conflict_share_adds_the_three_counts(self):
        # (500 + 900 + 100) / 10000; a missing count gives no share.
        self.assertAlmostEqual(m.conflict_share(500, 900, 100, 10000), 0.15)
        self.assertIsNone(m.conflict_share(500, None, 100, 10000))
        self.assertIsNone(m.conflict_share(500, 900, 100, 0))


class DataTest(unittest.TestCase):
    def test_variant_names_round_trip(self):
        for v in (Variant(design="partition-256-64-64"), Variant(design="unified-384", tpb=64),
                  Variant(design="unified-384", mod="noarb", tpb=16),
                  Variant(design="partition-256-64-64", mod="orflrf"),
                  Variant(budget="minimal", threads=1024, l1_kb=64),
                  Variant(budget="24", threads=768, l1_kb=512, tpb=256)):
            self.assertEqual(data.parse_variant(v.name), v)
        self.assertEqual(Variant(design="unified-384", mod="noarb", tpb=16).name, "unified-384_noarb-t16")
        self.assertEqual(Variant(budget="24", threads=768, l1_kb=512, tpb=256).name, "sens-r24-n768-l512-t256")
        v = data.parse_variant("limited-48-16-t64")
        self.assertEqual((v.design, v.mod, v.tpb), ("limited-48-16", None, 64))
        self.assertIsNone(data.parse_variant("base-t64"))

    def test_does_not_fit(self):
        self.assertTrue(data.does_not_fit({"stderr_tail": [NO_FIT]}))
        self.assertFalse(data.does_not_fit({"stderr_tail": ["config: error: --set 'x=1': unknown key 'x'"]}))
        self.assertFalse(data.does_not_fit(None))

    def test_capacities(self):
        self.assertEqual(data.capacities("partition-128-32-32"), (128, 32, 32))
        self.assertEqual(data.capacities("limited-16-48"), (256, 16, 48))
        self.assertEqual(data.capacities("unified-384"), (384,))
        self.assertEqual(data.design_words("limited-48-16"), "256 KB RF / 48 KB L1 / 16 KB shared")


class SpecTest(unittest.TestCase):
    def test_one_sm_share(self):
        config = {"gpu": {"num_sms": 32}, "energy": {"static_watts": 13.88}, "dram": {"burst_cycles": 1}}
        self.assertEqual(spec.one_sm_share(config), ["energy.static_watts=0.43375", "dram.burst_cycles=32"])

    def test_full_sweep(self):
        # Designs 11 (nw at 3 blockings), noarb, orflrf on 2 designs, aggr; sensitivity: Fig 7.1
        # budgets x 4 thread counts, Fig 7.3 six L1 sizes (five new; mummer also at 768), nw's
        # three blockings. nw 33 + 12 + 3; mummer 15 + 8 + 10; bfs, pcr, hotspot 15 + 8 + 5;
        # dgemm-tiled 15 + 16 + 5: 201.
        parsed = tomllib.loads(spec.spec_text(data.APPS, "small", data.DESIGNS, list(data.MODS), SHARE))
        points = spec_points(parsed)
        counts = {}
        for w, _, _ in points:
            counts[w] = counts.get(w, 0) + 1
        self.assertEqual(counts, {"nw": 48, "mummer": 33, "bfs": 28, "dgemm-tiled": 36, "pcr": 28, "hotspot": 28})
        self.assertEqual({(w, z) for w, z, _ in points},
                         {(w, int(spec.SIZE_AT["small"][w])) for w in data.APPS})
        quick = spec_points(tomllib.loads(spec.spec_text(data.APPS, "small", spec.QUICK_DESIGNS, list(data.MODS), SHARE,
                                                  quick=True)))
        self.assertEqual(len(quick), 18 + 5 * 6)

    def test_variants_carry_design_share_and_options(self):
        parsed = tomllib.loads(spec.spec_text(["nw", "dgemm-tiled"], "default", data.DESIGNS, list(data.MODS), SHARE))
        self.assertEqual(parsed["axes"]["size"], ["default"])
        v = parsed["variants"]
        self.assertEqual(v["partition-256-64-64-t32"]["overlays"], ["partition-256-64-64"])
        self.assertEqual(v["partition-256-64-64-t32"]["sets"], ['compiler.registers="minimal"'] + SHARE)
        self.assertEqual(v["partition-256-64-64-t32"]["options"], ["--sms", "1", "--threads-per-block", "32"])
        self.assertEqual(v["unified-384_noarb-t256"]["sets"],
                         ['compiler.registers="minimal"', "sm.storage_banks.shared_with_registers=false"] + SHARE)
        self.assertEqual(v["partition-256-64-64_orflrf-t64"]["overlays"], ["partition-256-64-64", "orf-lrf"])
        self.assertEqual(v["unified-384_aggr-t16"]["overlays"], ["unified-384", "unified-aggressive"])
        self.assertEqual(v["sens-r24-n768-l64-t256"]["overlays"], ["unified-384"])
        self.assertEqual(v["sens-r24-n768-l64-t256"]["sets"],
                         ['compiler.registers="24"', "resources.unified.pool_bytes=4194304",
                          "resources.unified.min_l1_bytes=65536", "resources.unified.max_l1_bytes=65536",
                          "resources.unified.max_threads=768"] + SHARE)
        self.assertIn("sens-rminimal-n1024-l64-t16", v)  # Fig 7.2

    def test_aggressive_only_with_its_overlay(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(spec.mods_available(folder), ["noarb", "orflrf"])
            open(os.path.join(folder, "unified-aggressive.toml"), "w").close()
            self.assertEqual(spec.mods_available(folder), ["noarb", "orflrf", "aggr"])


# The hand-made sweep: the six applications, every design, baseline cycles 1000, DRAM bursts
# 1000, energy 2000 nJ (0.4 SRAM leakage, 0.3 core leakage, 0.3 dynamic of it a third DRAM),
# 10,000 warp instructions. Needle's cycles by blocking (16, 32, 64), its chosen in brackets:
#   256/64/64 and the other fixed designs 1200, 1000, 1100 (32); unified-384 1100, 800, 500 (64);
#   unified-256 ..., 600 (64); 128/32/32 1300, 1100, 1500 (32); limited-16-48 1300, 1050, 1400 (32);
#   limited-48-16 1250, 1200, does not fit (32).
# The others on unified-384: mummer 950 (+5.26%), bfs 920 (+8.70%), dgemm 1000, pcr 990 (+1.01%),
# hotspot 1001 (-0.10%); on unified-256 990, 980, 1010, 999, 1000 (wins: Needle, mummer, bfs,
# pcr: 4); 128/32/32 1100; limited-16-48 1000 (bfs 1050), limited-48-16 1005 (bfs 1020): the
# faster split matches 256/64/64 on mummer, dgemm, pcr, hotspot (4), not on Needle (-4.76%) or bfs
# (-1.96%), and beats 128/32/32 everywhere.
# DRAM on unified-384: Needle 850, mummer 800, bfs 880 (three 10-25% lower), dgemm 1000, pcr 1010,
# hotspot 995 (three unchanged). Energy on unified-384: Needle 1000 (-50%, outside 0-20%),
# mummer 1900, bfs 1800, dgemm 2000, pcr 1980, hotspot 2002 (+0.1%, inside the noise).
# Perf/W: Needle 2.0 (+100%), bfs +11.1%, the rest below +10%: 2 of 6. L1 misses (line + sector):
# 1500 everywhere but mummer on unified-384, 1000.
# Banks: 256/64/64 (500 + 300) / 10000 = 8%, with the hierarchy (100 + 300) = 4%; unified-384
# (500 + 900 + 100) = 15%, with the hierarchy (100 + 400 + 50) = 5.5%. Without arbitration every
# run as unified-384's but bfs 900: loss 20/900 on bfs, mean 0.37%. Aggressive: unified-384's
# cycles (gain 0).
# Sensitivity: cycles 1000 + (1024 - threads) + 100 x the budget's place below minimal
# + (512 - L1 KB) / 16; nw's Fig 7.2 runs 2000, 1500, 1000 by blocking.
NW = {"partition-128-32-32": (1300, 1100, 1500), "limited-16-48": (1300, 1050, 1400),
      "limited-48-16": (1250, 1200, None), "unified-384": (1100, 800, 500), "unified-256": (1100, 800, 600)}
NW_DEFAULT = (1200, 1000, 1100)
OTHERS = {"unified-384": {"mummer": 950, "bfs": 920, "dgemm-tiled": 1000, "pcr": 990, "hotspot": 1001},
          "unified-256": {"mummer": 990, "bfs": 980, "dgemm-tiled": 1010, "pcr": 999, "hotspot": 1000},
          "partition-128-32-32": {a: 1100 for a in data.APPS},
          "limited-16-48": {"bfs": 1050}, "limited-48-16": {a: 1020 if a == "bfs" else 1005 for a in data.APPS}}
DRAM = {"nw": 850, "mummer": 800, "bfs": 880, "dgemm-tiled": 1000, "pcr": 1010, "hotspot": 995}
ENERGY = {"nw": 1000, "mummer": 1900, "bfs": 1800, "dgemm-tiled": 2000, "pcr": 1980, "hotspot": 2002}
BANKS = {("partition-256-64-64", None): (500, 300, None), ("partition-256-64-64", "orflrf"): (100, 300, None),
         ("unified-384", None): (500, 900, 100), ("unified-384", "orflrf"): (100, 400, 50)}


def cycles_of(app, v):
    if v.sensitivity:
        if app == "nw":
            return {16: 2000, 32: 1500, 64: 1000}[v.tpb]
        place = 0 if v.budget == "minimal" else data.SENS_BUDGETS[app].index(v.budget) + 1
        return 1000 + (1024 - v.threads) + 100 * place + (512 - v.l1_kb) // 16
    design = data.UNIFIED if v.mod in ("noarb", "aggr") else v.design
    if v.mod == "noarb" and app == "bfs":
        return 900
    if app == "nw":
        return NW.get(design, NW_DEFAULT)[[16, 32, 64].index(v.tpb)]
    return OTHERS.get(design, {}).get(app, 1000)


def document(app, v, drop=None):
    energy = ENERGY[app] if v.design == data.UNIFIED and not v.mod else 2000
    dram = DRAM[app] if v.design == data.UNIFIED and not v.mod else 1000
    l1_fewer = app == "mummer" and v.design == data.UNIFIED and not v.mod
    timing = {"warp_instructions": 10000, "dram_bandwidth_utilisation": 0.25,
              "memory": {"dram": {"read_bursts": dram - 100, "write_bursts": 100}, "shared": {},
                         "l1d": {"misses": 900 if l1_fewer else 1400, "sector_misses": 100}},
              "sm": {"register_file": {}},
              "energy": {"total_nj": energy, "dynamic_nj": 0.3 * energy,
                         "components": {"sram_leakage": {"nj": 0.4 * energy}, "static": {"nj": 0.3 * energy},
                                        "dram": {"nj": 0.1 * energy}}}}
    banks = BANKS.get((v.design, v.mod if v.mod == "orflrf" else None), (0, 0, 0))
    collectors, accesses, arbitration = banks
    timing["sm"]["register_file"]["conflicted_collectors"] = collectors
    timing["memory"]["shared"]["conflicted_accesses"] = accesses
    if arbitration is not None:
        timing["memory"]["storage_banks"] = {"arbitration_accesses": arbitration, "arbitration_stalls": 2 * arbitration}
    if drop:
        *parents, leaf = drop.split(".")[2:]
        node = timing
        for p in parents:
            node = node.get(p, {})
        node.pop(leaf, None)
    cycles = cycles_of(app, v)
    kernel = {"name": "k", "cycles": cycles, "block": [v.tpb or 256, 1, 1], "regs_per_thread": 20,
              "register_allocation": {"spill_slots": 0},
              "timing": {"occupancy": {"ctas_per_sm": 4, "limited_by": "warps",
                                       "carveout": {"register_bytes": 81920, "shared_bytes": 16384,
                                                    "l1_bytes": 262144, "unused_bytes": 32768}}}}
    short = dict(kernel, cycles=1, regs_per_thread=8)
    return {"warpsim_version": "test", "kernels": [short, kernel],
            "totals": {"cycles": cycles, "timing": timing}}


def write_sweep(folder, mods=("noarb", "orflrf", "aggr"), drop=None, broken=None, quick=False):
    """The hand-made sweep in `folder`; `drop` removes one bank statistic (a totals path) from
    every run, `broken` makes the variant of that name fail on every workload, `quick` is
    run.sh --quick's sweep."""
    designs = spec.QUICK_DESIGNS if quick else data.DESIGNS
    text = spec.spec_text(data.APPS, "small", designs, list(mods), SHARE, quick)
    with open(os.path.join(folder, "spec.toml"), "w") as f:
        f.write(text)
    points, table = [], []
    for w, z, name in spec_points(tomllib.loads(text)):
        v = data.parse_variant(name)
        pid = f"{len(points):016x}"
        axes = {"workload": w, "size": z, "config": data.CONFIG, "variant": name}
        points.append({"id": pid, "axes": axes, "argv": ["run", w]})
        folder_of = os.path.join(folder, "points", pid)
        os.makedirs(folder_of)
        no_fit = w == "nw" and v.design == "limited-48-16" and v.tpb == 64
        if no_fit or name == broken:
            tail = [NO_FIT] if no_fit else ["warpsim: error: something else"]
            with open(os.path.join(folder_of, "result.json"), "w") as f:
                json.dump({"id": pid, "status": "fail", "stderr_tail": tail}, f)
            table.append(dict({"id": pid}, **axes, status="fail", wall_seconds=0.1))
            continue
        table.append(dict({"id": pid}, **axes, status="pass", wall_seconds=1.0))
        with open(os.path.join(folder_of, "stats.json"), "w") as f:
            json.dump(document(w, v, drop), f)
    write_tables(folder, points, table)
    return sweep_report.Report(folder, os.path.join(folder, "docs", "unified-storage.md"), plots=False)


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.report = write_sweep(self.folder.name)
        self.sweep = data.Sweep(self.report)
        self.s = Study(self.sweep)

    def tearDown(self):
        self.folder.cleanup()

    def test_sweep_read(self):
        self.assertEqual(self.sweep.apps, data.APPS)
        self.assertEqual(self.sweep.designs(), data.DESIGNS)
        self.assertEqual(self.sweep.mods(), ["noarb", "orflrf", "aggr"])
        self.assertEqual(self.sweep.no_fit, {("nw", Variant(design="limited-48-16", tpb=64))})
        self.assertEqual(self.sweep.failed, [])
        self.assertEqual(self.sweep.blockings("nw"), [16, 32, 64])
        self.assertEqual(self.sweep.blockings("mummer"), [None])

    def test_needle_takes_the_fastest_blocking_that_fits(self):
        self.assertEqual(self.sweep.chosen("nw", data.BASELINE).tpb, 32)
        self.assertEqual(self.sweep.chosen("nw", data.UNIFIED).tpb, 64)
        self.assertEqual(self.sweep.chosen("nw", "limited-48-16").tpb, 32)
        self.assertEqual(self.sweep.design_run("nw", data.UNIFIED, "noarb").cycles, 500)

    def test_design_metrics(self):
        s = self.s
        self.assertAlmostEqual(s.perf("nw", data.UNIFIED), 2.0)
        self.assertAlmostEqual(s.perf("bfs", data.UNIFIED), 1000 / 920)
        self.assertAlmostEqual(s.perf("nw", "partition-128-32-32"), 1000 / 1100)
        self.assertAlmostEqual(s.dram("mummer", data.UNIFIED), 0.8)
        self.assertAlmostEqual(s.energy("hotspot", data.UNIFIED), 1.001)
        self.assertAlmostEqual(s.per_watt("bfs", data.UNIFIED), 2000 / 1800)
        self.assertEqual(s.limited("nw"), "limited-16-48")
        self.assertEqual(s.limited("bfs"), "limited-48-16")
        self.assertEqual(s.limited("mummer"), "limited-16-48")
        parts = s.breakdown("pcr", data.UNIFIED)
        for part, value in (("sram_leakage", 0.396), ("core_leakage", 0.297), ("dram", 0.099),
                            ("core_dynamic", 0.198)):
            self.assertAlmostEqual(parts[part], value)
        d = s.division("nw")
        self.assertEqual((d["regs"], d["spills"], d["threads"], d["ctas"], d["limited_by"]), (20, 0, 256, 4, "warps"))

    def test_with_the_hierarchy_and_without_an_l1(self):
        s = self.s
        # The orf-lrf runs keep their designs' cycles (cycles_of) and all have 2000 nJ.
        self.assertAlmostEqual(s.hierarchy_perf("bfs"), 1000 / 920)
        self.assertAlmostEqual(s.hierarchy_perf("nw"), 2.0)
        self.assertAlmostEqual(s.hierarchy_energy("bfs"), 1.0)
        self.assertFalse(s.no_l1("bfs", data.UNIFIED))  # no l1d.accesses in the fixture: not known to be 0
        s.run("bfs", data.UNIFIED).l1_accesses = 0
        self.assertTrue(s.no_l1("bfs", data.UNIFIED))

    def test_sensitivity(self):
        s = self.s
        self.assertEqual(s.budgets("dgemm-tiled"), ["minimal", "40", "32", "24"])
        perf = s.registers("mummer")
        # ref (minimal, 1024, 64 KB): 1000 + 28; (24, 256): 1000 + 768 + 100 + 28.
        self.assertAlmostEqual(perf[("minimal", 1024)], 1.0)
        self.assertAlmostEqual(perf[("24", 256)], 1028 / 1896)
        self.assertEqual(s.budget_registers("mummer", "24"), 20)
        blocking, shared = s.blocking()
        self.assertEqual(blocking, {16: 0.5, 32: 1000 / 1500, 64: 1.0})
        self.assertEqual(shared, 16.0)
        cache = s.cache("mummer")
        self.assertAlmostEqual(cache[(1024, 512)], 1.0)
        self.assertAlmostEqual(cache[(1024, 16)], 1000 / 1031)
        self.assertAlmostEqual(cache[(768, 512)], 1000 / 1256)

    def test_banks(self):
        s = self.s
        self.assertAlmostEqual(s.conflicts("pcr", data.BASELINE), 0.08)
        self.assertAlmostEqual(s.conflicts("pcr", data.BASELINE, "orflrf"), 0.04)
        self.assertAlmostEqual(s.conflicts("pcr", data.UNIFIED), 0.15)
        self.assertAlmostEqual(s.conflicts("pcr", data.UNIFIED, "orflrf"), 0.055)
        self.assertEqual(s.arbitration_stalls("bfs"), (100, 200))
        self.assertAlmostEqual(s.arbitration_loss("bfs"), 20 / 900)
        self.assertAlmostEqual(s.arbitration_loss("mummer"), 0.0)
        self.assertAlmostEqual(s.over_apps(s.arbitration_loss), 20 / 900 / 6)
        self.assertAlmostEqual(s.aggressive_gain("nw"), 0.0)

    def test_headlines(self):
        h = hl.Headlines(self.s).build()
        rows = {r.result: r for r in h.rows}
        verdicts = {r.result: r.verdict for r in h.rows}
        self.assertEqual(verdicts, {
            "Needle's gain, unified-384 over 256/64/64 (best blocking on each)": hl.MET,
            "The other applications' gains, unified-384 over 256/64/64": hl.MET,
            "No application slower or higher in energy on unified-384": hl.MET,
            "DRAM accesses, unified-384 against 256/64/64": hl.MET,
            "Energy, unified-384 against 256/64/64": hl.NOT_MET,
            "256 KB unified against 256/64/64": hl.MET,
            "Limited (the faster split) beats 128/32/32": hl.MET,
            "Limited matches 256/64/64": hl.MET,
            "Largest performance-per-watt gain, unified-384 over 256/64/64": hl.MET,
            "Performance per watt +10% or more": hl.NOT_MET,
            "Performance lost to register/memory arbitration (mean over applications)": hl.MET,
            "Instructions with a bank conflict, unified-384 over 256/64/64 (no hierarchy)": hl.MET,
            "Unified-384 with the register-file hierarchy has fewer conflicts than 256/64/64": hl.MET,
            "Aggressive variant's gain over unified-384 (mean over applications)": hl.MET,  # 0% <= 2 x 0.5%
        })
        self.assertTrue(rows["Aggressive variant's gain over unified-384 (mean over applications)"].reason
                        .startswith("the rule asks at most +1.00%; the largest: "))
        r = rows["Needle's gain, unified-384 over 256/64/64 (best blocking on each)"]
        self.assertEqual((r.ours, r.reason), ("+100.0%", "ours +100.0% (blocking 32 on partition-256-64-64, 64 on "
                                                         "unified-384); the rule asks at least +37.8%"))
        r = rows["Energy, unified-384 against 256/64/64"]
        self.assertEqual(r.reason, "outside -20% to +0.2%: Needle -50.0%")
        r = rows["DRAM accesses, unified-384 against 256/64/64"]
        self.assertEqual(r.reason, "3 with a reduction of 10% to 25%, 3 with none (a change above -2%); the rule asks "
                                   "3 and 3")
        r = rows["256 KB unified against 256/64/64"]
        self.assertEqual(r.ours, "better on 4 of 6")
        r = rows["Limited matches 256/64/64"]
        self.assertEqual(r.ours, "on 4 of 6")
        self.assertTrue(r.reason.startswith("within 1%: GPU-Mummer, DGEMM, PCR, Hotspot; splits: Needle limited-16-48"))
        r = rows["Performance per watt +10% or more"]
        self.assertEqual(r.ours, "on 2 of 6")
        r = rows["Instructions with a bank conflict, unified-384 over 256/64/64 (no hierarchy)"]
        self.assertEqual((r.ours, r.reason), ("+7.0 pp", "256/64/64 8.0%, unified-384 15.0%; the rule asks at least "
                                                         "+2.5 pp"))
        r = rows["Performance lost to register/memory arbitration (mean over applications)"]
        self.assertEqual(r.ours, "0.37%")
        self.assertEqual([x.result for x in h.not_met("per_watt")], ["Performance per watt +10% or more"])

    def test_rules_at_their_edges(self):
        self.assertTrue(hl.change_met(0.378, 0.756))
        self.assertFalse(hl.change_met(0.377, 0.756))
        self.assertFalse(hl.change_met(-0.5, 0.756))
        self.assertIsNone(hl.change_met(None, 0.756))


class CheckAndPageTest(unittest.TestCase):
    def test_sweep_check_accepts_only_kernels_that_do_not_fit(self):
        with tempfile.TemporaryDirectory() as folder:
            no_fit, failed = sweep_check.check(write_sweep(folder))
            self.assertEqual([(p.axes["workload"], p.axes["variant"]) for p in no_fit], [("nw", "limited-48-16-t64")])
            self.assertEqual(failed, [])
        with tempfile.TemporaryDirectory() as folder:
            _, failed = sweep_check.check(write_sweep(folder, broken="unified-384_noarb"))
            self.assertEqual([(p.axes["workload"], p.axes["variant"]) for p in failed],
                             [(w, "unified-384_noarb") for w in data.APPS if w not in ("nw", "dgemm-tiled")])

    def test_page_builds(self):
        with tempfile.TemporaryDirectory() as folder:
            page = unified_page.render(write_sweep(folder))
        self.assertIn("| Needle's gain, unified-384 over 256/64/64 (best blocking on each) | +75.6% | +100.0% | met |",
                      page)
        self.assertIn("| Needle (`nw`) | 0.909 | 1.000 | 1.000 | 1.000 | 1.000 | 0.952 | 0.833 | 1.000 | 1.667 | "
                      "2.000 | 1.000 |", page)
        self.assertIn("| limited-48-16 | 1,250 | **1,200** | does not fit |", page)
        self.assertIn("| unified-384 | 1,100 | 800 | **500** |", page)
        self.assertIn("| GPU-Mummer (`mummer`) | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | "
                      "1.000 | 0.800 | 1.000 | 1,000 |", page)
        self.assertIn("| unified-384 | 0.396 | 0.297 | 0.099 | 0.198 | 0.990 |", page)
        self.assertIn("| GPU-Mummer (`mummer`) | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | "
                      "1.000 | 0.667 | 1.000 | 1,500 |", page)
        self.assertIn("its L1 misses, the study's DRAM accesses, from -33.3% (GPU-Mummer) to +0.0% (Needle)", page)
        self.assertIn("those that gain by 1% or\nmore, as the study's bigger-cache applications do: GPU-Mummer, BFS "
                      "and PCR; those that change by less: DGEMM and Hotspot;\nthose slower by as much: none.", page)
        self.assertIn("The application most sensitive to registers is DGEMM, 0.77 (at its", page)
        self.assertIn("Means over the applications: 256/64/64 8.0%, 256/64/64 with the hierarchy 4.0%, unified-384 "
                      "15.0%, unified-384 with the hierarchy 5.5%; arbitration loss\n+0.37%.", page)
        self.assertIn("| Needle (`nw`), blocking 64 | 20 | 0 | 256 | 4 | 80 | 16 | 256 | 32 (warps) | 24 / 0 / 576 |",
                      page)
        self.assertIn("| DGEMM (`dgemm-tiled`) | 24 (20) |", page)
        self.assertIn("| BFS (`bfs`) | 8.0% | 4.0% | 15.0% | 5.5% | 100 / 200 | +2.22% | +0.00% |", page)
        self.assertIn("| **mean** | 8.0% | 4.0% | 15.0% | 5.5% | – | +0.37% | +0.00% |", page)
        self.assertIn("`--set compiler.registers=\"minimal\" --set energy.static_watts=0.5 --set dram.burst_cycles=32 "
                      "--sms 1`", page)
        self.assertNotIn("{", page.split("## Discussion")[1])
        self.assertNotIn("Points that did not pass", page)

    def test_page_without_the_aggressive_variant(self):
        with tempfile.TemporaryDirectory() as folder:
            page = unified_page.render(write_sweep(folder, mods=("noarb", "orflrf")))
        self.assertIn("| Aggressive variant's gain over unified-384 (mean over applications) | +0.5% | – | no data | "
                      "not built: configs/overlays/unified-aggressive.toml did not exist", page)
        self.assertIn("The aggressive variant was not built", page)

    def test_quick_page(self):
        # Only 256/64/64 and unified-384: the other designs' headlines have no data, the
        # sensitivity study is not run.
        with tempfile.TemporaryDirectory() as folder:
            page = unified_page.render(write_sweep(folder, quick=True))
        self.assertIn("| Needle's gain, unified-384 over 256/64/64 (best blocking on each) | +75.6% | +100.0% | met |",
                      page)
        self.assertIn("| 256 KB unified against 256/64/64 | better on 4 of 6 | – | no data | unified-256 not run |",
                      page)
        self.assertIn("| Limited (the faster split) beats 128/32/32 | on every application | – | no data | "
                      "partition-128-32-32, limited-16-48, limited-48-16 not run |", page)
        self.assertIn("## Sensitivity (one SM, unbounded pool)\n\nNot run (`run.sh --quick`).", page)

    def test_a_missing_bank_statistic_stops_the_page(self):
        for path in (data.CONFLICTED_ACCESSES, data.CONFLICTED_COLLECTORS, data.ARBITRATION_ACCESSES):
            with tempfile.TemporaryDirectory() as folder:
                report = write_sweep(folder, drop=path)
                with self.assertRaises(sweep_report.ReportError) as caught:
                    unified_page.render(report)
                self.assertIn(f"statistic {path} is missing in the run", str(caught.exception))

    def test_a_failed_point_is_listed_and_its_comparisons_left_out(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, broken="unified-384_noarb")
            s = Study(data.Sweep(report))
            self.assertIsNone(s.arbitration_loss("bfs"))
            self.assertAlmostEqual(s.arbitration_loss("nw"), 0.0)
            page = unified_page.render(report)
        self.assertIn("## Points that did not pass", page)
        self.assertIn("- bfs unified-384_noarb: fail (warpsim: error: something else)", page)


if __name__ == "__main__":
    unittest.main()
