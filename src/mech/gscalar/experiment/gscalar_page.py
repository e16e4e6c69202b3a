#!/usr/bin/env python3
"""Writes the G-Scalar results page (DOCS/gscalar.md) and plot (DOCS/gscalar.png) from the
statistics of the experiment's runs in OUT/<config>/<workload>.json (see run.sh).

Usage: gscalar_page.py --out OUT --docs DOCS [--workloads a,b] [--command TEXT]
Missing runs and counters do not stop it: what cannot be computed is printed as "–".
"""

import argparse
import datetime
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
import gscalar_metrics as gm  # noqa: E402 (after the line above on purpose)
import gscalar_plot  # noqa: E402
import gscalar_stats  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NONE = "–"


def pct(x):
    return NONE if x is None else f"{100 * x:.1f}%"


def num(x, digits=2):
    return NONE if x is None else f"{x:.{digits}f}"


def change(x):
    """A normalised value as a change: 1.24 -> +24.0%."""
    return NONE if x is None else f"{100 * (x - 1):+.1f}%"


def points(x):
    """A share added by one step: 0.07 -> +7.0%."""
    return NONE if x is None else f"{100 * x:+.1f}%"


def count(x):
    return NONE if x is None else f"{int(round(x)):,}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


class Page:
    """Markdown sections from the metrics of every workload and their suite means."""

    def __init__(self, workloads, per_workload, means):
        self.workloads = workloads
        self.per_workload = per_workload
        self.means = means

    def mean(self, key):
        return self.means.get(key, (None, 0))[0]

    def counted(self, key):
        """'' when every workload counts, else ' (n of N workloads)'."""
        n = self.means.get(key, (None, 0))[1]
        return "" if n == len(self.workloads) else f" ({n} of {len(self.workloads)} workloads)"

    def headline(self):
        m, c = self.mean, self.counted
        rows = [
            ("Scalar-eligible instructions, ALU only", "22%", pct(m("executed.full_alu")),
             f"full-warp ALU category of the gscalar run{c('executed.full_alu')}; whole "
             f"alu-scalar run {pct(m('eligible.alu-scalar'))}, gs-alu run "
             f"{pct(m('eligible.gs-alu'))}; by value {pct(m('oracle.full_alu'))}"),
            ("+ SFU and memory instructions", "+7%", points(m("executed.sfu_mem")),
             f"gs-all minus gs-alu run {points(m('step.sfu_mem'))}; by value "
             f"{pct(m('oracle.sfu_mem'))}"),
            ("+ half-warp scalar", "+2%", points(m("executed.half")),
             f"gs-half minus gs-all run {points(m('step.half'))}; by value {pct(m('oracle.half'))}"),
            ("+ divergent scalar", "+9%", points(m("executed.divergent")),
             f"gscalar minus gs-half run {points(m('step.divergent'))}; by value "
             f"{pct(m('oracle.divergent'))}"),
            ("Scalar-eligible instructions, G-Scalar", "40%", pct(m("eligible.gscalar")),
             f"scalar-executed / all warp instructions{c('eligible.gscalar')}; by value "
             f"{pct(m('eligible.oracle'))}; metadata rule, every category on "
             f"{pct(m('eligible.detected'))}"),
            ("Divergent instructions", "28%", pct(m("divergent_share")),
             "active mask not full" + c("divergent_share")),
            ("Divergent instructions scalar by value", "45%", pct(m("divergent_scalar.oracle")),
             f"share of divergent instructions; found by the mask-match rule "
             f"{pct(m('divergent_scalar.detected'))}, executed "
             f"{pct(m('divergent_scalar.executed'))}"),
            ("RF dynamic power, G-Scalar vs baseline", "-54% (46% of baseline)",
             f"{change(m('rf_power.gscalar'))} ({pct(m('rf_power.gscalar'))} of baseline)",
             f"energy {pct(m('rf_energy.gscalar'))} of baseline; power with compressors and "
             f"decompressors {pct(m('rf_power_codec.gscalar'))}{c('rf_power.gscalar')}"),
            ("RF dynamic power, ALU-scalar vs baseline", "63% of baseline",
             f"{pct(m('rf_power.alu-scalar'))} of baseline",
             f"energy {pct(m('rf_energy.alu-scalar'))}{c('rf_power.alu-scalar')}"),
            ("RF dynamic power, BDI vs baseline", "not stated",
             f"{pct(m('rf_power.bdi'))} of baseline",
             f"with compressors and decompressors {pct(m('rf_power_codec.bdi'))}"),
            ("IPC/W, G-Scalar vs baseline", "+24%", change(m("ipcw.gscalar")),
             "geometric mean" + c("ipcw.gscalar")),
            ("IPC/W, G-Scalar vs baseline, with the paper's power shares", "+24%",
             change(m("ipcw.paper_shares.gscalar")),
             f"our RF (with codecs) and execution power ratios ({pct(m('rf_power_codec.gscalar'))}, "
             f"{pct(m('exe_power.gscalar'))} of baseline) weighted as GPUWattch's 16% and 24% of "
             f"chip power, and our IPC; ALU-scalar {change(m('ipcw.paper_shares.alu-scalar'))}"
             + c("ipcw.paper_shares.gscalar")),
            ("IPC/W, G-Scalar vs ALU-scalar", "+15%", change(m("ipcw_gscalar_vs_alu")),
             f"geometric mean; ALU-scalar vs baseline {change(m('ipcw.alu-scalar'))}"
             + c("ipcw_gscalar_vs_alu")),
            ("Compression ratio, G-Scalar", "2.17", num(m("ratio.gscalar")),
             f"with metadata {num(m('ratio_metadata.gscalar'))}{c('ratio.gscalar')}"),
            ("Compression ratio, BDI", "2.13", num(m("ratio.bdi")),
             f"with metadata {num(m('ratio_metadata.bdi'))}{c('ratio.bdi')}"),
            ("IPC, G-Scalar vs baseline", "-1.7%", change(m("ipc.gscalar")),
             "warp IPC" + c("ipc.gscalar")),
        ]
        paper_reads = {"scalar": "36%", "bytes3": "17%", "bytes2": "4%", "bytes1": "7%",
                       "bytes0": "36% with divergent (rest)", "divergent": "see 0-byte"}
        for kind in gm.READ_KINDS:
            rows.append((f"Operand reads (Fig. 8): {read_label(kind)}", paper_reads[kind],
                         pct(m(f"reads.{kind}")), "gscalar run" + c(f"reads.{kind}")))
        return ("## Headline numbers\n\n"
                "Suite averages: arithmetic means over the workloads of per-workload ratios; "
                "IPC/W: geometric means of the per-workload values normalised to the baseline "
                "run. Fractions of instructions are of dynamic warp instructions. \"By value\" "
                "(oracle) counts what the actual lane values allow, whatever the metadata knows."
                "\n\n" + table(("metric", "paper", "ours (suite average)", "note"), rows))

    def per_workload_table(self):
        header = ("workload", "warp instr.", "divergent", "scalar alu-scalar", "gs-alu",
                  "gs-all", "gs-half", "gscalar", "oracle", "ratio G-Scalar", "ratio BDI",
                  "RF energy alu-scalar", "RF energy gscalar", "RF energy bdi", "IPC gscalar",
                  "IPC/W alu-scalar", "IPC/W gscalar")
        columns = ([("divergent_share", pct)]
                   + [(f"eligible.{s}", pct) for s in gm.STEPS + ("oracle",)]
                   + [(f"ratio.{c}", num) for c in gm.COMPRESSED]
                   + [(f"rf_energy.{c}", num) for c in ("alu-scalar", "gscalar", "bdi")]
                   + [("ipc.gscalar", lambda x: num(x, 3))]
                   + [(f"ipcw.{c}", num) for c in ("alu-scalar", "gscalar")])
        rows = [[w, count(self.per_workload[w].get("instructions"))]
                + [f(self.per_workload[w].get(k)) for k, f in columns] for w in self.workloads]
        rows.append(["**mean**", NONE] + [f(self.mean(k)) for k, f in columns])
        return ("## Per workload\n\n"
                "Scalar columns: scalar-executed fraction of warp instructions in each "
                "configuration step (oracle: by value, gscalar run). Ratio: compression ratio "
                "uncompressed / (array + base bytes). RF energy (register file arrays, crossbar, "
                "metadata, scalar RF), IPC and IPC/W are normalised to the baseline run.\n\n"
                + table(header, rows))

    def baseline_table(self):
        columns = (("baseline.ipc", num), ("baseline.power_w", lambda x: num(x, 1)),
                   ("baseline.rf_dynamic_share", pct), ("baseline.rf_total_share", pct))
        rows = [[w] + [f(self.per_workload[w].get(k)) for k, f in columns]
                for w in self.workloads]
        rows.append(["**mean**"] + [f(self.mean(k)) for k, f in columns])
        return ("## Baseline run\n\nWhat the normalised numbers are relative to: the RF's share "
                "of the energy bounds what an RF saving can do to IPC/W.\n\n"
                + table(("workload", "warp IPC", "average power (W)",
                         "RF share of dynamic energy", "RF share of all energy"), rows))

    def shares_table(self, title, intro, prefix, kinds, labels, extra=(), paper=None):
        keys = [f"{prefix}.{k}" for k in kinds] + [k for k, _ in extra]
        header = ["workload"] + list(labels) + [label for _, label in extra]
        rows = [[w] + [pct(self.per_workload[w].get(k)) for k in keys] for w in self.workloads]
        rows.append(["**mean**"] + [pct(self.mean(k)) for k in keys])
        if paper:
            rows.append(["paper"] + list(paper))
        return f"## {title}\n\n{intro}\n\n" + table(header, rows)


def read_label(kind):
    return {"scalar": "scalar", "divergent": "divergent"}.get(kind, f"{kind[5:]}-byte")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="statistics folder of run.sh")
    parser.add_argument("--docs", required=True, help="folder for gscalar.md and gscalar.png")
    parser.add_argument("--workloads", help="comma-separated workloads (default: the last run's)")
    parser.add_argument("--command", default="gscalar_page.py", help="command shown on the page")
    args = parser.parse_args(argv)

    configurations = gscalar_stats.read_configurations(os.path.join(HERE, "configurations.txt"))
    configs = [name for name, _, _ in configurations]
    workloads = (args.workloads.split(",") if args.workloads
                 else gscalar_stats.find_workloads(args.out, configs))
    if not workloads:
        print(f"gscalar_page: no statistics in {args.out} (run run.sh first)", file=sys.stderr)
        return 1
    try:
        runs = gscalar_stats.load_all(args.out, configs, workloads)
    except ValueError as error:
        print(f"gscalar_page: {error}", file=sys.stderr)
        return 1
    per_workload = {w: gm.workload_metrics({c: runs[c][w] for c in configs}) for w in workloads}
    page = Page(workloads, per_workload, gm.suite_means(per_workload))

    os.makedirs(args.docs, exist_ok=True)
    plotted = gscalar_plot.write_plot(os.path.join(args.docs, "gscalar.png"), workloads,
                                      per_workload, page.means)
    text = render(page, configurations, runs, args, plotted)
    path = os.path.join(args.docs, "gscalar.md")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    print(f"gscalar_page: wrote {path}" + (" and gscalar.png" if plotted else ""))
    return 0


def render(page, configurations, runs, args, plotted):
    info = gscalar_stats.read_run_info(args.out)
    any_run = next((r for by_w in runs.values() for r in by_w.values() if r), None)
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    runs_line = (f"Runs: `{info['command']}`, started {info.get('started', NONE)}, "
                 f"{info.get('seconds', NONE)} s, commit {info.get('commit', NONE)}.  \n"
                 if "command" in info else "Runs: no run-info.txt beside the statistics.  \n")
    written = ("." if info.get("command") == args.command else f" by `{args.command}`.")
    parts = ["# G-Scalar: the paper's numbers beside ours",
             "<!-- Generated by src/mech/gscalar/experiment/gscalar_page.py: do not edit; the "
             "discussion comes from src/mech/gscalar/experiment/discussion.md. -->",
             runs_line + f"Statistics: warpsim {any_run.version if any_run else NONE}, "
             f"`--config gtx480`, size {any_run.size if any_run else NONE}, "
             f"{len(page.workloads)} workloads.  \nPage written {today}{written}"]
    parts.append("## Configurations\n\nEvery workload runs once per configuration (`warpsim run "
                 "WORKLOAD --config gtx480 OPTIONS -q --stats ...`); paper settings: digest "
                 "sections 2 and 5.\n\n" + table(
                     ("name", "options", "what it models"),
                     [(n, f"`{o}`" if o else NONE, w) for n, o, w in configurations]))
    problems = []
    for config, by_workload in runs.items():
        missing = [w for w, r in by_workload.items() if r is None]
        unverified = [w for w, r in by_workload.items() if r is not None and not r.verified]
        if len(missing) == len(by_workload):
            problems.append(f"- {config}: not run")
        elif missing:
            problems.append(f"- {config}: no statistics for " + ", ".join(missing))
        if unverified:
            problems.append(f"- {config}: did not verify: " + ", ".join(unverified))
    if problems:
        parts.append("## Missing runs\n\nValues that need these runs show as –.\n\n"
                     + "\n".join(problems))
    parts += [page.headline(), page.per_workload_table(), page.baseline_table()]
    parts.append(page.shares_table(
        "Operand reads by common bytes (Fig. 8)",
        "Register operand reads of the gscalar run by what the metadata says: scalar (all "
        "lanes equal), n-byte (the n most significant bytes equal in every lane), divergent "
        "(written by a divergent instruction, stored uncompressed).",
        "reads", gm.READ_KINDS, [read_label(k) for k in gm.READ_KINDS],
        paper=("36%", "17%", "4%", "7%", "36% (rest)", "")))
    parts.append(page.shares_table(
        "Value similarity of register writes",
        "Register writes of the baseline run by the value-similarity profiler "
        "(`profile.value_similarity`), in exclusive classes over the active lanes, the first "
        "that holds: uniform (all equal), affine (base + lane x stride), msbN (the N most "
        "significant bytes equal), random. Non-divergent and divergent writes together, as "
        "shares of all register writes; the last column is the divergent writes' share.",
        "values", gm.VALUE_KINDS, gm.VALUE_KINDS,
        extra=(("values.divergent_writes", "divergent writes"),)))
    parts.append("## Plot\n\n" + ("![IPC/W normalised to the baseline, and scalar-executed "
                                  "instructions by category](gscalar.png)" if plotted else
                                  "Not drawn: matplotlib was not installed."))
    with open(os.path.join(HERE, "discussion.md"), encoding="utf-8") as stream:
        parts.append("## Why our numbers differ\n\n" + stream.read().strip())
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
