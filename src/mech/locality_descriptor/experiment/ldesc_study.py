"""The Locality Descriptor study's metrics on the sweep (ldesc_metrics.py on the runs of
ldesc_data.Sweep), per application, as the page's tables and headlines show them. Every
comparison is with the same application's Baseline run.
"""

import ldesc_data as data
import ldesc_metrics as m
from summary_stats import mean

# An application is scheduling-sensitive (L-M1) when some clustering strategy cuts its per-SM
# working set by at least this much (the thesis does not define the set; it names no threshold).
SENSITIVE_WS = 0.10


class Study:
    def __init__(self, sweep):
        self.sweep = sweep
        self.apps = sweep.apps
        self.motivation_apps = sweep.motivation_apps()
        self.config_apps = sweep.config_apps()
        self.numa_apps = sweep.numa_apps() if hasattr(sweep, "numa_apps") else []
        self.numa_config_apps = sweep.numa_config_apps() if hasattr(sweep, "numa_config_apps") else []

    def base(self, app):
        return self.sweep.run(app, data.BASELINE)

    # -- the selection filter (s2.6) ----------------------------------------------------------

    def filter_speedup(self, app):
        base, big = self.base(app), self.sweep.run(app, data.FILTER)
        return None if base is None or big is None else m.speedup(base.cycles, big.cycles)

    def in_cache_set(self, app):
        base, big = self.base(app), self.sweep.run(app, data.FILTER)
        return None if base is None or big is None else m.in_cache_set(base.cycles, big.cycles, data.FILTER_GAIN)

    def cache_set(self):
        return [a for a in self.apps if self.in_cache_set(a)]

    # -- the motivation study (s2.2) ----------------------------------------------------------

    def shape_runs(self, app):
        """[(shape, run)] of the 48 strategies whose run passed, in SHAPES's order."""
        out = []
        for s in data.SHAPES:
            r = self.sweep.shape_run(app, s)
            if r is not None:
                out.append((s, r))
        return out

    def _pick(self, app, key):
        """(shape, run) of the strategy with the smallest key(run) (the first on a tie), or None."""
        runs = [(s, r) for s, r in self.shape_runs(app) if key(r) is not None]
        return min(runs, key=lambda x: key(x[1])) if runs else None

    def smallest_ws(self, app):
        """(shape, run) of the strategy with the smallest per-SM working set."""
        return self._pick(app, lambda r: r.working_set)

    def fastest(self, app):
        """(shape, run) of the strategy with the fewest cycles (the best strategy)."""
        return self._pick(app, lambda r: r.cycles)

    def ws_reduction(self, app):
        base, pick = self.base(app), self.smallest_ws(app)
        return None if base is None or pick is None else m.reduction(base.working_set, pick[1].working_set)

    def sensitive(self, app):
        r = self.ws_reduction(app)
        return None if r is None else r >= SENSITIVE_WS

    def best_speedup(self, app):
        base, pick = self.base(app), self.fastest(app)
        return None if base is None or pick is None else m.speedup(base.cycles, pick[1].cycles)

    def smallest_ws_speedup(self, app):
        base, pick = self.base(app), self.smallest_ws(app)
        return None if base is None or pick is None else m.speedup(base.cycles, pick[1].cycles)

    def motivation_hit_change(self, app):
        base, pick = self.base(app), self.smallest_ws(app)
        return None if base is None or pick is None else m.change(base.hit_rate, pick[1].hit_rate)

    def motivation_inflight_change(self, app):
        base, pick = self.base(app), self.smallest_ws(app)
        return None if base is None or pick is None else m.change(base.inflight_rate, pick[1].inflight_rate)

    def ws_by_shape(self, app):
        """{shape: working set over the Baseline's} of the strategies run."""
        base = self.base(app)
        if base is None or not base.working_set:
            return {}
        return {s: r.working_set / base.working_set for s, r in self.shape_runs(app) if r.working_set is not None}

    # -- the six configurations (s2.6) --------------------------------------------------------

    def run(self, app, variant):
        return self.sweep.run(app, variant)

    def speedup(self, app, variant):
        base, r = self.base(app), self.run(app, variant)
        return None if base is None or r is None else m.speedup(base.cycles, r.cycles)

    def gain(self, app, variant):
        return m.gain(self.speedup(app, variant))

    def hit_change(self, app, variant):
        base, r = self.base(app), self.run(app, variant)
        return None if base is None or r is None else m.change(base.hit_rate, r.hit_rate)

    def inflight_change(self, app, variant):
        base, r = self.base(app), self.run(app, variant)
        return None if base is None or r is None else m.change(base.inflight_rate, r.inflight_rate)

    def ws_change(self, app, variant):
        """The working set's reduction under the variant (a fraction of the Baseline's)."""
        base, r = self.base(app), self.run(app, variant)
        return None if base is None or r is None else m.reduction(base.working_set, r.working_set)

    def clusters(self, app, variant=data.SCHED):
        """Per kernel (name and grid, in the order of first launch) under the variant: its launches,
        the first one's `timing.cta_scheduler` (cluster_dims, clusters, clusters_stolen,
        ctas_stolen) and the kernel's Baseline cycles over the variant's, summed over its launches
        (the launches of a run are the same in every configuration, so they pair by position)."""
        base, r = self.base(app), self.run(app, variant)
        if base is None or r is None or len(base.kernels) != len(r.kernels):
            return []
        out = {}
        for b, k in zip(base.kernels, r.kernels):
            key = (k.get("name"), tuple(k.get("grid") or []))
            entry = out.setdefault(key, {"name": key[0], "grid": key[1], "launches": 0, "base_cycles": 0,
                                         "cycles": 0, "scheduler": (k.get("timing") or {}).get("cta_scheduler")})
            entry["launches"] += 1
            entry["base_cycles"] += b.get("cycles") or 0
            entry["cycles"] += k.get("cycles") or 0
        for entry in out.values():
            entry["speedup"] = m.speedup(entry["base_cycles"], entry["cycles"])
        return list(out.values())

    # -- the NUMA study (s2.2 case study 2, s2.6) ------------------------------------------------

    def numa_base(self, app):
        return self.sweep.run(app, data.NUMA_BASELINE)

    def bandwidth_speedup(self, app):
        """The NUMA filter: the 2x-bandwidth run's speedup over the NUMA Baseline."""
        base, wide = self.numa_base(app), self.sweep.run(app, data.NUMA_FILTER)
        return None if base is None or wide is None else m.speedup(base.cycles, wide.cycles)

    def in_numa_set(self, app):
        base, wide = self.numa_base(app), self.sweep.run(app, data.NUMA_FILTER)
        return (None if base is None or wide is None
                else m.in_bandwidth_set(base.cycles, wide.cycles, data.BW_GAIN))

    def numa_set(self):
        return [a for a in self.apps if self.in_numa_set(a)]

    def numa_speedup(self, app, variant, over=data.NUMA_BASELINE):
        """The NUMA configuration's speedup over another one (the Baseline unless `over`)."""
        base, r = self.sweep.run(app, over), self.sweep.run(app, variant)
        return None if base is None or r is None else m.speedup(base.cycles, r.cycles)

    def numa_gain(self, app, variant, over=data.NUMA_BASELINE):
        return m.gain(self.numa_speedup(app, variant, over))

    def efficiency(self, app, variant):
        """The access efficiency of the app's run of `variant`: local / all requests."""
        r = self.sweep.run(app, variant)
        return None if r is None else r.access_efficiency()

    def shares(self, app, variant):
        r = self.sweep.run(app, variant)
        return None if r is None else r.zone_shares()

    def largest_share(self, app, variant):
        return m.largest_share(self.shares(app, variant))

    def skew(self, app, variant):
        return m.skew(self.shares(app, variant))

    def l2_hit_rate(self, app, variant):
        r = self.sweep.run(app, variant)
        return None if r is None else r.l2_hit_rate

    def link_bytes(self, app, variant):
        r = self.sweep.run(app, variant)
        return None if r is None else r.link_bytes

    # -- over applications ---------------------------------------------------------------------

    @staticmethod
    def over(f, apps):
        return mean(f(a) for a in apps)

    def values(self, f, apps):
        """{app: f(app)} of the apps where f gives a value."""
        out = {}
        for a in apps:
            v = f(a)
            if v is not None:
                out[a] = v
        return out
