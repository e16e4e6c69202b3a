"""Tests of the G-Scalar results page generator on hand-made statistics whose metrics are worked
out by hand below. Run (ctest: gscalar_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/gscalar/experiment -p '*_test.py'
"""

import importlib.util
import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import gscalar_metrics as gm
import gscalar_page
import gscalar_stats

RF = ("sm", "register_file")


def kernel(cycles=0, warps=0, ns=0, total_nj=0, components=None, rf=None, values=None,
           dynamic_nj=0):
    """One entry of "kernels" with the given timing statistics."""
    timing = {"cycles": cycles, "simulated_ns": ns,
              "energy": {"total_nj": total_nj, "dynamic_nj": dynamic_nj,
                         "components": {k: {"nj": v} for k, v in (components or {}).items()}},
              "sm": {"warp_instructions": warps, "register_file": rf or {}}}
    entry = {"name": "k", "timing": timing}
    if values is not None:
        entry["value_similarity"] = values
    return entry


def document(*kernels):
    return {"warpsim_version": "9.9", "size": "small", "verified": True, "kernels": list(kernels)}


def cats(alu, sfu, mem, half, divergent):
    return {"full_alu": alu, "full_sfu": sfu, "full_mem": mem, "half": half,
            "divergent": divergent}


# Workload "w" in every configuration. gscalar has two kernels whose counters add up to:
# cycles 1000, warp instructions 2000, 500 ns, 800 nJ, RF 20+10 + 10 + 5+1 = 46 nJ, codec 5 nJ.
FAKE = {
    "baseline": document(kernel(1000, 2000, 500, 1000, {"register_file": 100, "alu": 7},
                                dynamic_nj=400, values={
        "register_writes": {
            "non_divergent": {"uniform": 30, "affine": 20, "msb3": 10, "msb2": 10, "msb1": 5,
                              "random": 5},
            "divergent": {"uniform": 10, "random": 10}},
        "local_stores": {"non_divergent": {"uniform": 99}}})),
    "alu-scalar": document(kernel(1000, 2000, 500, 900, {"register_file": 50, "scalar_rf": 13},
                                  {"instructions": {"total": 2000},
                                   "scalar_executed": {"full_alu": 440}})),
    "gs-alu": document(kernel(rf={"instructions": {"total": 2000},
                                  "scalar_executed": cats(400, 0, 0, 0, 0)})),
    "gs-all": document(kernel(rf={"instructions": {"total": 2000},
                                  "scalar_executed": cats(400, 50, 100, 0, 0)})),
    "gs-half": document(kernel(rf={"instructions": {"total": 2000},
                                   "scalar_executed": cats(400, 50, 100, 30, 0)})),
    "gscalar": document(
        kernel(600, 1200, 300, 400,
               {"register_file": 20, "rf_crossbar": 10, "rf_metadata": 5, "rf_codec": 5},
               {"instructions": {"total": 1500, "divergent": 400},
                "scalar_executed": cats(300, 50, 100, 30, 100),
                "scalar_oracle": cats(500, 60, 120, 40, 250),
                "scalar_detected": cats(420, 55, 105, 35, 150),
                "operand_reads": {"scalar": 300, "bytes3": 170, "bytes2": 40, "bytes1": 70,
                                  "bytes0": 260, "divergent": 100},
                "compression": {"uncompressed_bytes": 1000, "array_bytes": 400,
                                "base_bytes": 50, "metadata_bytes": 50}}),
        kernel(400, 800, 200, 400, {"register_file": 10, "rf_metadata": 1},
               {"instructions": {"total": 500, "divergent": 100},
                "scalar_executed": cats(100, 0, 0, 0, 20),
                "operand_reads": {"scalar": 60}})),
    "bdi": document(kernel(1000, 2000, 500, 950, {"register_file": 60, "rf_metadata": 5},
                           {"compression": {"uncompressed_bytes": 1000, "array_bytes": 420,
                                            "base_bytes": 50, "metadata_bytes": 80}})),
}
CONFIGS = tuple(FAKE)


def fake_runs():
    return {config: gscalar_stats.Run(doc) for config, doc in FAKE.items()}


class RunTest(unittest.TestCase):
    def test_sums_kernels_and_reads_missing_keys_as_zero(self):
        run = gscalar_stats.Run(FAKE["gscalar"])
        self.assertEqual(run.kernels, 2)
        self.assertEqual(run.get("cycles"), 1000)
        self.assertEqual(run.get("sm.register_file.operand_reads.scalar"), 360)
        self.assertEqual(run.get("energy.components.rf_metadata.nj"), 6)
        self.assertEqual(run.get("sm.register_file.no_such_counter"), 0)
        self.assertEqual(gm.rf_energy(run), 46)
        self.assertEqual(gm.rf_energy(run, with_codec=True), 51)

    def test_configurations_file_defines_the_seven_runs(self):
        configurations = gscalar_stats.read_configurations(
            os.path.join(gscalar_page.HERE, "configurations.txt"))
        self.assertEqual([c[0] for c in configurations], list(CONFIGS))
        self.assertEqual(configurations[0][1], "--set profile.value_similarity=true")
        self.assertEqual(configurations[2][1].split()[:2], ["--overlay", "gscalar"])
        self.assertEqual(len(configurations[2][1].split()), 10)
        self.assertEqual(configurations[5][1], "--overlay gscalar")


class MetricsTest(unittest.TestCase):
    def setUp(self):
        self.m = gm.workload_metrics(fake_runs())

    def check(self, expected):
        for key, value in expected.items():
            with self.subTest(key=key):
                self.assertAlmostEqual(self.m[key], value, places=12)

    def test_scalar_fractions_per_step_and_category(self):
        self.check({"instructions": 2000, "divergent_share": 0.25,
                    "eligible.alu-scalar": 0.22, "eligible.gs-alu": 0.20,
                    "eligible.gs-all": 0.275, "eligible.gs-half": 0.29,
                    "eligible.gscalar": 0.35, "eligible.oracle": 0.485,
                    "eligible.detected": 0.3825, "executed.full_alu": 0.2,
                    "executed.sfu_mem": 0.075, "executed.half": 0.015,
                    "executed.divergent": 0.06, "oracle.sfu_mem": 0.09,
                    "step.sfu_mem": 0.075, "step.half": 0.015, "step.divergent": 0.06,
                    "divergent_scalar.oracle": 0.5, "divergent_scalar.detected": 0.3,
                    "divergent_scalar.executed": 0.24})

    def test_energy_power_and_performance_against_the_baseline(self):
        # baseline: IPC 2, 2 W, IPC/W 1, RF 100 nJ in 500 ns.
        self.check({"rf_energy.gscalar": 0.46, "rf_power.gscalar": 0.46,
                    "rf_power_codec.gscalar": 0.51, "rf_energy.alu-scalar": 0.63,
                    "rf_energy.bdi": 0.65, "ipc.gscalar": 1.0, "ipcw.gscalar": 1.25,
                    "ipcw.alu-scalar": 1.0 / 0.9, "ipcw_gscalar_vs_alu": 1.125,
                    "rf_energy.gs-alu": 0.0})
        self.assertIsNone(self.m["ipc.gs-alu"])  # no cycles: division by zero

    def test_compression_operand_reads_and_values(self):
        self.check({"ratio.gscalar": 1000 / 450, "ratio_metadata.gscalar": 2.0,
                    "ratio.bdi": 1000 / 470, "ratio_metadata.bdi": 1000 / 550,
                    "reads.scalar": 0.36, "reads.bytes3": 0.17, "reads.bytes2": 0.04,
                    "reads.bytes1": 0.07, "reads.bytes0": 0.26, "reads.divergent": 0.10,
                    "values.uniform": 0.4, "values.random": 0.15,
                    "values.divergent_writes": 0.2})

    def test_a_missing_run_gives_none(self):
        runs = fake_runs()
        runs["gscalar"] = None
        m = gm.workload_metrics(runs)
        for key in ("eligible.gscalar", "ratio.gscalar", "rf_energy.gscalar", "ipcw.gscalar",
                    "ipcw_gscalar_vs_alu", "divergent_share", "step.divergent"):
            with self.subTest(key=key):
                self.assertIsNone(m[key])
        self.assertAlmostEqual(m["ipcw.alu-scalar"], 1.0 / 0.9, places=12)

    def test_ipcw_with_the_papers_power_shares(self):
        # RF power halved (16% of the chip), execution power at 75% (24%): power 0.86 of baseline.
        self.assertAlmostEqual(gm.ipcw_with_paper_shares(1.0, 0.5, 0.75), 1.0 / 0.86, places=12)
        self.assertAlmostEqual(gm.ipcw_with_paper_shares(0.9, 1.0, 1.0), 0.9, places=12)
        self.assertIsNone(gm.ipcw_with_paper_shares(None, 0.5, 0.75))

    def test_means(self):
        self.assertEqual(gm.mean([1.0, None, 3.0]), (2.0, 2))
        self.assertAlmostEqual(gm.mean([1.0, 4.0], geometric=True)[0], 2.0, places=12)
        self.assertEqual(gm.mean([None]), (None, 0))
        means = gm.suite_means({"a": {"ipcw.gscalar": 1.0, "x": 1.0},
                                "b": {"ipcw.gscalar": 4.0, "x": 4.0}})
        self.assertAlmostEqual(means["ipcw.gscalar"][0], 2.0, places=12)
        self.assertEqual(means["x"], (2.5, 2))


class PageTest(unittest.TestCase):
    def test_writes_the_page_from_statistics_files(self):
        with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as docs:
            for config, doc in FAKE.items():
                os.makedirs(os.path.join(out, config))
                with open(os.path.join(out, config, "w.json"), "w", encoding="utf-8") as f:
                    json.dump(doc, f)
            # A second workload with only its baseline run.
            with open(os.path.join(out, "baseline", "v.json"), "w", encoding="utf-8") as f:
                json.dump(FAKE["baseline"], f)
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                status = gscalar_page.main(["--out", out, "--docs", docs, "--command", "cmd"])
            self.assertEqual(status, 0)
            with open(os.path.join(docs, "gscalar.md"), encoding="utf-8") as f:
                page = f.read()
            plotted = os.path.exists(os.path.join(docs, "gscalar.png"))
        self.assertEqual(plotted, importlib.util.find_spec("matplotlib") is not None)
        self.assertIn("| Scalar-eligible instructions, G-Scalar | 40% | 35.0% |", page)
        self.assertIn("| IPC/W, G-Scalar vs baseline | +24% | +25.0% | geometric mean "
                      "(1 of 2 workloads) |", page)
        self.assertIn("| Compression ratio, G-Scalar | 2.17 | 2.22 | with metadata 2.00 "
                      "(1 of 2 workloads) |", page)
        self.assertIn("| w | 2,000 | 25.0% | 22.0% | 20.0% | 27.5% | 29.0% | 35.0% | 48.5% | "
                      "2.22 | 2.13 | 0.63 | 0.46 | 0.65 | 1.000 | 1.11 | 1.25 |", page)
        self.assertIn("| v | 2,000 | – | – | – | – | – | – | – | – | – | – | – | – | – | – |",
                      page)
        self.assertIn("| w | 2.00 | 2.0 | 25.0% | 10.0% |", page)
        self.assertIn("| w | 36.0% | 17.0% | 4.0% | 7.0% | 26.0% | 10.0% |", page)
        self.assertIn("| v | 40.0% | 20.0% | 10.0% | 10.0% | 5.0% | 15.0% | 20.0% |", page)
        self.assertIn("- gscalar: no statistics for v", page)
        self.assertIn("Page written ", page)
        with open(os.path.join(gscalar_page.HERE, "discussion.md"), encoding="utf-8") as f:
            discussion = f.read().strip()
        self.assertTrue(page.endswith(f"## Why our numbers differ\n\n{discussion}\n"))

    def test_no_statistics_is_an_error(self):
        with tempfile.TemporaryDirectory() as out:
            with redirect_stderr(io.StringIO()) as err:
                status = gscalar_page.main(["--out", out, "--docs", out])
        self.assertEqual(status, 1)
        self.assertIn("no statistics", err.getvalue())


if __name__ == "__main__":
    unittest.main()
