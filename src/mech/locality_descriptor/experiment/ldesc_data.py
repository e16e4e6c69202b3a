"""The Locality Descriptor experiment's definitions (spec.py writes the sweep with them, ldesc_page.py
reads it): the applications, the configurations, how a variant names a run, and what the page
takes from each run's statistics.

The single-chip (reuse-locality) study runs on gtx480 with the overlay ldesc-chip (the study's
single-chip GPU, Table 3) and `l1.count_footprint = true` (the per-SM working set). Its variants:
  base                     Baseline: round-robin CTA scheduling, LRU allocate-on-miss L1
  l1x4                     the selection filter's 4x L1 (`l1.size` four times ldesc-chip's)
  bcs, ldesc-sched, ldesc-pref, ldesc-cache, ldesc
                           the study's single-chip configurations (s2.6), the overlay of that name
  fixed-XxYxZ              the motivation study (s2.2): clusters of X x Y x Z CTAs on one SM
                           (`cta_scheduler.clusters = "fixed"`), clipped to each launch's grid
The NUMA study runs on mcm-4gpm (4 modules of 16 SMs; xor zone placement) with no overlay for its
Baseline. Its variants (names apart from the single-chip ones, so that (workload, variant) still
names one point):
  numa-base                Baseline: XOR-hashed zone placement, round-robin CTA scheduling
  numa-bw2x                the NUMA selection filter's 2x memory bandwidth (`dram.channels` twice
                           mcm-4gpm's: 16 channels per module of the same DRAM timing)
  numa-first-touch, ldesc-placement, ldesc-numa
                           FirstTouch-Distrib, LDesc-Placement and LDesc (s2.6), the overlay of
                           that name
Each workload runs at one size per study, so (workload, variant) names a point. Performance is
1 / the run's total cycles (all its launches): the variants of a workload in one study do the
same work.
"""

import re

from run_stats import ratio, value_at  # scripts/report
from sweep_report import ReportError

CONFIG = "gtx480"
CHIP = "ldesc-chip"
FOOTPRINT = "l1.count_footprint=true"
L1_BYTES = 32768            # ldesc-chip's L1 (Table 3)
FILTER_FACTOR = 4           # s2.6: a 4x larger L1 ...
FILTER_GAIN = 0.10          # ... gives more than 10%: the application is cache-sensitive

# Table 4's applications the suite has, in the table's order: (workload, abbreviation).
APPS = [("syrk", "SK"), ("doitgen", "DT"), ("dwt2d", "D2D"), ("conv2d", "C2D"), ("spmv", "SPMV"),
        ("libor", "LIB"), ("lavamd", "LMD"), ("histogram", "HS"), ("atax", "ATX"), ("mvt", "MVT"),
        ("particlefilter", "PF"), ("streamcluster", "SC"), ("transpose", "TRA"), ("scalar-prod", "SP"),
        ("laplace3d", "LPS"), ("pathfinder", "PT")]
APP_NAMES = [a for a, _ in APPS]
# Table 4's applications the suite does not have yet: (workload, abbreviation, suite, types).
MISSING = []
# The reuse-locality study's applications (the digest's [interp] of the Fig. 20 set) in the
# order the digest names them, and its INTER-THREAD ones (L-R3).
FIG20 = ["syrk", "doitgen", "histogram", "dwt2d", "conv2d", "libor", "lavamd", "spmv"]
INTER_THREAD = ["syrk", "doitgen", "histogram", "dwt2d", "conv2d"]
# L-R4's groups.
LITTLE_INTER_CTA = ["libor", "lavamd", "spmv"]      # no gain from scheduling; prefetch hurts
CACHE_HELPS = ["libor", "lavamd"]                   # pinning and bypass help
CACHE_CAN_HURT = ["dwt2d", "histogram"]             # ... but can hurt these

# The grid dimensions each application's launches use (every launch's grid is 1 along the
# others, at any size: a property of the kernels, checked against every run's statistics by the
# page). The motivation study's cluster shapes differ only along these: a shape's extent along
# an unused dimension is clipped to 1, so only the distinct shapes are run.
GRID_DIMS = {"syrk": "xy", "doitgen": "xy", "dwt2d": "xy", "conv2d": "xy", "transpose": "xy", "laplace3d": "xy"}

BASELINE = "base"
FILTER = "l1x4"
# The six single-chip configurations (s2.6): (variant, name on the page, overlay after ldesc-chip).
CONFIGS = [("base", "Baseline", None), ("bcs", "BCS", "bcs"), ("ldesc-sched", "LDesc-Sched", "ldesc-sched"),
           ("ldesc-pref", "LDesc-Pref", "ldesc-pref"), ("ldesc-cache", "LDesc-Cache", "ldesc-cache"),
           ("ldesc", "LDesc", "ldesc")]
CONFIG_NAMES = {v: n for v, n, _ in CONFIGS}
TECHNIQUES = ["bcs", "ldesc-sched", "ldesc-pref", "ldesc-cache"]  # LDesc is compared with each
LDESC = "ldesc"
SCHED = "ldesc-sched"

# The motivation study's 48 strategies (the thesis does not list its 48): X x Y x Z CTAs.
SHAPE_X = [1, 2, 4, 8]
SHAPE_Y = [1, 2, 4, 8]
SHAPE_Z = [1, 2, 4]
SHAPES = [(x, y, z) for z in SHAPE_Z for y in SHAPE_Y for x in SHAPE_X]

# The NUMA study (s2.2 case study 2, s2.4.4, s2.6): the 4-module GPU, its selection filter and
# its four configurations.
NUMA_CONFIG = "mcm-4gpm"
ZONES = 4                   # mcm-4gpm's modules (NUMA zones)
CHANNELS = 32               # mcm-4gpm's memory channels (Table 3)
BW_FACTOR = 2               # s2.6: 2x memory bandwidth ...
BW_GAIN = 0.40              # ... gives more than 40%: the application is memory-bandwidth-sensitive
NUMA_BASELINE = "numa-base"
NUMA_FILTER = "numa-bw2x"
# (variant, name on the page, overlay on mcm-4gpm).
NUMA_CONFIGS = [("numa-base", "Baseline", None), ("numa-first-touch", "FirstTouch-Distrib", "numa-first-touch"),
                ("ldesc-placement", "LDesc-Placement", "ldesc-placement"), ("ldesc-numa", "LDesc", "ldesc-numa")]
NUMA_NAMES = {v: n for v, n, _ in NUMA_CONFIGS}
FIRST_TOUCH = "numa-first-touch"
PLACEMENT = "ldesc-placement"
LDESC_NUMA = "ldesc-numa"
# The applications the NUMA discussion names (s2.6; whether PF, SC and TRA are in Figs. 21-23 is
# not stated), in the order the digest names them: the four configurations run on these.
NUMA_SET = ["scalar-prod", "pathfinder", "atax", "mvt", "libor", "doitgen", "histogram", "syrk", "spmv",
            "laplace3d", "lavamd"]
# L-N3's and L-N4's groups.
FT_BEST = ["scalar-prod", "pathfinder"]              # FirstTouch-Distrib's efficiency the best
FT_SKEWED = ["atax", "mvt", "libor"]                 # FirstTouch-Distrib heavily skewed
FT_LOW = ["doitgen", "histogram", "syrk", "spmv"]    # FirstTouch-Distrib's efficiency low
LDESC_WEAK = ["spmv", "laplace3d", "pathfinder", "lavamd", "histogram"]  # LDesc less effective

_SHAPE = re.compile(r"^fixed-(\d+)x(\d+)x(\d+)$")


def abbreviation(app):
    return dict(APPS).get(app, app)


def shape_name(shape):
    return "fixed-{}x{}x{}".format(*shape)


def parse_shape(variant):
    """(x, y, z) of a fixed-XxYxZ variant, else None."""
    m = _SHAPE.match(variant)
    return None if m is None else tuple(int(g) for g in m.groups())


def run_shape(app, shape):
    """The shape that is run for `shape` on the app: its extents along the dimensions the app's
    grids do not use set to 1 (the scheduler would clip them to 1 anyway)."""
    dims = GRID_DIMS.get(app, "x")
    return tuple(n if d in dims else 1 for n, d in zip(shape, "xyz"))


def app_shapes(app):
    """The distinct shapes run for the app, in SHAPES's order."""
    out = []
    for s in SHAPES:
        r = run_shape(app, s)
        if r not in out:
            out.append(r)
    return out


def shape_sets(shape):
    x, y, z = shape
    return ['cta_scheduler.impl="clusters"', 'cta_scheduler.clusters="fixed"', f"cta_scheduler.cluster_x={x}",
            f"cta_scheduler.cluster_y={y}", f"cta_scheduler.cluster_z={z}"]


class Run:
    """What the page takes from one run's statistics; `where` names the point in messages."""

    def __init__(self, stats, where):
        self.stats, self.where = stats, where
        totals = stats.get("totals", {})
        timing = totals.get("timing", {})
        memory = timing.get("memory", {})
        l1 = memory.get("l1d", {})
        self.cycles = totals.get("cycles")
        self.l1 = l1
        self.accesses = l1.get("accesses")
        # L1 hit rate: hits / accesses; in-flight hit rate: accesses that found their line already
        # requested by another access (merged into its MSHR entry) / accesses.
        self.hit_rate = ratio(l1.get("hits"), self.accesses)
        self.inflight_rate = ratio(l1.get("mshr_merges"), self.accesses)
        l2 = memory.get("l2", {})
        self.l2_hit_rate = (None if l2.get("accesses") is None or l2.get("misses") is None
                            else ratio(l2["accesses"] - l2["misses"], l2["accesses"]))
        footprint = memory.get("l1d_footprint") or {}
        # The per-SM working set: distinct lines each SM's L1 saw per launch, averaged over the
        # (launch, SM) pairs that saw any (totals add both over the launches).
        self.working_set = ratio(footprint.get("lines"), footprint.get("sms"))
        self.kernels = stats.get("kernels", [])
        self.version = stats.get("warpsim_version")
        self.config = stats.get("config", {})
        # The NUMA counters (mcm-4gpm runs), summed over the run's launches.
        numa = memory.get("numa")
        if not isinstance(numa, dict):
            numa = self._summed_numa()
        self.numa = numa
        self.local_requests = numa.get("local_requests") if numa else None
        self.remote_requests = numa.get("remote_requests") if numa else None
        self.zone_requests = numa.get("zone_requests") if numa else None
        link = [numa.get(k) for k in ("link_request_bytes", "link_reply_bytes")] if numa else [None]
        self.link_bytes = None if None in link else sum(link)

    def _summed_numa(self):
        """`memory.numa`'s counters summed over the launches (numbers, and lists per zone
        element by element), for statistics whose totals lack them; None when no launch has them."""
        out = None
        for k in self.kernels:
            numa = value_at(k, "timing.memory.numa")
            if not isinstance(numa, dict):
                continue
            out = {} if out is None else out
            for key, x in numa.items():
                if isinstance(x, bool) or not isinstance(x, (int, float, list)):
                    continue
                if isinstance(x, list):
                    have = out.get(key) or [0] * len(x)
                    out[key] = [a + b for a, b in zip(have, x)] if len(have) == len(x) else have
                else:
                    out[key] = out.get(key, 0) + x
        return out

    def access_efficiency(self):
        """Requests to the SM's own zone over all requests that left the SMs (the study's access
        efficiency), None without the NUMA counters."""
        if self.local_requests is None or self.remote_requests is None:
            return None
        return ratio(self.local_requests, self.local_requests + self.remote_requests)

    def zone_shares(self):
        """Each zone's share of the requests, in zone order, None without the counters."""
        zones = self.zone_requests
        if not isinstance(zones, list) or not zones or not sum(zones):
            return None
        return [z / sum(zones) for z in zones]

    def placement_ranges(self):
        """The first launch's zone bits of the descriptors placement
        (`timing.memory.numa.placement.ranges`: base, bytes, bit each), and its predicted local
        fraction; (None, None) when no launch had the placement."""
        for k in self.kernels:
            placement = value_at(k, "timing.memory.numa.placement")
            if isinstance(placement, dict):
                return placement.get("ranges") or [], placement.get("predicted_local_fraction")
        return None, None

    def counter(self, name):
        """A counter of `memory.l1d` (prefetches, prefetch_hits, pinned_evictions, ...), 0 when the
        run's L1 did not report it."""
        return self.l1.get(name, 0)

    def policy_count(self, field):
        """A per-descriptor counter of the descriptors policy (`bypassed`: accesses sent around the
        L1; `hard_pins`, `soft_pins`: pinned insertions), summed over every launch and descriptor
        (`memory.l1d_policy.descriptors[*].FIELD`); None when no launch had the policy."""
        total, found = 0, False
        for k in self.kernels:
            policy = value_at(k, "timing.memory.l1d_policy")
            if not isinstance(policy, dict):
                continue
            found = True
            total += sum(d.get(field, 0) for d in policy.get("descriptors", []))
        return total if found else None

    def bypassed(self):
        return self.policy_count("bypassed")

    def grid_dims_used(self):
        """The dimensions ('x', 'y', 'z') along which some launch's grid has more than one CTA."""
        used = set()
        for k in self.kernels:
            for n, d in zip(k.get("grid") or [1, 1, 1], "xyz"):
                if n > 1:
                    used.add(d)
        return used

    def max_ctas(self):
        """The most CTAs of one launch."""
        best = 0
        for k in self.kernels:
            n = 1
            for g in k.get("grid") or [1]:
                n *= g
            best = max(best, n)
        return best or None


class Sweep:
    """The sweep's points by (workload, variant name): the passed runs and those that did not
    pass."""

    def __init__(self, report):
        self.runs = {}
        self.failed = []
        self.apps, self.variants, self.sizes = [], {}, {}
        self.numa_sizes, self.configs = {}, {}
        for p in report.points:
            app, variant = p.axes.get("workload"), str(p.axes.get("variant", ""))
            if app not in self.apps:
                self.apps.append(app)
            self.variants.setdefault(app, []).append(variant)
            config = p.axes.get("config", CONFIG)
            sizes = self.numa_sizes if config == NUMA_CONFIG else self.sizes
            sizes.setdefault(app, str(p.axes.get("size")))
            self.configs[(app, variant)] = config
            if p.status == "pass":
                stats = report.stats(p)
                if stats:
                    self.runs[(app, variant)] = Run(stats, f"{app} {variant} (point {p.id})")
            else:
                self.failed.append(p)
        self.apps.sort(key=lambda a: APP_NAMES.index(a) if a in APP_NAMES else len(APP_NAMES))
        self._check_grid_dims()

    def _check_grid_dims(self):
        """The shapes run rely on GRID_DIMS: a launch whose grid spans another dimension makes the
        motivation study's shapes wrong, so the page stops, naming it."""
        for (app, variant), r in self.runs.items():
            extra = r.grid_dims_used() - set(GRID_DIMS.get(app, "x"))
            if extra:
                raise ReportError(f"{r.where}: a launch's grid spans {''.join(sorted(extra))}, which "
                                  f"ldesc_data.GRID_DIMS does not list for {app}")

    def run(self, app, variant):
        return self.runs.get((app, variant))

    def has(self, app, variant):
        return variant in self.variants.get(app, [])

    def shape_run(self, app, shape):
        """The app's run of a motivation strategy (the shape it is run as), or None."""
        return self.run(app, shape_name(run_shape(app, shape)))

    def motivation_apps(self):
        return [a for a in self.apps if any(parse_shape(v) for v in self.variants.get(a, []))]

    def config_apps(self):
        """The applications with runs of the single-chip configurations beyond the baseline."""
        return [a for a in self.apps if any(self.has(a, v) for v in TECHNIQUES + [LDESC])]

    def numa_apps(self):
        """The applications with NUMA runs (the filter or a configuration), in APPS's order."""
        return [a for a in self.apps if a in self.numa_sizes]

    def numa_config_apps(self):
        """The applications with runs of the NUMA configurations beyond the baseline."""
        return [a for a in self.apps if any(self.has(a, v) for v, _, o in NUMA_CONFIGS if o)]

    def chip_runs(self):
        """The runs of the single-chip study (on CONFIG)."""
        return [r for key, r in self.runs.items() if self.configs.get(key, CONFIG) == CONFIG]

    def numa_runs(self):
        """The runs of the NUMA study (on NUMA_CONFIG)."""
        return [r for key, r in self.runs.items() if self.configs.get(key) == NUMA_CONFIG]

    @property
    def size(self):
        return ", ".join(f"{a} {self.sizes[a]}" for a in self.apps if a in self.sizes) or None

    @property
    def numa_size(self):
        return ", ".join(f"{a} {self.numa_sizes[a]}" for a in self.apps if a in self.numa_sizes) or None

    def version(self):
        return next((r.version for r in self.runs.values() if r.version), None)
