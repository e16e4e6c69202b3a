"""Every number of the CABA results page, from the runs (caba_data.py defines them): per case
(a workload at a size), and means over groups of cases.

A profiled design (caba_data.profiled) is one more design to every metric: Study.run gives the
design's run on a bandwidth-limited case and Base's on the others.

The groups: `selected`, the cases whose compressibility in memory bandwidth is at least the
study's 10% (its detailed results are for those); `others`, the rest of the suite; `study`, the
cases of our workloads that stand for the study's applications (caba_paper.APPLICATIONS).
"""

import os

import caba_data as data
import caba_paper as paper

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                     "..", ".."))


class Study:
    def __init__(self, report, configs=os.path.join(ROOT, "configs")):
        self.report = report
        self.cases, self.runs, self.failures = data.load(report)
        self.variants = [str(v) for v in report.axis("variant").values]
        self.percents = sorted({data.split_variant(v)[1] for v in self.variants})
        single = {a.name: a.values[0] for a in report.axes if len(a.values) == 1}
        self.config = str(single.get("config", ""))
        self.sm_registers = data.config_value(configs, self.config, "sm.registers")
        self.selected = [c for c in self.cases
                         if (self.compressibility(c) or 0) >= paper.SELECTION - 1e-12]
        self.others = [c for c in self.cases if c not in self.selected]
        study = paper.study_workloads()
        self.study = [c for c in self.cases if c.workload in study]

    def cases_of(self, application):
        """The cases (every size) of the workload that stands for one of the study's application
        names (caba_paper.workload_of)."""
        workload = paper.workload_of(application)
        return [c for c in self.cases if workload is not None and c.workload == workload]

    # Runs.
    def run(self, case, design, percent=data.FULL):
        design, is_profiled = data.unprofiled(design)
        if is_profiled:
            limited = self.bandwidth_limited(case)
            if limited is None:
                return None
            design = design if limited else "base"
        return self.runs.get((case.key(), data.variant_name(design, percent)))

    def has(self, design, percent=data.FULL):
        design, is_profiled = data.unprofiled(design)
        if is_profiled and not self.has("base", 2 * data.FULL):
            return False
        return data.variant_name(design, percent) in self.variants

    def ran(self, design):
        """True when some case has a run of `design` at the configuration's bandwidth."""
        return self.has(design) and any(self.run(c, design) is not None for c in self.cases)

    def value(self, case, design, f, percent=data.FULL):
        r = self.run(case, design, percent)
        return None if r is None else f(r)

    def over_base(self, case, design, f, percent=data.FULL, base_percent=None):
        """f(design run) / f(Base run) for the case; Base at the same bandwidth unless
        base_percent is given."""
        return data.ratio(self.value(case, design, f, percent),
                          self.value(case, "base", f, percent if base_percent is None else base_percent))

    def between(self, case, design, other, f, percent=data.FULL):
        """f(design run) / f(other run) for the case, both at `percent`."""
        return data.ratio(self.value(case, design, f, percent), self.value(case, other, f, percent))

    # Per case.
    def ipc(self, case, design, percent=data.FULL, base_percent=None):
        return self.over_base(case, design, lambda r: r.ipc, percent, base_percent)

    def l2_hit_rate(self, case):
        return self.value(case, "base", lambda r: r.get("l2_hit_rate"))

    def compressibility(self, case):
        savings = [self.value(case, d, lambda r: r.saving()) for d in data.ALGORITHMS.values()]
        savings = [s for s in savings if s is not None]
        return max(savings) if savings else None

    def bandwidth_gain(self, case):
        """Base's IPC at 2x the DRAM bandwidth over its IPC at 1x."""
        return self.ipc(case, "base", 2 * data.FULL, data.FULL)

    def bandwidth_limited(self, case):
        """The static profile's rule (ours; the study states none): Base at 2x the DRAM bandwidth
        at least data.BANDWIDTH_LIMITED faster than at 1x. None without both runs."""
        gain = self.bandwidth_gain(case)
        return None if gain is None else gain >= 1 + data.BANDWIDTH_LIMITED - 1e-12

    def issue(self, case, percent=data.FULL):
        """The Base run's issue shares at `percent`, or None."""
        return self.value(case, "base", lambda r: r.issue_shares(), percent)

    def stalls(self, case, percent=data.FULL):
        """(data-dependence, data-dependence + structural) shares of Base's scheduler cycles: the
        bounds of the study's memory + data-dependence stalls."""
        s = self.issue(case, percent)
        if s is None:
            return None, None
        low = s["data_memory"] + s["data_other"]
        return low, low + s["structural"]

    def memory_bound(self, case):
        """The rule (the study states none): Base's schedulers wait on loads more cycles than
        they issue."""
        s = self.issue(case)
        return None if s is None else s["data_memory"] > s["active"]

    def rf_unallocated(self, case):
        return self.value(case, "base", lambda r: r.rf_unallocated(self.sm_registers or 0))

    # Means over a group of cases.
    def geo(self, cases, f):
        return data.geomean([f(c) for c in cases])

    def avg(self, cases, f):
        return data.mean([f(c) for c in cases])

    def count(self, cases, f):
        """(cases where f is true, cases where it is known)."""
        values = [f(c) for c in cases]
        return sum(1 for v in values if v), sum(1 for v in values if v is not None)
