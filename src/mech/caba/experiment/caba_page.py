"""The CABA results page, a `warpsim report` template: render(report) returns docs/results/caba.md
and draws its plots beside it, from the sweep spec.py writes (run.sh):

  warpsim report build/experiments/caba/sweep --template src/mech/caba/experiment/caba_page.py \\
      --out docs/results/caba.md

Definitions: caba_data.py; metrics: caba_study.py; the headline rules: caba_headlines.py; the
study's numbers: caba_paper.py. The discussion (discussion.md) is a template whose {name}
placeholders are filled from the same metrics (placeholders.fill), so no number on the page is
typed by hand. Missing runs do not stop it: what cannot be computed shows as "–".
"""

import os

import caba_data as data
import caba_headlines as hl
import caba_paper as paper
import caba_plot as plot
import placeholders  # scripts/report, on the path of a template
from caba_headlines import times
from caba_study import Study
from page_text import (NONE, change, generated_note, page_command, page_stem, pct,  # scripts/report
                       runs_text, signed)
from report_markdown import words  # scripts/report

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = "src/mech/caba/experiment"
DISCUSSION = f"{FOLDER}/discussion.md"
BANDWIDTH_DESIGNS = ["hw-bdi", "ideal-bdi", "caba-bdi"]


def num(x, digits=2):
    return NONE if x is None else f"{x:.{digits}f}"


def count(x):
    return NONE if x is None else f"{int(round(x)):,}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def bandwidth_text(percent):
    return f"{percent / 100:g}x"


def sizes_text(s):
    """'default: a, b; small: the other 40' from the cases."""
    by_size = {}
    for c in s.cases:
        by_size.setdefault(str(c.size), []).append(c.workload)
    if len(by_size) == 1:
        return f"all at {next(iter(by_size))}"
    ordered = sorted(by_size.items(), key=lambda kv: len(kv[1]))
    parts = [f"{size}: {', '.join(ws)}" for size, ws in ordered[:-1]]
    return "; ".join(parts + [f"{ordered[-1][0]}: the other {len(ordered[-1][1])}"])


# Sections.

def designs_section(report, s):
    variants = report.spec.get("variants", {})
    rows = [(f"`{v}`", data.LABELS.get(data.split_variant(v)[0], v),
             bandwidth_text(data.split_variant(v)[1]), f"`{report.variant_options(v)}`"
             if report.variant_options(v) else NONE, variants.get(v, {}).get("description", ""))
            for v in s.variants]
    return ("## Designs\n\nEach case runs once per variant of the sweep (`warpsim run WORKLOAD --size SIZE "
            f"--config {s.config} OPTIONS`); the overlays are in `configs/overlays/` and "
            "`src/mech/caba/README.md`.\n\n"
            + table(("variant", "design", "DRAM bandwidth", "options", "what it models"), rows))


def cases_section(s):
    rows = []
    selected = {id(c) for c in s.selected}
    for c in s.cases:
        apps = [a for a, _, w, _ in paper.APPLICATIONS if w == c.workload]
        limited = s.bandwidth_limited(c)
        rows.append((c.label, str(c.size), ", ".join(apps) or NONE,
                     pct(s.value(c, "base", lambda r: r.get("dram_bandwidth_utilisation"))),
                     pct(s.l2_hit_rate(c)), pct(s.compressibility(c)),
                     "yes" if id(c) in selected else "no",
                     "yes" if s.memory_bound(c) else ("no" if s.memory_bound(c) is False else NONE),
                     NONE if limited is None else
                     f"{'yes' if limited else 'no'} ({change(s.bandwidth_gain(c))})"))
    missing = [f"{a} ({suite}): {note}" for a, suite, w, note in paper.APPLICATIONS if w is None]
    mapping = [f"{a} ({suite}) -> `{w}`: {note}" for a, suite, w, note in paper.APPLICATIONS if w]
    return ("## Cases\n\nA case is a workload at a size. Compressibility in memory bandwidth: the "
            "largest share of DRAM data bursts any of the CABA runs (BDI, FPC, C-Pack, BestOfAll) "
            f"saves; the study shows its detailed results for applications with at least "
            f"{pct(paper.SELECTION, 0)}, and so do we (\"selected\"; {len(s.selected)} of "
            f"{len(s.cases)}). The rest of the suite is shown on average. Memory-bound: Base's "
            "schedulers wait on loads more cycles than they issue (the rule is ours; the study "
            "states none). Bandwidth-limited: Base at 2x the DRAM bandwidth is at least "
            f"{pct(data.BANDWIDTH_LIMITED, 0)} faster in IPC than Base at 1x (its change in "
            "brackets; the rule is ours, the study states none): the static profile that enables "
            "compression (Compression enabled by static profile). The study's applications (B.8) "
            "and the workloads that stand for them:"
            "\n\n" + "\n".join(f"- {m}" for m in mapping + missing) + "\n\n"
            + table(("case", "size", "study's application", "Base DRAM utilisation", "Base L2 hit rate",
                     "compressibility", "selected", "memory-bound", "bandwidth-limited (Base at 2x)"),
                    rows))


def headline_section(h):
    points = lambda x: f"{100 * x:.0f} percentage points"  # noqa: E731
    rules = ("Marked by the rules of `caba_headlines.py`: a change the study reports is met when "
             "ours has its sign and at least half its size; a difference between designs, a share "
             f"or a rate when ours is within {points(hl.TOLERANCE)} of the study's (shares of the "
             f"suite or of the register file: {points(hl.SHARE_TOLERANCE)}); the metadata hit rate "
             f"when ours is at most {points(hl.SHARE_TOLERANCE)} below; a statement about named "
             "applications or an order when it holds; the uncompressed L2 helps the cases with "
             "high L2 hit rates when CABA-BDI with it has a higher IPC than CABA-BDI (geometric "
             f"mean) on the selected cases whose Base L2 hit rate is at least "
             f"{pct(hl.HIGH_L2_HIT_RATE, 0)} (the rule is ours; the study gives no numbers); cache "
             "compression helps a named application when the better of its tag factors has a higher "
             "IPC than CABA-BDI, and hurts it when each has a lower one, on every case of "
             "the workload that stands for it (the rule is ours; the study gives no numbers). Rows "
             "\"enabled by static profile\" take each design's run on the bandwidth-limited cases "
             "and Base's on the others (Compression enabled by static profile), by the same rules. "
             "Averages over the selected cases unless the row says otherwise. Why a headline is not "
             "met: Discussion, from the runs.")
    return "## Headline numbers\n\n" + rules + "\n\n" + table(("result", "study", "ours", ""), h.rows)


def ipc_section(s, image):
    designs = data.DESIGNS[1:]
    rows = [[c.label] + [num(s.ipc(c, d)) for d in designs] for c in s.selected]
    for name, cases in (("selected", s.selected), ("the rest", s.others), ("the study's workloads", s.study),
                        ("the suite", s.cases)):
        rows.append([f"**geometric mean, {name}** ({len(cases)})"]
                    + [num(s.geo(cases, lambda c, d=d: s.ipc(c, d))) for d in designs])
    rows.append(["study (B.9)"] + [num(1 + paper.IPC[d]) if d in paper.IPC else NONE for d in designs])
    out = ("## IPC normalised to Base\n\nEach selected case, then geometric means; Base at the "
           "configuration's DRAM bandwidth = 1. The study states only the CABA designs' means "
           "against Base (its other numbers compare CABA-BDI with each design: headline table).\n\n")
    if image:
        out += f"![IPC normalised to Base]({image})\n\n"
    return out + table(["case"] + [data.LABELS[d] for d in designs], rows)


def profile_section(s, h):
    title = "## Compression enabled by static profile\n\n"
    if not s.has("base", 2 * data.FULL):
        return title + "Not run: the profile needs Base at 2x the DRAM bandwidth (`base-bw200`)."
    designs = data.DESIGNS[1:]
    on = h.profiled_on()
    rows = []
    for name, cases, f in (
            (f"compression on every selected case ({len(s.selected)})", s.selected, lambda d: d),
            (f"**enabled by static profile**, selected ({len(s.selected)})", s.selected, data.profiled),
            (f"the bandwidth-limited selected cases only ({len(on)})", on, lambda d: d)):
        rows.append([name] + [num(s.geo(cases, lambda c, d=d: s.ipc(c, f(d)))) for d in designs])
    rows.append(["study (B.9)"] + [num(1 + paper.IPC[d]) if d in paper.IPC else NONE for d in designs])
    return (title + "The study's averages are over applications where compression is on only when "
            "the application is memory-bandwidth-limited, chosen by a static profile whose "
            "criterion it does not state (B.6, B.8). Ours is the bandwidth-limited column of Cases "
            f"(Base at 2x the DRAM bandwidth at least {pct(data.BANDWIDTH_LIMITED, 0)} faster than "
            "at 1x; the rule is ours). With compression off a program runs exactly as on Base (no "
            "compressed line, no assist warp, no extra registers), so a design enabled by the "
            "profile takes its own run on a bandwidth-limited case and Base's on the others; these "
            "are computed from the runs above, nothing more is run. "
            f"{len(on)} of the {len(s.selected)} selected cases are bandwidth-limited: "
            f"{words(c.label for c in on)}. IPC normalised to Base, geometric means:\n\n"
            + table(["geometric mean"] + [data.LABELS[d] for d in designs], rows))


def memory_section(s, image):
    util = lambda r: r.get("dram_bandwidth_utilisation")  # noqa: E731
    rows = []
    for c in s.selected:
        rows.append([c.label, pct(s.value(c, "base", util)), pct(s.value(c, "caba-bdi", util)),
                     times(s.value(c, "caba-bdi", lambda r: r.burst_ratio())),
                     times(s.between(c, "base", "caba-bdi", lambda r: r.dram_bursts()))]
                    + [times(s.value(c, d, lambda r: r.data_ratio())) for d in data.ALGORITHMS.values()]
                    + [pct(s.value(c, "caba-bdi", lambda r: r.metadata_hit_rate()))])
    for name, cases in (("selected", s.selected), ("the rest", s.others), ("the suite", s.cases)):
        rows.append([f"**mean, {name}** ({len(cases)})",
                     pct(s.avg(cases, lambda c: s.value(c, "base", util))),
                     pct(s.avg(cases, lambda c: s.value(c, "caba-bdi", util))),
                     times(s.geo(cases, lambda c: s.value(c, "caba-bdi", lambda r: r.burst_ratio()))),
                     times(s.geo(cases, lambda c: s.between(c, "base", "caba-bdi",
                                                            lambda r: r.dram_bursts())))]
                    + [times(s.geo(cases, lambda c, d=d: s.value(c, d, lambda r: r.data_ratio())))
                       for d in data.ALGORITHMS.values()]
                    + [pct(s.avg(cases, lambda c: s.value(c, "caba-bdi", lambda r: r.metadata_hit_rate())))])
    rows.append(["study (B.9)", pct(paper.DRAM_UTILISATION["base"]),
                 pct(paper.DRAM_UTILISATION["caba-bdi"]), times(paper.BANDWIDTH_REDUCTION)]
                + [NONE] * 5 + [pct(paper.METADATA_HIT_RATE)])
    out = ("## DRAM bandwidth and compression\n\nDRAM utilisation: the data bus's busy share of "
           "the run. Burst ratio: the DRAM data bursts of CABA-BDI's transfers uncompressed over "
           "compressed (the study's bandwidth reduction). DRAM traffic: Base's DRAM bursts over "
           "CABA-BDI's, metadata and read-modify-writes included. Data ratio: how well each "
           "algorithm compresses the lines the memory held (its CABA run). Metadata hit rate: "
           "CABA-BDI's metadata cache. Means: arithmetic for rates, geometric for ratios.\n\n")
    if image:
        out += f"![DRAM utilisation and data compression ratios]({image})\n\n"
    return out + table(("case", "Base utilisation", "CABA-BDI utilisation", "burst ratio", "DRAM traffic",
                        "data BDI", "data FPC", "data C-Pack", "data BestOfAll", "metadata hit rate"), rows)


def claims_section(s):
    rows = [(text, label or NONE, hl.verdict(ok), detail)
            for text, label, ok, detail in hl.compressibility_claims(s)]
    return ("## The study's per-application compressibility statements\n\nOn the case of the workload "
            "that stands for each application (Cases); the data ratios of its CABA runs.\n\n"
            + table(("statement (B.9)", "our case", "", "data ratios"), rows))


def energy_section(s, image):
    f = {"energy": lambda r: r.energy(), "edp": lambda r: r.edp(), "dram": lambda r: r.dram_power(),
         "power": lambda r: r.power()}
    columns = [("caba-bdi", "energy"), ("caba-bdi", "edp"), ("caba-bdi", "dram"), ("caba-bdi", "power"),
               ("hw-bdi", "energy"), ("ideal-bdi", "energy"), ("ideal-bdi", "edp")]
    rows = [[c.label] + [change(s.over_base(c, d, f[k])) for d, k in columns] for c in s.selected]
    for name, cases in (("selected", s.selected), ("the rest", s.others), ("the suite", s.cases)):
        rows.append([f"**geometric mean, {name}** ({len(cases)})"]
                    + [change(s.geo(cases, lambda c, d=d, k=k: s.over_base(c, d, f[k]))) for d, k in columns])
    rows.append(["study (B.9)", signed(paper.ENERGY), signed(paper.EDP), signed(paper.DRAM_POWER),
                 signed(paper.SYSTEM_POWER), NONE, NONE, NONE])
    extras = s.avg(s.selected, lambda c: s.value(c, "caba-bdi", lambda r: r.extras_share()))
    names = ", ".join(f"`{c}`" for c in data.ENERGY_EXTRAS)
    out = ("## Energy\n\nEach design against Base: energy (static and dynamic, the whole GPU and its "
           "DRAM), energy-delay product (energy x run time), DRAM power and average power. The "
           "compression logic, the metadata cache and the assist-warp structures (energy components "
           f"{names}): " + ("not in the statistics (not reported)" if extras is None else
                            f"{pct(extras)} of CABA-BDI's energy on the selected cases")
           + "; the assist warps' instructions cost what a program instruction costs.\n\n")
    if image:
        out += f"![Energy and EDP of CABA-BDI]({image})\n\n"
    return out + table(("case", "CABA-BDI energy", "CABA-BDI EDP", "CABA-BDI DRAM power", "CABA-BDI power",
                        "HW-BDI energy", "Ideal-BDI energy", "Ideal-BDI EDP"), rows)


def assist_section(s):
    others = ("caba-fpc", "caba-cpack", "caba-best")
    rows = []
    for c in s.selected:
        r = s.run(c, "caba-bdi")
        per_k = None if r is None or not r.warp_instructions else \
            1000 * r.count("sm.assist.decompressions") / r.warp_instructions
        rows.append([c.label, count(None if r is None else r.get("sm.assist.decompressions")), num(per_k, 1),
                     count(None if r is None else r.wait_per_decompression()),
                     count(None if r is None else r.get("sm.assist.completed.low")),
                     count(None if r is None else r.get("memory.compression.stores.compressed_lines")),
                     pct(None if r is None else r.assist_share())]
                    + [pct(s.value(c, d, lambda x: x.assist_share())) for d in others])
    for name, cases in (("selected", s.selected), ("the suite", s.cases)):
        def mean(design, f, cases=cases):
            return s.avg(cases, lambda c: s.value(c, design, f))
        rows.append([f"**mean, {name}** ({len(cases)})", NONE, NONE,
                     count(mean("caba-bdi", lambda r: r.wait_per_decompression())), NONE, NONE]
                    + [pct(mean(d, lambda r: r.assist_share())) for d in ("caba-bdi",) + others])
    return ("## Assist warps\n\nCABA-BDI: decompressions (a high-priority assist warp per compressed "
            "line reaching an SM), per 1,000 program warp instructions, and the core cycles from a "
            "compressed reply's arrival to its release; compressions (low-priority assist warps "
            "completed, on stores of whole lines) and the store lines the L2 received compressed "
            "(– where the statistics have no such counter); the routines' share of all instructions "
            "issued, and the same share for the other algorithms.\n\n"
            + table(("case", "decompressions", "per 1k instructions", "wait per decompression (cycles)",
                     "compressions", "stores compressed", "routine share BDI", "FPC", "C-Pack",
                     "BestOfAll"), rows))


def named_cases(s, applications):
    """[(row label, case)]: the selected cases, then the cases of the workloads that stand for
    `applications` (the study's names) when not selected; those are marked with the names (of
    B.8's list: caba_paper.standing_for)."""
    named = {}
    for app in applications:
        for c in s.cases_of(app):
            names = named.setdefault(c.key(), [])
            if paper.standing_for(app) not in names:
                names.append(paper.standing_for(app))
    out = [(f"{c.label} ({', '.join(named[c.key()])})" if c.key() in named else c.label, c)
           for c in s.selected]
    return out + [(f"{c.label} ({', '.join(named[c.key()])}, not selected)", c) for c in s.cases
                  if c.key() in named and c not in s.selected]


def uncompressed_l2_cases(s):
    """named_cases for the applications an uncompressed L2 helps (RAY)."""
    return named_cases(s, paper.UNCOMPRESSED_L2_HELPS)


def uncompressed_l2_section(s, h):
    ul2 = data.UNCOMPRESSED_L2
    out = ("## Uncompressed L2\n\nThe study (B.9): storing lines uncompressed in the L2 helps "
           f"applications with high L2 hit rates, e.g. {words(paper.UNCOMPRESSED_L2_HELPS)}; it "
           f"gives no numbers. `{ul2}` is CABA-BDI with lines compressed in DRAM only: a DRAM fill "
           "crosses the reply network compressed and an assist warp decompresses it at the SM, "
           "while L2 hits are sent plain and need no decompression. ")
    if not s.ran(ul2):
        return out + f"Not run: this sweep has no `{ul2}` runs."
    decompressions = lambda r: r.get("sm.assist.decompressions")  # noqa: E731
    over = lambda c: s.between(c, ul2, "caba-bdi", lambda r: r.ipc)  # noqa: E731
    rows = [[label, pct(s.l2_hit_rate(c)), num(s.ipc(c, "caba-bdi")), num(s.ipc(c, ul2)), num(over(c)),
             count(s.value(c, "caba-bdi", decompressions)), count(s.value(c, ul2, decompressions))]
            for label, c in uncompressed_l2_cases(s)]
    high = h.high_l2_hit()
    threshold = pct(hl.HIGH_L2_HIT_RATE, 0)
    for name, cases in ((f"Base L2 hit rate at least {threshold}", high),
                        (f"Base L2 hit rate below {threshold}", [c for c in s.selected if c not in high]),
                        ("selected", s.selected)):
        rows.append([f"**geometric mean, {name}** ({len(cases)})", NONE,
                     num(s.geo(cases, lambda c: s.ipc(c, "caba-bdi"))),
                     num(s.geo(cases, lambda c: s.ipc(c, ul2))), num(s.geo(cases, over)), NONE, NONE])
    return (out + "Each selected case, and the case of the workload that stands for each application "
            "the study names: Base's L2 hit rate, IPC normalised to Base, the uncompressed L2's IPC "
            "over CABA-BDI's, and the decompressions of each (high-priority assist warps, as in "
            "Assist warps); geometric means over the selected cases by their L2 hit rate.\n\n"
            + table(("case", "Base L2 hit rate", "CABA-BDI", "uncompressed L2", "uncompressed L2 / "
                     "CABA-BDI", "CABA-BDI decompressions", "uncompressed L2 decompressions"), rows))


def cache_compression_applications():
    """The applications the study names for cache compression and Direct-Load, each once."""
    out = []
    for app in (paper.L1_COMPRESSION_HELPS + paper.L1_COMPRESSION_HURTS + paper.L2_COMPRESSION_HELPS
                + [paper.DIRECT_LOAD_MAX[1]]):
        if app not in out:
            out.append(app)
    return out


def cache_compression_designs():
    """The section's first paragraph: the study's statements, then our designs."""
    l1, l2 = data.cache_variants("L1"), data.cache_variants("L2")
    tags = lambda vs: " and ".join(f"{data.CACHE_COMPRESSION[v][1]}x" for v in vs)  # noqa: E731
    names = lambda vs: ", ".join(f"`{v}`" for v in vs)  # noqa: E731
    factors = " or ".join(f"{f}x" for f in sorted({f for _, f in data.CACHE_COMPRESSION.values()}))
    top, top_app = paper.DIRECT_LOAD_MAX
    return ("The study (B.9) applies CABA-BDI to the L1 and to the L2 with "
            f"{factors} the tags (no numbers): L1 compression helps "
            f"{words(paper.L1_COMPRESSION_HELPS)}, L2 compression helps "
            f"{words(paper.L2_COMPRESSION_HELPS)}, and L1 compression hurts "
            f"{words(paper.L1_COMPRESSION_HURTS)} ({paper.L1_COMPRESSION_HURTS_WHY}; "
            + "; ".join(f"{a}: not in the study's list; taken as {b}" for a, b in paper.ALIASES.items())
            + "). Direct-Load, where the coalescer extracts the deltas a load needs from a "
            f"compressed line, gains {signed(paper.DIRECT_LOAD)} over CABA-BDI on average, up to "
            f"{signed(top)} ({top_app}). Ours: {names(l1)} are CABA-BDI whose L1 keeps the lines "
            f"that arrive compressed in their compressed size (in 8-byte segments), with {tags(l1)} the "
            "tags, so a set holds more lines; every L1 hit on such a line is decompressed again by "
            f"an assist warp. {names(l2)}: each L2 line takes its compressed size, with {tags(l2)} "
            f"the tags. `{data.DIRECT_LOAD}`: the L1 keeps lines compressed, and every load of a "
            "compressed line, on a fill or an L1 hit, runs a short routine that adds the line's "
            "base to the deltas the coalescer extracts, instead of the whole line's "
            "decompression. ")


def cache_compression_section(s):
    l1, l2 = data.cache_variants("L1"), data.cache_variants("L2")
    variants = l1 + l2 + [data.DIRECT_LOAD]
    out = "## Cache compression and Direct-Load\n\n" + cache_compression_designs()
    if not any(s.ran(v) for v in variants):
        return out + f"Not run: this sweep has no {', '.join(f'`{v}`' for v in variants)} runs."
    ipc = lambda r: r.ipc  # noqa: E731
    misses = lambda r: r.get("memory.l2.misses")  # noqa: E731
    form = lambda c: s.value(c, l1[-1], lambda r: r.form_hit_share())  # noqa: E731
    rows = [[label, num(s.ipc(c, "caba-bdi"))]
            + [num(s.between(c, v, "caba-bdi", ipc)) for v in variants]
            + [pct(form(c)), num(s.between(c, l2[-1], "caba-bdi", misses))]
            for label, c in named_cases(s, cache_compression_applications())]
    sel = s.selected
    rows.append([f"**mean, selected** ({len(sel)})", num(s.geo(sel, lambda c: s.ipc(c, "caba-bdi")))]
                + [num(s.geo(sel, lambda c, v=v: s.between(c, v, "caba-bdi", ipc))) for v in variants]
                + [pct(s.avg(sel, form)),
                   num(s.geo(sel, lambda c: s.between(c, l2[-1], "caba-bdi", misses)))])
    header = (["case", "CABA-BDI / Base"]
              + [f"{level} {f}x tags" for level, f in (data.CACHE_COMPRESSION[v] for v in l1 + l2)]
              + ["Direct-Load", f"L1 hits on compressed lines ({data.CACHE_COMPRESSION[l1[-1]][1]}x)",
                 f"L2 misses ({data.CACHE_COMPRESSION[l2[-1]][1]}x) / CABA-BDI"])
    return (out + "Each selected case, and the case of the workload that stands for each application "
            "the study names: CABA-BDI's IPC over Base's, each design's IPC over CABA-BDI's, the "
            "share of the L1's hits on lines it held compressed (each decompressed again) and the "
            "L2 misses over CABA-BDI's, with the larger tag factor; means over the selected cases: "
            "geometric for the ratios, arithmetic for the share.\n\n" + table(header, rows))


def bandwidth_section(s, image):
    others = [p for p in s.percents if p != data.FULL]
    if not others:
        return "## DRAM bandwidth study\n\nNot run: the sweep has no variant at another bandwidth."
    rows = []
    for d in BANDWIDTH_DESIGNS:
        rows.append([f"{data.LABELS[d]} / Base"] + [change(s.geo(s.selected, lambda c, p=p: s.ipc(c, d, p)))
                                                     if s.has(d, p) else NONE for p in s.percents])
    for d in ("base", "caba-bdi"):
        rows.append([f"{data.LABELS[d]} / Base at 1x"]
                    + [change(s.geo(s.selected, lambda c, p=p: s.ipc(c, d, p, data.FULL)))
                       if s.has(d, p) else NONE for p in s.percents])
    rows.append(["Base DRAM utilisation"] + [pct(s.avg(s.selected, lambda c, p=p: s.value(
        c, "base", lambda r: r.get("dram_bandwidth_utilisation"), p))) for p in s.percents])
    out = ("## DRAM bandwidth study\n\nThe DRAM clock at "
           f"{' and '.join(bandwidth_text(p) for p in others)} the configuration's "
           "(`clocks.dram`; the timings are in DRAM cycles, so they scale with it), geometric means "
           "over the selected cases. Each design against Base at the same bandwidth; the study: "
           "each CABA design beats Base at every bandwidth, often by as much as doubling the "
           "bandwidth gives (no numbers).\n\n")
    if image:
        out += f"![IPC at each DRAM bandwidth]({image})\n\n"
    return out + table(["geometric mean"] + [bandwidth_text(p) for p in s.percents], rows)


def motivation_section(s, image, percents):
    groups = data.ISSUE_GROUPS
    rows = []
    for c in s.cases:
        shares = s.issue(c) or {}
        cells = [c.label] + [pct(shares.get(k)) for k, _, _ in groups]
        for p in percents:
            cells.append(pct(s.stalls(c, p)[1]))
        rows.append(cells + ["yes" if s.memory_bound(c) else "no", pct(s.rf_unallocated(c))])
    bound = [c for c in s.cases if s.memory_bound(c)]
    for name, cases in (("memory-bound", bound), ("the suite", s.cases)):
        cells = [f"**mean, {name}** ({len(cases)})"] + [
            pct(s.avg(cases, lambda c, k=k: (s.issue(c) or {}).get(k))) for k, _, _ in groups]
        for p in percents:
            cells.append(pct(s.avg(cases, lambda c, p=p: s.stalls(c, p)[1])))
        rows.append(cells + [NONE, pct(s.avg(cases, s.rf_unallocated))])
    mapping = "; ".join(f"{legend}: `{'` + `'.join(counters)}`" for _, legend, counters in groups)
    out = ("## Motivation: where Base's issue cycles go\n\nBase across the suite, at "
           f"{' and '.join(bandwidth_text(p) for p in percents)} DRAM bandwidth (the study: "
           f"{paper.MOTIVATION_APPLICATIONS} applications, {paper.MEMORY_BOUND} of them memory-bound, "
           f"whose memory and data-dependence stalls are {pct(paper.STALLS['1x'], 0)} of the issue "
           f"cycles at 1x and {pct(paper.STALLS['2x'], 0)} at 2x). warpsim "
           "counts each scheduler's cycle once by the reason of the warp that got furthest "
           "(`timing.issue`, `src/timing/sm/stall.h`); the study's categories from those counters: "
           f"{mapping}. The study's compute and memory stalls cannot be told apart (the pipeline "
           "counter does not say which unit was busy: not reported), so the study's memory + "
           "data-dependence stalls lie between our data-dependence stalls and those plus the "
           "structural ones (the stalls columns: both together). Register file unallocated: 1 - "
           "registers per thread (with any assist registers) x 32 x resident warps / the SM's "
           f"{count(s.sm_registers)} registers (the configuration's `sm.registers`: the statistics do "
           "not report it), per kernel weighted by its cycles (the study: "
           f"{pct(paper.RF_UNALLOCATED, 0)}).\n\n")
    if image:
        out += f"![Issue-cycle breakdown of Base]({image})\n\n"
    header = (["case"] + [legend for _, legend, _ in groups]
              + [f"stalls at {bandwidth_text(p)}" for p in percents] + ["memory-bound", "RF unallocated"])
    return out + table(header, rows)


def not_reported_section(s):
    runs = [r for (_, v), r in s.runs.items() if data.split_variant(v)[0].startswith("caba")]
    low = sum(r.count("sm.assist.completed.low") for r in runs)
    stores = [r.get("memory.compression.stores.compressed_lines") for r in runs]
    lines = ["the split of structural issue stalls into compute and memory pipelines (Motivation)",
             "the SM's register count (read from the configuration file instead)"]
    if all(r.extras_share() is None for r in runs):
        lines.append("energy of the compression and decompression logic, the metadata cache and "
                     "the assist-warp store, table and buffer (Energy)")
    if all(x is None for x in stores):
        lines.append("stores compressed at the SM (`memory.compression.stores`: absent)")
    text = ("## Not reported\n\nWhat the study measures and the statistics do not give:\n\n"
            + "\n".join(f"- {x};" for x in lines[:-1]) + f"\n- {lines[-1]}.")
    if runs and low == 0:
        text += "\n\nNo low-priority (compression) assist warp completed in any CABA run."
    return text


def failures_section(report, s):
    bad = [p for p in report.points if p.status != "pass"]
    if not bad and not s.failures:
        return None
    lines = [f"- {' '.join(f'{k}={v}' for k, v in p.axes.items())}: {p.status}"
             + (f" ({(report.result(p) or {}).get('reason', '')})" if report.result(p) else "")
             for p in bad]
    return "## Points that did not pass\n\nTheir values show as –.\n\n" + "\n".join(lines)


def not_met_text(h, group):
    """The group's headlines that are not met, with their reasons, or a line saying so."""
    rows = h.not_met(group)
    if not rows:
        return "Every headline of this paragraph is met (or has no data)."
    return "Not met:\n\n" + "\n".join(f"- *{result}*: {reason}." for result, reason in rows)


def discussion_values(s, h):
    """{placeholder: text} for discussion.md."""
    sel = s.selected
    util = lambda r: r.get("dram_bandwidth_utilisation")  # noqa: E731
    busy = [c for c in sel if (s.value(c, "base", util) or 0) >= paper.DRAM_UTILISATION["base"]]
    v = {
        "cases": str(len(s.cases)), "selected": str(len(sel)),
        "selected_cases": words(c.label for c in sel), "sizes": sizes_text(s),
        "base_utilisation": pct(h.mean("base", util)),
        "study_utilisation": pct(paper.DRAM_UTILISATION["base"]),
        "busy_cases": f"{len(busy)} of them",
        "ipc_caba_bdi": change(h.ipc("caba-bdi")), "ipc_ideal_bdi": change(h.ipc("ideal-bdi")),
        "assist_share": pct(h.mean("caba-bdi", lambda r: r.assist_share())),
        "wait_per_decompression": count(h.mean("caba-bdi", lambda r: r.wait_per_decompression())),
        "burst_ratio": times(h.geo("caba-bdi", lambda r: r.burst_ratio())),
        "data_ratio_best": times(h.geo("caba-best", lambda r: r.data_ratio())),
        "static_share": pct(h.mean("base", lambda r: data.ratio(r.get("energy.static_nj"), r.energy()))),
        "rest_caba_bdi": change(s.geo(s.others, lambda c: s.ipc(c, "caba-bdi"))),
        "rest_cases": str(len(s.others)),
        "limited_threshold": pct(data.BANDWIDTH_LIMITED, 0),
        "limited_selected": f"{len(h.profiled_on())} of the {len(sel)} selected cases",
        "limited_cases": words(c.label for c in h.profiled_on()),
        "ipc_caba_bdi_profiled": change(h.ipc(data.profiled("caba-bdi"))),
        "ipc_ideal_bdi_profiled": change(h.ipc(data.profiled("ideal-bdi"))),
        "uncompressed_l2": uncompressed_l2_text(s, h),
        "cache_compression": cache_compression_text(s, h),
    }
    for group in ("speedup", "designs", "memory", "energy", "bandwidth", "motivation"):
        v[f"not_met_{group}"] = not_met_text(h, group)
    return v


def uncompressed_l2_text(s, h):
    """The paragraph's text, with its headline's reason when not met."""
    ul2 = data.UNCOMPRESSED_L2
    if not s.ran(ul2):
        return f"Not run: this sweep has no `{ul2}` runs."
    high = h.high_l2_hit()
    total = lambda d: sum(s.value(c, d, lambda r: r.count("sm.assist.decompressions")) or 0  # noqa: E731
                          for c in s.selected)
    over = lambda c: s.between(c, ul2, "caba-bdi", lambda r: r.ipc)  # noqa: E731
    return (f"Keeping the L2 uncompressed spares the decompression of L2 hits: on the selected cases "
            f"its assist warps decompress {pct(data.ratio(total(ul2), total('caba-bdi')))} as many "
            f"lines as CABA-BDI's, and IPC changes by {change(s.geo(s.selected, over))} against "
            f"CABA-BDI ({change(s.geo(high, over))} on the {len(high)} whose Base L2 hit rate is at "
            f"least {pct(hl.HIGH_L2_HIT_RATE, 0)}).\n" + not_met_text(h, "uncompressed_l2"))


def cache_compression_text(s, h):
    """The paragraph's text, with its headlines' reasons when not met."""
    l1, l2 = data.cache_variants("L1"), data.cache_variants("L2")
    if not any(s.ran(v) for v in l1 + l2 + [data.DIRECT_LOAD]):
        return ("Not run: this sweep has no "
                f"{', '.join(f'`{v}`' for v in l1 + l2 + [data.DIRECT_LOAD])} runs.")
    over = lambda v: change(h.vs(v, "caba-bdi"))  # noqa: E731
    factors = lambda vs: " and ".join(  # noqa: E731
        f"{over(v)} with {data.CACHE_COMPRESSION[v][1]}x tags" for v in vs)
    return (f"Against CABA-BDI on the selected cases (geometric means), compressing the L1 changes "
            f"IPC by {factors(l1)}, {pct(h.mean(l1[-1], lambda r: r.form_hit_share()))} of the "
            f"latter's L1 hits being on lines it holds compressed, each decompressed again; "
            f"compressing the L2 by {factors(l2)}, the latter missing in the L2 "
            f"{times(h.vs(l2[-1], 'caba-bdi', lambda r: r.get('memory.l2.misses')))} as often as "
            f"CABA-BDI; Direct-Load by {over(data.DIRECT_LOAD)}.\n" + not_met_text(h, "cache_compression"))


def render(report):
    s = Study(report)
    h = hl.Headlines(s).build()
    stem = page_stem(report)
    percents = [p for p in (data.FULL, 2 * data.FULL, data.FULL // 2) if s.has("base", p)]
    images = {"ipc": plot.ipc(report, stem, s), "memory": plot.memory(report, stem, s),
              "energy": plot.energy(report, stem, s),
              "bandwidth": plot.bandwidth(report, stem, s, BANDWIDTH_DESIGNS),
              "issue": plot.issue(report, stem, s, percents[:2])}
    discussion = placeholders.fill_file(os.path.join(HERE, "discussion.md"), discussion_values(s, h),
                                        DISCUSSION)
    version = next((r.version for r in s.runs.values() if r.version), NONE)
    parts = [
        "# CABA assist warps and memory compression: results",
        generated_note(f"{FOLDER}/caba_page.py", DISCUSSION),
        runs_text(report, FOLDER) + ".  \n"
        f"Statistics: warpsim {version}, `--config {s.config}`, {len(s.cases)} cases; sizes: "
        f"{sizes_text(s)}.  \n"
        + page_command(f"{FOLDER}/caba_page.py", f"{FOLDER}/run.sh", "all three steps"),
        "Source: the CABA study (thesis chapter 5 and the CABA paper; digest "
        "`../shared/digests/zorua-and-caba-assist-warps.md` B.1, B.8, B.9). What is modelled and "
        "every assumption: `src/mech/caba/README.md`. Definitions: `caba_data.py`.",
        designs_section(report, s), headline_section(h), cases_section(s), ipc_section(s, images["ipc"]),
        profile_section(s, h), memory_section(s, images["memory"]), claims_section(s),
        energy_section(s, images["energy"]), assist_section(s), uncompressed_l2_section(s, h),
        cache_compression_section(s), bandwidth_section(s, images["bandwidth"]),
        motivation_section(s, images["issue"], percents[:2]), not_reported_section(s),
        "## Discussion\n\n" + discussion,
    ]
    failures = failures_section(report, s)
    if failures:
        parts.append(failures)
    return "\n\n".join(parts) + "\n"
