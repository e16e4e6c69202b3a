"""The G-Scalar results page, a `warpsim report` template: render(report) returns the page
(docs/results/gscalar.md) and draws its plot (gscalar.png beside it) from the statistics of the
points of a sweep of sweep.toml. Run by run.sh, or:

  warpsim report DIR --template src/mech/gscalar/experiment/gscalar_page.py \\
      --out docs/results/gscalar.md

Missing points and counters do not stop it: what cannot be computed is printed as "–".

The discussion (discussion.md) is a template: its numbers are placeholders {name} filled from the
same metrics as the tables (discussion_values); a placeholder it names that has no value, or a
value that it never uses, is an error, so a typo cannot pass silently.
"""

import os

import gscalar_metrics as gm
import gscalar_plot
import gscalar_stats
import placeholders  # scripts/report, on the path of a template
from page_text import NONE, change, page_command, page_stem, pct, status_words  # scripts/report
from sweep_report import ReportError  # scripts/report, on the path of a template

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = "src/mech/gscalar/experiment"
SELF, SPEC, RUN = f"{FOLDER}/gscalar_page.py", f"{FOLDER}/sweep.toml", f"{FOLDER}/run.sh"
DISCUSSION = f"{FOLDER}/discussion.md"


def num(x, digits=2):
    return NONE if x is None else f"{x:.{digits}f}"


def points(x):
    """A share added by one step: 0.07 -> +7.0%."""
    return NONE if x is None else f"{100 * x:+.1f}%"


def count(x):
    return NONE if x is None else f"{int(round(x)):,}"


def words(names):
    """['a', 'b', 'c'] -> 'a, b and c'."""
    names = list(names)
    if not names:
        return NONE
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def span(low, high, form):
    """'low to high' in `form` ('x' when they print alike)."""
    if low is None or high is None:
        return NONE
    a, b = form(low), form(high)
    return a if a == b else f"{a} to {b}"


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

    def ranked(self, key, n, highest=False):
        """The n workloads with the lowest (highest) value of `key`, those without one left out;
        ties in the suite's order."""
        have = [w for w in self.workloads if self.per_workload[w].get(key) is not None]
        order = sorted(range(len(have)), key=lambda i: (
            -self.per_workload[have[i]][key] if highest else self.per_workload[have[i]][key], i))
        return [have[i] for i in order[:n]]

    def over(self, workloads, key):
        """(lowest, highest, arithmetic mean) of `key` over `workloads` (Nones when empty)."""
        values = [self.per_workload[w][key] for w in workloads
                  if self.per_workload[w].get(key) is not None]
        if not values:
            return None, None, None
        return min(values), max(values), sum(values) / len(values)

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


def render(report):
    """The page (the `warpsim report` template interface: scripts/report/sweep_report.py)."""
    runs = gscalar_stats.load_runs(report)
    configs = list(runs)
    workloads = [str(w) for w in report.axis("workload").values]
    per_workload = {w: gm.workload_metrics({c: runs[c][w] for c in configs}) for w in workloads}
    page = Page(workloads, per_workload, gm.suite_means(per_workload))
    plot = gscalar_plot.write_plot(report, page_stem(report)
                                   + ".png", workloads, per_workload, page.means)
    return text(report, page, runs, plot)


def text(report, page, runs, plot):
    any_run = next((r for by_w in runs.values() for r in by_w.values() if r), None)
    single = {a.name: a.values[0] for a in report.axes if len(a.values) == 1}
    config = single.get("config", "gtx480")
    size = single.get("size", any_run.size if any_run else NONE)
    parts = ["# G-Scalar: the paper's numbers beside ours",
             f"<!-- Generated by `warpsim report` with the template {SELF}: do not edit; the "
             f"configurations come from the sweep's spec ({SPEC}), the discussion from "
             f"{DISCUSSION}. -->",
             f"Runs: sweep `{report.name}` (`warpsim sweep {SPEC}`), {len(report.points)} points, "
             f"{status_words(report)}.  \n"
             f"Statistics: warpsim {any_run.version if any_run else NONE}, `--config {config}`, "
             f"size {size}, {len(page.workloads)} workloads.  \n"
             + page_command(SELF, RUN, "both")]
    parts.append(f"## Configurations\n\nEvery workload runs once per configuration, a variant of "
                 f"the sweep (`warpsim run WORKLOAD --size {size} --config {config} OPTIONS "
                 f"--stats ... -q`); paper settings: digest sections 2 and 5.\n\n" + table(
                     ("name", "options", "what it models"),
                     [(n, f"`{o}`" if o else NONE, w) for n, o, w in configurations(report)]))
    problems = []
    for name, by_workload in runs.items():
        missing = [w for w, r in by_workload.items() if r is None]
        unverified = [w for w, r in by_workload.items() if r is not None and not r.verified]
        if len(missing) == len(by_workload):
            problems.append(f"- {name}: not run")
        elif missing:
            problems.append(f"- {name}: no statistics for " + ", ".join(missing))
        if unverified:
            problems.append(f"- {name}: did not verify: " + ", ".join(unverified))
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
    parts.append("## Plot\n\n" + (f"![IPC/W normalised to the baseline, and scalar-executed "
                                   f"instructions by category]({plot})" if plot else
                                   "Not drawn (plots off)."))
    with open(os.path.join(HERE, "discussion.md"), encoding="utf-8") as stream:
        discussion = fill(stream.read(), discussion_values(page, size, config))
    parts.append("## Why our numbers differ\n\n" + discussion)
    return "\n\n".join(parts) + "\n"


# How many workloads the discussion names at each end of a ranking: a quarter of the suite.
def group_size(page):
    return max(1, len(page.workloads) // 4)


def discussion_values(page, size, config):
    """{placeholder: text} for discussion.md, every number from the metrics of the tables."""
    m = page.mean
    n = group_size(page)
    low_occupancy = page.ranked("baseline.occupancy", n)
    high_occupancy = page.ranked("baseline.occupancy", n, highest=True)
    low_occ, _, _ = page.over(low_occupancy, "baseline.occupancy")
    _, high_occ, _ = page.over(high_occupancy, "baseline.occupancy")
    low_ipc = page.over(low_occupancy, "ipc.gscalar")
    high_ipc = page.over(high_occupancy, "ipc.gscalar")
    lowest_scalar = page.ranked("eligible.gscalar", 3)
    losses = page.ranked("ipc.gscalar", n)
    most_moves = page.ranked("special_moves", 1, highest=True)
    return {
        "workloads": str(len(page.workloads)), "size": str(size), "config": str(config),
        # What reproduces.
        "rf_power_gscalar": pct(m("rf_power.gscalar")),
        "rf_power_gscalar_change": change(m("rf_power.gscalar")),
        "rf_power_alu_scalar": pct(m("rf_power.alu-scalar")),
        "ratio_gscalar": num(m("ratio.gscalar")), "ratio_bdi": num(m("ratio.bdi")),
        "rf_energy_gscalar": pct(m("rf_energy.gscalar")),
        "rf_energy_bdi": pct(m("rf_energy.bdi")),
        "rf_power_codec_gscalar": pct(m("rf_power_codec.gscalar")),
        "rf_power_codec_bdi": pct(m("rf_power_codec.bdi")),
        "reads_scalar": pct(m("reads.scalar")), "reads_bytes3": pct(m("reads.bytes3")),
        # Scalar-eligible instructions.
        "eligible_gscalar": pct(m("eligible.gscalar")),
        "eligible_oracle": pct(m("eligible.oracle")),
        "step_alu": pct(m("executed.full_alu")),
        "step_sfu_mem": points(m("executed.sfu_mem")),
        "step_half": points(m("executed.half")),
        "step_divergent": points(m("executed.divergent")),
        "lowest_scalar_workloads": words(lowest_scalar),
        "lowest_scalar_range": span(*page.over(lowest_scalar, "eligible.gscalar")[:2], pct),
        "divergent_share": pct(m("divergent_share")),
        "divergent_scalar_oracle": pct(m("divergent_scalar.oracle")),
        "divergent_scalar_detected": pct(m("divergent_scalar.detected")),
        # IPC.
        "ipc_change": change(m("ipc.gscalar")),
        "group_size": str(n),
        "low_occupancy_workloads": words(low_occupancy),
        "low_occupancy_range": span(low_occ, page.over(low_occupancy, "baseline.occupancy")[1],
                                    pct),
        "low_occupancy_ipc_range": span(low_ipc[0], low_ipc[1], change),
        "low_occupancy_ipc_mean": change(low_ipc[2]),
        "largest_ipc_losses": words(f"{w} {change(page.per_workload[w]['ipc.gscalar'])}"
                                    for w in losses),
        "high_occupancy_workloads": words(high_occupancy),
        "high_occupancy_range": span(page.over(high_occupancy, "baseline.occupancy")[0],
                                     high_occ, pct),
        "high_occupancy_ipc_range": span(high_ipc[0], high_ipc[1], change),
        "high_occupancy_ipc_mean": change(high_ipc[2]),
        # IPC/W.
        "ipcw_change": change(m("ipcw.gscalar")),
        "ipcw_vs_alu_change": change(m("ipcw_gscalar_vs_alu")),
        "rf_total_share": pct(m("baseline.rf_total_share")),
        "exe_total_share": pct(m("baseline.exe_total_share")),
        "static_power_w": num(m("baseline.static_power_w"), 0),
        "static_share": pct(m("baseline.static_share")),
        "paper_rf_share": f"{100 * gm.PAPER_RF_SHARE:.0f}%",
        "paper_exe_share": f"{100 * gm.PAPER_EXE_SHARE:.0f}%",
        "rf_power_codec_change": change(m("rf_power_codec.gscalar")),
        "exe_power_change": change(m("exe_power.gscalar")),
        "ipcw_paper_shares_change": change(m("ipcw.paper_shares.gscalar")),
        "ipcw_paper_shares_vs_alu_change": change(m(gm.PAPER_SHARES_VS_ALU)),
        "ipcw_paper_shares_alu_change": change(m("ipcw.paper_shares.alu-scalar")),
        "sfu_share": pct(m("sfu_share")),
        # Not modelled.
        "special_moves": f"{NONE}" if m("special_moves") is None
        else f"{100 * m('special_moves'):.2f}%",
        "special_moves_max_workload": words(most_moves),
        "special_moves_max": pct(page.per_workload[most_moves[0]]["special_moves"])
        if most_moves else NONE,
    }


def fill(template, values):
    """The discussion with its placeholders filled (placeholders.fill, strict both ways)."""
    return placeholders.fill(template, values, DISCUSSION)


def configurations(report):
    """[(variant, its warpsim run options, its description)] in the sweep's order."""
    variants = report.spec.get("variants", {})
    return [(v, report.variant_options(v), variants.get(v, {}).get("description", ""))
            for v in report.axis("variant").values]
