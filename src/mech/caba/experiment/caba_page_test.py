"""Tests of the CABA experiment's spec (spec.py), definitions (caba_data.py), metrics
(caba_study.py), headline rules (caba_headlines.py) and page (caba_page.py) on a hand-made sweep
whose numbers are worked out by hand. Run (ctest: caba_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/caba/experiment -p '*_test.py'
"""

import json
import math
import os
import sys
import tempfile
import tomllib
import unittest
from unittest import mock

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import caba_data as data  # noqa: E402
import caba_headlines as hl  # noqa: E402
import caba_page  # noqa: E402
import caba_paper  # noqa: E402
import spec  # noqa: E402
import sweep_report  # noqa: E402
from caba_study import Study  # noqa: E402
from sweep_fixture import write_tables  # noqa: E402

# w1 and w2 compress (their DRAM bursts halve and quarter), w3 does not. IPC of each design over
# Base's, for w1 and w2 (w3: 1 everywhere); Base's IPC is 1 at 1x, 0.5 at 0.5x, 2 at 2x.
RATIO = {"hw-bdi-mem": 1.2, "hw-bdi": 1.6, "ideal-bdi": 1.6, "caba-bdi": 1.5, "caba-fpc": 1.0,
         "caba-cpack": 1.25, "caba-best": 1.5}
BASE_IPC = {50: 0.5, 100: 1.0, 200: 2.0}
BW_RATIO = {("caba-bdi", 200): 1.1}  # CABA-BDI at 2x over Base at 2x (otherwise as at 1x)
LINE_BURSTS = {"caba-bdi": 160, "caba-fpc": 200, "caba-cpack": 100, "caba-best": 80}
# The uncompressed L2 (caba-bdi-ul2) over Base: 1.1x CABA-BDI's IPC on w1, whose L2 hit rate is
# high, 0.8x on w2, whose is low; 4 decompressions where CABA's other designs have 10.
UL2_RATIO = {"w1": 1.65, "w2": 1.2}
L2_HIT_RATE = {"w1": 0.9, "w2": 0.5, "w3": 0.95}
# The cache-compression designs and Direct-Load: IPC over CABA-BDI's, w3 (which does not compress)
# included. L1 compression helps w1 (with 2x tags) and hurts w2 and w3 (both tag factors below);
# L2 compression helps w1 and w3; Direct-Load +4% on w1, +1% on w2.
OVER_CABA_BDI = {"caba-bdi-l1x2": {"w1": 1.02, "w2": 0.97, "w3": 0.99},
                 "caba-bdi-l1x4": {"w1": 0.99, "w2": 0.98, "w3": 0.95},
                 "caba-bdi-l2x2": {"w1": 1.1, "w2": 1.0, "w3": 1.0},
                 "caba-bdi-l2x4": {"w1": 1.2, "w2": 0.9, "w3": 1.05},
                 "caba-bdi-dl": {"w1": 1.04, "w2": 1.01, "w3": 1.0}}
# Of every run's 100 L1 hits, those on lines held compressed (0 elsewhere): each is decompressed
# again (decompressions: 10 + these); L2 misses: 40 elsewhere.
FORM_HITS = {"caba-bdi-l1x2": 20, "caba-bdi-l1x4": 40, "caba-bdi-dl": 60}
L2_MISSES = {"caba-bdi-l2x2": {"w1": 30, "w2": 30, "w3": 30}, "caba-bdi-l2x4": {"w1": 20, "w2": 44, "w3": 36}}
# The study's applications named for cache compression and Direct-Load, on the three workloads.
CACHE_APPLICATIONS = [("bfs", "Lonestar", "w1", ""), ("sssp", "Lonestar", "w2", ""),
                      ("hs", "Rodinia", "w2", ""), ("LPS", "CUDA SDK", "w3", ""),
                      ("TRA", "CUDA SDK", "w1", ""), ("KM", "Mars", "w3", ""), ("MM", "Mars", "w3", "")]
CACHE_VARIANTS = ("caba-bdi-l1x2", "caba-bdi-l1x4", "caba-bdi-l2x2", "caba-bdi-l2x4", "caba-bdi-dl")


def document(workload, variant, base_2x=None):
    """base_2x: {workload: Base's IPC at 2x} instead of BASE_IPC[200] (every design scales)."""
    design, percent = data.split_variant(variant)
    compressible = workload != "w3"
    ratio = BW_RATIO.get((design, percent), RATIO.get(design, 1.0)) if compressible else 1.0
    if design == data.UNCOMPRESSED_L2:
        ratio = UL2_RATIO.get(workload, 1.0)
    if design in OVER_CABA_BDI:
        ratio = (RATIO["caba-bdi"] if compressible else 1.0) * OVER_CABA_BDI[design][workload]
    base_ipc = (base_2x or {}).get(workload, BASE_IPC[percent]) if percent == 200 else BASE_IPC[percent]
    ipc = base_ipc * (1.0 if design == "base" else ratio)
    cycles = 1000 / ipc
    energy = 80.0 if (compressible and variant == "caba-bdi") else 100 * cycles / 1000
    timing = {
        "cycles": cycles, "ipc": ipc, "simulated_ns": cycles, "l2_hit_rate": L2_HIT_RATE[workload],
        "dram_bandwidth_utilisation": 0.3 if compressible and design == "caba-bdi" else 0.6,
        "energy": {"total_nj": energy, "static_nj": energy * 0.75, "dynamic_nj": energy * 0.25,
                   "average_power_w": energy / cycles, "components": {"dram": {"nj": 10.0}}},
        "issue": ({"issued": 40, "memory": 50, "scoreboard": 10} if compressible
                  else {"issued": 60, "memory": 30, "pipeline": 10}),
        "memory": {"dram": {"read_bursts": 100, "write_bursts": 0},
                   "l1d": {"hits": 100, "misses": 50, "form_hits": FORM_HITS.get(design, 0)},
                   "l2": {"misses": L2_MISSES.get(design, {}).get(workload, 40)}},
    }
    if design != "base":
        bursts = {"w1": 50, "w2": 25, "w3": 100}[workload]
        hits = {"w1": 85, "w2": 95, "w3": 90}[workload]
        timing["memory"]["compression"] = {
            "dram_reads": {"baseline_bursts": 100, "bursts": bursts},
            "dram_writes": {"baseline_bursts": 0, "bursts": 0},
            "line_bursts_uncompressed": 400,
            "line_bursts": LINE_BURSTS.get(design, 160) if compressible else 400,
            "metadata_cache": {"hits": hits, "misses": 100 - hits, "writebacks": 0}}
        timing["memory"]["dram"]["read_bursts"] = bursts
    if design.startswith("caba"):
        timing["sm"] = {"assist": {"instructions": 500,
                                   "decompressions": 4 if design == data.UNCOMPRESSED_L2
                                   else 10 + FORM_HITS.get(design, 0),
                                   "decompression_wait_cycles": 1000}}
        if design == data.DIRECT_LOAD:
            timing["sm"]["assist"]["direct_loads"] = 70
        timing["energy"]["components"]["assist_warps"] = {"nj": 4.0}
    kernels = [{"regs_per_thread": 20, "cycles": 100,
                "timing": {"occupancy": {"warps_per_sm": 32}, "resources": {}}},
               {"regs_per_thread": 16, "cycles": 300,
                "timing": {"occupancy": {"warps_per_sm": 48}, "resources": {}}}]
    return {"workload": workload, "verified": True, "warpsim_version": "test", "kernels": kernels,
            "totals": {"warp_instructions": 1000, "timing": timing}}


def write_sweep(folder, workloads=("w1", "w2", "w3"), sizes=("small",), skip=(), base_2x=None):
    """The sweep of spec.py's spec without the variants in `skip` (as a sweep of an older spec)."""
    text = spec.spec_text(list(workloads), "small", 1000.0)
    with open(os.path.join(folder, "spec.toml"), "w") as f:
        f.write(text)
    parsed = tomllib.loads(text)
    points, table = [], []
    for w, size in [(w, size) for w in workloads for size in sizes]:
        for variant in [v for v in parsed["axes"]["variant"] if v not in skip]:
            axes = {"workload": w, "size": size, "config": "fermi-caba", "variant": variant}
            pid = f"{len(points):016x}"
            points.append({"id": pid, "axes": axes, "argv": ["run", w]})
            table.append(dict({"id": pid}, **axes, status="pass", wall_seconds=1.0))
            os.makedirs(os.path.join(folder, "points", pid))
            with open(os.path.join(folder, "points", pid, "stats.json"), "w") as f:
                json.dump(document(w, variant, base_2x), f)
    write_tables(folder, points, table)
    return sweep_report.Report(folder, os.path.join(folder, "docs", "caba.md"), plots=False)


def write_configs(folder):
    """fermi-caba extends 'parent', which holds the keys the page and the spec read."""
    configs = os.path.join(folder, "configs")
    os.makedirs(configs)
    with open(os.path.join(configs, "fermi-caba.toml"), "w") as f:
        f.write('base = "parent"\n[sm]\nshared_bytes = 32768\n')
    with open(os.path.join(configs, "parent.toml"), "w") as f:
        f.write("[clocks]\ndram = 1000.0\n[sm]\nregisters = 32768\n")
    return configs


def render(report, configs):
    """The page of `report`, its Study reading the configurations in `configs`."""
    original = caba_page.Study
    caba_page.Study = lambda report: original(report, configs=configs)
    try:
        return caba_page.render(report)
    finally:
        caba_page.Study = original


class SpecTest(unittest.TestCase):
    def test_designs_and_the_bandwidth_study(self):
        parsed = tomllib.loads(spec.spec_text(["vecadd", "mst"], "small", 924.0))
        variants = parsed["axes"]["variant"]
        self.assertEqual(variants[:8], data.DESIGNS)
        self.assertEqual(variants[8], "caba-bdi-ul2")
        self.assertEqual(parsed["variants"]["caba-bdi-ul2"]["overlays"], ["caba-bdi", "caba-uncompressed-l2"])
        self.assertNotIn("sets", parsed["variants"]["caba-bdi-ul2"])
        self.assertEqual(variants[9:14], list(CACHE_VARIANTS))
        for variant, overlay in (("caba-bdi-l1x2", "caba-l1-2x"), ("caba-bdi-l1x4", "caba-l1-4x"),
                                 ("caba-bdi-l2x2", "caba-l2-2x"), ("caba-bdi-l2x4", "caba-l2-4x"),
                                 ("caba-bdi-dl", "caba-direct-load")):
            self.assertEqual(parsed["variants"][variant]["overlays"], ["caba-bdi", overlay])
            self.assertNotIn("sets", parsed["variants"][variant])
        self.assertEqual(variants[14:], [f"{d}-bw{p}" for p in (50, 200) for d in spec.BANDWIDTH_DESIGNS])
        self.assertEqual(len(variants), 22)  # x 45 workloads: the 990 points of run.sh
        self.assertEqual(parsed["variants"]["caba-bdi-bw50"],
                         {"description": parsed["variants"]["caba-bdi-bw50"]["description"],
                          "overlays": ["caba-bdi"], "sets": ["clocks.dram=462.0"]})
        self.assertEqual(parsed["variants"]["base-bw200"]["sets"], ["clocks.dram=1848.0"])
        self.assertNotIn("overlays", parsed["variants"]["base"])
        self.assertEqual(parsed["axes"]["size"], ["small"])
        self.assertNotIn("exclude", parsed)

    def test_every_overlay_of_the_spec_exists(self):
        parsed = tomllib.loads(spec.spec_text(["vecadd"], "small", 924.0))
        for name, variant in parsed["variants"].items():
            for overlay in variant.get("overlays", []):
                self.assertTrue(os.path.isfile(os.path.join(spec.ROOT, "configs", "overlays",
                                                            f"{overlay}.toml")), (name, overlay))

    def test_mixed_size_runs_each_workload_at_one_size(self):
        parsed = tomllib.loads(spec.spec_text(["vecadd", "mst"], "mixed", 924.0))
        self.assertEqual(parsed["axes"]["size"], ["default", "small"])
        self.assertEqual(parsed["exclude"], [{"workload": ["vecadd"], "size": "default"},
                                             {"workload": ["mst"], "size": "small"}])
        only_small = tomllib.loads(spec.spec_text(["vecadd"], "mixed", 924.0))
        self.assertEqual(only_small["axes"]["size"], ["small"])
        self.assertNotIn("exclude", only_small)

    def test_variant_names_and_configuration_values(self):
        self.assertEqual(data.split_variant("caba-bdi-bw50"), ("caba-bdi", 50))
        self.assertEqual(data.split_variant("hw-bdi-mem"), ("hw-bdi-mem", 100))
        self.assertEqual(data.variant_name("base", 200), "base-bw200")
        configs = write_configs(tempfile.mkdtemp())
        self.assertEqual(data.config_value(configs, "fermi-caba", "clocks.dram"), 1000.0)
        self.assertEqual(data.config_value(configs, "fermi-caba", "sm.shared_bytes"), 32768)
        self.assertIsNone(data.config_value(configs, "fermi-caba", "sm.nothing"))


class RulesTest(unittest.TestCase):
    def test_gain_and_near(self):
        self.assertTrue(hl.gain(0.417, 0.25))
        self.assertFalse(hl.gain(0.417, 0.2))
        self.assertFalse(hl.gain(0.417, -0.3))
        self.assertTrue(hl.gain(-0.222, -0.12))
        self.assertFalse(hl.gain(-0.222, 0.05))
        self.assertTrue(hl.near(-0.028, 0.02))
        self.assertFalse(hl.near(-0.028, 0.03))
        self.assertTrue(hl.at_least(0.85, 0.76))
        self.assertFalse(hl.at_least(0.85, 0.74))
        self.assertIsNone(hl.gain(0.417, None))
        self.assertEqual(hl.verdict(None), "no data")


class StudyTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.mkdtemp()
        self.s = Study(write_sweep(folder), configs=write_configs(folder))
        self.c = {c.workload: c for c in self.s.cases}

    def test_selection_and_normalised_ipc(self):
        s, c = self.s, self.c
        self.assertEqual([x.workload for x in s.selected], ["w1", "w2"])
        self.assertEqual([x.workload for x in s.others], ["w3"])
        self.assertAlmostEqual(s.compressibility(c["w1"]), 0.5)
        self.assertAlmostEqual(s.compressibility(c["w2"]), 0.75)
        self.assertAlmostEqual(s.compressibility(c["w3"]), 0.0)
        self.assertAlmostEqual(s.ipc(c["w1"], "caba-bdi"), 1.5)
        self.assertAlmostEqual(s.ipc(c["w1"], "caba-bdi", 50), 1.5)
        self.assertAlmostEqual(s.ipc(c["w1"], "caba-bdi", 200), 1.1)
        self.assertAlmostEqual(s.ipc(c["w1"], "base", 200, 100), 2.0)
        self.assertAlmostEqual(s.geo(s.selected, lambda x: s.ipc(x, "caba-cpack")), 1.25)
        self.assertAlmostEqual(s.geo(s.cases, lambda x: s.ipc(x, "caba-bdi")), 1.5 ** (2 / 3))

    def test_compression_energy_assist_and_motivation(self):
        s, c = self.s, self.c
        bdi = s.run(c["w2"], "caba-bdi")
        self.assertAlmostEqual(bdi.burst_ratio(), 4.0)
        self.assertAlmostEqual(s.geo(s.selected, lambda x: s.value(x, "caba-bdi", lambda r: r.burst_ratio())),
                               math.sqrt(8))
        self.assertAlmostEqual(bdi.data_ratio(), 2.5)
        self.assertAlmostEqual(s.run(c["w1"], "caba-best").data_ratio(), 5.0)
        self.assertAlmostEqual(s.run(c["w1"], "caba-bdi").metadata_hit_rate(), 0.85)
        self.assertAlmostEqual(bdi.assist_share(), 1 / 3)
        self.assertAlmostEqual(bdi.wait_per_decompression(), 100.0)
        self.assertAlmostEqual(s.over_base(c["w1"], "caba-bdi", lambda r: r.energy()), 0.8)
        self.assertAlmostEqual(s.over_base(c["w1"], "caba-bdi", lambda r: r.edp()), 0.8 / 1.5)
        self.assertIsNone(s.run(c["w1"], "base").burst_ratio())
        self.assertAlmostEqual(bdi.extras_share(), 4.0 / 80.0)
        self.assertIsNone(s.run(c["w1"], "hw-bdi").extras_share())
        shares = s.issue(c["w1"])
        self.assertAlmostEqual(shares["active"], 0.4)
        self.assertAlmostEqual(shares["data_memory"], 0.5)
        self.assertEqual(s.stalls(c["w3"]), (0.3, 0.4))
        self.assertEqual([s.memory_bound(x) for x in s.cases], [True, True, False])
        # (1 - 20 x 32 x 32 / 32768) weighted 100, (1 - 16 x 32 x 48 / 32768) weighted 300.
        self.assertAlmostEqual(s.rf_unallocated(c["w1"]), (0.375 * 100 + 0.25 * 300) / 400)


    def test_a_workload_at_two_sizes_is_two_cases(self):
        folder = tempfile.mkdtemp()
        s = Study(write_sweep(folder, ("w1", "w3"), ("small", "default")), configs=write_configs(folder))
        self.assertEqual([c.label for c in s.cases],
                         ["w1 (small)", "w1 (default)", "w3 (small)", "w3 (default)"])
        self.assertEqual(len(s.selected), 2)


class PageTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.mkdtemp()
        self.report = write_sweep(folder)
        self.configs = write_configs(folder)

    def render(self):
        return render(self.report, self.configs)

    def test_headlines_are_marked_by_their_rules(self):
        h = hl.Headlines(Study(self.report, configs=self.configs)).build()
        v = h.verdicts
        self.assertEqual(v["ipc_caba_bdi"], "met")  # +50% against +41.7%
        self.assertEqual(v["ipc_caba_fpc"], "not met")  # +0%
        self.assertEqual(v["ipc_caba_cpack"], "met")  # +25% >= half of +35.2%
        self.assertEqual(v["vs_ideal_bdi"], "met")  # 1.5 / 1.6 - 1 = -6.25%, within 5 points of -2.8%
        self.assertEqual(v["vs_hw_bdi_mem"], "not met")  # +25% against +9.9%
        self.assertEqual(v["burst_ratio"], "met")  # 2.83x
        self.assertEqual(v["utilisation"], "met")  # 60% -> 30%
        self.assertEqual(v["energy"], "met")  # -20% against -22.2%
        self.assertEqual(v["metadata"], "met")  # 90%
        self.assertEqual(v["doubling"], "not met")  # 1.5 / 2.0
        self.assertEqual(v["memory_bound"], "met")  # 2 of 3 (66.7%) against 17 of 27 (63.0%)
        self.assertIn("HW-BDI-Mem changes IPC by +20.0% over Base and CABA-BDI by +50.0%",
                      h.reasons["vs_hw_bdi_mem"])
        self.assertEqual(h.not_met("speedup")[0][0], "CABA-FPC IPC vs Base")

    def test_the_page_fills_every_placeholder_and_shows_the_numbers(self):
        page = self.render()
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")
        self.assertIn("| CABA-BDI IPC vs Base | +41.7% | +50.0% (geometric mean over the 2 selected "
                      "cases) | met |", page)
        self.assertIn("| w1 | 1.20 | 1.60 | 1.60 | 1.50 | 1.00 | 1.25 | 1.50 |", page)
        self.assertIn("| Bandwidth reduction (compression ratio in DRAM bursts) | 2.10x | 2.83x "
                      "(CABA-BDI, geometric mean) | met |", page)
        self.assertIn("| w1 | 60.0% | 30.0% | 2.00x |", page)


class ProfileTest(unittest.TestCase):
    """Base at 2x: w1 2.0 (+100%), w2 1.04 (+4%: not bandwidth-limited), w3 1.05 (+5%, the
    threshold: bandwidth-limited)."""

    def setUp(self):
        folder = tempfile.mkdtemp()
        self.configs = write_configs(folder)
        self.report = write_sweep(folder, base_2x={"w2": 1.04, "w3": 1.05})
        self.s = Study(self.report, configs=self.configs)
        self.c = {c.workload: c for c in self.s.cases}

    def test_the_profile_enables_the_bandwidth_limited_cases(self):
        s, c = self.s, self.c
        self.assertAlmostEqual(s.bandwidth_gain(c["w2"]), 1.04)
        self.assertEqual([s.bandwidth_limited(x) for x in s.cases], [True, False, True])
        bdi = data.profiled("caba-bdi")
        self.assertEqual(data.unprofiled(bdi), ("caba-bdi", True))
        self.assertIs(s.run(c["w1"], bdi), s.run(c["w1"], "caba-bdi"))
        self.assertIs(s.run(c["w2"], bdi), s.run(c["w2"], "base"))
        self.assertAlmostEqual(s.ipc(c["w2"], bdi), 1.0)
        self.assertAlmostEqual(s.geo(s.selected, lambda x: s.ipc(x, bdi)), math.sqrt(1.5))
        self.assertTrue(s.has(bdi))

    def test_profiled_headlines_and_page(self):
        h = hl.Headlines(self.s).build()
        v = h.verdicts
        self.assertEqual(v["ipc_caba_bdi_profiled"], "met")  # +22.5% >= half of +41.7%
        self.assertEqual(v["ipc_caba_fpc_profiled"], "not met")  # +0%
        self.assertEqual(v["ipc_caba_cpack_profiled"], "not met")  # +11.8% < half of +35.2%
        self.assertEqual(v["vs_ideal_bdi_profiled"], "met")  # sqrt(1.5 / 1.6) - 1 = -3.2%
        self.assertEqual(v["vs_hw_bdi_mem_profiled"], "met")  # sqrt(1.5 / 1.2) - 1 = +11.8%
        self.assertEqual(v["ipc_caba_bdi"], "met")  # the unprofiled rows stay
        self.assertIn("compression is on for 1 of the 2 selected cases (Base at 2x the DRAM bandwidth "
                      "at least 5% faster than at 1x: w1), and on them CABA-FPC changes IPC by +0.0% "
                      "over Base", h.reasons["ipc_caba_fpc_profiled"])
        page = render(self.report, self.configs)
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")
        self.assertIn("| CABA-BDI IPC vs Base, compression enabled by static profile | +41.7% | +22.5% "
                      "(geometric mean over the 2 selected cases, compression on for 1) | met |", page)
        self.assertIn("| w1 | small | – | 60.0% | 90.0% | 50.0% | yes | yes | yes (+100.0%) |", page)
        self.assertIn("| w2 | small | – | 60.0% | 50.0% | 75.0% | yes | yes | no (+4.0%) |", page)
        self.assertIn("| w3 | small | – | 60.0% | 95.0% | 0.0% | no | no | yes (+5.0%) |", page)
        self.assertIn("| **enabled by static profile**, selected (2) | 1.10 | 1.26 | 1.26 | 1.22 | 1.00 "
                      "| 1.12 | 1.22 |", page)
        self.assertIn("| the bandwidth-limited selected cases only (1) | 1.20 | 1.60 | 1.60 | 1.50 | "
                      "1.00 | 1.25 | 1.50 |", page)

    def test_without_base_at_2x_there_is_no_profile(self):
        folder = tempfile.mkdtemp()
        report = write_sweep(folder, skip=("base-bw200",))
        s = Study(report, configs=write_configs(folder))
        self.assertFalse(s.has(data.profiled("caba-bdi")))
        self.assertIsNone(s.bandwidth_limited(s.cases[0]))
        self.assertIsNone(s.run(s.cases[0], data.profiled("caba-bdi")))
        self.assertEqual(hl.Headlines(s).build().verdicts["ipc_caba_bdi_profiled"], "no data")
        self.assertIn("Not run: the profile needs Base at 2x the DRAM bandwidth (`base-bw200`).",
                      render(report, write_configs(tempfile.mkdtemp())))


class UncompressedL2Test(unittest.TestCase):
    """w1 (L2 hit rate 90%) and w2 (50%) selected; w3 (95%) stands for RAY here, not selected."""

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.configs = write_configs(self.folder)

    def page(self, report):
        with mock.patch.object(caba_paper, "APPLICATIONS", [("RAY", "CUDA SDK", "w3", "ray tracing")]):
            return render(report, self.configs)

    def test_the_section_and_the_headline(self):
        report = write_sweep(self.folder)
        s = Study(report, configs=self.configs)
        self.assertTrue(s.ran(data.UNCOMPRESSED_L2))
        self.assertAlmostEqual(s.l2_hit_rate(s.cases[0]), 0.9)
        h = hl.Headlines(s).build()
        self.assertEqual([c.workload for c in h.high_l2_hit()], ["w1"])
        self.assertEqual(h.verdicts["uncompressed_l2"], "met")  # 1.65 / 1.5 = 1.1 > 1
        page = self.page(report)
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")
        self.assertIn("| `caba-bdi-ul2` | CABA-BDI, uncompressed L2 | 1x | `--overlay caba-bdi "
                      "--overlay caba-uncompressed-l2` |", page)
        self.assertIn("| Uncompressed L2 helps the cases with high L2 hit rates | helps, e.g. RAY (no "
                      "numbers) | +10.0% IPC over CABA-BDI, geometric mean over the selected cases "
                      "with a Base L2 hit rate of at least 80% (1); -20.0% over the others (1) | met |",
                      page)
        self.assertIn("| w1 | 90.0% | 1.50 | 1.65 | 1.10 | 10 | 4 |", page)
        self.assertIn("| w2 | 50.0% | 1.50 | 1.20 | 0.80 | 10 | 4 |", page)
        self.assertIn("| w3 (RAY, not selected) | 95.0% | 1.00 | 1.00 | 1.00 | 10 | 4 |", page)
        self.assertIn("| **geometric mean, Base L2 hit rate at least 80%** (1) | – | 1.50 | 1.65 | 1.10 "
                      "| – | – |", page)
        self.assertIn("| **geometric mean, selected** (2) | – | 1.50 | 1.41 | 0.94 | – | – |", page)
        self.assertIn("**Uncompressed L2.** Keeping the L2 uncompressed spares the decompression of L2 "
                      "hits: on the selected cases its assist warps decompress 40.0% as many lines as "
                      "CABA-BDI's", page)

    def test_a_selected_case_of_ray_is_marked_not_repeated(self):
        s = Study(write_sweep(self.folder), configs=self.configs)
        with mock.patch.object(caba_paper, "APPLICATIONS", [("RAY", "CUDA SDK", "w2", "ray tracing")]):
            self.assertEqual([label for label, _ in caba_page.uncompressed_l2_cases(s)],
                             ["w1", "w2 (RAY)"])

    def test_without_its_runs_the_page_says_not_run(self):
        report = write_sweep(self.folder, skip=("caba-bdi-ul2",))
        s = Study(report, configs=self.configs)
        self.assertFalse(s.ran(data.UNCOMPRESSED_L2))
        self.assertEqual(hl.Headlines(s).build().verdicts["uncompressed_l2"], "not run")
        page = self.page(report)
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")
        self.assertIn("| Uncompressed L2 helps the cases with high L2 hit rates | helps, e.g. RAY (no "
                      "numbers) | not run (no `caba-bdi-ul2` runs) | not run |", page)
        self.assertIn("need no decompression. Not run: this sweep has no `caba-bdi-ul2` runs.", page)
        self.assertIn("**Uncompressed L2.** Not run: this sweep has no `caba-bdi-ul2` runs.", page)
        self.assertNotIn("`caba-bdi-ul2` | CABA-BDI, uncompressed L2", page)


class CacheCompressionTest(unittest.TestCase):
    """w1 (bfs, TRA) and w2 (sssp, hs) selected, w3 (LPS, KM, MM) not: OVER_CABA_BDI."""

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.configs = write_configs(self.folder)
        patch = mock.patch.object(caba_paper, "APPLICATIONS", CACHE_APPLICATIONS)
        patch.start()
        self.addCleanup(patch.stop)

    def headlines(self, report):
        return hl.Headlines(Study(report, configs=self.configs)).build()

    def test_the_headlines(self):
        h = self.headlines(write_sweep(self.folder))
        v = h.verdicts
        self.assertEqual(v["l1_compression_helps"], "not met")  # w1 1.02 > 1; w2 0.97, 0.98
        self.assertEqual(v["l1_compression_hurts"], "met")  # w2 0.97, 0.98; w3 0.99, 0.95
        self.assertEqual(v["l2_compression_helps"], "met")  # w1 1.2; w3 1.05
        self.assertEqual(v["direct_load"], "met")  # sqrt(1.04 x 1.01) = 1.0249: +2.5%
        rows = {r[0]: r[1:] for r in h.rows}
        self.assertEqual(rows["L1 cache compression helps bfs, sssp"],
                         ("helps (no numbers)", "w1: 2x tags +2.0%, 4x tags -1.0%; w2: 2x tags -3.0%, "
                          "4x tags -2.0%", "not met"))
        self.assertEqual(rows["L1 cache compression hurts hw (hs), LPS"],
                         ("hurts: decompression overhead on every frequent L1 access (no numbers)",
                          "w2: 2x tags -3.0%, 4x tags -2.0%; w3: 2x tags -1.0%, 4x tags -5.0%", "met"))
        self.assertEqual(rows["L2 cache compression helps TRA, KM"],
                         ("helps (no numbers)", "w1: 2x tags +10.0%, 4x tags +20.0%; w3: 2x tags "
                          "+0.0%, 4x tags +5.0%", "met"))
        self.assertEqual(rows["Direct-Load over CABA-BDI (average)"],
                         ("+2.5% (up to +4.6%, MM)", "+2.5% (geometric mean over the 2 selected cases; "
                          "up to +4.0%, w1)", "met"))
        # w2 alone fails; its 4x run: 40 of 100 L1 hits on compressed lines, 10 + 40 decompressions
        # per 1,000 instructions.
        self.assertEqual(h.reasons["l1_compression_helps"],
                         "w2: with 4x tags 40.0% of the L1 hits are on lines held compressed, each "
                         "decompressed again, and assist warps decompress 50.0 lines per 1,000 "
                         "instructions (CABA-BDI: 10.0)")
        self.assertEqual(h.reasons["l1_compression_hurts"], "")

    def test_the_reasons_of_l2_compression_and_direct_load(self):
        with mock.patch.object(caba_paper, "L2_COMPRESSION_HELPS", ["sssp"]), \
                mock.patch.object(caba_paper, "DIRECT_LOAD", 0.06):
            h = self.headlines(write_sweep(self.folder))
        self.assertEqual(h.verdicts["l2_compression_helps"], "not met")  # w2 1.0, 0.9
        self.assertEqual(h.reasons["l2_compression_helps"],
                         "w2: Base's L2 hit rate is 50.0%, and with 4x tags the L2 misses 1.10x as "
                         "often as CABA-BDI's")  # 44 / 40
        self.assertEqual(h.verdicts["direct_load"], "not met")  # +2.5% < half of +6%
        # 60 of 100 L1 hits; (70 + 70) decompressions against (10 + 10).
        self.assertEqual(h.reasons["direct_load"],
                         "on the selected cases 60.0% of Direct-Load's L1 hits are on lines held "
                         "compressed, each read by a Direct-Load routine, and its routines run 7.00x "
                         "as often as CABA-BDI's decompressions")

    def test_applications_without_a_case_have_no_data(self):
        with mock.patch.object(caba_paper, "APPLICATIONS", CACHE_APPLICATIONS[:3]):
            h = self.headlines(write_sweep(self.folder))
        self.assertEqual(h.verdicts["l1_compression_hurts"], "no data")  # LPS has no workload
        self.assertIn(("L1 cache compression hurts hw (hs), LPS",
                       "hurts: decompression overhead on every frequent L1 access (no numbers)",
                       "w2: 2x tags -3.0%, 4x tags -2.0%; LPS: no case", "no data"), h.rows)
        self.assertEqual(h.verdicts["l2_compression_helps"], "no data")

    def test_the_section_and_the_discussion(self):
        report = write_sweep(self.folder)
        s = Study(report, configs=self.configs)
        self.assertEqual([label for label, _ in caba_page.named_cases(
            s, caba_page.cache_compression_applications())],
            ["w1 (bfs, TRA)", "w2 (sssp, hs)", "w3 (LPS, KM, MM, not selected)"])
        self.assertAlmostEqual(s.run(s.cases[0], "caba-bdi-l1x4").form_hit_share(), 0.4)
        self.assertAlmostEqual(s.run(s.cases[0], "caba-bdi-dl").decompressions_per_k(), 70.0)
        page = render(report, self.configs)
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")
        self.assertIn("| `caba-bdi-l1x2` | CABA-BDI, L1 compressed, 2x tags | 1x | `--overlay caba-bdi "
                      "--overlay caba-l1-2x` |", page)
        self.assertIn("| `caba-bdi-dl` | CABA-BDI, Direct-Load | 1x | `--overlay caba-bdi --overlay "
                      "caba-direct-load` |", page)
        self.assertLess(page.index("## Uncompressed L2"), page.index("## Cache compression and Direct-Load"))
        self.assertLess(page.index("## Cache compression and Direct-Load"), page.index("## DRAM bandwidth study"))
        self.assertIn("and L1 compression hurts hw and LPS (decompression overhead on every frequent "
                      "L1 access; hw: not in the study's list; taken as hs). Direct-Load, where the "
                      "coalescer extracts the deltas a load needs from a compressed line, gains +2.5% "
                      "over CABA-BDI on average, up to +4.6% (MM).", page)
        self.assertIn("| case | CABA-BDI / Base | L1 2x tags | L1 4x tags | L2 2x tags | L2 4x tags | "
                      "Direct-Load | L1 hits on compressed lines (4x) | L2 misses (4x) / CABA-BDI |", page)
        self.assertIn("| w1 (bfs, TRA) | 1.50 | 1.02 | 0.99 | 1.10 | 1.20 | 1.04 | 40.0% | 0.50 |", page)
        self.assertIn("| w2 (sssp, hs) | 1.50 | 0.97 | 0.98 | 1.00 | 0.90 | 1.01 | 40.0% | 1.10 |", page)
        self.assertIn("| w3 (LPS, KM, MM, not selected) | 1.00 | 0.99 | 0.95 | 1.00 | 1.05 | 1.00 | 40.0% "
                      "| 0.90 |", page)
        # sqrt(1.02 x 0.97) = 0.995, sqrt(0.99 x 0.98) = 0.985, sqrt(1.1) = 1.049, sqrt(1.08) = 1.039,
        # sqrt(1.04 x 1.01) = 1.025, sqrt(0.5 x 1.1) = 0.742.
        self.assertIn("| **mean, selected** (2) | 1.50 | 0.99 | 0.98 | 1.05 | 1.04 | 1.02 | 40.0% | 0.74 |",
                      page)
        self.assertIn("| L1 cache compression helps bfs, sssp | helps (no numbers) | w1: 2x tags +2.0%, "
                      "4x tags -1.0%; w2: 2x tags -3.0%, 4x tags -2.0% | not met |", page)
        self.assertIn("**Cache compression and Direct-Load.** Against CABA-BDI on the selected cases "
                      "(geometric means), compressing the L1 changes IPC by -0.5% with 2x tags and -1.5% "
                      "with 4x tags, 40.0% of the latter's L1 hits being on lines it holds compressed, "
                      "each decompressed again; compressing the L2 by +4.9% with 2x tags and +3.9% with "
                      "4x tags, the latter missing in the L2 0.74x as often as CABA-BDI; Direct-Load by "
                      "+2.5%.\nNot met:\n\n- *L1 cache compression helps bfs, sssp*: w2: with 4x tags "
                      "40.0% of the L1 hits", page)

    def test_without_their_runs_the_page_says_not_run(self):
        report = write_sweep(self.folder, skip=CACHE_VARIANTS)
        h = self.headlines(report)
        for key in ("l1_compression_helps", "l1_compression_hurts", "l2_compression_helps", "direct_load"):
            self.assertEqual(h.verdicts[key], "not run")
        page = render(report, self.configs)
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")
        self.assertIn("| L1 cache compression helps bfs, sssp | helps (no numbers) | not run (no "
                      "`caba-bdi-l1x2`, `caba-bdi-l1x4` runs) | not run |", page)
        self.assertIn("| L2 cache compression helps TRA, KM | helps (no numbers) | not run (no "
                      "`caba-bdi-l2x2`, `caba-bdi-l2x4` runs) | not run |", page)
        self.assertIn("| Direct-Load over CABA-BDI (average) | +2.5% (up to +4.6%, MM) | not run (no "
                      "`caba-bdi-dl` runs) | not run |", page)
        not_run = ("Not run: this sweep has no `caba-bdi-l1x2`, `caba-bdi-l1x4`, `caba-bdi-l2x2`, "
                   "`caba-bdi-l2x4`, `caba-bdi-dl` runs.")
        self.assertIn("instead of the whole line's decompression. " + not_run, page)
        self.assertIn("**Cache compression and Direct-Load.** " + not_run, page)

    def test_without_direct_load_only_its_row_is_not_run(self):
        h = self.headlines(write_sweep(self.folder, skip=("caba-bdi-dl",)))
        self.assertEqual(h.verdicts["direct_load"], "not run")
        self.assertEqual(h.verdicts["l1_compression_hurts"], "met")


if __name__ == "__main__":
    unittest.main()
