"""The XMem results page, a `warpsim report` template: render(report) returns docs/results/xmem.md
and draws its plots beside it, from the sweep spec.py writes (run.sh). Metrics: xmem_data.py.

  warpsim report build/experiments/xmem/sweep --template src/mech/xmem/experiment/xmem_page.py \\
      --out docs/results/xmem.md
"""

import os

import placeholders  # scripts/report, on the path of a template
import xmem_data as data
from page_text import NONE, page_stem, pct, signed  # scripts/report
from xmem_discussion import discussion_values

FOLDER = "src/mech/xmem/experiment"
HERE = os.path.dirname(os.path.abspath(__file__))

# The paper's numbers (digest ../shared/digests/xmem-and-locality-descriptor.md s1.10).
PAPER = {"small_tiles": 0.287, "small_tiles_max": 1.0, "oversized": 0.648, "oversized_max": 6.6,
         "oversized_xmem": 0.269, "oversized_xmem_max": 3.6, "portability": 0.55, "portability_xmem": 0.06,
         "placement": 0.085, "placement_max": 0.319, "ideal": 0.244, "read_latency": -0.126,
         "read_latency_min": -0.314, "alb": 0.989, "ops": 0.00014, "ops_max": 0.002}


class Study:
    """Every metric of the page, from the runs."""

    def __init__(self, report):
        self.runs, self.failures = data.load(report)
        tiled, placement, tiles, l2_sizes = set(), set(), set(), set()
        self.mappings = []
        self.placement_runs = {}  # (workload, variant): Run, on the one L2 size they ran at
        for (w, l2, v), r in self.runs.items():
            kind = data.parse_variant(v)
            if kind is None:
                continue
            if kind[0] == "tile":
                tiled.add(w)
                tiles.add(kind[1])
                l2_sizes.add(l2)
            else:
                placement.add(w)
                self.placement_runs[(w, v)] = r
                if kind[2] not in self.mappings:
                    self.mappings.append(kind[2])
        order = [str(w) for w in report.axis("workload").values]
        self.tiled = [w for w in order if w in tiled]
        self.placement = [w for w in order if w in placement]
        self.tiles = sorted(tiles)
        self.l2_sizes = sorted(l2_sizes, reverse=True)  # the configured (largest) first

    # ---- use case 1: tiling ----
    def tile_run(self, w, l2, kb, mode=""):
        """The run of a tile in a mode: "" (LRU), "xmem" or "pin" (xmem_data.parse_variant)."""
        return self.runs.get((w, l2, f"tile{kb}k" + (f"-{mode}" if mode else "")))

    def cycles(self, w, l2, kb, mode=""):
        r = self.tile_run(w, l2, kb, mode)
        return None if r is None else r.cycles

    def best_tile(self, w, l2):
        """The baseline's tile of the fewest cycles on this L2 size, or None."""
        found = [(self.cycles(w, l2, kb), kb) for kb in self.tiles if self.cycles(w, l2, kb)]
        return min(found)[1] if found else None

    def slowdowns_small(self):
        l2 = self.l2_sizes[0] if self.l2_sizes else None
        out = []
        for w in self.tiled:
            best = self.best_tile(w, l2)
            if best is None:
                continue
            out += [data.ratio(self.cycles(w, l2, kb), self.cycles(w, l2, best)) - 1
                    for kb in self.tiles if kb < best and self.cycles(w, l2, kb)]
        return out

    def slowdowns_oversized(self, mode):
        out = []
        for w in self.tiled:
            for l2 in self.l2_sizes:
                best = self.best_tile(w, l2)
                if best is None:
                    continue
                out += [data.ratio(self.cycles(w, l2, kb, mode), self.cycles(w, l2, best)) - 1
                        for kb in self.tiles if kb * 1024 > l2 and self.cycles(w, l2, kb, mode)]
        return out

    def same_tile_slowdowns(self, mode):
        """[(workload, l2, kb, slowdown)]: each tile that fits the configured L2 but not a smaller
        one, run there, against the same tile on the configured L2 without XMem (on a GPU the tile
        also sets each launch's parallelism, so this compares cache fit alone)."""
        if not self.l2_sizes:
            return []
        full, out = self.l2_sizes[0], []
        for w in self.tiled:
            for l2 in self.l2_sizes[1:]:
                for kb in self.tiles:
                    base, c = self.cycles(w, full, kb), self.cycles(w, l2, kb, mode)
                    if l2 < kb * 1024 <= full and base and c:
                        out.append((w, l2, kb, c / base - 1))
        return out

    def portability(self, w, mode):
        """max over L2 sizes of the configured L2's best tile's cycles / its cycles there - 1."""
        if not self.l2_sizes:
            return None
        tuned = self.best_tile(w, self.l2_sizes[0])
        base = self.cycles(w, self.l2_sizes[0], tuned) if tuned else None
        worst = [self.cycles(w, l2, tuned, mode) for l2 in self.l2_sizes] if tuned else []
        if base is None or any(c is None for c in worst):
            return None
        return max(worst) / base - 1

    # ---- use case 2: placement ----
    def run(self, w, design, mapping):
        return self.placement_runs.get((w, f"{design}-{mapping}"))

    def baseline_mapping(self, w):
        found = [(self.run(w, "random", m).cycles, m) for m in self.mappings
                 if self.run(w, "random", m) and self.run(w, "random", m).cycles]
        return min(found)[1] if found else None

    def over_baseline(self, w, design, metric=lambda r: r.cycles, invert=True):
        m = self.baseline_mapping(w)
        b, r = (self.run(w, "random", m), self.run(w, design, m)) if m else (None, None)
        if b is None or r is None or metric(b) is None or metric(r) is None:
            return None
        return (metric(b) / metric(r) if invert else metric(r) / metric(b)) - 1

    def speedups(self, design):
        return {w: self.over_baseline(w, design) for w in self.placement}

    def latency_changes(self):
        return {w: self.over_baseline(w, "xmem", lambda r: r.read_latency, invert=False) for w in self.placement}

    # ---- overheads ----
    def alb_coverage(self):
        runs = [r for (w, l2, v), r in self.runs.items() if v.endswith("-xmem") or v.endswith("-pin")]
        hits = sum(r.alb_hits for r in runs)
        return data.ratio(hits, hits + sum(r.alb_misses for r in runs))

    def op_overheads(self):
        return [r.op_overhead() for r in self.runs.values() if r.atom_ops]


MODES_PLOTTED = (("", "-"), ("xmem", "--"), ("pin", ":"))
MODE_LABEL = {"": "", "xmem": ", XMem", "pin": ", XMem, no prefetch"}
MODE_NAME = {"": "LRU", "xmem": "XMem", "pin": "XMem, no prefetch"}


def per_instructions(x):
    """A small share as '0.00012%, one per 830,000'."""
    return NONE if not x else f"{100 * x:.2g}%, one per {round(1 / x):,}"


def times(x):
    """A slowdown as a factor: 6.6 -> 7.6x."""
    return NONE if x is None else f"{1 + x:.1f}x"


def summary(values):
    values = [v for v in values if v is not None]
    return (data.mean(values), max(values)) if values else (None, None)


def headline_rows(s):
    """(result, paper, ours) of X1-X10, in order."""
    small, small_max = summary(s.slowdowns_small())
    over, over_max = summary(s.slowdowns_oversized(""))
    over_x, over_x_max = summary(s.slowdowns_oversized("xmem"))
    over_p, over_p_max = summary(s.slowdowns_oversized("pin"))
    fit, fit_max = summary([x[3] for x in s.same_tile_slowdowns("")])
    fit_x, fit_x_max = summary([x[3] for x in s.same_tile_slowdowns("xmem")])
    fit_p, fit_p_max = summary([x[3] for x in s.same_tile_slowdowns("pin")])
    port = data.mean([s.portability(w, "") for w in s.tiled])
    port_x = data.mean([s.portability(w, "xmem") for w in s.tiled])
    port_p = data.mean([s.portability(w, "pin") for w in s.tiled])
    sp = [v for v in s.speedups("xmem").values() if v is not None]
    ideal = data.mean(list(s.speedups("ideal").values()))
    lat = [v for v in s.latency_changes().values() if v is not None]
    ops = [v for v in s.op_overheads() if v is not None]
    return [
        ("X1 small tiles, slower than the best tile (mean, largest)",
         f"{signed(PAPER['small_tiles'])} (up to {times(PAPER['small_tiles_max'])})",
         f"{signed(small)} (up to {times(small_max)})"),
        ("X2 tiles larger than the cache, slower than the best tile (Baseline)",
         f"{signed(PAPER['oversized'])} (up to {times(PAPER['oversized_max'])})",
         f"{signed(over)} (up to {times(over_max)})"),
        ("X3 the same with XMem (with its prefetcher; without it)",
         f"{signed(PAPER['oversized_xmem'])} (up to {times(PAPER['oversized_xmem_max'])})",
         f"{signed(over_x)} (up to {times(over_x_max)}); {signed(over_p)} (up to {times(over_p_max)})"),
        ("X2, X3 by cache fit alone: a tile that fits the configured L2, on a smaller L2 it exceeds, against "
         "the same tile on the configured L2 (Baseline; XMem; XMem without its prefetcher)",
         f"{signed(PAPER['oversized'])}; {signed(PAPER['oversized_xmem'])}",
         f"{signed(fit)} (up to {times(fit_max)}); {signed(fit_x)} (up to {times(fit_x_max)}); "
         f"{signed(fit_p)} (up to {times(fit_p_max)})"),
        ("X4 portability: the tuned tile on a half and a quarter of the cache, largest slowdown (Baseline; XMem; "
         "XMem without its prefetcher)",
         f"{signed(PAPER['portability'])}; {signed(PAPER['portability_xmem'])}",
         f"{signed(port)}; {signed(port_x)}; {signed(port_p)}"),
        ("X5 DRAM placement over the strengthened baseline (mean, largest)",
         f"{signed(PAPER['placement'])} (up to {signed(PAPER['placement_max'])})",
         f"{signed(data.mean(sp))} (up to {signed(max(sp) if sp else None)})"),
        ("X6 ideal row buffer over the strengthened baseline", signed(PAPER["ideal"]), signed(ideal)),
        ("X8 DRAM read latency with XMem placement (mean, lowest)",
         f"{signed(PAPER['read_latency'])} (down to {signed(PAPER['read_latency_min'])})",
         f"{signed(data.mean(lat))} (down to {signed(min(lat) if lat else None)})"),
        ("X9 ALB coverage of atom lookups", pct(PAPER["alb"]), pct(s.alb_coverage())),
        ("X10 atom operations per instruction (mean, largest)",
         f"{pct(PAPER['ops'], 3)} (up to {pct(PAPER['ops_max'], 1)})",
         f"{per_instructions(data.mean(ops))} (up to {per_instructions(max(ops) if ops else None)})"),
    ]


def write_plots(s, report, stem):
    plt = report.pyplot()
    if plt is None or not s.tiled:
        return {}
    out = {}
    figure, axes = plt.subplots(1, len(s.tiled), figsize=(3.2 * len(s.tiled), 3.0), squeeze=False)
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"]
    for ax, w in zip(axes[0], s.tiled):
        best = s.cycles(w, s.l2_sizes[0], s.best_tile(w, s.l2_sizes[0]) or 0) or 1
        for colour, l2 in zip(colours, s.l2_sizes):
            for mode, style in MODES_PLOTTED:
                ys = [(s.cycles(w, l2, kb, mode) or float("nan")) / best for kb in s.tiles]
                ax.plot(s.tiles, ys, color=colour, linestyle=style, marker=".",
                        label=f"{l2 // 1024} KB L2{MODE_LABEL[mode]}")
        ax.set_xscale("log", base=2)
        ax.set_xticks(s.tiles)
        ax.set_xticklabels([str(kb) for kb in s.tiles], fontsize=7)
        ax.set_title(w, fontsize=9)
        ax.set_xlabel("tile (KB)")
    axes[0][0].set_ylabel("cycles / best tile on the full L2")
    axes[0][-1].legend(fontsize=6)
    figure.tight_layout()
    out["tiles"] = report.save_figure(figure, f"{stem}-tiles.png")
    if s.placement:
        figure, ax = plt.subplots(figsize=(10, 3.0))
        xs = list(range(len(s.placement)))
        for i, (design, label, colour) in enumerate((("xmem", "XMem placement", "#2ca02c"),
                                                     ("ideal", "ideal row buffer", "#7f7f7f"))):
            ys = [100 * (s.over_baseline(w, design) or 0) for w in s.placement]
            ax.bar([x - 0.2 + 0.4 * i for x in xs], ys, width=0.4, label=label, color=colour)
        ax.axhline(0, color="#444444", linewidth=0.8)
        ax.set_xticks(xs)
        ax.set_xticklabels(s.placement, rotation=45, ha="right", fontsize=7)
        ax.set_ylabel("speedup over the strengthened baseline (%)")
        ax.legend(fontsize=7)
        figure.tight_layout()
        out["placement"] = report.save_figure(figure, f"{stem}-placement.png")
    return out


def render(report):
    s = Study(report)
    stem = page_stem(report)
    plots = write_plots(s, report, stem)
    counts = report.status_counts()
    out = ["# XMem (Expressive Memory): results", "",
           "Generated by `src/mech/xmem/experiment/run.sh` (`spec.py` writes the `warpsim sweep` spec; "
           "`warpsim report` with `xmem_page.py`); do not edit by hand.  ",
           f"Runs: {len(report.points)} points on gtx480, {counts.get('pass', 0)} passed"
           + (f", {len(s.failures)} did not verify" if s.failures else "") + ". Definitions: `xmem_data.py`.",
           "", "## Headlines", "", "| result | paper (CPU) | ours (gtx480) |", "|---|---|---|"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in headline_rows(s)]
    out += ["", "## Use case 1: tile size, cache size and XMem", ""]
    if plots.get("tiles"):
        out += [f"![cycles versus tile size]({plots['tiles']})", ""]
    for w in s.tiled:
        out += [f"**{w}** (cycles; best tile on each L2 size in bold; L2: LRU, XMem, or XMem without its "
                "prefetcher):", "",
                "| L2 | policy | " + " | ".join(f"{kb} KB" for kb in s.tiles) + " |",
                "|---|---|" + "---|" * len(s.tiles)]
        for l2 in s.l2_sizes:
            best = s.best_tile(w, l2)
            for mode in ("", "xmem", "pin"):
                cells = []
                for kb in s.tiles:
                    c = s.cycles(w, l2, kb, mode)
                    text = NONE if c is None else f"{c:,}"
                    cells.append(f"**{text}**" if kb == best and not mode else text)
                out.append(f"| {l2 // 1024} KB | {MODE_NAME[mode]} | " + " | ".join(cells) + " |")
        out.append("")
    out += ["## Use case 2: DRAM placement", "",
            "Per workload: the strengthened baseline's mapping (random frames, the mapping of the fewest cycles), "
            "the speedups over it and the DRAM row-buffer hit rates and read latency.", ""]
    if plots.get("placement"):
        out += [f"![placement speedups]({plots['placement']})", ""]
    out += ["| workload | mapping | XMem | ideal | row hits: baseline | XMem | read latency (L2 cycles): baseline | XMem |",
            "|---|---|---|---|---|---|---|---|"]
    for w in s.placement:
        m = s.baseline_mapping(w)
        b, x = (s.run(w, "random", m), s.run(w, "xmem", m)) if m else (None, None)
        lat = (lambda r: NONE if r is None or r.read_latency is None else f"{r.read_latency:.0f}")
        out.append(f"| {w} | {m or NONE} | {signed(s.over_baseline(w, 'xmem'))} | {signed(s.over_baseline(w, 'ideal'))} | "
                   f"{pct(b.row_hit_rate if b else None)} | {pct(x.row_hit_rate if x else None)} | {lat(b)} | {lat(x)} |")
    out.append("")
    out += ["## Discussion", "",
            placeholders.fill_file(os.path.join(HERE, "discussion.md"), discussion_values(s),
                                   f"{FOLDER}/discussion.md"), ""]
    if s.failures:
        out += ["## Points that did not verify", ""] + [f"- {f}" for f in s.failures] + [""]
    return "\n".join(out)
