"""The Zorua study's metrics on the sweep (zorua_metrics.py on the runs of zorua_data.Sweep): per
application, per design, on one GPU generation (or across the three for porting), and their
averages over the applications, as the page's tables and headlines show them.

Every metric compares designs on the same specifications: those where every design the sweep
ran has a run (Sweep.common_specs), so a failed run leaves its specification out for all.
"""

import zorua_metrics as m
from summary_stats import mean


def schedulable(run):
    return run.schedulable_warps()


def energy(run):
    return run.energy


class Study:
    def __init__(self, sweep, config=None):
        self.sweep = sweep
        self.config = config or sweep.headline_config()
        self.designs = [d for d in sweep.designs if sweep.has(d)]
        self.apps = sweep.apps

    # -- one generation ---------------------------------------------------------------------

    def specs(self, app, config=None):
        return self.sweep.common_specs(app, config or self.config, self.designs)

    def perf(self, app, design, config=None):
        config = config or self.config
        return self.sweep.performance(app, config, design, self.specs(app, config))

    def values(self, app, design, f, config=None):
        config = config or self.config
        return self.sweep.values(app, config, design, self.specs(app, config), f)

    def range(self, app, design, config=None):
        if design not in self.designs:
            return None
        return m.performance_range(self.perf(app, design, config))

    def best_gain(self, app, design="zorua", config=None):
        if design not in self.designs or "base" not in self.designs:
            return None
        return m.best_gain(self.perf(app, "base", config), self.perf(app, design, config))

    def average_gain(self, app, design="zorua", config=None):
        if design not in self.designs or "base" not in self.designs:
            return None
        return m.average_change(self.perf(app, "base", config), self.perf(app, design, config))

    def change(self, app, design, f, config=None):
        """Mean over the specifications of f(design's run) / f(baseline's run) - 1."""
        if design not in self.designs or "base" not in self.designs:
            return None
        return m.average_change(self.values(app, "base", f, config), self.values(app, design, f, config))

    def energy_change(self, app, design="zorua", config=None):
        return self.change(app, design, energy, config)

    def warps_change(self, app, design, config=None):
        return self.change(app, design, schedulable, config)

    def mean_warps(self, app, design, config=None):
        return mean(self.values(app, design, schedulable, config).values())

    def register_hit_rate(self, app, config=None):
        """Zorua's register hit rate on the app: the mean over its specifications."""
        if "zorua" not in self.designs:
            return None
        return mean(self.values(app, "zorua", lambda r: r.register_hit_rate(), config).values())

    def zorua_total(self, app, path, config=None):
        """A Zorua counter added up over the app's specifications."""
        if "zorua" not in self.designs:
            return None
        values = self.values(app, "zorua", lambda r: r.zorua_count(*path), config).values()
        return sum(values) if values else None

    def swapping_runs(self, app=None, config=None):
        """(Zorua runs that moved anything to swap, Zorua runs) over the app (or every app)."""
        apps = [app] if app else self.apps
        moved = total = 0
        for a in apps:
            for run in self.values(a, "zorua", lambda r: r, config).values():
                total += 1
                if any(run.zorua_count(*p) for p in (("registers", "spills"), ("scratchpad", "spills"),
                                                      ("warp_slots", "saves"))):
                    moved += 1
        return moved, total

    # -- the three generations --------------------------------------------------------------

    def porting(self, app, design):
        """(loss, (source, target, spec)) over the generations the sweep ran (A.10)."""
        if design not in self.designs or len(self.sweep.configs) < 2:
            return None, None
        by_generation = {}
        for config in self.sweep.configs:
            by_generation[config] = self.sweep.performance(app, config, design, self.sweep.specs.get(app, []))
        return m.porting_loss(by_generation)

    # -- averages over the applications -----------------------------------------------------

    def over_apps(self, f):
        return mean(f(a) for a in self.apps)

    def largest(self, f, smallest=False):
        """(value, app) of the app with the largest f (smallest with smallest=True), or (None, None)."""
        values = [(f(a), a) for a in self.apps if f(a) is not None]
        if not values:
            return None, None
        pick = min if smallest else max
        return pick(values, key=lambda x: x[0])
