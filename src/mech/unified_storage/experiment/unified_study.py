"""The unified-storage study's metrics on the sweep (unified_metrics.py on the runs of
unified_data.Sweep), per application, as the page's tables and headlines show them.

Every comparison between designs takes each application's run at the blocking chosen on each
design (Sweep.design_run: Needle's fastest that fits), normalised to the same application's run
on the baseline, 256/64/64.
"""

import unified_data as data
import unified_metrics as m
from summary_stats import mean

PARTS = ("sram_leakage", "core_leakage", "dram", "core_dynamic")


class Study:
    def __init__(self, sweep):
        self.sweep = sweep
        self.apps = sweep.apps
        self.designs = sweep.designs()
        self.mods = sweep.mods()

    # -- designs (s7.5, s7.6) ---------------------------------------------------------------

    def run(self, app, design, mod=None):
        return self.sweep.design_run(app, design, mod)

    def _pair(self, app, design):
        return self.run(app, data.BASELINE), self.run(app, design)

    def perf(self, app, design):
        base, run = self._pair(app, design)
        return None if base is None or run is None else m.speedup(base.cycles, run.cycles)

    def dram(self, app, design):
        base, run = self._pair(app, design)
        return None if base is None or run is None else m.normalised(run.dram_accesses, base.dram_accesses)

    def l1_misses(self, app, design):
        base, run = self._pair(app, design)
        return None if base is None or run is None else m.normalised(run.l1_misses, base.l1_misses)

    def energy(self, app, design):
        base, run = self._pair(app, design)
        return None if base is None or run is None else m.normalised(run.energy, base.energy)

    def per_watt(self, app, design):
        base, run = self._pair(app, design)
        return None if base is None or run is None else m.perf_per_watt(base.energy, run.energy)

    def limited(self, app):
        """The faster of Fermi's two splits on the app (the program picks its split), or None."""
        runs = [(self.run(app, d), d) for d in data.LIMITED if d in self.designs]
        runs = [(r.cycles, d) for r, d in runs if r is not None and r.cycles]
        return min(runs)[1] if runs else None

    def breakdown(self, app, design):
        """{part: its energy over the baseline's total}: SRAM leakage, core leakage, DRAM and the
        rest of the dynamic energy (the core's)."""
        base, run = self._pair(app, design)
        if base is None or run is None or not base.energy or run.dynamic is None:
            return None
        parts = {"sram_leakage": run.sram_leakage, "core_leakage": run.core_leakage, "dram": run.dram_energy,
                 "core_dynamic": run.dynamic - run.dram_energy}
        return {k: v / base.energy for k, v in parts.items()}

    def division(self, app, design=data.UNIFIED):
        r = self.run(app, design)
        return None if r is None else r.division()

    # -- sensitivity (s7.2) -----------------------------------------------------------------

    def budgets(self, app):
        """The register budgets of the app's Fig 7.1 runs, "minimal" first."""
        found = {v.budget for v in self.sweep.variants.get(app, [])
                 if v.sensitivity and v.l1_kb == data.SENS_CACHE_KB and app in data.SENS_APPS}
        return sorted(found, key=data.budget_order)

    def registers(self, app):
        """Fig 7.1: {(budget, threads): performance over the spill-free count's at 1,024 threads}."""
        ref = self.sweep.sensitivity_run(app, "minimal", data.FULL_THREADS, data.SENS_CACHE_KB)
        out = {}
        for b in self.budgets(app):
            for t in data.SENS_THREADS:
                r = self.sweep.sensitivity_run(app, b, t, data.SENS_CACHE_KB)
                if r is not None and ref is not None:
                    out[(b, t)] = m.speedup(ref.cycles, r.cycles)
        return out

    def budget_registers(self, app, budget):
        """Registers per thread of the main launch at a budget (1,024 threads), or None."""
        r = self.sweep.sensitivity_run(app, budget, data.FULL_THREADS, data.SENS_CACHE_KB)
        d = None if r is None else r.division()
        return None if d is None else d["regs"]

    def blocking(self):
        """Fig 7.2: {blocking: Needle's performance over the largest blocking's}, and the shared
        KB per SM the largest one holds."""
        blockings = data.THREADS_PER_BLOCK[data.NEEDLE]
        runs = {t: self.sweep.sensitivity_run(data.NEEDLE, "minimal", data.FULL_THREADS, data.SENS_CACHE_KB, t)
                for t in blockings}
        ref = runs[blockings[-1]]
        if ref is None:
            return {}, None
        out = {t: m.speedup(ref.cycles, r.cycles) for t, r in runs.items() if r is not None}
        carveout = (ref.division() or {}).get("carveout") or {}
        shared = carveout.get("shared_bytes")
        return out, None if shared is None else shared / 1024

    def cache(self, app):
        """Fig 7.3: {(threads, L1 KB): performance over 512 KB at 1,024 threads}."""
        ref = self.sweep.sensitivity_run(app, "minimal", data.FULL_THREADS, data.REFERENCE_L1_KB)
        out = {}
        for t in data.CACHE_THREADS.get(app, [data.FULL_THREADS]):
            for k in data.SENS_L1_KB:
                r = self.sweep.sensitivity_run(app, "minimal", t, k)
                if r is not None and ref is not None:
                    out[(t, k)] = m.speedup(ref.cycles, r.cycles)
        return out

    # -- banks (s7.3, s7.6) -----------------------------------------------------------------

    def conflicts(self, app, design, mod=None):
        """Instructions with at least one bank conflict (an upper bound, unified_metrics), or None
        when the run is not in the sweep. A design without the shared banks (the partitioned ones)
        has no arbitration: its count is 0 when the statistic is absent; every other statistic is
        required (a ReportError names the one missing)."""
        r = self.run(app, design, mod)
        if r is None:
            return None
        if design.startswith("unified"):
            arbitration = r.required(data.ARBITRATION_ACCESSES)
        else:
            arbitration = r.value(data.ARBITRATION_ACCESSES, 0)
        return m.conflict_share(r.required(data.CONFLICTED_COLLECTORS), r.required(data.CONFLICTED_ACCESSES),
                                arbitration, r.required(data.WARP_INSTRUCTIONS))

    def arbitration_stalls(self, app):
        """(memory accesses that waited, cycles they waited) on unified-384, or None."""
        r = self.run(app, data.UNIFIED)
        if r is None:
            return None
        return r.required(data.ARBITRATION_ACCESSES), r.required(data.ARBITRATION_STALLS)

    def arbitration_loss(self, app):
        """Cycles of unified-384 over those without the arbitration, - 1."""
        run, without = self.run(app, data.UNIFIED), self.run(app, data.UNIFIED, "noarb")
        return None if run is None or without is None else m.loss(run.cycles, without.cycles)

    def no_l1(self, app, design):
        """True when the app's run on the design had no L1 (its division left none)."""
        r = self.run(app, design)
        return r is not None and r.l1_accesses == 0

    def hierarchy_perf(self, app):
        """Unified-384 over 256/64/64, both with the register-file hierarchy in front."""
        base, run = self.run(app, data.BASELINE, "orflrf"), self.run(app, data.UNIFIED, "orflrf")
        return None if base is None or run is None else m.speedup(base.cycles, run.cycles)

    def hierarchy_energy(self, app):
        base, run = self.run(app, data.BASELINE, "orflrf"), self.run(app, data.UNIFIED, "orflrf")
        return None if base is None or run is None else m.normalised(run.energy, base.energy)

    def shared_replays(self, app, design, mod=None):
        """Shared-memory conflict replays per access of the app's run, or None."""
        r = self.run(app, design, mod)
        return None if r is None else r.shared_replays

    def aggressive_gain(self, app):
        run, aggressive = self.run(app, data.UNIFIED), self.run(app, data.UNIFIED, "aggr")
        return None if run is None or aggressive is None else m.minus_one(m.speedup(run.cycles, aggressive.cycles))

    # -- over the applications --------------------------------------------------------------

    def over_apps(self, f):
        return mean(f(a) for a in self.apps)

    def values(self, f, apps=None):
        """{app: f(app)} of the apps where f gives a value."""
        out = {}
        for a in apps if apps is not None else self.apps:
            v = f(a)
            if v is not None:
                out[a] = v
        return out
