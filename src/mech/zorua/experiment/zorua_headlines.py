"""The Zorua study's headline numbers (digest A.10) against ours, each marked met or not met by a
rule written here, with the reason computed from the runs, so that a change in the model that
moves a result moves the verdict too.

Rules:
  - a change the study reports (a gain, a change in energy or in schedulable warps) is met when
    ours has its sign and at least half its size;
  - a reduction (of the performance range, of the porting loss) from the baseline to Zorua is met
    when ours reduces it, relative to the baseline's, by at least half as much as the study's;
  - an order between the designs (WLM between the baseline and Zorua) is met when it holds;
  - a hit rate is met when ours is at most RATE_TOLERANCE below the study's;
  - a statement about a named application is met when it holds on the workload that stands for it.
Averages are over the applications, on the headline generation (zorua_data.HEADLINE_CONFIG) but
for the porting loss, which spans the three.
"""

import zorua_data as data
import zorua_paper as paper
from headline_rules import HALF, MET, NO_DATA, NOT_MET, HeadlineList, Row, change_met  # scripts/report
from page_text import NONE, pct, signed  # scripts/report

RATE_TOLERANCE = 0.02
NOT_MEASURED = "not measured"


def reduction(base, design):
    """How much smaller the design's value is than the baseline's, relative to it."""
    if base is None or design is None or base <= 0:
        return None
    return 1.0 - design / base


class Headlines(HeadlineList):
    def _add(self, group, result, study, ours, ok, reason, verdict=None):
        if verdict is None:
            verdict = NO_DATA if ok is None else (MET if ok else NOT_MET)
        self.rows.append(Row(group, result, study, ours, verdict, reason))

    def _missing(self, design):
        return design not in self.s.designs

    def build(self):
        self._range()
        self._gains()
        self._porting()
        self._warps()
        self._hit_rates()
        self._energy()
        return self

    # -- performance range ------------------------------------------------------------------

    def mean_range(self, design):
        if self._missing(design):
            return None
        return self.s.over_apps(lambda a: self.s.range(a, design))

    def _range(self):
        base, wlm, zorua = (self.mean_range(d) for d in data.DESIGNS)
        study_red = reduction(paper.RANGE["base"], paper.RANGE["zorua"])
        ours_red = reduction(base, zorua)
        ok = None if ours_red is None else ours_red >= HALF * study_red
        self._add("range", "Performance range, Baseline -> Zorua (1 - worst/best, mean over applications)",
                  f"{pct(paper.RANGE['base'])} -> {pct(paper.RANGE['zorua'])} ({pct(study_red, 0)} smaller)",
                  f"{pct(base)} -> {pct(zorua)} ({pct(ours_red, 0)} smaller)", ok,
                  "" if ok is None else f"Zorua's range is {pct(ours_red, 0)} smaller than the baseline's; "
                  f"the rule asks at least {pct(HALF * study_red, 0)}")
        if self._missing("wlm"):
            self._add("range", "Performance range of WLM, between the baseline's and Zorua's",
                      pct(paper.RANGE["wlm"]), NONE, None, "WLM was not run (no configs/overlays/wlm.toml)")
        else:
            ok = None if None in (base, wlm, zorua) else zorua <= wlm <= base
            self._add("range", "Performance range of WLM, between the baseline's and Zorua's",
                      pct(paper.RANGE["wlm"]), pct(wlm), ok,
                      "" if ok is None else f"Baseline {pct(base)}, WLM {pct(wlm)}, Zorua {pct(zorua)}")
        app = "sssp"
        if app not in self.s.apps:
            self._add("range", "SSSP: the one application whose range Zorua does not shrink",
                      f"Baseline {pct(paper.SSSP_BASE_RANGE)}", NONE, None, "sssp was not run")
            return
        b, z = self.s.range(app, "base"), self.s.range(app, "zorua")
        shrunk = [a for a in self.s.apps if a != app and None not in (self.s.range(a, "base"), self.s.range(a, "zorua"))
                  and self.s.range(a, "zorua") < self.s.range(a, "base")]
        others = [a for a in self.s.apps if a != app]
        ok = None if None in (b, z) else (z >= b and len(shrunk) == len(others))
        reason = "" if ok is None else (
            f"sssp: Baseline {pct(b)}, Zorua {pct(z)}; the range shrinks on {len(shrunk)} of the "
            f"{len(others)} other applications" + (f" (not on {', '.join(a for a in others if a not in shrunk)})"
                                                    if len(shrunk) < len(others) else ""))
        self._add("range", "SSSP: the one application whose range Zorua does not shrink",
                  f"Baseline {pct(paper.SSSP_BASE_RANGE)}", f"Baseline {pct(b)}, Zorua {pct(z)}", ok, reason)

    # -- gains ------------------------------------------------------------------------------

    def _gains(self):
        best = self.s.over_apps(lambda a: self.s.best_gain(a))
        ok = change_met(best, paper.BEST_GAIN)
        self._add("gain", "Best-specification gain of Zorua over the baseline's best (mean over applications)",
                  signed(paper.BEST_GAIN), signed(best), ok,
                  "" if ok is None else f"ours {signed(best)}; the rule asks at least {signed(HALF * paper.BEST_GAIN)}")
        top, app = self.s.largest(lambda a: self.s.best_gain(a))
        study_top, study_app = paper.BEST_GAIN_MAX
        ok = None if top is None else (app == study_app and top >= HALF * study_top)
        self._add("gain", "Largest best-specification gain (the study's on DCT)",
                  f"{signed(study_top)} ({paper.name_of(study_app)})",
                  NONE if top is None else f"{signed(top)} ({paper.name_of(app)})", ok,
                  "" if ok is None else f"the largest is on {paper.name_of(app)} ({app}), {signed(top)}; the rule "
                  f"asks it on {paper.name_of(study_app)} and at least {signed(HALF * study_top)}")
        avg = self.s.over_apps(lambda a: self.s.average_gain(a))
        ok = change_met(avg, paper.AVERAGE_GAIN)
        self._add("gain", "Average gain of Zorua over all specifications (mean over applications)",
                  signed(paper.AVERAGE_GAIN), signed(avg), ok,
                  "" if ok is None else f"ours {signed(avg)}; the rule asks at least {signed(HALF * paper.AVERAGE_GAIN)}")

    # -- porting ----------------------------------------------------------------------------

    def mean_porting(self, design):
        if self._missing(design):
            return None
        return self.s.over_apps(lambda a: self.s.porting(a, design)[0])

    def _porting(self):
        base, wlm, zorua = (self.mean_porting(d) for d in data.DESIGNS)
        generations = len(self.s.sweep.configs)
        study_red = reduction(paper.PORTING["base"], paper.PORTING["zorua"])
        ours_red = reduction(base, zorua)
        ok = None if ours_red is None else ours_red >= HALF * study_red
        reason = (f"the sweep ran {generations} generation(s)" if generations < 2 else
                  "" if ok is None else f"Zorua's loss is {pct(ours_red, 0)} smaller than the baseline's; the "
                  f"rule asks at least {pct(HALF * study_red, 0)}")
        self._add("porting", "Maximum porting performance loss, Baseline -> Zorua (mean over applications)",
                  f"{pct(paper.PORTING['base'])} -> {pct(paper.PORTING['zorua'])}",
                  f"{pct(base)} -> {pct(zorua)}", ok, reason)
        if self._missing("wlm"):
            self._add("porting", "Porting loss of WLM, between the baseline's and Zorua's",
                      pct(paper.PORTING["wlm"]), NONE, None, "WLM was not run (no configs/overlays/wlm.toml)")
        else:
            ok = None if None in (base, wlm, zorua) else zorua <= wlm <= base
            self._add("porting", "Porting loss of WLM, between the baseline's and Zorua's",
                      pct(paper.PORTING["wlm"]), pct(wlm), ok,
                      "" if ok is None else f"Baseline {pct(base)}, WLM {pct(wlm)}, Zorua {pct(zorua)}")

    # -- schedulable warps ------------------------------------------------------------------

    def _warps(self):
        for design in ("zorua", "wlm"):
            label = data.LABELS[design]
            result = f"Schedulable warps, {label} against the baseline (mean over specifications and applications)"
            if self._missing(design):
                self._add("warps", result, signed(paper.SCHEDULABLE[design]), NONE, None,
                          f"{label} was not run" + (" (no configs/overlays/wlm.toml)" if design == "wlm" else ""))
                continue
            ours = self.s.over_apps(lambda a, d=design: self.s.warps_change(a, d))
            ok = change_met(ours, paper.SCHEDULABLE[design])
            self._add("warps", result, signed(paper.SCHEDULABLE[design]), signed(ours), ok,
                      "" if ok is None else f"ours {signed(ours)}; the rule asks at least "
                      f"{signed(HALF * paper.SCHEDULABLE[design])}")

    # -- virtual resources ------------------------------------------------------------------

    def _hit_rates(self):
        ours = self.s.over_apps(lambda a: self.s.register_hit_rate(a))
        study = paper.HIT_RATE["registers"]
        ok = None if ours is None else ours >= study - RATE_TOLERANCE
        moved, total = self.s.swapping_runs()
        reason = "" if ok is None else (
            f"ours {pct(ours, 2)}; the rule asks at least {pct(study - RATE_TOLERANCE)}; {moved} of the "
            f"{total} Zorua runs moved anything to swap space")
        self._add("hit", "Register accesses served on chip (1 - off-chip / accesses)", pct(study), pct(ours, 2),
                  ok, reason)
        spills = sum(self.s.zorua_total(a, ("scratchpad", "spills")) or 0 for a in self.s.apps)
        self._add("hit", "Scratchpad accesses served on chip", pct(paper.HIT_RATE["scratchpad"]), NONE, None,
                  "not counted: the coordinator moves a CTA's scratchpad sets to swap only while none of its "
                  "warps is schedulable and brings them back before one is, so no access finds a set in swap "
                  f"(100% by construction); {spills:,} scratchpad sets went to swap in these runs",
                  verdict=NOT_MEASURED)

    # -- energy -----------------------------------------------------------------------------

    def _energy(self):
        ours = self.s.over_apps(lambda a: self.s.energy_change(a))
        ok = change_met(ours, paper.ENERGY)
        self._add("energy", "Energy of Zorua against the baseline (mean of per-specification changes)",
                  signed(paper.ENERGY), signed(ours), ok,
                  "" if ok is None else f"ours {signed(ours)}; the rule asks at most {signed(HALF * paper.ENERGY)}")
        low, app = self.s.largest(lambda a: self.s.energy_change(a), smallest=True)
        study_low, study_app = paper.ENERGY_MAX
        ok = None if low is None else (app == study_app and low <= HALF * study_low)
        self._add("energy", "Largest energy reduction (the study's on DCT)",
                  f"{signed(study_low)} ({paper.name_of(study_app)})",
                  NONE if low is None else f"{signed(low)} ({paper.name_of(app)})", ok,
                  "" if ok is None else f"the largest reduction is on {paper.name_of(app)} ({app}), {signed(low)}; "
                  f"the rule asks it on {paper.name_of(study_app)} and at most {signed(HALF * study_low)}")
        nqu = self.s.energy_change("nqueens") if "nqueens" in self.s.apps else None
        ok = None if nqu is None else nqu > 0
        self._add("energy", "NQU's energy rises under Zorua", signed(paper.ENERGY_NQU), signed(nqu), ok,
                  "nqueens was not run" if "nqueens" not in self.s.apps else
                  "" if ok is None else f"nqueens {signed(nqu)}; the rule asks a rise")
