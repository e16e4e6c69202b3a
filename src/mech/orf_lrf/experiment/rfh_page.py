"""The register-file-hierarchy results page, a `warpsim report` template: render(report)
returns docs/results/rf-hierarchy.md and draws its plots beside it, from the sweep spec.py
writes (run.sh). Metrics: rfh_data.py; the discussion (discussion.md) is a template whose
{name} placeholders are filled from the same metrics (placeholders.fill).

  warpsim report build/experiments/rf-hierarchy --template src/mech/orf_lrf/experiment/rfh_page.py \\
      --out docs/results/rf-hierarchy.md
"""

import os

import placeholders  # scripts/report, on the path of a template
import rfh_data as data
from page_text import NONE, page_stem, pct, signed  # scripts/report

HERE = os.path.dirname(os.path.abspath(__file__))
DISCUSSION = "src/mech/orf_lrf/experiment/discussion.md"
PHYS, VIRT = "minimal", "off"
ENTRIES = list(range(1, 9))
RFC_COMBOS = [("fifo", "hint"), ("fifo", "nohint"), ("lru", "hint"), ("lru", "nohint")]
DESIGNS = [("rfc-fifo-hint-3", "HW RFC, 2 levels (3 entries)", -0.34),
           ("orf-3", "SW ORF, 2 levels (3 entries)", -0.45),
           ("rfc3", "HW 3 levels (LRF + 6-entry RFC)", -0.41),
           ("orflrf-3", "SW 3 levels (split LRF + 3-entry ORF)", -0.54)]
# The thesis's numbers (digest ../shared/digests/rf-hierarchy-and-unified-memory.md, s3-s6, s9).
PAPER = {
    "table_6_1": {0: 1.23, 1: 0.57, 2: 0.48, 3: 0.41, 4: 0.37, 5: 0.36, 6: 0.35, 7: 0.38, 8: 0.38},
    "lrf_share": 0.30, "split_more_lrf_reads": 0.20, "optimisations": 0.066,
    "read_more_than_once": 0.20, "read_once_lifetime_1": 0.40,
    "hw_extra_reads": 0.20, "sw_fewer_upper_writes": 0.20,
    "rfc6_reads": "40-60%", "rfc6_writes": "30-60% (40-80% with hints)",
}


def num(x, digits=2):
    return NONE if x is None else f"{x:.{digits}f}"


class Study:
    """Every metric of the page, from the runs."""

    def __init__(self, report):
        self.report = report
        self.runs, self.failures = data.load(report)
        self.workloads = [str(w) for w in report.axis("workload").values]

    def run(self, variant, workload, registers=PHYS):
        return self.runs.get((variant, registers), {}).get(workload)

    def per_workload(self, variant, fn, registers=PHYS):
        out = {}
        for w in self.workloads:
            r = self.run(variant, w, registers)
            if r is not None:
                out[w] = fn(r, w)
        return out

    def mean(self, variant, fn, registers=PHYS):
        return data.mean(list(self.per_workload(variant, fn, registers).values()))

    # Value usage (s3), from the RFC runs (any RFC variant counts the same stream).
    def value_usage(self, registers=PHYS):
        reads, life = [0] * 5, [0] * 10
        for w in self.workloads:
            r = self.run("rfc-fifo-hint-3", w, registers)
            if r is None:
                continue
            u = r.h.get("value_usage") or {}
            reads = [a + b for a, b in zip(reads, u.get("reads_per_value") or [0] * 5)]
            life = [a + b for a, b in zip(life, u.get("read_once_lifetime") or [0] * 10)]
        total = sum(reads)
        return None if total == 0 else ([x / total for x in reads], [x / total for x in life])

    # Two-level scheduler (s4): IPC relative to all 32 warps active.
    def ipc_vs_32(self, variant):
        return data.geomean(list(self.per_workload(
            variant, lambda r, w: data.ratio(r.ipc, (self.run("tl32", w) or r).ipc)).values()))

    # RFC filtering (s5): mean over workloads.
    def reads_avoided(self, variant, registers=PHYS):
        return self.mean(variant, lambda r, w: 1 - data.ratio(r.mrf_reads(), r.operand_reads()), registers)

    def writes_avoided(self, variant, registers=PHYS):
        return self.mean(variant, lambda r, w: 1 - data.ratio(r.mrf_writes(), r.result_writes()), registers)

    # RF energy relative to the single-level baseline.
    def energy_ratio(self, variant, workload, registers=PHYS):
        r, b = self.run(variant, workload, registers), self.run("base", workload, registers)
        return None if r is None or b is None else data.ratio(r.rf_energy_nj(), b.rf_energy_nj())

    def saving(self, variant, registers=PHYS):
        m = data.mean([self.energy_ratio(variant, w, registers) for w in self.workloads])
        return None if m is None else m - 1

    def mrf_reads_per_instruction(self, variant, registers=PHYS):
        reads = sum(r.mrf_reads() for r in self.runs.get((variant, registers), {}).values())
        insts = sum(r.warp_instructions for r in self.runs.get((variant, registers), {}).values())
        return data.ratio(reads, insts)

    def share(self, variant, level):
        runs = self.runs.get((variant, PHYS), {}).values()
        total = sum(r.operand_reads() for r in runs)
        return data.ratio(sum(r.level(level, "operand_reads") for r in runs), total)

    def total(self, variant, fn):
        return sum(fn(r) for r in self.runs.get((variant, PHYS), {}).values())

    def hint_write_change(self, n):
        """MRF writes with liveness hints relative to without (FIFO, n entries), mean of workloads."""
        return data.mean([data.ratio(self.run(f"rfc-fifo-hint-{n}", w).mrf_writes(),
                                     self.run(f"rfc-fifo-nohint-{n}", w).mrf_writes()) - 1
                          for w in self.workloads
                          if self.run(f"rfc-fifo-hint-{n}", w) and self.run(f"rfc-fifo-nohint-{n}", w)
                          and self.run(f"rfc-fifo-nohint-{n}", w).mrf_writes()])

    def rank(self, variant, workload):
        """1 for the workload with the largest saving."""
        order = sorted((self.energy_ratio(variant, w) or 1, w) for w in self.workloads)
        return next((i + 1 for i, (_, w) in enumerate(order) if w == workload), None)

    def best(self, prefix):
        savings = {n: self.saving(f"{prefix}{n}") for n in ENTRIES}
        savings = {n: s for n, s in savings.items() if s is not None}
        if not savings:
            return None, None
        n = min(savings, key=lambda k: savings[k])
        return n, savings[n]


def validation(s):
    """The digest's s10.4 targets 1-5, in order: (target, ours, met?, why)."""
    rows = []
    ipc8, ipc6 = s.ipc_vs_32("base"), s.ipc_vs_32("tl6")
    ok = ipc8 is not None and abs(ipc8 - 1) <= 0.01 and ipc6 is not None and ipc6 <= ipc8 + 1e-9
    rows.append(("1. two-level: A = 8 within about 1% of A = 32; A = 6 a small loss",
                 f"A = 8: {signed(None if ipc8 is None else ipc8 - 1)}, A = 6: {signed(None if ipc6 is None else ipc6 - 1)} "
                 "(geomean IPC vs A = 32)", ok))
    fifo = [s.reads_avoided(f"rfc-fifo-nohint-{n}") for n in ENTRIES]
    lru = [s.reads_avoided(f"rfc-lru-nohint-{n}") for n in ENTRIES]
    rising = all(b is not None and a is not None and b >= a - 1e-9 for a, b in zip(fifo, fifo[1:]))
    close = all(f is not None and l is not None and abs(f - l) <= 0.03 for f, l in zip(fifo[:6], lru[:6]))
    hints = s.hint_write_change(6)
    rows.append(("2. RFC filtering rises with entries; FIFO ≈ LRU up to 6; hints cut MRF writes by about 10-15%",
                 f"reads avoided {pct(fifo[0])} (1 entry) … {pct(fifo[-1])} (8); FIFO-LRU gap ≤ 3 points up to 6: "
                 f"{'yes' if close else 'no'}; hints at 6 entries: MRF writes {signed(hints)}",
                 rising and close and hints is not None and hints <= -0.05))
    n, best = s.best("rfc-fifo-hint-")
    rows.append(("3. HW RFC energy optimum in 3-6 entries, about -34% to -36%",
                 f"best at {n} entries: {signed(best)}",
                 n is not None and 3 <= n <= 6 and best <= -0.25))
    hw_reads = s.total("rfc-fifo-hint-3", lambda r: r.level("rfc", "reads"))
    sw_reads = s.total("orf-3", lambda r: r.level("orf", "reads"))
    hw_writes = s.total("rfc-fifo-hint-3", lambda r: r.level("rfc", "writes"))
    sw_writes = s.total("orf-3", lambda r: r.level("orf", "writes"))
    more = data.ratio(hw_reads, sw_reads)
    fewer = data.ratio(sw_writes, hw_writes)
    rows.append(("4. HW RFC makes about 20% more upper-level reads than the SW ORF; SW about 20% fewer upper-level writes",
                 f"HW/SW reads {signed(None if more is None else more - 1)}, SW/HW writes "
                 f"{signed(None if fewer is None else fewer - 1)} (3 entries)",
                 more is not None and fewer is not None and more >= 1.05 and fewer <= 0.95))
    sav = s.saving("orflrf-3")
    mpi = s.mrf_reads_per_instruction("orflrf-3")
    lrf = s.share("orflrf-3", "lrf")
    weakest = sorted((s.energy_ratio("orflrf-3", w) or 0, w) for w in s.workloads)[-2:]
    weak_names = [w for _, w in reversed(weakest)]
    ok = sav is not None and sav <= -0.45 and mpi is not None and mpi <= 0.5 and lrf is not None and lrf >= 0.2
    rows.append(("5. SW 3 levels (split LRF, 3-entry ORF): about -54%, 0.41 MRF reads per instruction, LRF ≈ 30% of "
                 "reads, Reduction/ScalarProd weakest",
                 f"{signed(sav)}, {num(mpi)} MRF reads/instruction, LRF {pct(lrf)} of reads; weakest: "
                 + ", ".join(weak_names), ok))
    return rows


def write_plots(s, report, stem):
    plt = report.pyplot()
    if plt is None:
        return {}
    out = {}
    figure, axes = plt.subplots(1, 2, figsize=(10, 3.4))
    styles = {("fifo", "hint"): ("#d62728", "-"), ("fifo", "nohint"): ("#d62728", ":"),
              ("lru", "hint"): ("#1f77b4", "-"), ("lru", "nohint"): ("#1f77b4", ":")}
    for (policy, hint) in RFC_COMBOS:
        colour, line = styles[(policy, hint)]
        label = f"{policy.upper()}{', hints' if hint == 'hint' else ''}"
        axes[0].plot(ENTRIES, [100 * (s.reads_avoided(f"rfc-{policy}-{hint}-{n}") or 0) for n in ENTRIES],
                     color=colour, linestyle=line, marker=".", label=label)
        axes[1].plot(ENTRIES, [100 * (s.writes_avoided(f"rfc-{policy}-{hint}-{n}") or 0) for n in ENTRIES],
                     color=colour, linestyle=line, marker=".", label=label)
    axes[0].set_ylabel("MRF reads avoided (%)")
    axes[1].set_ylabel("MRF writes avoided (%)")
    for ax in axes:
        ax.set_xlabel("RFC entries per thread")
        ax.set_ylim(0, 100)
    axes[1].legend(fontsize=8)
    figure.tight_layout()
    out["filter"] = report.save_figure(figure, f"{stem}-rfc-filtering.png")

    figure, ax = plt.subplots(figsize=(6, 3.4))
    for prefix, label, colour in (("rfc-fifo-hint-", "HW RFC (FIFO, hints)", "#d62728"),
                                  ("orf-", "SW ORF", "#2ca02c"), ("orflrf-", "SW split LRF + ORF", "#9467bd")):
        ys = [s.saving(f"{prefix}{n}") for n in ENTRIES]
        ax.plot(ENTRIES, [100 * (1 + y) if y is not None else None for y in ys], marker=".", label=label,
                color=colour)
    ax.axhline(100, color="#444444", linewidth=0.8)
    ax.set_xlabel("entries per thread")
    ax.set_ylabel("RF energy (% of single level)")
    ax.set_ylim(0, 110)
    ax.legend(fontsize=8)
    figure.tight_layout()
    out["energy"] = report.save_figure(figure, f"{stem}-energy-vs-entries.png")

    figure, ax = plt.subplots(figsize=(12, 3.4))
    xs = list(range(len(s.workloads)))
    width = 0.8 / len(DESIGNS)
    colours = ["#d62728", "#2ca02c", "#ff7f0e", "#9467bd"]
    for i, (variant, label, _) in enumerate(DESIGNS):
        ys = [100 * (s.energy_ratio(variant, w) or 0) for w in s.workloads]
        ax.bar([x - 0.4 + width * (i + 0.5) for x in xs], ys, width=width, label=label, color=colours[i])
    ax.set_xticks(xs)
    ax.set_xticklabels(s.workloads, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("RF energy (% of single level)")
    ax.legend(fontsize=7, ncol=4)
    figure.tight_layout()
    out["bars"] = report.save_figure(figure, f"{stem}-energy-per-workload.png")
    return out


def discussion_values(s):
    n_hw, best_hw = s.best("rfc-fifo-hint-")
    n_sw, best_sw = s.best("orf-")
    usage = s.value_usage()
    usage_v = s.value_usage(VIRT)
    v = {
        "best_hw_entries": str(n_hw), "best_hw_saving": signed(best_hw),
        "best_sw_entries": str(n_sw), "best_sw_saving": signed(best_sw),
        "read_once": pct(usage[0][1]) if usage else NONE,
        "read_more": pct(sum(usage[0][2:])) if usage else NONE,
        "read_once_virtual": pct(usage_v[0][1]) if usage_v else NONE,
        "lifetime_1": pct(usage[1][0]) if usage else NONE,
        "lifetime_1_virtual": pct(usage_v[1][0]) if usage_v else NONE,
        "mpi_3": num(s.mrf_reads_per_instruction("orflrf-3")),
        "mpi_base": num(s.mrf_reads_per_instruction("base")),
        "lrf_share": pct(s.share("orflrf-3", "lrf")),
    }
    v["ipc_a8"] = signed(None if s.ipc_vs_32("base") is None else s.ipc_vs_32("base") - 1)
    v["ipc_a6"] = signed(None if s.ipc_vs_32("tl6") is None else s.ipc_vs_32("tl6") - 1)
    v["ipc_a4"] = signed(None if s.ipc_vs_32("tl4") is None else s.ipc_vs_32("tl4") - 1)
    v["ipc_gto"] = signed(None if s.ipc_vs_32("gto") is None else s.ipc_vs_32("gto") - 1)
    v["hint_writes"] = signed(s.hint_write_change(6))
    v["workloads"] = str(len(s.workloads))
    gaps = [100 * (s.saving(variant) - paper) for variant, _, paper in DESIGNS if s.saving(variant) is not None]
    v["gap_range"] = f"{min(gaps):.0f} to {max(gaps):.0f}" if gaps else NONE
    v["lifetime_over_3"] = pct(sum(usage[1][3:])) if usage else NONE
    v["mpi_base_virtual"] = num(s.mrf_reads_per_instruction("base", VIRT))
    v["mpi_3_virtual"] = num(s.mrf_reads_per_instruction("orflrf-3", VIRT))
    ipc = sorted((data.ratio(s.run("base", w).ipc, s.run("tl32", w).ipc), w) for w in s.workloads
                 if s.run("base", w) and s.run("tl32", w) and s.run("tl32", w).ipc)
    v["a8_within_1"] = str(sum(1 for r, _ in ipc if abs(r - 1) <= 0.01))
    v["a8_worst"] = ", ".join(f"{w} {signed(r - 1)}" for r, w in ipc[:2])
    v["a8_best"] = ", ".join(f"{w} {signed(r - 1)}" for r, w in ipc[-1:])
    hw = {k: s.total("rfc-fifo-hint-3", lambda r, k=k: r.level("rfc", k))
          for k in ("operand_reads", "writeback_reads", "result_writes")}
    sw = {k: s.total("orf-3", lambda r, k=k: r.level("orf", k)) for k in ("operand_reads", "result_writes", "fill_writes")}
    v["hw_writeback_share"] = pct(data.ratio(hw["writeback_reads"], hw["operand_reads"]), 0)
    v["sw_more_operand_reads"] = signed(None if not hw["operand_reads"] else sw["operand_reads"] / hw["operand_reads"] - 1)
    v["sw_result_writes"] = signed(None if not hw["result_writes"] else sw["result_writes"] / hw["result_writes"] - 1)
    v["sw_fill_share"] = pct(data.ratio(sw["fill_writes"], hw["result_writes"]), 0)
    order = sorted((s.energy_ratio("orflrf-3", w) or 1, w) for w in s.workloads)
    v["sw3_best"] = ", ".join(f"{w} ({signed(r - 1)})" for r, w in order[:3])
    v["sw3_worst"] = ", ".join(f"{w} ({signed(r - 1)})" for r, w in reversed(order[-3:]))
    passes = [r.compiler.get("orf-lrf") or {} for r in s.runs.get(("orflrf-3", PHYS), {}).values()]
    strands = sum(p.get("strand_count", 0) for p in passes)
    v["strand_length"] = num(data.ratio(sum(p.get("instructions", 0) for p in passes), strands), 1)
    long_latency = sum((p.get("strands") or {}).get("long_latency", 0) for p in passes)
    v["long_latency_share"] = pct(data.ratio(long_latency, strands), 0)
    for w in ("scalar-prod", "reduce-tree", "reduce-shfl", "dgemm-tiled"):
        key = w.replace("-", "_")
        ratio = s.energy_ratio("orflrf-3", w)
        v[f"saving_{key}"] = signed(None if ratio is None else ratio - 1)
        v[f"rank_{key}"] = str(s.rank("orflrf-3", w))
    for variant, key in (("rfc-fifo-hint-3", "hw2"), ("orf-3", "sw2"), ("rfc3", "hw3"), ("orflrf-3", "sw3")):
        v[f"saving_{key}"] = signed(s.saving(variant))
        v[f"saving_{key}_virtual"] = signed(s.saving(variant, VIRT))
    return v


def render(report):
    s = Study(report)
    stem = page_stem(report)
    plots = write_plots(s, report, stem)
    with open(os.path.join(HERE, "discussion.md")) as f:
        discussion = placeholders.fill(f.read(), discussion_values(s), DISCUSSION)
    counts = report.status_counts()
    single = {a.name: a.values[0] for a in report.axes if len(a.values) == 1}
    out = [
        "# Register-file hierarchy: results",
        "",
        "Generated by `src/mech/orf_lrf/experiment/run.sh` (`spec.py` writes the `warpsim sweep` spec; "
        "`warpsim report` with `rfh_page.py`); do not edit by hand.  ",
        f"Statistics: `--config {single.get('config', NONE)}` on one SM (`--sms 1`, as the thesis's "
        f"single-SM simulator), size {single.get('size', NONE)}, {len(s.workloads)} workloads, on physical "
        "registers (`--max-registers minimal`: the fewest registers without spills) unless marked virtual; "
        f"{counts.get('pass', 0)} points passed" + (f", {len(s.failures)} did not verify" if s.failures else "") + ".",
        "",
        "Source: the register-file-hierarchy chapters of the thesis (digest "
        "`../shared/digests/rf-hierarchy-and-unified-memory.md`, s3-s6 and s9). Definitions: "
        "`src/mech/orf_lrf/experiment/rfh_data.py`; configurations: `spec.py` and the overlays `rfc`, "
        "`rfc-3level`, `orf`, `orf-lrf`. RF energy is bank + wire of every level (thesis Tables 4.5, 4.6), "
        "normalised to the single-level banked register file with the same scheduler.",
        "",
        "## Value usage (s3)",
        "",
        "Share of dynamic register values (warp registers) by the number of times they are read, and "
        "of values read once by their lifetime (warp instructions from producer to consumer). Thesis: "
        f"CUDA benchmarks (PTX) read at most {pct(PAPER['read_more_than_once'], 0)} of values more than once and "
        f"about {pct(PAPER['read_once_lifetime_1'], 0)} of values once with lifetime 1.",
        "",
        "| registers | read 0 | 1 | 2 | 3 | 4+ | read once, lifetime 1 | 2 | 3 | 4-9 | 10+ |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, regs in (("physical", PHYS), ("virtual", VIRT)):
        u = s.value_usage(regs)
        if u is None:
            continue
        reads, life = u
        out.append(f"| {label} | " + " | ".join(pct(x) for x in reads) + " | " + pct(life[0]) + " | " + pct(life[1])
                   + " | " + pct(life[2]) + " | " + pct(sum(life[3:9])) + " | " + pct(life[9]) + " |")
    out += ["", "## Two-level warp scheduler (s4)", "",
            "IPC relative to all 32 warps active (two-level with A = 32), geometric mean over the workloads; "
            "thesis: 8 active warps match 32, 6 lose about 1% on compute traces.", "",
            "| active warps A | 4 | 6 | 8 | 32 | single-level GTO |", "|---|---|---|---|---|---|",
            "| IPC vs A = 32 | " + " | ".join(signed(None if x is None else x - 1) for x in
                                              (s.ipc_vs_32("tl4"), s.ipc_vs_32("tl6"), s.ipc_vs_32("base"), 1.0,
                                               s.ipc_vs_32("gto"))) + " |", ""]
    out += ["## Hardware register file cache: MRF traffic avoided (s5)", "",
            "Mean over workloads, with the two-level scheduler (8 active warps: flush on deschedule) and "
            f"long-latency bypass. Thesis at 6 entries: {PAPER['rfc6_reads']} of MRF reads and "
            f"{PAPER['rfc6_writes']} of MRF writes avoided.", ""]
    if plots.get("filter"):
        out += [f"![MRF reads and writes avoided versus RFC entries]({plots['filter']})", ""]
    out += ["| entries | " + " | ".join(str(n) for n in ENTRIES) + " |", "|---|" + "---|" * len(ENTRIES)]
    for policy, hint in RFC_COMBOS:
        label = f"{policy.upper()}{' + hints' if hint == 'hint' else ''}"
        out.append(f"| reads, {label} | " + " | ".join(pct(s.reads_avoided(f"rfc-{policy}-{hint}-{n}"), 0)
                                                       for n in ENTRIES) + " |")
        out.append(f"| writes, {label} | " + " | ".join(pct(s.writes_avoided(f"rfc-{policy}-{hint}-{n}"), 0)
                                                        for n in ENTRIES) + " |")
    out += ["", "## RF energy versus entries (s5.4, s6.4)", ""]
    if plots.get("energy"):
        out += [f"![RF energy versus entries]({plots['energy']})", ""]
    out += ["| entries | " + " | ".join(str(n) for n in ENTRIES) + " |", "|---|" + "---|" * len(ENTRIES)]
    for prefix, label in (("rfc-fifo-hint-", "HW RFC (FIFO, hints)"), ("orf-", "SW ORF"),
                          ("orflrf-", "SW split LRF + ORF")):
        out.append(f"| {label} | " + " | ".join(signed(s.saving(f"{prefix}{n}")) for n in ENTRIES) + " |")
    out += ["", "## MRF reads per instruction, software three levels (Table 6.1)", "",
            "| ORF entries | baseline | " + " | ".join(str(n) for n in ENTRIES) + " |",
            "|---|---|" + "---|" * len(ENTRIES),
            "| thesis | " + num(PAPER["table_6_1"][0]) + " | " + " | ".join(num(PAPER["table_6_1"][n]) for n in ENTRIES) + " |",
            "| ours | " + num(s.mrf_reads_per_instruction("base")) + " | "
            + " | ".join(num(s.mrf_reads_per_instruction(f"orflrf-{n}")) for n in ENTRIES) + " |", ""]
    split, unified = s.share("orflrf-3", "lrf"), s.share("orflrf-3-unified", "lrf")
    noopt = s.saving("orflrf-3-noopt")
    out += ["## Software three levels: LRF and the allocator's optimisations (s6.3-6.4)", "",
            "| quantity | thesis | ours |", "|---|---|---|",
            f"| LRF share of operand reads (split LRF, 3-entry ORF) | {pct(PAPER['lrf_share'], 0)} | {pct(split)} |",
            f"| LRF reads, split vs unified LRF | {signed(PAPER['split_more_lrf_reads'])} | "
            f"{signed(None if not unified or split is None else split / unified - 1)} |",
            f"| RF energy without forward-branch, read-operand and partial-range allocation | "
            f"{signed(PAPER['optimisations'])} | "
            f"{signed(None if noopt is None or s.saving('orflrf-3') is None else (1 + noopt) / (1 + s.saving('orflrf-3')) - 1)} |",
            ""]
    out += ["## RF energy per design and workload (Fig 6.13, 6.16)", ""]
    if plots.get("bars"):
        out += [f"![RF energy per workload]({plots['bars']})", ""]
    out += ["| design | thesis | ours, physical registers | ours, virtual registers |", "|---|---|---|---|"]
    for variant, label, paper in DESIGNS:
        out.append(f"| {label} | {signed(paper)} | {signed(s.saving(variant))} | {signed(s.saving(variant, VIRT))} |")
    out += ["", "Per workload (RF energy, % of single level):", "",
            "| workload | " + " | ".join(label for _, label, _ in DESIGNS) + " |", "|---|" + "---|" * len(DESIGNS)]
    for w in s.workloads:
        out.append(f"| {w} | " + " | ".join(pct(s.energy_ratio(v, w), 0) for v, _, _ in DESIGNS) + " |")
    parts = {}
    for r in s.runs.get(("orflrf-3", PHYS), {}).values():
        for level, (bank, wire) in r.rf_energy_parts().items():
            parts[(level, "bank")] = parts.get((level, "bank"), 0.0) + bank
            parts[(level, "wire")] = parts.get((level, "wire"), 0.0) + wire
    total = sum(parts.values())
    out += ["", "Where the remaining RF energy of the software three levels goes (suite total; thesis Fig 6.15: "
            "about two thirds in the MRF, split about equally between bank and wire, most of the rest in the "
            "ORF, the LRF very little):", "",
            "| | MRF bank | MRF wire | ORF bank | ORF wire | LRF bank | LRF wire |", "|---|---|---|---|---|---|---|",
            "| share | " + " | ".join(pct(data.ratio(parts.get((l, k), 0.0), total)) for l in ("mrf", "orf", "lrf")
                                     for k in ("bank", "wire")) + " |"]
    out += ["", "## Validation targets (digest s10.4, in order)", "", "| target | ours | met |", "|---|---|---|"]
    for target, ours, ok in validation(s):
        out.append(f"| {target} | {ours} | {'met' if ok else 'not met'} |")
    out += ["", "Target 6 (unified storage) belongs to the unified-storage mechanism.", "", "## Discussion", "",
            discussion, ""]
    if s.failures:
        out += ["## Points that did not verify", ""] + [f"- {f}" for f in s.failures] + [""]
    return "\n".join(out)
