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
"""

import ldesc_data as data
import ldesc_paper as paper
# scripts/report; MET, NOT_MET and NO_DATA for the tests, as hl.MET
from headline_rules import MET, NO_DATA, NOT_MET  # noqa: F401
from headline_rules import HALF, NO_RUNS, HeadlineList, change_met, verdict
from ldesc_study import SENSITIVE_WS
from page_text import NONE, pct, points, signed  # scripts/report

NOISE = 0.01


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
