"""Tests of the XMem experiment's spec (spec.py), metrics (xmem_data.py) and page (xmem_page.py)
on a hand-made sweep whose metrics are worked out by hand. Run (ctest: xmem_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/xmem/experiment -p '*_test.py'
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
import sweep_report  # noqa: E402
import xmem_data as data  # noqa: E402
import xmem_discussion  # noqa: E402
import xmem_page  # noqa: E402
from sweep_fixture import write_tables  # noqa: E402

FULL, QUARTER = 786432, 196608
# Tiled workload "t": cycles by (L2, tile KB, XMem). Best tile: 64 KB on both L2 sizes.
TILE_CYCLES = {
    (FULL, 16, ""): 300, (FULL, 64, ""): 100, (FULL, 256, ""): 120,
    (FULL, 16, "xmem"): 300, (FULL, 64, "xmem"): 100, (FULL, 256, "xmem"): 110,
    (QUARTER, 16, ""): 300, (QUARTER, 64, ""): 150, (QUARTER, 256, ""): 240,
    (QUARTER, 16, "xmem"): 300, (QUARTER, 64, "xmem"): 120, (QUARTER, 256, "xmem"): 180,
    (QUARTER, 256, "pin"): 168,
}
# Placement workload "p": (design, mapping) -> (cycles, row-hit rate, read latency).
PLACEMENT = {("random", "hash"): (1000, 0.4, 250), ("random", "scheme7"): (900, 0.5, 200),
             ("xmem", "hash"): (800, 0.6, 190), ("xmem", "scheme7"): (750, 0.75, 150),
             ("ideal", "hash"): (700, 1.0, 120), ("ideal", "scheme7"): (600, 1.0, 100)}


def document(cycles, xmem=False, row_hits=None, latency=None):
    amu = {"alb_hits": 99, "alb_misses": 1} if xmem else {}
    return {"verified": True, "kernels": [{"xmem": {"atoms": 3, "host_ops": 10 if xmem else 0, "device_ops": 0}}],
            "totals": {"cycles": cycles, "thread_instructions": 100000,
                       "timing": {"cycles": cycles, "dram_row_buffer_hit_rate": row_hits,
                                  "dram_read_latency_l2_cycles": latency, "memory": {"l2_policy": {"amu": amu}}}}}


def write_sweep(folder):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "spec.toml"), "w") as f:
        f.write(spec.spec_text(quick=True))
    points, table = [], []

    def add(workload, l2, variant, doc):
        axes = {"workload": workload, "size": 512 if workload == "t" else "default", "config": "gtx480",
                "variant": variant, "set:l2.size": l2}
        pid = f"{len(points):016x}"
        points.append({"id": pid, "axes": axes, "argv": ["run", workload]})
        table.append(dict({"id": pid}, **axes, status="pass", wall_seconds=1.0))
        os.makedirs(os.path.join(folder, "points", pid))
        with open(os.path.join(folder, "points", pid, "stats.json"), "w") as f:
            json.dump(doc, f)

    for (l2, kb, mode), cycles in TILE_CYCLES.items():
        add("t", l2, f"tile{kb}k" + (f"-{mode}" if mode else ""), document(cycles, bool(mode)))
    for (design, mapping), (cycles, hits, latency) in PLACEMENT.items():
        add("p", FULL, f"{design}-{mapping}", document(cycles, row_hits=hits, latency=latency))
    write_tables(folder, points, table)
    return sweep_report.Report(folder, os.path.join(folder, "docs", "xmem.md"), plots=False)


class SpecTest(unittest.TestCase):
    def test_tiling_runs_every_l2_size_and_placement_only_the_configured_one(self):
        parsed = tomllib.loads(spec.spec_text())
        self.assertEqual(parsed["axes"]["set"]["l2.size"], spec.L2_BYTES)
        variants = parsed["variants"]
        self.assertEqual(variants["tile512k-xmem"]["overlays"], ["xmem-cache"])
        self.assertEqual(variants["tile512k-xmem"]["options"], ["--tile-bytes", "524288"])
        self.assertEqual(variants["ideal-scheme7"]["sets"], ['dram.mapping="scheme7"', "dram.ideal_row_buffer=true"])
        self.assertEqual(variants["xmem-hash"]["overlays"], ["xmem-placement"])
        # Every variant name parses back to what it runs.
        self.assertEqual(data.parse_variant("tile512k-xmem"), ("tile", 512, "xmem"))
        self.assertEqual(data.parse_variant("tile32k-pin"), ("tile", 32, "pin"))
        self.assertEqual(data.parse_variant("tile32k"), ("tile", 32, ""))
        self.assertEqual(variants["tile32k-pin"]["sets"], ["l2.atoms.prefetch=false"])
        self.assertEqual(variants["tile32k-pin"]["overlays"], ["xmem-cache"])
        self.assertEqual(data.parse_variant("random-minimalist"), ("placement", "random", "minimalist"))
        self.assertIsNone(data.parse_variant("other"))
        for name in variants:
            self.assertIsNotNone(data.parse_variant(name), name)

    def test_quick_keeps_two_mappings(self):
        parsed = tomllib.loads(spec.spec_text(quick=True))
        mappings = {data.parse_variant(v)[2] for v in parsed["axes"]["variant"] if v.startswith("xmem-")}
        self.assertEqual(mappings, {"hash", "scheme7"})


class MetricsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.study = xmem_page.Study(write_sweep(self.tmp.name))

    def tearDown(self):
        self.tmp.cleanup()

    def test_tiling_metrics(self):
        s = self.study
        self.assertEqual(s.l2_sizes, [FULL, QUARTER])
        self.assertEqual(s.best_tile("t", FULL), 64)
        self.assertEqual(s.best_tile("t", QUARTER), 64)
        self.assertEqual(s.slowdowns_small(), [2.0])  # 300 / 100 - 1
        self.assertEqual(len(s.slowdowns_oversized("")), 1)
        self.assertAlmostEqual(s.slowdowns_oversized("")[0], 0.6)  # 256 KB > 192 KB: 240 / 150 - 1
        self.assertAlmostEqual(s.slowdowns_oversized("xmem")[0], 0.2)  # 180 / 150 - 1
        self.assertAlmostEqual(s.slowdowns_oversized("pin")[0], 0.12)  # 168 / 150 - 1
        self.assertAlmostEqual(s.portability("t", ""), 0.5)  # 64 KB: 150 / 100 - 1
        self.assertAlmostEqual(s.portability("t", "xmem"), 0.2)  # 120 / 100 - 1
        self.assertIsNone(s.portability("t", "pin"))  # no 64 KB run without the prefetcher

    def test_same_tile_compares_cache_fit_alone(self):
        # Only 256 KB fits 768 KB and exceeds 192 KB: 240 / 120 - 1 and, with XMem, 180 / 120 - 1.
        self.assertEqual(self.study.same_tile_slowdowns(""), [("t", QUARTER, 256, 1.0)])
        self.assertEqual(self.study.same_tile_slowdowns("xmem"), [("t", QUARTER, 256, 0.5)])
        (pin,) = self.study.same_tile_slowdowns("pin")
        self.assertEqual(pin[:3], ("t", QUARTER, 256))
        self.assertAlmostEqual(pin[3], 0.4)

    def test_discussion_values(self):
        v = xmem_discussion.discussion_values(self.study)
        self.assertEqual(v["best_oversized"], "0 of the 1")  # 64 KB is best on 192 KB
        self.assertEqual(v["fit_by_workload"], "t +100.0%")
        self.assertEqual(v["xmem_by_workload"], "t -25.0%")  # 180 / 240 - 1
        self.assertEqual(v["pin_by_workload"], "t -30.0%")  # 168 / 240 - 1
        self.assertEqual(v["small_worst"], "t's 16 KB tile")
        self.assertEqual(v["best_tiles"], "on 768 KB, t 64 KB; on 192 KB, t 64 KB")
        self.assertEqual(v["mapping_counts"], "scheme7 on 1")
        self.assertEqual(v["x5_range"], "+20.0% (p)")
        self.assertEqual(v["captured"], "40.0%")  # 0.2 / 0.5
        self.assertEqual(v["rbh_base"], "50.0%")
        self.assertEqual(v["study_headroom"], "3%")

    def test_placement_metrics(self):
        s = self.study
        self.assertEqual(s.baseline_mapping("p"), "scheme7")  # random frames: 900 < 1000
        self.assertAlmostEqual(s.over_baseline("p", "xmem"), 900 / 750 - 1)
        self.assertAlmostEqual(s.over_baseline("p", "ideal"), 0.5)
        self.assertAlmostEqual(s.latency_changes()["p"], -0.25)  # 150 / 200 - 1

    def test_overheads(self):
        s = self.study
        self.assertAlmostEqual(s.alb_coverage(), 0.99)
        self.assertEqual(len(s.op_overheads()), 7)  # the XMem tiling runs
        self.assertAlmostEqual(s.op_overheads()[0], 1e-4)

    def test_page_puts_each_headline_beside_the_paper(self):
        page = xmem_page.render(write_sweep(os.path.join(self.tmp.name, "again")))
        self.assertIn("| X1 small tiles, slower than the best tile (mean, largest) | +28.7% (up to 2.0x) | "
                      "+200.0% (up to 3.0x) |", page)
        self.assertIn("| X5 DRAM placement over the strengthened baseline (mean, largest) | +8.5% (up to +31.9%) | "
                      "+20.0% (up to +20.0%) |", page)
        self.assertIn("| X9 ALB coverage of atom lookups | 98.9% | 99.0% |", page)
        self.assertIn("| p | scheme7 | +20.0% | +50.0% | 50.0% | 75.0% | 200 | 150 |", page)
        self.assertIn("| 768 KB | LRU | 300 | **100** | 120 |", page)
        self.assertIn("| 192 KB | XMem, no prefetch | – | – | 168 |", page)
        self.assertIn("| X2, X3 by cache fit alone: a tile that fits the configured L2, on a smaller L2 it exceeds, "
                      "against the same tile on the configured L2 (Baseline; XMem; XMem without its prefetcher) | "
                      "+64.8%; +26.9% | +100.0% (up to 2.0x); +50.0% (up to 1.5x); +40.0% (up to 1.4x) |", page)
        self.assertIn("## Discussion", page)
        self.assertNotIn("{", page.split("## Discussion")[1])


if __name__ == "__main__":
    unittest.main()
