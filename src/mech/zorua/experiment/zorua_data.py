"""The Zorua experiment's definitions (spec.py writes the sweep with them, zorua_page.py reads it):
the designs, the GPU generations, how a variant names a design at a resource specification, and
what the page takes from each run's statistics.

A specification is (threads per block, shared bytes per block or None, register budget); a
budget is the text of `compiler.registers` ("minimal", or a number as a string). Performance of
a run is 1 / its total cycles (the sum over its kernel launches, `totals.cycles`): every
specification of an application does the same work, so cycles compare directly.
"""

import re

from run_stats import ratio  # noqa: F401 (scripts/report; the page and plots use data.ratio)
from summary_stats import mean

DESIGNS = ["base", "wlm", "zorua"]
LABELS = {"base": "Baseline", "wlm": "WLM", "zorua": "Zorua"}
# The study's three generations (digest A.9) and the configurations that stand for them.
GENERATIONS = {"gtx480": "Fermi", "k40": "Kepler", "gtx980": "Maxwell"}
HEADLINE_CONFIG = "gtx480"  # the thesis's system "closely models" the GTX 480 (digest A.9)
BUDGET_KEY = "compiler.registers"
BUDGET_AXIS = f"set:{BUDGET_KEY}"

_VARIANT = re.compile(r"^([a-z]+)-t(\d+)(?:-s(\d+))?$")


def variant_name(design, threads, shared):
    return f"{design}-t{threads}" + ("" if shared is None else f"-s{shared}")


def parse_variant(name):
    """(design, threads, shared or None), or None for a name of another form."""
    m = _VARIANT.match(name)
    if not m:
        return None
    return m.group(1), int(m.group(2)), None if m.group(3) is None else int(m.group(3))


def budget_order(budget):
    """"minimal" first, then numbers from the largest down (fewer registers, more spills)."""
    return (0, 0) if budget == "minimal" else (1, -int(budget))


def spec_order(spec):
    threads, shared, budget = spec
    return (budget_order(budget), shared or 0, threads)


def spec_label(spec):
    """'256' / '256/9216' / '256/9216/r24': threads, shared bytes, register budget if not minimal."""
    threads, shared, budget = spec
    text = str(threads) + ("" if shared is None else f"/{shared}")
    return text if budget == "minimal" else f"{text}/r{budget}"


class Run:
    """What the page takes from one run's statistics."""

    def __init__(self, stats):
        totals = stats.get("totals", {})
        timing = totals.get("timing", {})
        self.cycles = totals.get("cycles")
        self.energy = timing.get("energy", {}).get("total_nj")
        sm = timing.get("sm", {})
        self.active_cycles = sm.get("active_cycles")
        self.resident_warp_cycles = sm.get("resident_warp_cycles")
        zorua = timing.get("resources", {}).get("zorua")
        self.zorua = zorua  # None for the other designs
        self.sms = stats.get("config", {}).get("sms")
        self.warp_instructions = totals.get("warp_instructions")
        self.barriers = totals.get("instruction_mix", {}).get("barrier", 0)
        self.kernels = stats.get("kernels", [])
        self.version = stats.get("warpsim_version")

    @property
    def performance(self):
        return None if not self.cycles else 1.0 / self.cycles

    def schedulable_warps(self):
        """Warps the schedulers could pick, averaged over the SMs' active cycles. Zorua: its
        coordinator's schedulable warps (those at a barrier or waiting in its queues excluded).
        The others: the resident warps (the statistics do not single out those at a barrier)."""
        if self.zorua is not None:
            return ratio(self.zorua.get("schedulable_warp_cycles"), self.zorua.get("cycles"))
        return ratio(self.resident_warp_cycles, self.active_cycles)

    def register_counts(self):
        """(accesses, off-chip accesses) of Zorua's virtual registers, or None."""
        if self.zorua is None:
            return None
        r = self.zorua.get("registers", {})
        return r.get("accesses"), r.get("off_chip_accesses")

    def register_hit_rate(self):
        counts = self.register_counts()
        if counts is None or not counts[0]:
            return None
        return 1.0 - counts[1] / counts[0]

    def zorua_count(self, *path):
        x = self.zorua
        for p in path:
            if not isinstance(x, dict):
                return None
            x = x.get(p)
        return x

    def registers_per_thread(self):
        """The largest registers per thread over the kernels."""
        return max((k.get("regs_per_thread", 0) for k in self.kernels), default=None)

    def spill_loads(self):
        return sum(k.get("register_allocation", {}).get("dynamic_spill_loads", 0) for k in self.kernels)

    def waves(self):
        """The main kernel (most cycles over its launches): its largest launch's CTAs over the
        CTAs the GPU holds at once (resident CTAs per SM x SMs), or None."""
        cycles = {}
        for k in self.kernels:
            cycles[k.get("name")] = cycles.get(k.get("name"), 0) + (k.get("cycles") or 0)
        if not cycles or not self.sms:
            return None
        main = max(cycles, key=lambda n: (cycles[n], n))
        best = None
        for k in self.kernels:
            if k.get("name") != main:
                continue
            grid = k.get("grid") or [1]
            ctas = 1
            for g in grid:
                ctas *= g
            per_sm = k.get("timing", {}).get("occupancy", {}).get("ctas_per_sm")
            if per_sm:
                w = ctas / (per_sm * self.sms)
                best = w if best is None else max(best, w)
        return best


class Sweep:
    """The sweep's passed runs, by (application, configuration, design, specification)."""

    def __init__(self, report):
        self.report = report
        self.runs = {}
        self.apps, self.configs, self.designs = [], [], []
        self.specs = {}  # app -> [spec] in spec_order
        self.sizes = {}  # app -> its size
        for p in report.points:
            parsed = parse_variant(str(p.axes.get("variant", "")))
            if parsed is None:
                continue
            design, threads, shared = parsed
            app, config = p.axes.get("workload"), p.axes.get("config")
            # A budget the spec wrote as a TOML string ("24") is kept with its quotes in the axis.
            budget = str(p.axes.get(BUDGET_AXIS, "minimal")).strip('"')
            spec = (threads, shared, budget)
            for seq, x in ((self.apps, app), (self.configs, config), (self.designs, design)):
                if x not in seq:
                    seq.append(x)
            if spec not in self.specs.setdefault(app, []):
                self.specs[app].append(spec)
            self.sizes.setdefault(app, str(p.axes.get("size")))
            if p.status != "pass":
                continue
            stats = report.stats(p)
            if stats:
                self.runs[(app, config, design, spec)] = Run(stats)
        self.designs.sort(key=DESIGNS.index if all(d in DESIGNS for d in self.designs) else str)
        self.configs.sort(key=lambda c: list(GENERATIONS).index(c) if c in GENERATIONS else len(GENERATIONS))
        for app in self.specs:
            self.specs[app].sort(key=spec_order)

    @property
    def size(self):
        """The sizes as words: the most common one, then the applications at another ("small;
        barnes-hut at 1024")."""
        if not self.sizes:
            return None
        values = list(self.sizes.values())
        common = max(values, key=lambda z: (values.count(z), -values.index(z)))
        others = [f"{a} at {z}" for a, z in self.sizes.items() if z != common]
        return "; ".join([common] + others)

    def sms(self):
        """The SMs of the runs, as words ("1", "1 and 15")."""
        counts = sorted({r.sms for r in self.runs.values() if r.sms})
        return " and ".join(str(c) for c in counts) if counts else None

    def run(self, app, config, design, spec):
        return self.runs.get((app, config, design, spec))

    def has(self, design):
        return design in self.designs and any(k[2] == design for k in self.runs)

    def headline_config(self):
        return HEADLINE_CONFIG if HEADLINE_CONFIG in self.configs else (self.configs[0] if self.configs else None)

    def common_specs(self, app, config, designs):
        """The app's specifications where every one of `designs` has a run on `config`."""
        return [s for s in self.specs.get(app, [])
                if all(self.run(app, config, d, s) is not None for d in designs)]

    def performance(self, app, config, design, specs):
        """{spec: performance} of one design."""
        out = {}
        for s in specs:
            r = self.run(app, config, design, s)
            if r is not None and r.performance is not None:
                out[s] = r.performance
        return out

    def values(self, app, config, design, specs, f):
        """{spec: f(run)} where f gives a value."""
        out = {}
        for s in specs:
            r = self.run(app, config, design, s)
            v = None if r is None else f(r)
            if v is not None:
                out[s] = v
        return out

    def mean_over_apps(self, f):
        """The mean over the applications of f(app) (None values left out)."""
        return mean(f(a) for a in self.apps)
