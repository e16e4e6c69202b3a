"""The Affine Vector Cache results page, a `warpsim report` template: render(report) returns
docs/results/avc.md and draws its plots beside it, from the budget sweep of run.sh (stage 2,
budget_spec.py). Metrics are defined in avc_data.py; the discussion (discussion.md) is a
template whose {name} placeholders are filled from the same metrics (placeholders.fill).

  warpsim report build/experiments/avc/budgets --template src/mech/avc/experiment/avc_page.py \\
      --out docs/results/avc.md
"""

import os

import avc_data as data
import placeholders  # scripts/report, on the path of a template
from page_text import NONE, page_stem, pct, signed  # scripts/report

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = "src/mech/avc/experiment"
DISCUSSION = f"{FOLDER}/discussion.md"
AVCS = ["avc-1", "avc-2", "avc-3"]

# The paper's numbers (Collange & Kouyoumdjian 2011; ../shared/digests/avc-affine-vector-cache.md
# s5). Table 4: kernel -> (rbase, B, 1, 2, 3), a trailing "*" a floor; and which of our kernels
# plays each part.
PAPER_TABLE4 = {
    "Backprop1": ("13", "7*", "7*", "7*", "7*"), "CFD2": ("35", "30", "27", "26", "27"),
    "FDTD3D": ("22", "13", "14", "14", "14"), "SRAD1": ("10", "8", "8", "8", "8"),
    "SRAD2": ("12", "6", "7", "6", "7"), "Hotspot": ("27", "17", "14", "9", "14"),
    "FastWalshTransform2": ("8", "5", "4", "4", "4"),
    "FastWalshTransform3": ("11", "7", "4", "3*", "4"), "BlackScholes": ("17", "9", "5", "5", "5"),
    "Heartwall": ("25", "10", "9", "9", "8"), "LUD3": ("16", "10", "6", "6", "6"),
    "Needleman-Wunsch1": ("24", "22", "3*", "3*", "3*"),
    "BinomialOptions": ("14", "7", "6*", "6*", "6*"),
}
OURS_FOR_PAPER = {
    "bp_layer_forward": "Backprop1", "cfd_flux": "CFD2", "stencil7_sweep": "FDTD3D",
    "srad_coefficient": "SRAD1", "srad_update": "SRAD2", "hotspot_pyramid": "Hotspot",
    "fwt_segment": "FastWalshTransform2", "fwt_radix4": "FastWalshTransform3",
    "blackscholes": "BlackScholes", "heartwall_track": "Heartwall", "lud_internal": "LUD3",
    "nw_tile_diagonal": "Needleman-Wunsch1", "binomial_option": "BinomialOptions",
}
PAPER = {
    "affine_share": 0.67, "registers": {"avc-1": 3.7, "avc-2": 4.3, "avc-3": 3.7},
    "capacity": {"avc-1": 0.50, "avc-2": 0.59, "avc-3": 0.50},
    "performance": 0.057, "energy": -0.11, "heartwall_performance": -0.003,
}
PROFILE_KERNELS = ["heartwall_track", "hotspot_pyramid", "cfd_flux", "stencil7_sweep"]


def num(x, digits=1):
    return NONE if x is None else f"{x:.{digits}f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


class Study:
    """Every metric of the page, from the runs."""

    def __init__(self, report):
        self.report = report
        self.runs, self.failures = data.load(report)
        self.workloads = [str(w) for w in report.axis("workload").values]
        self.kernels = data.kernels(self.runs, self.workloads)
        self.rcache = {(k.name, v): data.rcache(self.runs, k, v) for k in self.kernels
                       for v in data.CONFIGS}

    def at_half(self, kernel, variant):
        return kernel.run(self.runs, variant, kernel.half)

    # Fig. 1(b)
    def classes(self, kernel):
        run = self.at_half(kernel, "baseline")
        return None if run is None else data.classes(run)

    def class_mean(self, key):
        return data.by_application(self.kernels, lambda k: (self.classes(k) or {}).get(key))

    # Table 4
    def gain(self, kernel, variant):
        base, _ = self.rcache[(kernel.name, "baseline")]
        other, _ = self.rcache[(kernel.name, variant)]
        return None if base is None or other is None else base - other

    def gains(self, variant):
        return (data.mean([self.gain(k, variant) for k in self.kernels]),
                data.by_application(self.kernels, lambda k: self.gain(k, variant)))

    def capacity(self, variant):
        """Registers held without traffic, sum over kernels: with the AVC / without, minus 1."""
        pairs = [(k.rbase - self.rcache[(k.name, "baseline")][0],
                  k.rbase - self.rcache[(k.name, variant)][0]) for k in self.kernels
                 if self.rcache[(k.name, "baseline")][0] is not None
                 and self.rcache[(k.name, variant)][0] is not None]
        held = sum(b for b, _ in pairs)
        return None if held == 0 else sum(a for _, a in pairs) / held - 1

    # Fig. 7
    def ratio(self, kernel, variant, key, invert=False):
        base, other = self.at_half(kernel, "baseline"), self.at_half(kernel, variant)
        if base is None or other is None or not base.get(key) or not other.get(key):
            return None
        return other.get(key) / base.get(key) if invert else base.get(key) / other.get(key)

    def speedup(self, kernel, variant="avc-2"):
        return self.ratio(kernel, variant, "cycles")

    def energy(self, kernel, variant="avc-2", key="energy.total_nj"):
        return self.ratio(kernel, variant, key, invert=True)

    def suite(self, f):
        return data.by_application(self.kernels, f, data.geomean)

    # Totals over every point.
    def total(self, key):
        return sum(k.get(key) for by_w in self.runs.values() for by_b in by_w.values()
                   for ks in by_b.values() for k in ks.values())

    def avc_share(self, kernel, variant):
        run = self.at_half(kernel, variant)
        if run is None or not run.get("lp.avc.lookups"):
            return None
        return (run.get("lp.avc.full_hits") + run.get("lp.avc.partial_hits")) / run.get("lp.avc.lookups")

    def traffic(self, kernel, variant):
        run = self.at_half(kernel, variant)
        return None if run is None else run.traffic()


def rcache_text(pair):
    value, floor = pair
    return NONE if value is None else f"{value}{'*' if floor else ''}"


def classification_section(s):
    rows = []
    for k in s.kernels:
        c = s.classes(k)
        cells = [pct(c[n]) if c else NONE for n in ("zero", "uniform", "affine", "generic")]
        rows.append([k.workload, k.name, str(k.half), f"{int(c['transactions']):,}" if c else NONE,
                     *cells, pct(c["storable"]) if c else NONE])
    rows.append(["**mean**", "(applications equally weighted)", "", "",
                 *[pct(s.class_mean(n)) for n in ("zero", "uniform", "affine", "generic")],
                 pct(s.class_mean("storable"))])
    return table(["workload", "kernel", "r", "private transactions", "zero", "uniform",
                  "affine", "generic", "AVC-storable"], rows)


def table4_section(s):
    rows = []
    for k in s.kernels:
        paper = OURS_FOR_PAPER.get(k.name)
        p = PAPER_TABLE4.get(paper)
        rows.append([k.workload, k.name, str(k.rbase),
                     *[rcache_text(s.rcache[(k.name, v)]) for v in data.CONFIGS],
                     paper or NONE, " / ".join(p) if p else NONE])
    body = table(["workload", "kernel", "rbase", "B", "1", "2", "3",
                  "paper's kernel", "paper: rbase / B / 1 / 2 / 3"], rows)
    summary = []
    for v in AVCS:
        per_kernel, per_app = s.gains(v)
        summary.append([f"configuration {v[-1]}", f"{num(per_kernel)} / {num(per_app)}",
                        f"{PAPER['registers'][v]:.1f}", signed(s.capacity(v)),
                        signed(PAPER["capacity"][v])])
    return body + "\n\n" + table(
        ["", "registers gained over B (per kernel / per application)", "paper",
         "usable capacity", "paper"], summary)


def performance_section(s):
    rows = []
    for k in s.kernels:
        rows.append([k.workload, k.name, str(k.half), signed(_minus1(s.speedup(k))),
                     signed(_minus1(s.energy(k))),
                     signed(_minus1(s.energy(k, key="energy.dynamic_nj"))),
                     pct(s.avc_share(k, "avc-2")),
                     num(_per10k(s.traffic(k, "baseline")), 2), num(_per10k(s.traffic(k, "avc-2")), 2)])
    rows.append(["**mean**", "(geometric, applications equally weighted)", "",
                 signed(_minus1(s.suite(s.speedup))), signed(_minus1(s.suite(s.energy))),
                 signed(_minus1(s.suite(lambda k: s.energy(k, key="energy.dynamic_nj")))),
                 "", "", ""])
    return table(["workload", "kernel", "r", "performance", "energy", "dynamic energy",
                  "AVC hits (full or partial)", "traffic B", "traffic 2"], rows)


def amplification_section(s):
    rows = []
    for k in s.kernels:
        if k.name != "heartwall_track":
            continue
        for b in range(k.rbase, k.floor - 1, -1):
            cells = []
            for v in data.CONFIGS:
                run = k.run(s.runs, v, b)
                cells.append(num(_per10k(run.traffic() if run else None), 2))
            evict = k.run(s.runs, "avc-1", b)
            per = None
            if evict is not None and evict.get("lp.avc.line_evictions"):
                per = evict.get("lp.avc.eviction_vectors_written_back") / evict.get("lp.avc.line_evictions")
            rows.append([str(b), *cells, num(per, 2)])
    return table(["r", "B", "1", "2", "3", "vectors written back per eviction (1)"], rows)


def ablation_section(s):
    rows = []
    for v, what in (("avc-2", "configuration 2 (word-major layout, hardware encoder)"),
                    ("avc-2-warp-major", "warp-major layout"), ("avc-2-exact", "exact encoder"),
                    ("avc-2-clean-writeback", "clean AVC words written back too")):
        rows.append([what, pct(data.by_application(s.kernels, lambda k: s.avc_share(k, v))),
                     num(_per10k(data.by_application(s.kernels, lambda k: s.traffic(k, v))), 2),
                     signed(_minus1(s.suite(lambda k: s.speedup(k, v))))])
    return table(["at r = 0.5 rbase", "AVC hits", "traffic per 10k warp instructions",
                  "performance vs B"], rows)


def _minus1(x):
    return None if x is None else x - 1


def _per10k(x):
    return None if x is None else x * 1e4


def names(kernel_list):
    """['a', 'b', 'c'] -> 'a, b and c' (backquoted)."""
    n = [f"`{k.name}`" for k in kernel_list]
    if not n:
        return "none"
    return n[0] if len(n) == 1 else ", ".join(n[:-1]) + " and " + n[-1]


def heartwall_conflicts(s):
    """(r, direct-mapped traffic, 3-way traffic, vectors written back per eviction) at the budget
    where the direct-mapped AVC moves the most transactions relative to the 3-way one."""
    k = next((k for k in s.kernels if k.name == "heartwall_track"), None)
    best = None
    for b in range(k.rbase, k.floor - 1, -1) if k else []:
        dm, three = k.run(s.runs, "avc-1", b), k.run(s.runs, "avc-3", b)
        if dm is None or three is None or not dm.traffic() or not three.traffic():
            continue
        ratio = dm.traffic() / three.traffic()
        if best is None or ratio > best[0]:
            per = (dm.get("lp.avc.eviction_vectors_written_back") / dm.get("lp.avc.line_evictions")
                   if dm.get("lp.avc.line_evictions") else None)
            best = (ratio, b, dm.traffic(), three.traffic(), per)
    return best


def discussion_values(s):
    hw = next((k for k in s.kernels if k.name == "heartwall_track"), None)
    disagreements = s.total("lp.transactions.encoder_disagreements")
    classified = sum(s.total(f"lp.transactions.{d}.{n}") for d in ("loads", "stores")
                     for n in ("zero", "uniform", "affine", "generic"))
    only_avc = [k for k in s.kernels if s.rcache[(k.name, "baseline")][0] is None
                and s.rcache[(k.name, "avc-2")][0] is not None]
    worse = [k for k in s.kernels if s.gain(k, "avc-2") is not None and s.gain(k, "avc-2") < 0]
    generic = [k for k in s.kernels if (s.classes(k) or {}).get("generic", 0) > 0.5]
    faster = sorted((k for k in s.kernels if s.speedup(k)), key=lambda k: -s.speedup(k))[:3]

    def avc_energy_share(k):
        run = s.at_half(k, "avc-2")
        return None if run is None or not run.get("energy.dynamic_nj") else \
            run.get("energy.components.avc.nj") / run.get("energy.dynamic_nj")

    conflicts = heartwall_conflicts(s)
    word = data.by_application(s.kernels, lambda k: s.avc_share(k, "avc-2"))
    warp = data.by_application(s.kernels, lambda k: s.avc_share(k, "avc-2-warp-major"))
    return {
        "kernels": str(len(s.kernels)),
        "applications": str(len({k.workload for k in s.kernels})),
        "affine_share": pct(s.class_mean("zero") + s.class_mean("uniform") + s.class_mean("affine"))
        if s.kernels else NONE,
        "storable_share": pct(s.class_mean("storable")),
        "paper_affine": pct(PAPER["affine_share"], 0),
        "generic_kernels": names(generic),
        "gain_2": num(s.gains("avc-2")[1]), "paper_gain_2": num(PAPER["registers"]["avc-2"]),
        "capacity_2": signed(s.capacity("avc-2")), "paper_capacity_2": signed(PAPER["capacity"]["avc-2"]),
        "only_avc_kernels": names(only_avc), "worse_kernels": names(worse),
        "performance_2": signed(_minus1(s.suite(s.speedup))),
        "paper_performance": signed(PAPER["performance"]),
        "faster_kernels": names(faster),
        "energy_2": signed(_minus1(s.suite(s.energy))),
        "dynamic_energy_2": signed(_minus1(s.suite(lambda k: s.energy(k, key="energy.dynamic_nj")))),
        "avc_energy_share": pct(data.by_application(s.kernels, avc_energy_share)),
        "paper_energy": signed(PAPER["energy"]),
        "heartwall_performance": signed(_minus1(s.speedup(hw))) if hw else NONE,
        "heartwall_hits": pct(s.avc_share(hw, "avc-2")) if hw else NONE,
        "paper_heartwall": signed(PAPER["heartwall_performance"]),
        "conflict_r": str(conflicts[1]) if conflicts else NONE,
        "conflict_dm": num(_per10k(conflicts[2]), 2) if conflicts else NONE,
        "conflict_3": num(_per10k(conflicts[3]), 2) if conflicts else NONE,
        "conflict_per_eviction": num(conflicts[4], 2) if conflicts else NONE,
        "word_major_hits": pct(word), "warp_major_hits": pct(warp),
        "warp_major_performance": signed(_minus1(s.suite(lambda k: s.speedup(k, "avc-2-warp-major")))),
        "disagreements": pct(disagreements / classified, 3) if classified else NONE,
        "mismatches": f"{int(s.total('lp.check.mismatches')):,}",
        "checked_words": f"{int(s.total('lp.check.checked_words')):,}",
    }


def write_plots(s, report, stem):
    plt = report.pyplot()
    if plt is None:
        return None, None
    colours = {"baseline": "#444444", "avc-1": "#1f77b4", "avc-2": "#d62728", "avc-3": "#2ca02c"}
    figure, axes = plt.subplots(1, len(PROFILE_KERNELS), figsize=(14, 3.2))
    for ax, name in zip(axes, PROFILE_KERNELS):
        k = next((k for k in s.kernels if k.name == name), None)
        if k is None:
            ax.set_visible(False)
            continue
        budgets = list(range(k.floor, k.rbase + 1))
        for v in data.CONFIGS:
            ys = [(k.run(s.runs, v, b).traffic() or 0) * 1e4 if k.run(s.runs, v, b) else None
                  for b in budgets]
            ax.plot(budgets, [y if y else 1e-3 for y in ys], marker=".", label=v, color=colours[v])
        ax.axhline(data.THRESHOLD * 1e4, color="#999999", linestyle=":", linewidth=1)
        ax.set_yscale("log")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("registers per thread")
    axes[0].set_ylabel("fills + write-backs / 10k warp inst.")
    axes[-1].legend(fontsize=7)
    profile = report.save_figure(figure, f"{stem}-traffic.png")

    figure, ax = plt.subplots(figsize=(10, 3.2))
    names = [k.name for k in s.kernels]
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], [(_minus1(s.speedup(k)) or 0) * 100 for k in s.kernels],
           width=0.4, label="performance", color="#1f77b4")
    ax.bar([x + 0.2 for x in xs], [(_minus1(s.energy(k)) or 0) * 100 for k in s.kernels],
           width=0.4, label="energy", color="#d62728")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=40, ha="right", fontsize=7)
    ax.set_ylabel("% vs baseline (r = 0.5 rbase)")
    ax.legend(fontsize=8)
    figure.tight_layout()
    bars = report.save_figure(figure, f"{stem}-fig7.png")
    return profile, bars


def render(report):
    s = Study(report)
    stem = page_stem(report)
    profile, bars = write_plots(s, report, stem)
    with open(os.path.join(HERE, "discussion.md")) as f:
        discussion = placeholders.fill(f.read(), discussion_values(s), DISCUSSION)
    counts = report.status_counts()
    single = {a.name: a.values[0] for a in report.axes if len(a.values) == 1}
    out = [
        "# Affine Vector Cache: results",
        "",
        "Generated by `src/mech/avc/experiment/run.sh` (`warpsim sweep` of `rbase.toml`, then of the "
        "budget sweep `budget_spec.py` writes, then `warpsim report` with `avc_page.py`); "
        "do not edit by hand.  ",
        f"Statistics: `--config {single.get('config', NONE)}` on one SM (`--sms 1`, the paper's "
        f"single-SM model), size {single.get('size', NONE)}, {len(s.workloads)} workloads, "
        f"{len(s.kernels)} kernels with rbase >= {data.MIN_RBASE}; {counts.get('pass', 0)} points passed"
        + (f", {len(s.failures)} did not verify" if s.failures else "") + ".",
        "",
        "Paper: S. Collange and A. Kouyoumdjian, \"Affine Vector Cache for memory bandwidth "
        "savings\", 2011 (digest `../shared/digests/avc-affine-vector-cache.md`). Definitions: "
        "`src/mech/avc/experiment/avc_data.py`; the configurations: `configs/overlays/avc-*.toml` "
        "(Table 3).",
        "",
        "## Private transactions by value class at r = 0.5 rbase (Fig. 1(b))",
        "",
        "Baseline configuration; loads and stores together; \"affine\" is any integer stride "
        "(non-zero), \"AVC-storable\" the zero, uniform and affine transactions the 3-bit stride "
        "code can hold. Paper: " + pct(PAPER["affine_share"], 0) + " of private transactions affine "
        "(zero, uniform or affine).",
        "",
        classification_section(s),
        "",
        "## Tolerable register pressure: rcache per configuration (Table 4)",
        "",
        f"rcache: the smallest budget at which traffic with the level below stays under one "
        f"128-byte transaction per {int(1 / data.THRESHOLD):,} warp instructions at every budget up "
        "to rbase (`*`: the smallest budget the allocator accepts; –: above the threshold even at "
        "rbase). B: 48 KB 6-way L1; 1: 40 KB L1 + 8 KB direct-mapped AVC; 2: 32 KB 4-way + 16 KB "
        "2-way; 3: 24 KB 3-way + 24 KB 3-way.",
        "",
        table4_section(s),
        "",
        "## Traffic profiles (Fig. 6)",
        "",
        "Transactions with the level below per 10k warp instructions against the register budget "
        "(log scale; zero is drawn at 10^-3; the dotted line is the rcache threshold).",
        "",
        f"![traffic]({profile})" if profile else "(no plot: matplotlib unavailable)",
        "",
        "Heartwall: traffic per 10k warp instructions by budget and configuration, and the "
        "amplification of the direct-mapped AVC (vectors written back per line eviction):",
        "",
        amplification_section(s),
        "",
        "## Performance and energy at r = 0.5 rbase, configuration 2 (Fig. 7)",
        "",
        "Each kernel at its own 0.5 rbase; performance = baseline cycles / AVC cycles − 1; energy "
        "= AVC / baseline − 1 (the chip's, static included, and dynamic only). Traffic: "
        "transactions with the level below per 10k warp instructions. Paper: "
        f"{signed(PAPER['performance'])} performance, {signed(PAPER['energy'])} energy on average.",
        "",
        performance_section(s),
        "",
        f"![fig7]({bars})" if bars else "",
        "",
        "## Ablations at r = 0.5 rbase (means over applications)",
        "",
        ablation_section(s),
        "",
        "## Validation microbenchmarks (digest s6.3)",
        "",
        "The digest's microbenchmarks are transaction-level tests of the protocol with exact "
        "expected counters, in `src/mech/avc/avc_protocol_test.cpp` (`mech_avc_tests`, run by "
        "ctest): a uniform spill served by the AVC with no L1 or memory traffic; stride-1 and "
        "stride-4 vectors stored affine and a stride-3 one sent to the L1; complementary masks "
        "with the same value merged; conflicting branches (a write conflict, then a read-fill "
        "conflict on the merged read, each writing the older partial vector back); a generic "
        "overwrite invalidating the AVC's words; a superset mask as a partial hit and a replay "
        "(merged when the rest is the same affine vector, filled into the L1 when it is not); "
        "and conflict stress, where three warps' lines in one set are written back whole by a "
        "direct-mapped AVC and all hit in a 3-way one. A further test shows that the "
        "correctness check catches a stale value.",
        "",
        "## Discussion",
        "",
        discussion,
        "",
    ]
    return "\n".join(out)
