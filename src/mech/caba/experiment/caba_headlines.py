"""The CABA page's headline table: each of the study's stated numbers (caba_paper.py) beside ours,
marked met or not met by a rule, with the reason computed from the runs when it is not met.

The rules (the study gives no tolerance; these say what "reproduced" means here):
  gain      a change the study reports (a speed-up, a saving): ours has its sign and at least
            half its size.
  near      a difference between designs, a share or a rate: ours within TOLERANCE (5
            percentage points; 10 for shares of the suite and of the register file) of the
            study's.
  at least  a rate the study reports as an average it exceeds for many applications (the
            metadata cache's hit rate): ours no more than 10 points below it.
  holds     a statement about named applications or an ordering: it holds in our runs. The
            uncompressed L2 "helps the cases with high L2 hit rates" when CABA-BDI with it has a
            higher IPC than CABA-BDI (geometric mean) on the selected cases whose Base L2 hit rate
            is at least HIGH_L2_HIT_RATE. Cache compression (L1 or L2, either tag factor) helps a
            named application when the better of its tag factors has a higher IPC than CABA-BDI,
            and hurts it when each has a lower one, on every case of the workload that stands for
            it.
Rows "compression enabled by static profile" take each design's run on the bandwidth-limited
cases and Base's on the others (caba_data: bandwidth-limited, profiled), by the same rules.
A row whose numbers are missing is marked "no data", one whose variant has no runs "not run".
"""

import caba_data as data
import caba_paper as paper
from headline_rules import NOT_MET, verdict  # scripts/report
from page_text import NONE, change, pct, signed  # scripts/report

TOLERANCE = 0.05
SHARE_TOLERANCE = 0.10
HIGH_L2_HIT_RATE = 0.80  # Base's L2 hit rate from which a case counts as a high-hit one
NOT_RUN = "not run"


def times(x):
    return NONE if x is None else f"{x:.2f}x"


def gain(study, ours):
    """Rule gain: `study` and `ours` are changes (ratio - 1)."""
    if ours is None:
        return None
    return (ours > 0) == (study > 0) and abs(ours) >= abs(study) / 2


def near(study, ours, tolerance=TOLERANCE):
    return None if ours is None else abs(ours - study) <= tolerance + 1e-12


def at_least(study, ours, tolerance=SHARE_TOLERANCE):
    return None if ours is None else ours >= study - tolerance - 1e-12


def minus1(x):
    return None if x is None else x - 1


class Headlines:
    """The rows, and the context the reasons quote, for the selected cases of a Study."""

    def __init__(self, study):
        self.s = study
        self.cases = study.selected
        self.rows = []  # (result, study's, ours, verdict, why)
        self.verdicts = {}  # key -> verdict word
        self.reasons = {}  # key -> why it is not met ("" when it is, or has no data)
        self.groups = {}  # discussion paragraph -> [(key, result)]
        self.group = ""  # the paragraph the rows added now belong to

    # Means over the selected cases.
    def ipc(self, design, percent=data.FULL, base_percent=None):
        return self.s.geo(self.cases, lambda c: self.s.ipc(c, design, percent, base_percent))

    def vs(self, design, other, f=lambda r: r.ipc, percent=data.FULL):
        return self.s.geo(self.cases, lambda c: self.s.between(c, design, other, f, percent))

    def over_base(self, design, f):
        return self.s.geo(self.cases, lambda c: self.s.over_base(c, design, f))

    def mean(self, design, f):
        return self.s.avg(self.cases, lambda c: self.s.value(c, design, f))

    def geo(self, design, f):
        return self.s.geo(self.cases, lambda c: self.s.value(c, design, f))

    def add(self, key, result, study_text, ours_text, ok, reason, word=None):
        """A row; `reason` (called only when the row is not met) says why, from the runs; `word`
        replaces the verdict (NOT_RUN)."""
        word = word or verdict(ok)
        key = key.replace("-", "_")
        self.verdicts[key] = word
        self.reasons[key] = reason() if ok is False else ""
        self.rows.append((result, study_text, ours_text, word))
        self.groups.setdefault(self.group, []).append((key, result))

    def not_met(self, group):
        """[(result, reason)] of the group's rows that are not met."""
        return [(result, self.reasons[key]) for key, result in self.groups.get(group, [])
                if self.verdicts[key] == NOT_MET]

    # Context for the reasons.
    def bandwidth_context(self, design="caba-bdi"):
        util = self.mean("base", lambda r: r.get("dram_bandwidth_utilisation"))
        return (f"Base uses {pct(util)} of the DRAM bandwidth on these cases (study: "
                f"{pct(paper.DRAM_UTILISATION['base'])}) and {data.LABELS[design]}'s burst ratio is "
                f"{times(self.geo(design, lambda r: r.burst_ratio()))} (study, BDI: "
                f"{times(paper.BANDWIDTH_REDUCTION)})")

    def assist_context(self, design="caba-bdi"):
        return (f"assist-warp routines are {pct(self.mean(design, lambda r: r.assist_share()))} "
                f"of the instructions {data.LABELS[design]} issues and a compressed line waits "
                f"{_cycles(self.mean(design, lambda r: r.wait_per_decompression()))} core cycles "
                f"from its arrival at the SM to its release")

    def profiled_on(self):
        """The selected cases the static profile enables compression for."""
        return [c for c in self.cases if self.s.bandwidth_limited(c)]

    def profile_context(self, design, other="base"):
        """How many selected cases the profile enables, and `design` against `other` on them."""
        on = self.profiled_on()
        rule = (f"Base at 2x the DRAM bandwidth at least {pct(data.BANDWIDTH_LIMITED, 0)} faster "
                f"than at 1x")
        if not on:
            return f"compression is on for none of the {len(self.cases)} selected cases ({rule})"
        f = lambda c: self.s.between(c, design, other, lambda r: r.ipc)  # noqa: E731
        return (f"compression is on for {len(on)} of the {len(self.cases)} selected cases ({rule}: "
                f"{', '.join(c.label for c in on)}), and on them {data.LABELS[design]} changes IPC "
                f"by {change(self.s.geo(on, f))} over {data.LABELS[other]}"
                + ("" if other != "base" else
                   f" (Ideal-BDI by {change(self.s.geo(on, lambda c: self.s.ipc(c, 'ideal-bdi')))})"))

    def high_l2_hit(self):
        """The selected cases whose Base L2 hit rate is at least HIGH_L2_HIT_RATE."""
        return [c for c in self.cases
                if (self.s.l2_hit_rate(c) or 0) >= HIGH_L2_HIT_RATE - 1e-12]

    def energy_context(self):
        static = self.mean("base", lambda r: data.ratio(r.get("energy.static_nj"), r.energy()))
        dynamic = self.over_base("caba-bdi", lambda r: r.get("energy.dynamic_nj"))
        extras = self.mean("caba-bdi", lambda r: r.extras_share())
        return (f"static energy is {pct(static)} of Base's, so energy follows run time (CABA-BDI's "
                f"IPC {change(self.ipc('caba-bdi'))}); CABA-BDI's dynamic energy changes by "
                f"{change(dynamic)}, its assist-warp instructions included"
                + ("" if extras is None else
                   f", and its compression structures take {pct(extras)} of its energy"))

    def build(self):
        s, n = self.s, len(self.cases)
        where = f"geometric mean over the {n} selected cases"
        bw = self.bandwidth_context
        self.group = "speedup"
        for design in ("caba-bdi", "caba-fpc", "caba-cpack"):
            ours = self.ipc(design)
            self.add(f"ipc_{design}", f"{data.LABELS[design]} IPC vs Base",
                     signed(paper.IPC[design]), f"{change(ours)} ({where})",
                     gain(paper.IPC[design], minus1(ours)),
                     lambda d=design: f"Ideal-BDI, the same compression without latency, changes "
                                      f"IPC by {change(self.ipc('ideal-bdi'))}: {bw(d)}; "
                                      f"{self.assist_context(d)}")
            ours = self.ipc(data.profiled(design))
            self.add(f"ipc_{design}_profiled",
                     f"{data.LABELS[design]} IPC vs Base, compression enabled by static profile",
                     signed(paper.IPC[design]),
                     f"{change(ours)} ({where}, compression on for {len(self.profiled_on())})"
                     if self.s.has(data.profiled(design)) else NONE,
                     gain(paper.IPC[design], minus1(ours)),
                     lambda d=design: self.profile_context(d))
        order = [d for d in ("caba-bdi", "caba-cpack", "caba-fpc")]
        ipcs = [self.ipc(d) for d in order]
        ok = None if None in ipcs else ipcs[0] >= ipcs[1] >= ipcs[2]
        self.add("ipc_order", "Order of the algorithms", "CABA-BDI > CABA-C-Pack > CABA-FPC",
                 ", ".join(f"{data.LABELS[d]} {change(x)}" for d, x in zip(order, ipcs)), ok,
                 lambda: "the algorithms' burst ratios are " + ", ".join(
                     f"{a} {times(self.geo(d, lambda r: r.burst_ratio()))}"
                     for a, d in data.ALGORITHMS.items() if d != "caba-best"))
        self.group = "designs"
        for other in ("ideal-bdi", "hw-bdi-mem", "hw-bdi"):
            ours = minus1(self.vs("caba-bdi", other))
            self.add(f"vs_{other}", f"CABA-BDI IPC vs {data.LABELS[other]}",
                     signed(paper.CABA_BDI_VS[other]), signed(ours),
                     near(paper.CABA_BDI_VS[other], ours),
                     lambda: f"{data.LABELS[other]} changes IPC by {change(self.ipc(other))} over "
                             f"Base and CABA-BDI by {change(self.ipc('caba-bdi'))}; "
                             + ("HW-BDI-Mem compresses DRAM only, so it gains from DRAM bursts alone"
                                if other == "hw-bdi-mem" else
                                "the two differ only in who decompresses, so the gap is the assist "
                                "warps' cost (above)"))
            ours = minus1(self.vs(data.profiled("caba-bdi"), data.profiled(other)))
            self.add(f"vs_{other}_profiled",
                     f"CABA-BDI IPC vs {data.LABELS[other]}, both enabled by static profile",
                     signed(paper.CABA_BDI_VS[other]), signed(ours),
                     near(paper.CABA_BDI_VS[other], ours),
                     lambda o=other: self.profile_context("caba-bdi", o))
        above = self.beats_ideal()
        self.add("beats_ideal", "Cases where CABA-BDI beats Ideal-BDI and HW-BDI",
                 f"some, by up to {pct(paper.BEATS_IDEAL_BY_UP_TO, 0)}",
                 ", ".join(f"{c.label} {signed(m)}" for c, m in above) or "none",
                 bool(above) if self.cases else None,
                 lambda: f"CABA-BDI's best case against the better of the two is "
                         f"{self.closest_to_ideal()}; the assist warps' cost (above) is what "
                         f"Ideal-BDI and HW-BDI do not pay")
        self.group = "memory"
        base_u = self.mean("base", lambda r: r.get("dram_bandwidth_utilisation"))
        caba_u = self.mean("caba-bdi", lambda r: r.get("dram_bandwidth_utilisation"))
        drop = paper.DRAM_UTILISATION["caba-bdi"] / paper.DRAM_UTILISATION["base"] - 1
        ours = minus1(data.ratio(caba_u, base_u))
        self.add("utilisation", "DRAM bandwidth utilisation, Base -> CABA-BDI",
                 f"{pct(paper.DRAM_UTILISATION['base'])} -> {pct(paper.DRAM_UTILISATION['caba-bdi'])}",
                 f"{pct(base_u)} -> {pct(caba_u)} (mean)", gain(drop, ours),
                 lambda: f"{bw()}; the utilisation is busy cycles over all cycles, and CABA-BDI's "
                         f"run takes {change(data.ratio(1, self.ipc('caba-bdi')))} of Base's time")
        ratio = self.geo("caba-bdi", lambda r: r.burst_ratio())
        self.add("burst_ratio", "Bandwidth reduction (compression ratio in DRAM bursts)",
                 times(paper.BANDWIDTH_REDUCTION), f"{times(ratio)} (CABA-BDI, geometric mean)",
                 gain(paper.BANDWIDTH_REDUCTION - 1, minus1(ratio)),
                 lambda: f"the data's own ratio (every line the memory compressed) is "
                         f"{times(self.geo('caba-bdi', lambda r: r.data_ratio()))} with BDI and "
                         f"{times(self.geo('caba-best', lambda r: r.data_ratio()))} with the best "
                         f"of the three; our inputs are generated, the study's were its benchmarks'")
        hit = self.mean("caba-bdi", lambda r: r.metadata_hit_rate())
        self.add("metadata", "Metadata cache hit rate", pct(paper.METADATA_HIT_RATE),
                 f"{pct(hit)} (CABA-BDI, mean)", at_least(paper.METADATA_HIT_RATE, hit),
                 lambda: "the metadata cache's misses follow the spread of the DRAM lines a case "
                         "touches: " + ", ".join(
                             f"{c.label} {pct(self.s.value(c, 'caba-bdi', lambda r: r.metadata_hit_rate()))}"
                             for c in self.cases))
        self.group = "designs"
        limited = self.interconnect_limited()
        self.add("interconnect", "bfs, mst: CABA-BDI and HW-BDI beat HW-BDI-Mem", "holds",
                 "; ".join(f"{c.label}: CABA-BDI {signed(a)}, HW-BDI {signed(b)}" for c, a, b in limited)
                 or NONE, None if not limited or any(a is None or b is None for _, a, b in limited)
                 else all(a > 0 and b > 0 for _, a, b in limited),
                 lambda: "HW-BDI's gain over HW-BDI-Mem is what compressed replies save on the "
                         "interconnect; where CABA-BDI does not keep it, the assist warps' cost "
                         "(above) outweighs it")
        self.add_energy()
        self.add_uncompressed_l2()
        self.add_cache_compression()
        self.add_bandwidth()
        self.add_claims()
        self.add_motivation()
        return self

    def add_energy(self):
        self.group = "energy"
        e = minus1(self.over_base("caba-bdi", lambda r: r.energy()))
        self.add("energy", "Energy, CABA-BDI vs Base", signed(paper.ENERGY), signed(e),
                 gain(paper.ENERGY, e), self.energy_context)
        p = minus1(self.over_base("caba-bdi", lambda r: r.dram_power()))
        self.add("dram_power", "DRAM power, CABA-BDI vs Base", signed(paper.DRAM_POWER), signed(p),
                 gain(paper.DRAM_POWER, p),
                 lambda: f"DRAM energy follows the bursts: DRAM traffic "
                         f"{change(data.ratio(1, self.over_base('caba-bdi', lambda r: r.dram_bursts())))}"
                         f" of Base's; {self.bandwidth_context()}")
        for other in ("hw-bdi", "ideal-bdi"):
            x = minus1(self.vs("caba-bdi", other, lambda r: r.energy()))
            self.add(f"energy_vs_{other}", f"Energy, CABA-BDI vs {data.LABELS[other]}",
                     signed(paper.ENERGY_VS[other]), signed(x), near(paper.ENERGY_VS[other], x),
                     lambda o=other: f"CABA-BDI's IPC against {data.LABELS[o]}'s: "
                                     f"{change(self.vs('caba-bdi', o))}; {self.energy_context()}")
        p = minus1(self.over_base("caba-bdi", lambda r: r.power()))
        self.add("power", "Average power, CABA-BDI vs Base", signed(paper.SYSTEM_POWER), signed(p),
                 near(paper.SYSTEM_POWER, p), self.energy_context)
        x = minus1(self.over_base("caba-bdi", lambda r: r.edp()))
        self.add("edp", "Energy-delay product, CABA-BDI vs Base", signed(paper.EDP), signed(x),
                 gain(paper.EDP, x), self.energy_context)
        x = minus1(self.vs("caba-bdi", "ideal-bdi", lambda r: r.edp()))
        self.add("edp_vs_ideal", "Energy-delay product, CABA-BDI vs Ideal-BDI",
                 f"within {pct(paper.EDP_VS_IDEAL, 0)}", signed(x),
                 None if x is None else x <= paper.EDP_VS_IDEAL + TOLERANCE,
                 lambda: f"CABA-BDI's IPC against Ideal-BDI's: "
                         f"{change(self.vs('caba-bdi', 'ideal-bdi'))}; {self.energy_context()}")

    def add_uncompressed_l2(self):
        """B.9: an uncompressed L2 helps the applications with high L2 hit rates, e.g. RAY."""
        self.group = "uncompressed_l2"
        ul2, s = data.UNCOMPRESSED_L2, self.s
        result = "Uncompressed L2 helps the cases with high L2 hit rates"
        study = f"helps, e.g. {', '.join(paper.UNCOMPRESSED_L2_HELPS)} (no numbers)"
        if not s.ran(ul2):
            self.add("uncompressed_l2", result, study, f"not run (no `{ul2}` runs)", None,
                     lambda: "", NOT_RUN)
            return
        high = self.high_l2_hit()
        low = [c for c in self.cases if c not in high]
        over = lambda c: s.between(c, ul2, "caba-bdi", lambda r: r.ipc)  # noqa: E731
        x = s.geo(high, over)
        decompressions = lambda d: sum(  # noqa: E731
            s.value(c, d, lambda r: r.count("sm.assist.decompressions")) or 0 for c in high)
        self.add("uncompressed_l2", result, study,
                 f"{change(x)} IPC over CABA-BDI, geometric mean over the selected cases with a "
                 f"Base L2 hit rate of at least {pct(HIGH_L2_HIT_RATE, 0)} ({len(high)}); "
                 f"{change(s.geo(low, over))} over the others ({len(low)})",
                 None if x is None else x > 1,
                 lambda: f"on those cases the uncompressed L2 leaves "
                         f"{pct(data.ratio(decompressions(ul2), decompressions('caba-bdi')))} of "
                         f"CABA-BDI's decompressions and changes IPC by "
                         f"{change(s.geo(high, lambda c: s.ipc(c, ul2)))} over Base (CABA-BDI: "
                         f"{change(s.geo(high, lambda c: s.ipc(c, 'caba-bdi')))}; HW-BDI-Mem, "
                         f"which keeps the L2 uncompressed and decompresses in dedicated logic: "
                         f"{change(s.geo(high, lambda c: s.ipc(c, 'hw-bdi-mem')))})")

    def add_cache_compression(self):
        """B.9: L1 compression helps bfs and sssp and hurts hw (hs) and LPS, L2 compression helps
        TRA and KM (no numbers); Direct-Load's gain over CABA-BDI."""
        self.group = "cache_compression"
        self.add_cache_statement("l1_compression_helps", "L1", paper.L1_COMPRESSION_HELPS, True)
        self.add_cache_statement("l1_compression_hurts", "L1", paper.L1_COMPRESSION_HURTS, False)
        self.add_cache_statement("l2_compression_helps", "L2", paper.L2_COMPRESSION_HELPS, True)
        self.add_direct_load()

    def add_cache_statement(self, key, level, applications, helps):
        """A row: compressing `level` helps (the better of its tag factors has a higher IPC than
        CABA-BDI) or hurts (each has a lower one) every case of the workloads that stand for
        `applications`."""
        s, variants = self.s, data.cache_variants(level)
        result = (f"{level} cache compression {'helps' if helps else 'hurts'} "
                  f"{', '.join(paper.named(a) for a in applications)}")
        study = ("helps" if helps else f"hurts: {paper.L1_COMPRESSION_HURTS_WHY}") + " (no numbers)"
        if not any(s.ran(v) for v in variants):
            self.add(key, result, study, f"not run (no {', '.join(f'`{v}`' for v in variants)} runs)",
                     None, lambda: "", NOT_RUN)
            return
        cases, missing = self.application_cases(applications)
        over = lambda c, v: s.between(c, v, "caba-bdi", lambda r: r.ipc)  # noqa: E731

        def holds(case):
            known = [x for x in (over(case, v) for v in variants) if x is not None]
            return None if not known else (max(known) > 1 if helps else max(known) < 1)
        held = [holds(c) for c in cases]
        ours = [f"{c.label}: " + ", ".join(f"{data.CACHE_COMPRESSION[v][1]}x tags {change(over(c, v))}"
                                           for v in variants) for c in cases]
        self.add(key, result, study, "; ".join(ours + [f"{a}: no case" for a in missing]),
                 None if not cases or missing or None in held else all(held),
                 lambda: "; ".join(self.cache_context(c, level)
                                   for c, ok in zip(cases, held) if ok is False))

    def application_cases(self, applications):
        """(the cases of the workloads that stand for `applications`, each once; the applications
        that have none)."""
        cases, missing = [], []
        for a in applications:
            of = self.s.cases_of(a)
            cases += [c for c in of if c not in cases]
            if not of:
                missing.append(paper.named(a))
        return cases, missing

    def cache_context(self, case, level):
        """Why compressing `level` does what it does on `case`, with its largest tag factor: the
        L1's hits on lines held compressed and the decompressions they cost; the L2's misses."""
        s = self.s
        wide = data.cache_variants(level)[-1]
        factor = data.CACHE_COMPRESSION[wide][1]
        if level == "L1":
            share = s.value(case, wide, lambda r: r.form_hit_share())
            per_k = lambda d: _per_k(s.value(case, d, lambda r: r.decompressions_per_k()))  # noqa: E731
            return (f"{case.label}: with {factor}x tags {pct(share)} of the L1 hits are on lines "
                    f"held compressed, each decompressed again, and assist warps decompress "
                    f"{per_k(wide)} lines per 1,000 instructions (CABA-BDI: {per_k('caba-bdi')})")
        misses = s.between(case, wide, "caba-bdi", lambda r: r.get("memory.l2.misses"))
        return (f"{case.label}: Base's L2 hit rate is {pct(s.l2_hit_rate(case))}, and with {factor}x "
                f"tags the L2 misses {times(misses)} as often as CABA-BDI's")

    def add_direct_load(self):
        """B.9: Direct-Load over CABA-BDI, on average and at most (MM)."""
        dl, s = data.DIRECT_LOAD, self.s
        result = "Direct-Load over CABA-BDI (average)"
        top, application = paper.DIRECT_LOAD_MAX
        study = f"{signed(paper.DIRECT_LOAD)} (up to {signed(top)}, {application})"
        if not s.ran(dl):
            self.add("direct_load", result, study, f"not run (no `{dl}` runs)", None, lambda: "",
                     NOT_RUN)
            return
        over = [(c, s.between(c, dl, "caba-bdi", lambda r: r.ipc)) for c in self.cases]
        best = max(((x, c.label) for c, x in over if x is not None), default=None)
        x = self.vs(dl, "caba-bdi")
        self.add("direct_load", result, study,
                 f"{change(x)} (geometric mean over the {len(self.cases)} selected cases"
                 + ("" if best is None else f"; up to {change(best[0])}, {best[1]}") + ")",
                 gain(paper.DIRECT_LOAD, minus1(x)), self.direct_load_context)

    def direct_load_context(self):
        """Why Direct-Load gains what it does: the L1 hits it serves from compressed lines, and
        its routines against CABA-BDI's decompressions, on the selected cases."""
        dl, s = data.DIRECT_LOAD, self.s
        total = lambda d: sum(s.value(c, d, lambda r: r.count("sm.assist.decompressions")) or 0  # noqa: E731
                              for c in self.cases)
        return (f"on the selected cases {pct(self.mean(dl, lambda r: r.form_hit_share()))} of "
                f"Direct-Load's L1 hits are on lines held compressed, each read by a Direct-Load "
                f"routine, and its routines run {times(data.ratio(total(dl), total('caba-bdi')))} as "
                f"often as CABA-BDI's decompressions")

    def add_bandwidth(self):
        self.group = "bandwidth"
        for percent in [p for p in self.s.percents if p != data.FULL]:
            if not self.s.has("caba-bdi", percent):
                continue
            x = self.ipc("caba-bdi", percent)
            self.add(f"bandwidth_{percent}", f"CABA-BDI vs Base, both at {percent / 100:g}x bandwidth",
                     "a gain", change(x), None if x is None else x > 1,
                     lambda p=percent: f"Base uses {pct(self.mean_at('base', p))} of the DRAM "
                                       f"bandwidth at {p / 100:g}x, where Ideal-BDI changes IPC by "
                                       f"{change(self.ipc('ideal-bdi', p))} and CABA-BDI pays the "
                                       f"assist warps' cost (above)")
        if self.s.has("base", 2 * data.FULL):
            cases = [(c, self.s.ipc(c, "caba-bdi", data.FULL, 2 * data.FULL)) for c in self.cases]
            known = [x for _, x in cases if x is not None]
            reach = sum(1 for x in known if x >= 1)
            self.add("doubling", "CABA-BDI at 1x reaches Base at 2x bandwidth", "often",
                     f"{reach} of {len(known)} cases (geometric mean "
                     f"{change(data.geomean(known))})",
                     None if not known else 2 * reach >= len(known),
                     lambda: f"Base at 2x is {change(self.ipc('base', 2 * data.FULL, data.FULL))} over "
                             f"Base at 1x; {self.bandwidth_context()}")

    def add_claims(self):
        """B.9's statements about named applications' compressibility, on our workloads."""
        self.group = "memory"
        claims = compressibility_claims(self.s)
        held = [ok for _, _, ok, _ in claims if ok is not None]
        self.add("claims", "Per-application compressibility statements (B.9)",
                 f"{len(claims)} statements", f"{sum(held)} of the {len(held)} with data hold (table below)",
                 None if not held else all(held),
                 lambda: "these do not hold: " + "; ".join(
                     f"{text} ({detail})" for text, _, ok, detail in claims if ok is False))

    def add_motivation(self):
        s = self.s
        self.group = "motivation"
        bound, known = s.count(s.cases, s.memory_bound)
        share = data.ratio(bound, known)
        study_share = paper.MEMORY_BOUND / paper.MOTIVATION_APPLICATIONS
        self.add("memory_bound", "Memory-bound applications (Base, 1x)",
                 f"{paper.MEMORY_BOUND} of {paper.MOTIVATION_APPLICATIONS} ({pct(study_share)})",
                 f"{bound} of {known} ({pct(share)})", near(study_share, share, SHARE_TOLERANCE),
                 lambda: "the study does not say how it classified its applications; ours are "
                         "memory-bound when their schedulers wait on loads more cycles than they "
                         "issue, and the suite is not the study's "
                         f"{paper.MOTIVATION_APPLICATIONS} applications")
        bound_cases = [c for c in s.cases if s.memory_bound(c)]
        for percent, label in ((data.FULL, "1x"), (2 * data.FULL, "2x")):
            if not s.has("base", percent):
                continue
            low = s.avg(bound_cases, lambda c: s.stalls(c, percent)[0])
            high = s.avg(bound_cases, lambda c: s.stalls(c, percent)[1])
            self.add(f"stalls_{label}", f"Memory and data-dependence stalls of the memory-bound, {label}",
                     pct(paper.STALLS[label]),
                     f"{pct(low)} to {pct(high)} (data dependence; with structural stalls)",
                     None if high is None else near(paper.STALLS[label], high, SHARE_TOLERANCE),
                     lambda lo=low, hi=high: f"ours counts every scheduler cycle, idle ones "
                                             f"included; the data-dependence stalls alone are "
                                             f"{pct(lo)}, with the structural ones {pct(hi)}")
        rf = s.avg(s.cases, s.rf_unallocated)
        self.add("rf_unallocated", "Register file statically unallocated (Base)",
                 pct(paper.RF_UNALLOCATED), f"{pct(rf)} (mean over {len(s.cases)} cases)",
                 near(paper.RF_UNALLOCATED, rf, SHARE_TOLERANCE),
                 lambda: "it follows each kernel's registers per thread and CTA size: our kernels "
                         "are not the study's, and ptxas allocates today's registers")

    def closest_to_ideal(self):
        """'case +x%': the selected case where CABA-BDI comes closest to the better of Ideal-BDI
        and HW-BDI."""
        best = None
        for c in self.cases:
            a = self.s.between(c, "caba-bdi", "ideal-bdi", lambda r: r.ipc)
            b = self.s.between(c, "caba-bdi", "hw-bdi", lambda r: r.ipc)
            if a is not None and b is not None and (best is None or min(a, b) > best[1]):
                best = (c, min(a, b))
        return NONE if best is None else f"{best[0].label} {change(best[1])}"

    def mean_at(self, design, percent):
        return self.s.avg(self.cases, lambda c: self.s.value(
            c, design, lambda r: r.get("dram_bandwidth_utilisation"), percent))

    def beats_ideal(self):
        """[(case, CABA-BDI's IPC over the better of Ideal-BDI and HW-BDI, - 1)] where positive."""
        out = []
        for c in self.cases:
            a = self.s.between(c, "caba-bdi", "ideal-bdi", lambda r: r.ipc)
            b = self.s.between(c, "caba-bdi", "hw-bdi", lambda r: r.ipc)
            if a is not None and b is not None and a > 1 and b > 1:
                out.append((c, min(a, b) - 1))
        return out

    def interconnect_limited(self):
        """[(case, CABA-BDI vs HW-BDI-Mem - 1, HW-BDI vs HW-BDI-Mem - 1)] for bfs and mst, at
        whatever size they ran."""
        out = []
        for c in self.s.cases:
            if c.workload in paper.INTERCONNECT_LIMITED:
                out.append((c, minus1(self.s.between(c, "caba-bdi", "hw-bdi-mem", lambda r: r.ipc)),
                            minus1(self.s.between(c, "hw-bdi", "hw-bdi-mem", lambda r: r.ipc))))
        return out


def compressibility_claims(s):
    """[(statement, our case label or None, holds?, detail)] for B.9's statements about named
    applications, on the cases of our workloads that stand for them (the first case of each)."""
    def case_of(application):
        w = paper.workload_of(application)
        return next((c for c in s.cases if c.workload == w), None)

    def ratios(case):
        return {a: s.value(case, d, lambda r: r.data_ratio()) for a, d in data.ALGORITHMS.items()}

    def line(text, case, ok, detail):
        return (text, None if case is None else case.label, ok, detail)

    out = []
    for app in paper.RATIO_FPC_OR_CPACK_ABOVE_BDI:
        c = case_of(app)
        r = ratios(c) if c else {}
        ok = None if c is None or None in (r["BDI"], r["FPC"], r["C-Pack"]) else \
            max(r["FPC"], r["C-Pack"]) > r["BDI"]
        out.append(line(f"{app}: FPC or C-Pack compresses better than BDI", c, ok, _ratios_text(r)))
    for app in paper.RATIO_BDI_ABOVE_OTHERS:
        c = case_of(app)
        r = ratios(c) if c else {}
        ok = None if c is None or None in (r["BDI"], r["FPC"], r["C-Pack"]) else \
            r["BDI"] > max(r["FPC"], r["C-Pack"])
        out.append(line(f"{app}: BDI compresses better than FPC and C-Pack", c, ok, _ratios_text(r)))
    for app in paper.BEST_ABOVE_EACH:
        c = case_of(app)
        r = ratios(c) if c else {}
        ok = None if c is None or None in r.values() else \
            r["BestOfAll"] > max(r["BDI"], r["FPC"], r["C-Pack"])
        out.append(line(f"{app}: BestOfAll compresses better than each alone", c, ok, _ratios_text(r)))
    app = paper.BDI_FASTER_THAN_FPC_DESPITE_RATIO
    c = case_of(app)
    r = ratios(c) if c else {}
    faster = None if c is None else s.between(c, "caba-bdi", "caba-fpc", lambda x: x.ipc)
    ok = None if faster is None or None in (r["BDI"], r["FPC"]) else \
        faster > 1 and r["FPC"] > r["BDI"]
    out.append(line(f"{app}: CABA-BDI faster than CABA-FPC though FPC compresses better", c, ok,
                    f"{_ratios_text(r)}; CABA-BDI vs CABA-FPC IPC {change(faster)}"))
    return out


def _ratios_text(r):
    return ", ".join(f"{a} {times(x)}" for a, x in r.items()) or NONE


def _per_k(x):
    return NONE if x is None else f"{x:.1f}"


def _cycles(x):
    return NONE if x is None else f"{x:,.0f}"
