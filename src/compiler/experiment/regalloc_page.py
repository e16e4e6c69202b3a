#!/usr/bin/env python3
"""Writes the register-allocation results page (DOCS/register-allocation.md) from the statistics
and ptxas reports of the experiment's runs in OUT (see run.sh and regalloc_stats.py).

Usage: regalloc_page.py --out OUT --docs DOCS [--workloads a,b] [--command TEXT]
Missing runs do not stop it: what cannot be computed is printed as "–", a ptxas figure without a
ptxas report as "n/a".
"""

import argparse
import datetime
import os
import string
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
import regalloc_discussion  # noqa: E402 (after the line above on purpose)
import regalloc_metrics as rm  # noqa: E402
import regalloc_stats as rs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NONE, NA = "–", "n/a"
BUDGET_TITLES = {"b75": "B75 = ceil(0.75 × minimal)", "b50": "B50 = ceil(0.5 × minimal)"}


def number(x, digits=0, missing=NONE):
    return missing if x is None else f"{x:,.{digits}f}"


def pct(x, missing=NONE):
    return missing if x is None else f"{100 * x:.1f}%"


def signed(x, missing=NONE):
    """A difference of whole numbers: +3, -2, 0."""
    return missing if x is None else "0" if x == 0 else f"{x:+,.0f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


class Page:
    def __init__(self, workloads, runs, ptxas, info):
        self.workloads, self.runs, self.ptxas, self.info = workloads, runs, ptxas, info
        self.per_workload = {
            w: rm.workload_metrics({r: runs[r][w] for r in rs.RUNS},
                                   {r: ptxas[r][w] for r in rs.PTXAS_RUNS}) for w in workloads}
        self.means = rm.suite_means(self.per_workload)

    def get(self, workload, key):
        return self.per_workload[workload].get(key)

    def mean(self, key):
        return self.means.get(key, (None, 0))[0]

    def mean_cell(self, key, format_value):
        value, n = self.means.get(key, (None, 0))
        cell = format_value(value)
        return cell if n in (0, len(self.workloads)) else f"{cell} ({n} of {len(self.workloads)})"

    def has_ptxas(self):
        return any(report for by_w in self.ptxas.values() for report in by_w.values())

    def minimal_table(self):
        ratio3 = lambda x: number(x, 3)  # noqa: E731
        one = lambda x: number(x, 1)  # noqa: E731
        columns = (("min.ours", number, one),
                   ("min.ptxas", lambda x: number(x, missing=NA), lambda x: number(x, 1, NA)),
                   ("min.diff", lambda x: signed(x, NA),
                    lambda x: NA if x is None else f"{x:+.1f}"),
                   ("min.virtual", number, one), ("off.registers", number, one),
                   ("min.cycles", ratio3, ratio3), ("min.instructions", ratio3, ratio3))
        rows = []
        for w in self.workloads:
            row = [w, number(self.get(w, "kernels"))] + [f(self.get(w, k)) for k, f, _ in columns]
            if self.get(w, "off.source"):
                row[6] += f" ({self.get(w, 'off.source')})"
            rows.append(row)
        rows.append(["**mean**", NONE] + [self.mean_cell(k, f) for k, _, f in columns])
        return ("## Minimal register count\n\n"
                "Registers per thread, the most over the workload's kernels: ours from the "
                "`--max-registers minimal` run, ptxas's from `ptxas -v` without `-maxrregcount` "
                "(its default, over the kernels the run launched). Virtual registers: the PTX "
                "value registers the allocator started from (most over the kernels). The off run "
                "is unallocated (unless a kernel is over the GPU's per-thread register limit); "
                "its register count (and where it came from) sets its occupancy. "
                "Cycles and warp instructions of the minimal run are relative to the off run.\n\n"
                + table(("workload", "kernels", "ours, minimal", "ptxas default",
                         "ours − ptxas", "virtual registers", "off run: registers",
                         "cycles minimal / off", "warp instr. minimal / off"), rows))

    def budget_cell(self, w, run):
        budget, asked = self.get(w, f"{run}.budget"), self.get(w, f"{run}.asked")
        notes = []
        if budget is not None and asked is not None and budget != asked:
            notes.append(f"{asked} infeasible")
        floor = self.get(w, f"{run}.ptxas_floor")
        if floor is not None and budget is not None and floor > budget:
            notes.append(f"ptxas: {floor}")
        return number(budget) + (f" ({'; '.join(notes)})" if notes else "")

    def budget_table(self, run):
        ours = lambda x: number(x)  # noqa: E731
        theirs = lambda x: number(x, missing=NA)  # noqa: E731
        columns = ((f"{run}.store_bytes", ours, lambda x: number(x, 1)),
                   (f"{run}.ptxas_store_bytes", theirs, lambda x: number(x, 1, NA)),
                   (f"{run}.load_bytes", ours, lambda x: number(x, 1)),
                   (f"{run}.ptxas_load_bytes", theirs, lambda x: number(x, 1, NA)),
                   (f"{run}.loads_per_k", lambda x: number(x, 2), lambda x: number(x, 2)),
                   (f"{run}.stores_per_k", lambda x: number(x, 2), lambda x: number(x, 2)),
                   (f"{run}.cycles", lambda x: number(x, 3), lambda x: number(x, 3)),
                   (f"{run}.uniform", pct, pct), (f"{run}.affine", pct, pct))
        rows = [[w, self.budget_cell(w, run)] + [f(self.get(w, k)) for k, f, _ in columns]
                for w in self.workloads]
        rows.append(["**mean**", self.mean_cell(f"{run}.budget", lambda x: number(x, 1))]
                    + [self.mean_cell(k, f) for k, _, f in columns])
        return (f"## At {BUDGET_TITLES[run]}\n\n"
                + table(("workload", "budget", "spill-store bytes, ours", "ptxas",
                         "spill-load bytes, ours", "ptxas", "spill loads / 1k warp instr.",
                         "spill stores / 1k warp instr.", "cycles / off", "uniform",
                         "affine (incl. uniform)"), rows))

    def affine_table(self):
        rows = []
        for run in rs.BUDGET_PERCENT:
            value, n = self.means.get(f"{run}.affine", (None, 0))
            rows.append((BUDGET_TITLES[run].split(" =")[0], rm.paper(rm.PAPER_AFFINE[run]),
                         pct(value), pct(self.mean(f"{run}.uniform")),
                         pct(rm.pooled_share(self.runs, run, ("uniform", "affine"))),
                         f"{n} of {len(self.workloads)}"))
        return ("## Spill stores by value, beside the Affine Vector Cache\n\n"
                "The paper's figure is the affine share (uniform included: stride 0) of all "
                "private-memory transactions, loads and stores, at 0.75 and 0.5 × rbase, rbase "
                "being nvcc's smallest register count without spills (" + rm.PAPER_SOURCE
                + "). Ours: words of the spill stores the allocator inserted, classified by the "
                "value-similarity profiler (`value_similarity.spill_stores`, divergent stores "
                "included), at B75 and B50 of our minimal count; the mean is over the workloads "
                "that stored spills, \"pooled\" puts every workload's words together.\n\n"
                + table(("budget", "AVC paper: affine", "ours: affine (incl. uniform)",
                         "ours: uniform", "ours: affine, pooled", "workloads with spill stores"),
                        rows))


def missing_runs(page):
    problems = []
    for run in rs.RUNS:
        by_w = page.runs[run]
        missing = [w for w, r in by_w.items() if r is None]
        unverified = [w for w, r in by_w.items() if r is not None and not r.verified]
        if missing and len(missing) == len(by_w):
            problems.append(f"- {run}: not run")
        elif missing:
            problems.append(f"- {run}: no statistics for " + ", ".join(missing))
        if unverified:
            problems.append(f"- {run}: did not verify: " + ", ".join(unverified))
    if not page.has_ptxas():
        problems.append("- ptxas: no reports (ptxas " + page.info.get("ptxas", "was not run")
                        + "); every ptxas column reads n/a")
    return ("## Missing runs\n\nValues that need these read – (ours) or n/a (ptxas).\n\n"
            + "\n".join(problems)) if problems else None


def render(page, args):
    info = page.info
    any_run = next((r for by_w in page.runs.values() for r in by_w.values() if r), None)
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    runs_line = (f"Runs: `{info['command']}`, started {info.get('started', NONE)}, "
                 f"{info.get('seconds', NONE)} s, commit {info.get('commit', NONE)}.  \n"
                 if "command" in info else "Runs: no run-info.txt beside the statistics.  \n")
    written = "." if info.get("command") == args.command else f" by `{args.command}`."
    size = any_run.size if any_run else NONE
    parts = ["# Register allocation: our allocator beside ptxas",
             "<!-- Generated by src/compiler/experiment/regalloc_page.py: do not edit. The "
             "discussion's words come from src/compiler/experiment/discussion.md, its numbers "
             "from the runs. -->",
             runs_line + f"Statistics: warpsim {any_run.version if any_run else NONE}, "
             f"`--config gtx480`, size {size}, {len(page.workloads)} "
             f"workload{'s' if len(page.workloads) != 1 else ''}; ptxas: "
             f"{info.get('ptxas', NONE)}.  \nPage written {today}{written}"]
    parts.append(
        "## Method\n\nEvery workload runs four times, `warpsim run WORKLOAD --config gtx480 "
        f"--size {size} --max-registers BUDGET --profile-values -q --stats ...`, with BUDGET "
        "`off` (no allocation: the reference for cycles), `minimal` (the fewest registers "
        "without spill code), then B75 and B50 computed from the minimal run's count. The "
        "budget holds for every kernel of the workload, so a kernel that needs fewer registers "
        "does not spill. Where the allocator refuses a budget (\"the smallest feasible budget is "
        "F\") the run is repeated at F and the budget column says so. Beside each allocated "
        "run, `ptxas -v --gpu-name TARGET [-maxrregcount BUDGET] -o /dev/null "
        "workloads/WORKLOAD/*.ptx` reports SASS registers and spill bytes for the PTX's "
        "`.target`; \"ptxas: N\" in a budget column means ptxas raised the limit to its lower "
        "bound N. Spill bytes are static: the bytes of the spill instructions per thread, "
        "summed over the workload's distinct kernels. Spill loads and stores per 1000 are "
        "dynamic warp instructions over the run's warp instructions. Means are arithmetic over "
        "the workloads that have the value (\"n of N\" when some lack it), except normalised "
        "cycles: geometric.")
    missing = missing_runs(page)
    if missing:
        parts.append(missing)
    parts += [page.minimal_table()] + [page.budget_table(r) for r in rs.BUDGET_PERCENT]
    parts.append(page.affine_table())
    with open(os.path.join(HERE, "discussion.md"), encoding="utf-8") as stream:
        template = string.Template(stream.read().strip())
    parts.append("## Why the numbers differ\n\n"
                 + template.substitute(regalloc_discussion.variables(page)))
    return "\n\n".join(parts) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="statistics folder of run.sh")
    parser.add_argument("--docs", required=True, help="folder for register-allocation.md")
    parser.add_argument("--workloads", help="comma-separated workloads (default: the last run's)")
    parser.add_argument("--command", default="regalloc_page.py", help="command shown on the page")
    args = parser.parse_args(argv)
    workloads = args.workloads.split(",") if args.workloads else rs.find_workloads(args.out)
    if not workloads:
        print(f"regalloc_page: no statistics in {args.out} (run run.sh first)", file=sys.stderr)
        return 1
    try:
        runs, ptxas = rs.load_all(args.out, workloads)
    except ValueError as error:
        print(f"regalloc_page: {error}", file=sys.stderr)
        return 1
    page = Page(workloads, runs, ptxas, rs.read_run_info(args.out))
    text = render(page, args)
    os.makedirs(args.docs, exist_ok=True)
    path = os.path.join(args.docs, "register-allocation.md")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    print(f"regalloc_page: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
