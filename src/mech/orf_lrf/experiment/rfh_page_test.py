"""Tests of the register-file-hierarchy experiment's spec (spec.py), metrics (rfh_data.py) and
page (rfh_page.py) on a hand-made sweep whose metrics are worked out by hand. Run (ctest:
rf_hierarchy_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/orf_lrf/experiment -p '*_test.py'
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
import rfh_data as data  # noqa: E402
import rfh_page  # noqa: E402
import spec  # noqa: E402
import sweep_report  # noqa: E402
from sweep_fixture import write_tables  # noqa: E402

IPC = {"tl4": 0.9, "tl6": 0.99, "tl32": 1.0, "base": 1.0, "gto": 1.0}


def level(reads=0, results=0, writebacks=0):
    return {"operand_reads": reads, "result_writes": results, "writeback_writes": writebacks,
            "reads": reads, "writes": results + writebacks}


def document(variant):
    """base: 100 operand words read, RF energy (800 x 8 + 400 x 11) pJ = 10.8 nJ. Every other
    design: 40 of 100 reads and 30 of 100 writes in the MRF, 5.32 nJ (MRF 4.32 + upper 1.0)."""
    if variant in IPC:
        rf = {"array_reads": 800, "array_writes": 400, "crossbar_bytes": 0}
        components = {}
    else:
        upper = "rfc" if variant.startswith("rfc") else "orf"
        h = {"mrf": level(40, 10, 20), upper: level(60, 90), "instructions": 100, "invalid_reads": 0}
        if variant.startswith("orflrf"):
            h["orf"] = level(30, 45)
            h["lrf"] = level(30, 45)
        if variant == "rfc-fifo-hint-3":
            h["value_usage"] = {"reads_per_value": [0, 6, 2, 1, 1],
                                "read_once_lifetime": [4, 1, 1, 0, 0, 0, 0, 0, 0, 0]}
        rf = {"array_reads": 320, "array_writes": 160, "crossbar_bytes": 0, "hierarchy": h}
        components = {f"{upper}_bank": {"nj": 1.0}}
    return {"workload": "w", "verified": True, "kernels": [],
            "totals": {"warp_instructions": 100,
                       "timing": {"cycles": 100, "ipc": IPC.get(variant, 1.0),
                                  "sm": {"register_file": rf}, "energy": {"components": components}}}}


def write_sweep(folder):
    text = spec.spec_text()
    with open(os.path.join(folder, "spec.toml"), "w") as f:
        f.write(text)
    parsed = tomllib.loads(text)
    excluded = parsed.get("exclude", [])
    points, table = [], []
    for variant in parsed["axes"]["variant"]:
        for registers in parsed["axes"]["registers"]:
            axes = {"workload": "w", "size": "small", "config": "fermi-rfh", "variant": variant,
                    "registers": registers}
            if any(all(axes[k] in v if isinstance(v, list) else axes[k] == v for k, v in e.items())
                   for e in excluded):
                continue
            pid = f"{len(points):016x}"
            points.append({"id": pid, "axes": axes, "argv": ["run", "w"]})
            table.append(dict({"id": pid}, **axes, status="pass", wall_seconds=1.0))
            os.makedirs(os.path.join(folder, "points", pid))
            with open(os.path.join(folder, "points", pid, "stats.json"), "w") as f:
                json.dump(document(variant), f)
    write_tables(folder, points, table)
    return sweep_report.Report(folder, os.path.join(folder, "docs", "rf-hierarchy.md"), plots=False)


class SpecTest(unittest.TestCase):
    def test_variants_price_the_upper_levels_by_their_size(self):
        parsed = tomllib.loads(spec.spec_text())
        v = parsed["variants"]
        self.assertIn("energy.extra.rfc_array_read.pj=2.0", v["rfc-fifo-hint-6"]["sets"])
        self.assertIn("sm.register_file.orf_write_pj=5.92", v["orf-3"]["sets"])
        self.assertEqual(v["base"]["overlays"], ["two-level"])
        # Virtual registers only for the five main designs.
        kept = [n for n in parsed["axes"]["variant"] if n not in parsed["exclude"][0]["variant"]]
        self.assertEqual(kept, spec.MAIN)


class PageTest(unittest.TestCase):
    def setUp(self):
        self.study = rfh_page.Study(write_sweep(tempfile.mkdtemp()))

    def test_traffic_energy_and_usage_metrics(self):
        s = self.study
        self.assertAlmostEqual(s.reads_avoided("rfc-fifo-hint-4"), 0.6)
        self.assertAlmostEqual(s.writes_avoided("rfc-lru-nohint-2"), 0.7)
        self.assertAlmostEqual(s.saving("orf-3"), 5.32 / 10.8 - 1)
        self.assertAlmostEqual(s.mrf_reads_per_instruction("base"), 1.0)
        self.assertAlmostEqual(s.mrf_reads_per_instruction("orflrf-3"), 0.4)
        self.assertAlmostEqual(s.share("orflrf-3", "lrf"), 0.3)
        reads, life = s.value_usage()
        self.assertAlmostEqual(reads[1], 0.6)
        self.assertAlmostEqual(life[0], 0.4)
        self.assertAlmostEqual(s.ipc_vs_32("tl6"), 0.99)
        self.assertEqual(data.ratio(1, 0), None)

    def test_the_page_fills_every_placeholder_and_marks_targets(self):
        page = rfh_page.render(write_sweep(tempfile.mkdtemp()))
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")
        self.assertIn("| 1. two-level: A = 8 within about 1% of A = 32; A = 6 a small loss |", page)
        self.assertIn("| thesis | 1.23 | 0.57 |", page)


if __name__ == "__main__":
    unittest.main()
