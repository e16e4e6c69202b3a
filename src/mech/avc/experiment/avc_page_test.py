"""Tests of the AVC experiment's stage-2 spec (budget_spec.py), metrics (avc_data.py) and page
(avc_page.py) on a hand-made sweep whose metrics are worked out by hand. Run (ctest:
avc_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/avc/experiment -p '*_test.py'
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
import avc_data as data  # noqa: E402
import avc_page  # noqa: E402
import budget_spec  # noqa: E402
import sweep_report  # noqa: E402
from sweep_fixture import write_tables  # noqa: E402

# One workload "w" with kernel "k": rbase 10, smallest budget 4, so 0.5 rbase = 5.
STAGE1 = {"w": {"k": (10, 4), "tiny": (6, 4)}}
WARPS = 100_000


def kernel(name, registers, below=0, cycles=1000, nj=500.0, dynamic=100.0, classes=None,
           hits=0, lookups=0):
    lp = {"below": {"fills_l1": below}, "avc": {"full_hits": hits, "lookups": lookups},
          "transactions": {"loads": classes or {}, "stores": {}}, "check": {"mismatches": 0}}
    return {"name": name, "regs_per_thread": registers, "warp_instructions": WARPS,
            "cycles": cycles, "timing": {"energy": {"total_nj": nj, "dynamic_nj": dynamic},
                                         "memory": {"local_path": lp}}}


def traffic_of(variant, budget):
    """Transactions below per run: under the 1e-4 threshold (< 10 of 100 000) down to B's 8,
    avc-2's 5 and the floor 4 for avc-1; avc-3 is above it at rbase already."""
    last_quiet = {"baseline": 8, "avc-1": 4, "avc-2": 5, "avc-2-warp-major": 11}.get(variant, 11)
    return 5 if budget >= last_quiet else 50


def document(variant, budget):
    registers = 10 if budget == "minimal" else min(int(budget), 12)
    k = kernel("k", registers, traffic_of(variant, 10 if budget == "minimal" else budget),
               cycles=1000 if variant == "baseline" else 800,
               nj=500.0 if variant == "baseline" else 400.0,
               classes={"zero": 10, "uniform": 20, "affine": 30, "generic": 40},
               hits=3 if variant != "baseline" else 0, lookups=4 if variant != "baseline" else 0)
    return {"workload": "w", "verified": True,
            "kernels": [k, kernel("tiny", min(registers, 6))]}


def write_sweep(folder):
    spec = budget_spec.spec_text(STAGE1, ["w"])
    with open(os.path.join(folder, "spec.toml"), "w") as f:
        f.write(spec)
    parsed = tomllib.loads(spec)
    excluded = parsed.get("exclude", [])

    def out(axes):
        for e in excluded:
            if all((axes[key] in value if isinstance(value, list) else axes[key] == value)
                   for key, value in e.items()):
                return True
        return False

    points, table = [], []
    for variant in parsed["axes"]["variant"]:
        for budget in parsed["axes"]["registers"]:
            axes = {"workload": "w", "size": "small", "config": "gtx480", "variant": variant,
                    "registers": budget}
            if out(axes):
                continue
            pid = f"{len(points):016x}"
            points.append({"id": pid, "axes": axes, "argv": ["run", "w"]})
            table.append(dict({"id": pid}, **axes, status="pass", wall_seconds=1.0))
            os.makedirs(os.path.join(folder, "points", pid))
            with open(os.path.join(folder, "points", pid, "stats.json"), "w") as f:
                json.dump(document(variant, budget), f)
    write_tables(folder, points, table)
    return sweep_report.Report(folder, os.path.join(folder, "docs", "avc.md"), plots=False)


class BudgetSpecTest(unittest.TestCase):
    def test_budgets_run_from_rbase_to_the_floor_and_ablations_only_at_half(self):
        spec = tomllib.loads(budget_spec.spec_text(STAGE1, ["w"]))
        self.assertEqual(spec["axes"]["registers"], ["minimal", 10, 9, 8, 7, 6, 5, 4])
        ablations = [e for e in spec["exclude"] if "workload" in e and "variant" in e]
        self.assertEqual(len(ablations), 1)
        # 0.5 rbase of k (5) and of tiny (3, raised to the floor 4) are kept: tiny has rbase < 8
        # and is not a kernel of the study, so only 5.
        self.assertEqual(ablations[0]["registers"], [10, 9, 8, 7, 6, 4])
        self.assertEqual(budget_spec.half(35, 4), 18)
        self.assertEqual(budget_spec.half(6, 4), 4)


class PageTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.study = avc_page.Study(write_sweep(self.folder))

    def test_kernels_rbase_and_rcache(self):
        s = self.study
        self.assertEqual([(k.name, k.rbase, k.floor, k.half) for k in s.kernels],
                         [("k", 10, 4, 5)])
        self.assertEqual(s.rcache[("k", "baseline")], (8, False))
        self.assertEqual(s.rcache[("k", "avc-1")], (4, True))
        self.assertEqual(s.rcache[("k", "avc-2")], (5, False))
        self.assertEqual(s.rcache[("k", "avc-3")], (None, False))
        k = s.kernels[0]
        self.assertEqual(s.gain(k, "avc-2"), 3)
        self.assertIsNone(s.gain(k, "avc-3"))
        # Held without traffic: B 10 - 8 = 2 registers, configuration 2: 10 - 5 = 5.
        self.assertAlmostEqual(s.capacity("avc-2"), 5 / 2 - 1)

    def test_classes_performance_and_energy_at_half(self):
        s = self.study
        k = s.kernels[0]
        c = s.classes(k)
        self.assertAlmostEqual(c["any_affine"], 0.6)
        self.assertAlmostEqual(c["generic"], 0.4)
        self.assertAlmostEqual(s.speedup(k), 1000 / 800)
        self.assertAlmostEqual(s.energy(k), 400 / 500)
        self.assertAlmostEqual(s.avc_share(k, "avc-2"), 0.75)
        self.assertAlmostEqual(s.traffic(k, "baseline"), 50 / WARPS)

    def test_the_page_fills_every_placeholder(self):
        page = avc_page.render(write_sweep(tempfile.mkdtemp()))
        self.assertIn("| w | k | 10 | 8 | 4* | 5 | – |", page)
        self.assertNotRegex(page, r"\{[a-z_0-9]*\}")


if __name__ == "__main__":
    unittest.main()
