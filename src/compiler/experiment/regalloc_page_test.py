"""Tests of the register-allocation experiment on hand-made statistics whose metrics are worked
out by hand below, and of its driver against a fake warpsim and ptxas. Run (ctest:
regalloc_experiment_page):
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s src/compiler/experiment -p '*_test.py'
"""

import io
import json
import os
import stat
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.dont_write_bytecode = True
import regalloc_page  # noqa: E402
import regalloc_run  # noqa: E402
import regalloc_stats as rs  # noqa: E402

CLASSES = ("uniform", "affine", "msb3", "msb2", "msb1", "random")


def words(**counts):
    return {c: counts.get(c, 0) for c in CLASSES}


def launch(name, cycles, instructions, regs=None, source="ptxas", budget=None, spills=None,
           stores=None, divergent=None, l1=None, **allocation):
    """A kernel entry; with `budget`, a register-allocated one. spills: (static store bytes,
    static load bytes, dynamic loads, dynamic stores); l1: L1 data-cache (hits, accesses)."""
    entry = {"name": name, "cycles": cycles, "warp_instructions": instructions,
             "timing": {"memory": {"l1d": {"hits": l1[0], "accesses": l1[1]}}} if l1 else {},
             "regs_per_thread": regs, "resource_source": source,
             "value_similarity": {"register_writes": {}, "local_stores": {},
                                  "spill_stores": {"non_divergent": stores or words(),
                                                   "divergent": divergent or words()}}}
    if budget is not None:
        store_bytes, load_bytes, loads, dyn_stores = spills or (0, 0, 0, 0)
        entry["resource_source"] = "allocator"
        entry["register_allocation"] = dict(
            {"budget": budget, "registers": regs, "static_spill_store_bytes": store_bytes,
             "static_spill_load_bytes": load_bytes, "dynamic_spill_loads": loads,
             "dynamic_spill_stores": dyn_stores}, **allocation)
    return entry


def document(*launches):
    return {"warpsim_version": "9.9", "size": "small", "verified": True,
            "kernels": list(launches)}


# Workload w: k1 is launched twice, k2 once; the off run takes 4000 cycles, 40000 instructions.
# minimal: 20 registers (k1), so B75 = 15 and B50 = 10, which the allocator refused: run at 12.
W = {
    "off": document(launch("k1", 1000, 10000, 30, l1=(50, 100)),
                    launch("k1", 1000, 10000, 30, l1=(50, 100)),
                    launch("k2", 2000, 20000, 20, l1=(50, 100))),
    "minimal": document(launch("k1", 900, 9800, 20, budget="minimal", virtual_registers=50),
                        launch("k1", 900, 9800, 20, budget="minimal", virtual_registers=50),
                        launch("k2", 1800, 19600, 16, budget="minimal", virtual_registers=40)),
    # Static bytes count k1 once: 8 + 4 and 16 + 4. Dynamic: 90 loads, 50 stores in 40200.
    # Spill-store words: uniform 80, affine 40, msb3 10, random 20 of 150.
    "b75": document(
        launch("k1", 1100, 10100, 15, budget="15", spills=(8, 16, 40, 20), rematerialised=1,
               stores=words(uniform=30, affine=10, msb3=5, random=5)),
        launch("k1", 1100, 10100, 15, budget="15", spills=(8, 16, 40, 20), rematerialised=1,
               stores=words(uniform=30, affine=10, msb3=5, random=5)),
        launch("k2", 2200, 20000, 15, budget="15", spills=(4, 4, 10, 10),
               stores=words(affine=20, random=10), divergent=words(uniform=20))),
    # 250 loads, 125 stores in 42000; words: uniform 20, random 80; L1 hits 40 of 300.
    "b50": document(
        launch("k1", 1500, 10500, 12, budget="12", spills=(24, 40, 100, 50),
               stores=words(uniform=10, random=40), l1=(10, 100)),
        launch("k1", 1500, 10500, 12, budget="12", spills=(24, 40, 100, 50),
               stores=words(uniform=10, random=40), l1=(10, 100)),
        launch("k2", 3000, 21000, 12, budget="12", spills=(8, 8, 50, 25), l1=(20, 100))),
}
# Workload v: only off and minimal, no ptxas; minimal 7 gives B75 6 and B50 4.
V = {"off": document(launch("v1", 100, 1000, 8)),
     "minimal": document(launch("v1", 81, 1000, 7, budget="minimal", virtual_registers=9))}

PTXAS_HEAD = "ptxas info    : 0 bytes gmem\n"


def ptxas_entry(name, registers, stores=0, loads=0):
    return (f"ptxas info    : Compiling entry function '{name}' for 'sm_80'\n"
            f"ptxas info    : Function properties for {name}\n"
            f"    0 bytes stack frame, {stores} bytes spill stores, {loads} bytes spill loads\n"
            f"ptxas info    : Used {registers} registers, used 0 barriers, 380 bytes cmem[0]\n")


def ptxas_limited(limit, k1_stores, k1_loads):
    return (f"# ptxas -v --gpu-name sm_80 -maxrregcount {limit} -o /dev/null w.ptx\n"
            f"ptxas warning : For profile sm_80 adjusting per thread register count of {limit} "
            "to lower bound of 24\n" + PTXAS_HEAD + ptxas_entry("k1", 24, k1_stores, k1_loads)
            + ptxas_entry("k2", 24) + ptxas_entry("k3", 24, 100, 100))


# k3 is in the PTX but never launched: it must not count.
PTXAS = {"minimal": "# ptxas -v --gpu-name sm_80 -o /dev/null w.ptx\n" + PTXAS_HEAD
         + ptxas_entry("k1", 32) + ptxas_entry("k2", 24) + ptxas_entry("k3", 60),
         "b75": ptxas_limited(15, 16, 16), "b50": ptxas_limited(12, 20, 28)}


def write_statistics(out):
    for workload, runs in (("w", W), ("v", V)):
        for run, doc in runs.items():
            os.makedirs(os.path.join(out, run), exist_ok=True)
            with open(os.path.join(out, run, f"{workload}.json"), "w", encoding="utf-8") as f:
                json.dump(doc, f)
    for run, text in PTXAS.items():
        os.makedirs(os.path.join(out, "ptxas", run))
        with open(os.path.join(out, "ptxas", run, "w.txt"), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(out, "workloads.txt"), "w", encoding="utf-8") as f:
        f.write("w\nv\n")


def build_page(out, docs):
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        status = regalloc_page.main(["--out", out, "--docs", docs, "--command", "cmd"])
    with open(os.path.join(docs, "register-allocation.md"), encoding="utf-8") as f:
        return status, f.read()


class StatsTest(unittest.TestCase):
    def test_budgets_and_the_feasible_minimum_message(self):
        self.assertEqual([rs.budget_for(m, 75) for m in (20, 7, 1)], [15, 6, 1])
        self.assertEqual([rs.budget_for(m, 50) for m in (20, 7, 1)], [10, 4, 1])
        self.assertIsNone(rs.budget_for(None, 50))
        message = ("warpsim: error: w.ptx: kernel 'k1': a budget of 10 registers cannot hold the "
                   "operands of the instruction at line 40 (it needs 12); the smallest feasible "
                   "budget is 12")
        self.assertEqual(rs.feasible_minimum(message), 12)
        self.assertIsNone(rs.feasible_minimum("warpsim: error: something else"))

    def test_run_counts_static_figures_once_per_kernel(self):
        run = rs.Run(W["b75"])
        self.assertEqual(run.kernel_names(), ["k1", "k2"])
        self.assertEqual(run.static("static_spill_store_bytes"), 12)
        self.assertEqual(run.dynamic("dynamic_spill_loads"), 90)
        self.assertEqual(run.total("cycles"), 4400)
        self.assertEqual(run.budget(), 15)
        self.assertEqual(rs.Run(W["minimal"]).budget(), "minimal")
        self.assertEqual(run.spill_store_words(), words(uniform=80, affine=40, msb3=10,
                                                        random=20))
        self.assertIsNone(rs.Run(W["off"]).registers())

    def test_ptxas_report(self):
        report = rs.PtxasReport(PTXAS["b50"])
        self.assertEqual((report.limit, report.floor, report.target), (12, 24, "sm_80"))
        self.assertEqual(report.bytes("spill_store_bytes", ["k1", "k2"]), 20)
        self.assertEqual(report.bytes("spill_load_bytes"), 128)
        self.assertEqual(rs.PtxasReport(PTXAS["minimal"]).registers(["k1", "k2"]), 32)
        self.assertIsNone(rs.PtxasReport(PTXAS["minimal"]).registers(["other"]))
        self.assertTrue(rs.PtxasReport("# ptxas x\n# exit status 255\n").failed)


class PageTest(unittest.TestCase):
    def test_tables(self):
        with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as docs:
            write_statistics(out)
            status, page = build_page(out, docs)
        self.assertEqual(status, 0)
        # Minimal: cycles 3600 / 4000, instructions 39200 / 40000; v: 81 / 100.
        self.assertIn("| w | 2 | 20 | 32 | -12 | 50 | 30 (ptxas) | 0.900 | 0.980 |", page)
        self.assertIn("| v | 1 | 7 | n/a | n/a | 9 | 8 (ptxas) | 0.810 | 1.000 |", page)
        self.assertIn("| **mean** | – | 13.5 | 32.0 (1 of 2) | -12.0 (1 of 2) | 29.5 | 19.0 | "
                      "0.854 | 0.990 |", page)
        # B75: 90 / 40.2 loads, 50 / 40.2 stores per 1000; 4400 / 4000 cycles; 80 and 120 of 150.
        self.assertIn("| w | 15 (ptxas: 24) | 12 | 16 | 20 | 16 | 2.24 | 1.24 | 1.100 | 53.3% | "
                      "80.0% |", page)
        self.assertIn("| v | – | – | n/a | – | n/a | – | – | – | – | – |", page)
        # B50 ran at 12: 250 / 42, 125 / 42 per 1000; 6000 / 4000 cycles; 20 of 100 words.
        self.assertIn("| w | 12 (10 infeasible; ptxas: 24) | 32 | 20 | 48 | 28 | 5.95 | 2.98 | "
                      "1.500 | 20.0% | 20.0% |", page)
        self.assertIn("| **mean** | 12.0 (1 of 2) | 32.0 (1 of 2) | 20.0 (1 of 2) |", page)
        self.assertIn("| B75 | 66% | 80.0% | 53.3% | 80.0% | 1 of 2 |", page)
        self.assertIn("| B50 | 67% | 20.0% | 20.0% | 20.0% | 1 of 2 |", page)
        self.assertIn("- b75: no statistics for v", page)
        self.assertIn("Runs: no run-info.txt beside the statistics.", page)

    def test_discussion_is_filled_in_from_the_numbers(self):
        with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as docs:
            write_statistics(out)
            _, page = build_page(out, docs)
        discussion = page.split("## Why the numbers differ\n\n", 1)[1]
        self.assertNotIn("$", discussion)
        for expected in (
                "(2 workloads,\n`--size small`, gtx480)",
                "ours is lower on 1, equal on 0 and higher on 0 of the 1 workloads ptxas "
                "reported on, and ours minus ptxas's is -12.0 registers on average",
                "SASS for sm_80",
                "it raised `-maxrregcount` to 24 in 2 of the 2 budget compilations",
                "At B50 (mean budget 12.0 registers) our allocator spills in 1 of 2 workloads, "
                "ptxas in 1 of the 1 it compiled",
                "w at B50 (10 → 12)",
                "the most is w's 5.95 loads at B50",
                "1.100 at B75 and 1.500 at B50; 0 workloads of 1 run faster",
                "register counts from ptxas (2 workloads)",
                "included) is 50.0% in the reference, n/a at B75 and 13.3% at B50",
                "80.0% are affine, uniform included, at B75 and 20.0% at B50",
                "The paper reports\n66% at 0.75 × rbase and 67% at 0.5 × rbase"):
            self.assertIn(expected, discussion)

    def test_no_statistics_is_an_error(self):
        with tempfile.TemporaryDirectory() as out:
            with redirect_stderr(io.StringIO()) as err:
                status = regalloc_page.main(["--out", out, "--docs", out])
        self.assertEqual(status, 1)
        self.assertIn("no statistics", err.getvalue())


FAKE_WARPSIM = """\
import json, sys
args = sys.argv[1:]
if args == ["list"]:
    print("2 workloads (...):\\n\\nname category description sizes\\nw x y 1 / 2 / 3 n\\n"
          "v x y 1 / 2 / 3 n")
    sys.exit(0)
budget = args[args.index("--max-registers") + 1]
feasible = {"w": 12, "v": 3}[args[1]]
if budget.isdigit() and int(budget) < feasible:
    print(f"warpsim: error: x.ptx: kernel 'k': a budget of {budget} registers cannot hold the "
          f"operands of the instruction at line 3 (it needs {feasible}); the smallest feasible "
          f"budget is {feasible}", file=sys.stderr)
    sys.exit(1)
registers = {"off": 30, "minimal": 20 if args[1] == "w" else 5}.get(budget, budget)
entry = {"name": "k", "cycles": 100, "warp_instructions": 1000, "regs_per_thread": registers}
if budget != "off":
    entry["register_allocation"] = {"budget": budget, "registers": int(registers)}
with open(args[args.index("--stats") + 1], "w") as f:
    json.dump({"verified": True, "size": "small", "kernels": [entry]}, f)
"""

FAKE_PTXAS = """\
import sys
if "--version" in sys.argv:
    print("fake ptxas 1.0")
    sys.exit(0)
print("ptxas info    : Compiling entry function 'k' for '" + sys.argv[3] + "'")
print("ptxas info    : Used 32 registers, used 0 barriers")
"""


class DriverTest(unittest.TestCase):
    def tool(self, folder, name, source):
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"#!{sys.executable}\n{source}")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_runs_every_budget_and_raises_refused_ones(self):
        with tempfile.TemporaryDirectory() as tools, tempfile.TemporaryDirectory() as out:
            warpsim = self.tool(tools, "warpsim", FAKE_WARPSIM)
            ptxas = self.tool(tools, "ptxas", FAKE_PTXAS)
            regalloc_run.ROOT, root = tools, regalloc_run.ROOT  # workloads/<w>/*.ptx under it
            os.makedirs(os.path.join(tools, "workloads", "w"))
            with open(os.path.join(tools, "workloads", "w", "w.ptx"), "w") as f:
                f.write(".version 8.0\n.target sm_75\n")
            try:
                with redirect_stdout(io.StringIO()) as log, redirect_stderr(io.StringIO()):
                    status = regalloc_run.main(["--warpsim", warpsim, "--ptxas", ptxas, "--out",
                                                out, "--docs", out, "--jobs", "3"])
            finally:
                regalloc_run.ROOT = root
            self.assertEqual(status, 0, log.getvalue())
            budgets = {(run, w): rs.Run(rs.load_json(os.path.join(out, run, f"{w}.json"))).budget()
                       for run in ("b75", "b50") for w in ("w", "v")}
            with open(os.path.join(out, "ptxas", "b50", "w.txt"), encoding="utf-8") as f:
                report = f.read()
            self.assertFalse(os.path.exists(os.path.join(out, "ptxas", "b50", "v.txt")))
            self.assertTrue(os.path.exists(os.path.join(out, "register-allocation.md")))
        # w: 20 -> 15 and 10, the latter raised to 12; v: 5 -> 4 and 3.
        self.assertEqual(budgets, {("b75", "w"): 15, ("b50", "w"): 12, ("b75", "v"): 4,
                                   ("b50", "v"): 3})
        self.assertIn("budget 10 infeasible, rerun at 12", log.getvalue())
        self.assertIn("-maxrregcount 12", report)
        self.assertIn("--gpu-name sm_75", report)

    def test_bad_usage(self):
        with redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as exit_status:
            regalloc_run.main(["--jobs", "0"])
        self.assertEqual(exit_status.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
