"""Tests of the G-Scalar results page (a `warpsim report` template) on a hand-made sweep whose
metrics are worked out by hand below. Run (ctest: gscalar_experiment_page; matplotlib is only
needed for the plot, which is left out without it):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/mech/gscalar/experiment -p '*_test.py'
"""

import importlib.util
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import gscalar_metrics as gm  # noqa: E402 (after the path on purpose)
import gscalar_page  # noqa: E402
import gscalar_stats  # noqa: E402
import sweep_report  # noqa: E402
from sweep_fixture import write_tables  # noqa: E402

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

    def test_the_spec_defines_the_seven_variants(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, {})
            configurations = gscalar_page.configurations(report)
        self.assertEqual([c[0] for c in configurations], list(CONFIGS))
        self.assertEqual(configurations[0][1], "--set profile.value_similarity=true")
        self.assertEqual(configurations[2][1].split()[:2], ["--overlay", "gscalar"])
        self.assertEqual(len(configurations[2][1].split()), 10)
        self.assertEqual(configurations[5][1], "--overlay gscalar")
        self.assertEqual(configurations[6][2], "BDI register compression (Warped-Compression): "
                         "the comparison point for compression ratio and RF energy")


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


def write_sweep(folder, documents, workloads=("w",), sizes=("small",), plots=False):
    """A sweep directory of sweep.toml's variants x `workloads` x `sizes` in `folder`, the
    points' statistics from documents[(variant, workload)] (a point without one failed), and
    the Report of a page in folder/docs/gscalar.md."""
    shutil.copy(os.path.join(HERE, "sweep.toml"), os.path.join(folder, "spec.toml"))
    points, table = [], []
    for workload in workloads:
        for size in sizes:
            for variant in CONFIGS:
                point_id = f"{len(points):016x}"
                axes = {"workload": workload, "size": size, "config": "gtx480",
                        "variant": variant}
                points.append({"id": point_id, "axes": axes, "argv": ["run", workload]})
                document = documents.get((variant, workload))
                table.append(dict({"id": point_id}, **axes, status="pass" if document else
                                  "fail", wall_seconds=1.25))
                os.makedirs(os.path.join(folder, "points", point_id))
                if document:
                    with open(os.path.join(folder, "points", point_id, "stats.json"), "w",
                              encoding="utf-8") as f:
                        json.dump(document, f)
    write_tables(folder, points, table)
    return sweep_report.Report(folder, os.path.join(folder, "docs", "gscalar.md"), plots=plots)


class PageTest(unittest.TestCase):
    def test_writes_the_page_from_the_points_statistics(self):
        documents = {(config, "w"): doc for config, doc in FAKE.items()}
        # A second workload with only its baseline run.
        documents[("baseline", "v")] = FAKE["baseline"]
        has_matplotlib = importlib.util.find_spec("matplotlib") is not None
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, documents, workloads=("w", "v"), plots=has_matplotlib)
            os.makedirs(report.page_dir)
            page = gscalar_page.render(report)
            plotted = os.path.exists(os.path.join(report.page_dir, "gscalar.png"))
        self.assertEqual(plotted, has_matplotlib)
        self.assertIn("![IPC/W normalised" if has_matplotlib else "Not drawn (plots off).", page)
        self.assertIn("Runs: sweep `gscalar-small` (`warpsim sweep src/mech/gscalar/experiment/"
                      "sweep.toml`), 14 points, 8 passed, 6 failed.  \nStatistics: warpsim 9.9, `--config gtx480`, size small, "
                      "2 workloads.", page)
        self.assertIn("| gs-half | `--overlay gscalar --set sm.register_file.divergent_scalar="
                      "false` | + half-warp scalar execution |", page)
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
        discussion = page.split("## Why our numbers differ\n\n", 1)[1]
        self.assertNotIn("<!--", discussion)  # the template's comment stays off the page
        self.assertNotRegex(discussion, r"\{[a-z_0-9]*\}")  # every placeholder filled
        # A filled value: the suite mean of the gscalar run's scalar-executed share (35.0%,
        # "v" has no gscalar run), and the IPC/W change in the heading.
        self.assertIn("**Scalar-eligible instructions (35.0%; paper: 40%).**", discussion)
        self.assertIn("**IPC/W (+25.0% over the baseline, paper: +24%;", discussion)

    def test_occupancy_and_the_discussion_values(self):
        # Two kernels: 100 active cycles x 48 slots with 1200 resident warp-cycles, and
        # 300 x 48 with 3600: 4800 / 19200 = 25%.
        def occupancy_kernel(active, resident):
            entry = kernel(1000, 2000, 500, 1000, {"register_file": 100})
            entry["timing"]["sm"].update(active_cycles=active, resident_warp_cycles=resident)
            entry["timing"]["occupancy"] = {"max_warps_per_sm": 48, "achieved": 0.25}
            return entry
        runs = fake_runs()
        runs["baseline"] = gscalar_stats.Run(document(occupancy_kernel(100, 1200),
                                                      occupancy_kernel(300, 3600)))
        m = gm.workload_metrics(runs)
        self.assertAlmostEqual(m["baseline.occupancy"], 0.25, places=12)
        page = gscalar_page.Page(["w"], {"w": m}, gm.suite_means({"w": m}))
        values = gscalar_page.discussion_values(page, "small", "gtx480")
        self.assertEqual(values["low_occupancy_workloads"], "w")
        self.assertEqual(values["low_occupancy_range"], "25.0%")
        self.assertEqual(values["eligible_gscalar"], "35.0%")

    def test_the_discussion_uses_every_value_and_only_known_ones(self):
        with open(os.path.join(HERE, "discussion.md"), encoding="utf-8") as f:
            template = f.read()
        page = gscalar_page.Page(["w"], {"w": {}}, {})
        values = gscalar_page.discussion_values(page, "small", "gtx480")
        filled = gscalar_page.fill(template, values)  # no error: the names match both ways
        self.assertTrue(filled.startswith("Every figure of ours here is computed"))

    def test_fill(self):
        fill = gscalar_page.fill
        self.assertEqual(fill("<!-- {x} is the count -->\nIPC {x}, {{braces}}\n", {"x": "-2.9%"}),
                         "IPC -2.9%, {braces}")
        for template, values, message in (
                ("IPC {ipc_chnage}", {"ipc_change": "1"},
                 "unknown placeholder(s) {ipc_chnage}"),
                ("IPC {ipc_change}", {"ipc_change": "1", "ipcw_change": "2"},
                 "value(s) without a placeholder: ipcw_change"),
                ("IPC {ipc_change:.1f}", {"ipc_change": "1"}, "placeholder {ipc_change}"),
                ("IPC {}", {}, "placeholder {}"),
                ("IPC {ipc_change", {"ipc_change": "1"}, "discussion.md")):
            with self.subTest(template=template):
                with self.assertRaises(sweep_report.ReportError) as error:
                    fill(template, values)
                self.assertIn(message, str(error.exception))

    def test_a_sweep_of_two_sizes_is_an_error(self):
        with tempfile.TemporaryDirectory() as folder:
            report = write_sweep(folder, {}, sizes=("small", "default"))
            with self.assertRaises(sweep_report.ReportError) as error:
                gscalar_page.render(report)
        self.assertEqual(str(error.exception), "the G-Scalar page needs one value of axis size; "
                         "the sweep has 2")


if __name__ == "__main__":
    unittest.main()
