"""The Locality Descriptor study's headline numbers (digest s2.7, L-M1 .. L-R4) against ours, each
marked met or not met by a rule written here, with the reason computed from the runs, so that a
change in the model that moves a result moves the verdict too.

Rules (every comparison against the same application's Baseline run; means are arithmetic over
the applications that have both runs; hit-rate changes in percentage points):
  - a change the study reports as the effect of a mechanism (working-set reductions, LDesc's
    speedup and hit-rate gain, in-flight hit-rate rises) is met when ours has its sign and at
    least half its size;
  - a change the study reports as small ("only" +3.3%, +3 pp, +2.1%: its point is that locality
    alone gives little) is met when ours is at most twice its size, either way;
  - "helps" and "hurts" mean faster or slower by more than NOISE, "no gain" at most NOISE faster;
    "at least as fast" allows NOISE;
  - a statement about named applications is met when it holds on each of them that was run
    ("can hurt" on at least one); with none of them run it has no data.
The NUMA study (L-N1 .. L-N5; speedups over the NUMA Baseline on mcm-4gpm, over the applications
of its set that were run) adds:
  - a level the study reports (an access efficiency) is met when ours is at least half and at
    most twice it (the two rules above, on the level itself);
  - a distribution "close to 25% per zone" is met when the largest zone's share, averaged over
    the applications, is at most EVEN_MAX_SHARE (half as much again as an even share); a
    "heavily skewed" one when the largest zone's share of each named application is above it;
  - "best" allows NOISE; "low" and "less effective" mean below that configuration's own mean
    access efficiency over the applications run; "largely ineffective" means a mean speedup at
    most half LDesc's (or at most NOISE).
"""

import ldesc_data as data
import ldesc_paper as paper
# scripts/report; MET, NOT_MET and NO_DATA for the tests, as hl.MET
from headline_rules import MET, NO_DATA, NOT_MET  # noqa: F401
from headline_rules import HALF, NO_RUNS, HeadlineList, change_met, verdict
from ldesc_study import SENSITIVE_WS
from page_text import NONE, pct, points, signed  # scripts/report

NOISE = 0.01
EVEN_MAX_SHARE = 1.5 / data.ZONES


def level_met(ours, study):
    """Met when ours is at least half and at most twice the study's level (None: no data)."""
    return None if ours is None else HALF * study <= ours <= study / HALF


def factor(gain):
    """A gain as a speedup factor: 1.8 -> 2.80x."""
    return NONE if gain is None else f"{1.0 + gain:.2f}x"


def small_met(ours, study):
    """Met when ours is at most twice the study's size, either way (the study's point: small)."""
    return None if ours is None else abs(ours) <= 2 * abs(study)


def listing(values, fmt=signed):
    """"SK +1.0%, DT -2.0%" in the apps' order."""
    return ", ".join(f"{data.abbreviation(a)} {fmt(v)}" for a, v in values.items()) or NONE


def names(apps, empty="none"):
    apps = list(apps)
    return ", ".join(data.abbreviation(a) for a in apps) if apps else empty


class Row:
    def __init__(self, group, ref, result, study, ours, verdict, reason):
        self.group, self.ref, self.result, self.study, self.ours = group, ref, result, study, ours
        self.verdict, self.reason = verdict, reason


class Headlines(HeadlineList):
    def _add(self, group, ref, result, study, ours, ok, reason=""):
        if ok is None and not reason:
            reason = NO_RUNS
        self.rows.append(Row(group, ref, result, study, ours, verdict(ok), reason))

    def build(self):
        self._filter()
        self._motivation()
        self._configurations()
        self._observations()
        self._numa()
        return self

    def row(self, ref):
        return next(r for r in self.rows if r.ref == ref)

    # -- the filter ---------------------------------------------------------------------------

    def _filter(self):
        values = self.s.values(self.s.filter_speedup, [a for a in data.FIG20 if a in self.s.apps])
        passed = [a for a in values if self.s.in_cache_set(a)]
        ok = None if not values else len(passed) == len(values)
        self._add("filter", "s2.6", f"The Fig. 20 applications are cache-sensitive ({paper.CACHE_FILTER})",
                  "all eight", NONE if ok is None else f"{len(passed)} of {len(values)}", ok,
                  "" if ok is None else f"4x L1: {listing({a: v - 1.0 for a, v in values.items()})}; "
                  f"not passing: {names([a for a in values if a not in passed])}")

    # -- motivation (L-M1, L-M2) --------------------------------------------------------------

    def _motivation(self):
        apps = self.s.motivation_apps
        reductions = self.s.values(self.s.ws_reduction, apps)
        sensitive = {a: r for a, r in reductions.items() if r >= SENSITIVE_WS}
        ours = None if not sensitive else sum(sensitive.values()) / len(sensitive)
        ok = change_met(ours, paper.MOTIVATION_WS_REDUCTION)
        reason = (f"no application's working set fell by {pct(SENSITIVE_WS, 0)} or more under any strategy"
                  if reductions and not sensitive else "")
        if ok is not None:
            reason = (f"scheduling-sensitive (a strategy cuts the working set by {pct(SENSITIVE_WS, 0)} or more): "
                      f"{listing(sensitive, pct)}; the rule asks at least {pct(HALF * paper.MOTIVATION_WS_REDUCTION)}")
        self._add("motivation", "L-M1", "Working-set reduction of the smallest-working-set strategy, "
                  "scheduling-sensitive applications (mean)", pct(paper.MOTIVATION_WS_REDUCTION), pct(ours), ok,
                  reason)

        best = self.s.values(lambda a: None if self.s.best_speedup(a) is None else self.s.best_speedup(a) - 1.0,
                             apps)
        ours = None if not best else sum(best.values()) / len(best)
        ok = small_met(ours, paper.MOTIVATION_BEST_SPEEDUP)
        self._add("motivation", "L-M1", "Speedup of each application's best strategy, mean over all applications",
                  signed(paper.MOTIVATION_BEST_SPEEDUP) + " (small)", signed(ours), ok,
                  "" if ok is None else f"{listing(best)}; the rule asks at most "
                  f"{signed(2 * paper.MOTIVATION_BEST_SPEEDUP)} in size")

        hits = self.s.values(self.s.motivation_hit_change,
                             [a for a in apps if a not in paper.MOTIVATION_HIT_RATE_EXCEPTIONS])
        ours = None if not hits else sum(hits.values()) / len(hits)
        ok = small_met(ours, paper.MOTIVATION_HIT_RATE)
        self._add("motivation", "L-M2", "L1 hit-rate change of the smallest-working-set strategy (mean, D2D and "
                  "C2D aside)", points(paper.MOTIVATION_HIT_RATE, 0) + " (small)", points(ours), ok,
                  "" if ok is None else f"{listing(hits, points)}; the rule asks at most "
                  f"{points(2 * paper.MOTIVATION_HIT_RATE, 0)} in size")

        inflight = self.s.values(self.s.motivation_inflight_change, apps)
        ours = None if not inflight else sum(inflight.values()) / len(inflight)
        ok = change_met(ours, paper.MOTIVATION_INFLIGHT)
        self._add("motivation", "L-M2", "L1 in-flight hit-rate change of the smallest-working-set strategy (mean)",
                  points(paper.MOTIVATION_INFLIGHT, 0), points(ours), ok,
                  "" if ok is None else f"{listing(inflight, points)}; the rule asks at least "
                  f"{points(HALF * paper.MOTIVATION_INFLIGHT)}")

    # -- the six configurations (L-R1 .. L-R3) ------------------------------------------------

    def _configurations(self):
        apps = [a for a in data.FIG20 if a in self.s.config_apps]
        gains = self.s.values(lambda a: self.s.gain(a, data.LDESC), apps)
        ours = None if not gains else sum(gains.values()) / len(gains)
        ok = change_met(ours, paper.LDESC_SPEEDUP)
        self._add("configs", "L-R1", "LDesc's speedup over Baseline (mean over the Fig. 20 set)",
                  signed(paper.LDESC_SPEEDUP), signed(ours), ok,
                  "" if ok is None else
                  f"{listing(gains)}; the rule asks at least {signed(HALF * paper.LDESC_SPEEDUP)}")
        top = max(gains.items(), key=lambda x: x[1]) if gains else None
        ok = None if top is None else change_met(top[1], paper.LDESC_SPEEDUP_MAX)
        self._add("configs", "L-R1", "LDesc's largest speedup over Baseline",
                  f"up to {signed(paper.LDESC_SPEEDUP_MAX)}",
                  NONE if top is None else f"{signed(top[1])} ({data.abbreviation(top[0])})", ok,
                  "" if ok is None else f"the rule asks at least {signed(HALF * paper.LDESC_SPEEDUP_MAX)}")

        behind = {}
        compared = 0
        for a in apps:
            ld = self.s.speedup(a, data.LDESC)
            singles = {v: self.s.speedup(a, v) for v in data.TECHNIQUES}
            singles = {v: x for v, x in singles.items() if x is not None}
            if ld is None or not singles:
                continue
            compared += 1
            v, x = max(singles.items(), key=lambda kv: kv[1])
            if ld < x * (1.0 - NOISE):
                behind[a] = (v, x / ld - 1.0)
        ok = None if not compared else not behind
        self._add("configs", "L-R1", "LDesc at least as fast as every single technique", "on every application",
                  NONE if ok is None else f"on {compared - len(behind)} of {compared}", ok,
                  "" if ok is None else ("within " + pct(NOISE, 0) + " everywhere" if ok else
                                         "faster than LDesc by more than " + pct(NOISE, 0) + ": " + ", ".join(
                                             f"{data.abbreviation(a)} ({data.CONFIG_NAMES[v]} {signed(d)})"
                                             for a, (v, d) in behind.items())))

        hits = self.s.values(lambda a: self.s.hit_change(a, data.LDESC), apps)
        ours = None if not hits else sum(hits.values()) / len(hits)
        ok = change_met(ours, paper.LDESC_HIT_RATE)
        self._add("configs", "L-R2", "L1 hit-rate change, LDesc over Baseline (mean)", points(paper.LDESC_HIT_RATE),
                  points(ours), ok, "" if ok is None else f"{listing(hits, points)}; the rule asks at least "
                  f"{points(HALF * paper.LDESC_HIT_RATE)}")
        top = max(hits.items(), key=lambda x: x[1]) if hits else None
        ok = None if top is None else change_met(top[1], paper.LDESC_HIT_RATE_MAX)
        self._add("configs", "L-R2", "Largest L1 hit-rate change, LDesc over Baseline",
                  f"up to {points(paper.LDESC_HIT_RATE_MAX)}",
                  NONE if top is None else f"{points(top[1])} ({data.abbreviation(top[0])})", ok,
                  "" if ok is None else f"the rule asks at least {points(HALF * paper.LDESC_HIT_RATE_MAX)}")

        inter = [a for a in data.INTER_THREAD if a in self.s.config_apps]
        for result, f, study, fmt, rule in (
                ("LDesc-Sched's working-set reduction, INTER-THREAD applications (mean)",
                 lambda a: self.s.ws_change(a, data.SCHED), paper.SCHED_WS_REDUCTION, pct, change_met),
                ("LDesc-Sched's speedup, INTER-THREAD applications (mean)",
                 lambda a: self.s.gain(a, data.SCHED), paper.SCHED_SPEEDUP, signed, small_met),
                ("LDesc-Sched's in-flight hit-rate change, INTER-THREAD applications (mean)",
                 lambda a: self.s.inflight_change(a, data.SCHED), paper.SCHED_INFLIGHT, points, change_met)):
            values = self.s.values(f, inter)
            ours = None if not values else sum(values.values()) / len(values)
            ok = rule(ours, study)
            asks = (f"at least {fmt(HALF * study)}" if rule is change_met else f"at most {fmt(2 * study)} in size")
            self._add("configs", "L-R3", result, fmt(study) + (" (small)" if rule is small_met else ""), fmt(ours),
                      ok, "" if ok is None else f"{listing(values, fmt)}; the rule asks {asks}")

    # -- L-R4's observations ------------------------------------------------------------------

    def _each(self, ref, result, apps, variant, holds, says):
        """A statement that must hold on each of `apps` that was run: holds(gain)."""
        gains = self.s.values(lambda a: self.s.gain(a, variant), [a for a in apps if a in self.s.config_apps])
        ok = None if not gains else all(holds(g) for g in gains.values())
        failing = {a: g for a, g in gains.items() if not holds(g)}
        self._add("observations", ref, result, says, listing(gains), ok,
                  "" if ok is None else (f"{data.CONFIG_NAMES[variant]} over Baseline; "
                                         + ("holds on each" if ok else f"not on {listing(failing)}")))

    def _observations(self):
        self._each("L-R4", "LIB, LMD and SPMV gain nothing from CTA scheduling (LDesc-Sched)", data.LITTLE_INTER_CTA,
                   data.SCHED, lambda g: g <= NOISE, f"no gain (at most {signed(NOISE, 0)})")
        self._each("L-R4", "Prefetching hurts LIB, LMD and SPMV (LDesc-Pref)", data.LITTLE_INTER_CTA, "ldesc-pref",
                   lambda g: g < -NOISE, f"slower (below {signed(-NOISE, 0)})")
        self._each("L-R4", "Cache management helps LIB and LMD (LDesc-Cache)", data.CACHE_HELPS, "ldesc-cache",
                   lambda g: g > NOISE, f"faster (above {signed(NOISE, 0)})")
        gains = self.s.values(lambda a: self.s.gain(a, "ldesc-cache"),
                              [a for a in data.CACHE_CAN_HURT if a in self.s.config_apps])
        hurt = [a for a, g in gains.items() if g < -NOISE]
        ok = None if not gains else bool(hurt)
        self._add("observations", "L-R4", "Cache management can hurt D2D and HS (LDesc-Cache)",
                  f"slower (below {signed(-NOISE, 0)}) on some", listing(gains), ok,
                  "" if ok is None else (f"slower on {names(hurt)}" if ok else "slower on neither"))
        apps = [a for a in data.FIG20 if a in self.s.config_apps]
        sched = self.s.values(lambda a: self.s.gain(a, data.SCHED), apps)
        bcs = self.s.values(lambda a: self.s.gain(a, "bcs"), apps)
        both = [a for a in apps if a in sched and a in bcs]
        ms = None if not both else sum(sched[a] for a in both) / len(both)
        mb = None if not both else sum(bcs[a] for a in both) / len(both)
        ok = None if not both else ms > mb
        self._add("observations", "L-R4", "LDesc-Sched beats BCS (mean speedup over the Fig. 20 set)", "beats",
                  NONE if ok is None else f"{signed(ms)} against {signed(mb)}", ok,
                  "" if ok is None else f"faster than BCS on {names([a for a in both if sched[a] > bcs[a]])}")
        self._add("observations", "L-R4", "Prefetching and scheduling together are synergistic", "synergistic",
                  NONE, None, "the six configurations have no scheduling-plus-prefetching one (LDesc adds "
                  "cache management too), so this is not measured")

    # -- the NUMA study (L-N1 .. L-N5) ---------------------------------------------------------

    def _numa_apps(self):
        return [a for a in data.NUMA_SET if a in self.s.numa_config_apps]

    def _mean_of(self, values):
        return None if not values else sum(values.values()) / len(values)

    def _numa(self):
        s = self.s
        values = s.values(s.bandwidth_speedup, [a for a in data.NUMA_SET if a in s.numa_apps])
        passed = [a for a in values if s.in_numa_set(a)]
        ok = None if not values else len(passed) == len(values)
        self._add("numa", "s2.6", f"The NUMA applications are memory-bandwidth-sensitive ({paper.NUMA_FILTER})",
                  f"all {paper.NUMA_APPS}", NONE if ok is None else f"{len(passed)} of {len(values)}", ok,
                  "" if ok is None else f"{data.BW_FACTOR}x bandwidth: "
                  f"{listing({a: v - 1.0 for a, v in values.items()})}; "
                  f"not passing: {names([a for a in values if a not in passed])}")

        apps = self._numa_apps()
        for over, study, study_max in ((data.NUMA_BASELINE, paper.NUMA_SPEEDUP, paper.NUMA_SPEEDUP_MAX),
                                       (data.FIRST_TOUCH, paper.NUMA_OVER_FIRST_TOUCH,
                                        paper.NUMA_OVER_FIRST_TOUCH_MAX)):
            gains = s.values(lambda a, o=over: s.numa_gain(a, data.LDESC_NUMA, o), apps)
            ours = self._mean_of(gains)
            ok = change_met(ours, study)
            name = data.NUMA_NAMES[over]
            self._add("numa", "L-N1", f"LDesc's speedup over {name}, 4-module GPU (mean)", signed(study),
                      signed(ours), ok, "" if ok is None else
                      f"{listing(gains)}; the rule asks at least {signed(HALF * study)}")
            top = max(gains.items(), key=lambda x: x[1]) if gains else None
            ok = None if top is None else change_met(top[1], study_max)
            self._add("numa", "L-N1", f"LDesc's largest speedup over {name}, 4-module GPU",
                      f"up to {factor(study_max)}",
                      NONE if top is None else f"{factor(top[1])} ({data.abbreviation(top[0])})", ok,
                      "" if ok is None else f"the rule asks at least {factor(HALF * study_max)}")

        means = {}
        for v, name, _ in data.NUMA_CONFIGS:
            effs = s.values(lambda a, v=v: s.efficiency(a, v), apps)
            means[v] = self._mean_of(effs)
            study = paper.EFFICIENCY[v]
            ok = level_met(means[v], study)
            self._add("numa", "L-N2", f"Access efficiency, {name} (mean)", pct(study), pct(means[v]), ok,
                      "" if ok is None else f"{listing(effs, pct)}; the rule asks {pct(HALF * study)} to "
                      f"{pct(min(1.0, study / HALF))}")
        diffs = s.values(lambda a: None if s.efficiency(a, data.LDESC_NUMA) is None
                         or s.efficiency(a, data.NUMA_BASELINE) is None
                         else s.efficiency(a, data.LDESC_NUMA) - s.efficiency(a, data.NUMA_BASELINE), apps)
        study = paper.EFFICIENCY[data.LDESC_NUMA] - paper.EFFICIENCY[data.NUMA_BASELINE]
        ours = self._mean_of(diffs)
        ok = change_met(ours, study)
        self._add("numa", "L-N2", "Access efficiency, LDesc over Baseline (mean)", points(study), points(ours), ok,
                  "" if ok is None else f"{listing(diffs, points)}; the rule asks at least {points(HALF * study)}")
        order = [v for v, _, _ in sorted(data.NUMA_CONFIGS, key=lambda c: -paper.EFFICIENCY[c[0]])]
        have = None not in [means[v] for v in order]
        ok = None if not have else all(means[a] > means[b] for a, b in zip(order, order[1:]))
        ours_order = NONE if not have else " > ".join(
            data.NUMA_NAMES[v] for v in sorted(order, key=lambda v: -means[v]))
        self._add("numa", "L-N2", "Access efficiency's order of the four configurations (means)",
                  " > ".join(data.NUMA_NAMES[v] for v in order), ours_order, ok,
                  "" if ok is None else ", ".join(f"{data.NUMA_NAMES[v]} {pct(means[v])}" for v in order))
        for v, ref, result in ((data.NUMA_BASELINE, "L-N2", "Baseline's requests spread evenly over the zones"),
                               (data.LDESC_NUMA, "L-N2", "LDesc's requests close to even over the zones (Fig. 23)")):
            largest = s.values(lambda a, v=v: s.largest_share(a, v), apps)
            ours = self._mean_of(largest)
            ok = None if ours is None else ours <= EVEN_MAX_SHARE
            self._add("numa", ref, result + ", largest zone's share (mean)",
                      f"about {pct(paper.EVEN_SHARE, 0)}", pct(ours), ok,
                      "" if ok is None else f"{listing(largest, pct)}; the rule asks at most {pct(EVEN_MAX_SHARE)}")

        ft_mean = means[data.FIRST_TOUCH]
        best = {}
        for a in [a for a in data.FT_BEST if a in apps]:
            effs = {v: s.efficiency(a, v) for v, _, _ in data.NUMA_CONFIGS}
            if None in effs.values():
                continue
            best[a] = effs[data.FIRST_TOUCH] >= max(effs.values()) - NOISE
        ok = None if not best else all(best.values())
        self._add("numa", "L-N3", "FirstTouch-Distrib has the best access efficiency on SP and PT",
                  f"best (within {pct(NOISE, 0)})",
                  listing(s.values(lambda a: s.efficiency(a, data.FIRST_TOUCH), list(best)), pct), ok,
                  "" if ok is None else ("holds on each" if ok else "another configuration is more efficient on "
                                         + names([a for a, b in best.items() if not b])))
        largest = s.values(lambda a: s.largest_share(a, data.FIRST_TOUCH), [a for a in data.FT_SKEWED if a in apps])
        ok = None if not largest else all(x > EVEN_MAX_SHARE for x in largest.values())
        self._add("numa", "L-N3", "FirstTouch-Distrib's requests heavily skewed on ATX, MVT and LIB "
                  "(largest zone's share)", f"above {pct(EVEN_MAX_SHARE)}", listing(largest, pct), ok,
                  "" if ok is None else ("holds on each" if ok else "not on " + listing(
                      {a: x for a, x in largest.items() if x <= EVEN_MAX_SHARE}, pct)))
        self._below_mean("L-N3", "FirstTouch-Distrib's access efficiency low on DT, HS, SK and SPMV", data.FT_LOW,
                         data.FIRST_TOUCH, ft_mean, apps)
        self._below_mean("L-N4", "LDesc less effective on SPMV, LPS, PT, LMD and HS (access efficiency)",
                         data.LDESC_WEAK, data.LDESC_NUMA, means[data.LDESC_NUMA], apps)

        placement = self._mean_of(s.values(lambda a: s.numa_gain(a, data.PLACEMENT), apps))
        ldesc = self._mean_of(s.values(lambda a: s.numa_gain(a, data.LDESC_NUMA), apps))
        limit = None if ldesc is None else max(NOISE, HALF * ldesc)
        ok = None if placement is None or limit is None else placement <= limit
        self._add("numa", "L-N5", "LDesc-Placement alone largely ineffective (mean speedup over Baseline)",
                  "largely ineffective", signed(placement), ok,
                  "" if ok is None else f"LDesc's is {signed(ldesc)}; the rule asks at most {signed(limit)}")
        lp = self._mean_of(s.values(lambda a: s.largest_share(a, data.PLACEMENT), apps))
        ft = self._mean_of(s.values(lambda a: s.largest_share(a, data.FIRST_TOUCH), apps))
        ok = None if lp is None or ft is None else lp < ft
        self._add("numa", "L-N5", "LDesc-Placement's requests less skewed than FirstTouch-Distrib's (largest "
                  "zone's share, mean)", "lower", NONE if ok is None else f"{pct(lp)} against {pct(ft)}", ok)

    def _below_mean(self, ref, result, named, variant, mean_value, apps):
        effs = self.s.values(lambda a: self.s.efficiency(a, variant), [a for a in named if a in apps])
        ok = None if not effs or mean_value is None else all(x < mean_value for x in effs.values())
        self._add("numa", ref, result, f"below {data.NUMA_NAMES[variant]}'s mean", listing(effs, pct), ok,
                  "" if ok is None else (f"{data.NUMA_NAMES[variant]}'s mean is {pct(mean_value)}; "
                                         + ("holds on each" if ok else "not on " + listing(
                                             {a: x for a, x in effs.items() if x >= mean_value}, pct))))
