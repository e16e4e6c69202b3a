"""Unit tests of autotune.py: the sweep it writes and how it ranks the points (no simulator)."""

import os
import sys
import tomllib
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import autotune  # noqa: E402


def stats(*launches):
    """A stats document with launches (cycles, ctas per SM, carveout KB: regs, shared, l1, unused)."""
    kernels = []
    for cycles, ctas, (r, s, l1, u) in launches:
        kernels.append({"cycles": cycles, "timing": {"occupancy": {
            "ctas_per_sm": ctas,
            "carveout": {"register_bytes": r * 1024, "shared_bytes": s * 1024, "l1_bytes": l1 * 1024,
                         "unused_bytes": u * 1024}}}})
    return {"kernels": kernels}


def row(pid, budget, threads, l1_kb, cycles, status="pass"):
    return {"id": pid, "status": status, "cycles": cycles, "set:compiler.registers": budget,
            "set:resources.unified.max_threads": threads, "set:resources.unified.max_l1_bytes": l1_kb * 1024}


class SpecTest(unittest.TestCase):
    def test_the_three_knobs_are_axes_of_one_pool(self):
        spec = tomllib.loads(autotune.spec_text("pcr", "small", "fermi-unified", 384, ["minimal", "24"],
                                                [0, 512], [256, 64]))
        self.assertEqual(spec["axes"]["workload"], ["pcr"])
        self.assertEqual(spec["axes"]["config"], ["fermi-unified"])
        self.assertEqual(spec["axes"]["variant"], ["unified-384"])
        self.assertEqual(spec["variants"]["unified-384"]["overlays"], ["unified-384"])
        axes = spec["axes"]["set"]
        self.assertEqual(axes["compiler.registers"], ["minimal", "24"])  # text, as the key takes it
        self.assertEqual(axes["resources.unified.max_threads"], [0, 512])
        self.assertEqual(axes["resources.unified.max_l1_bytes"], [262144, 65536])
        self.assertEqual(spec["columns"], {"cycles": "totals.cycles"})

    def test_numeric_size(self):
        spec = tomllib.loads(autotune.spec_text("pcr", "512", "fermi-unified", 128, ["minimal"], [0], [16]))
        self.assertEqual(spec["axes"]["size"], [512])


class RankingTest(unittest.TestCase):
    def test_fastest_first_ties_in_grid_order_with_the_main_launchs_division(self):
        rows = [row("a", "minimal", 0, 256, 1000), row("b", '"24"', 0, 256, 900),
                row("c", "minimal", 512, 64, 900), row("d", "minimal", 256, 16, 0, status="failed")]
        documents = {
            "a": stats((10, 8, (128, 0, 256, 0))),
            "b": stats((5, 1, (1, 1, 1, 1)), (700, 6, (96, 16, 256, 16))),  # the longer launch counts
            "c": stats((900, 4, (64, 8, 64, 248))),
        }
        ranked, failed = autotune.ranking(rows, documents.get)
        self.assertEqual([(r["budget"], r["max_threads"], r["max_l1_kb"], r["cycles"]) for r in ranked],
                         [("24", 0, 256, 900), ("minimal", 512, 64, 900), ("minimal", 0, 256, 1000)])
        self.assertEqual(ranked[0]["ctas_per_sm"], 6)
        self.assertEqual(ranked[0]["carveout"]["shared_bytes"], 16 * 1024)
        self.assertEqual([r["id"] for r in failed], ["d"])

    def test_report_lists_the_division_in_kb(self):
        ranked, _ = autotune.ranking([row("a", "minimal", 0, 256, 1000), row("b", "minimal", 768, 64, 1100)],
                                     {"a": stats((1000, 4, (96, 8, 256, 24))), "b": None}.get)
        text = autotune.report_text("sgemm-tiled", ranked, 10).splitlines()
        self.assertEqual(text[2].split(), ["1", "minimal", "all", "256", "1,000", "1.000", "4", "96", "8", "256", "24"])
        self.assertEqual(text[3].split(), ["2", "minimal", "768", "64", "1,100", "1.100", "-", "-", "-", "-", "-"])


if __name__ == "__main__":
    unittest.main()
