"""The register-file-hierarchy experiment's runs and the metrics of its results page
(rfh_page.py). A point is one workload in one configuration ("variant", spec.py) on physical
("minimal") or virtual ("off") registers; its totals over every launch are used.

Definitions (the thesis's where it gives one; README.md records the choices):
  operand reads / result writes   in 32-bit warp registers (a 64-bit register counts two), of
                                  every level together: what a single-level register file reads
                                  and writes.
  MRF reads avoided               1 - MRF operand reads / operand reads (a hardware RFC's
                                  write-back reads are RFC traffic, not MRF reads).
  MRF writes avoided              1 - (MRF result writes + write-backs into the MRF) / result writes.
  RF energy                       bank + wire of every level: the MRF's from its counters at the
                                  thesis's Table 4.5/4.6 energies (8 / 11 pJ per 128-bit read /
                                  write, 1.9 pJ per 32 bits per mm over 1 mm: the configuration's
                                  rf_array_read, rf_array_write, rf_crossbar_byte), the upper
                                  levels' from their energy components (the overlays' and spec.py's
                                  Table 4.5/4.6 prices). Operand-collector energy is left out.
  saving                          1 - RF energy / RF energy of "base" (same workload, registers).
Means over workloads weight every workload equally.
"""

import math

MRF_READ_PJ, MRF_WRITE_PJ, MRF_WIRE_PJ_PER_BYTE = 8.0, 11.0, 1.9 / 4
UPPER_COMPONENTS = ("rfc_bank", "rfc_wire", "orf_bank", "orf_wire", "lrf_bank", "lrf_wire")
LEVELS = ("mrf", "rfc", "orf", "lrf")


class Run:
    """One point's totals."""

    def __init__(self, stats):
        totals = stats.get("totals") or {}
        timing = totals.get("timing") or {}
        self.verified = bool(stats.get("verified", False))
        self.warp_instructions = totals.get("warp_instructions", 0)
        self.cycles = timing.get("cycles", 0)
        self.ipc = timing.get("ipc", 0.0)
        self.rf = ((timing.get("sm") or {}).get("register_file")) or {}
        self.h = self.rf.get("hierarchy") or {}
        self.components = {k: v.get("nj", 0.0) for k, v in
                           ((timing.get("energy") or {}).get("components") or {}).items()}
        self.compiler = {}
        for k in stats.get("kernels") or []:
            for name, found in ((k.get("timing") or {}).get("compiler") or {}).items():
                _add(self.compiler.setdefault(name, {}), found)

    def level(self, name, key):
        return (self.h.get(name) or {}).get(key, 0)

    def operand_reads(self):
        if not self.h:
            return self.rf.get("array_reads", 0) / 8
        return sum(self.level(l, "operand_reads") for l in LEVELS)

    def result_writes(self):
        return sum(self.level(l, "result_writes") for l in LEVELS)

    def mrf_reads(self):
        return self.level("mrf", "operand_reads") if self.h else self.operand_reads()

    def mrf_writes(self):
        return self.level("mrf", "result_writes") + self.level("mrf", "writeback_writes")

    def rf_energy_nj(self):
        mrf = (self.rf.get("array_reads", 0) * MRF_READ_PJ + self.rf.get("array_writes", 0) * MRF_WRITE_PJ
               + self.rf.get("crossbar_bytes", 0) * MRF_WIRE_PJ_PER_BYTE) / 1000
        return mrf + sum(self.components.get(c, 0.0) for c in UPPER_COMPONENTS)

    def rf_energy_parts(self):
        """{level: (bank nJ, wire nJ)}."""
        parts = {"mrf": ((self.rf.get("array_reads", 0) * MRF_READ_PJ
                          + self.rf.get("array_writes", 0) * MRF_WRITE_PJ) / 1000,
                         self.rf.get("crossbar_bytes", 0) * MRF_WIRE_PJ_PER_BYTE / 1000)}
        for l in ("rfc", "orf", "lrf"):
            parts[l] = (self.components.get(f"{l}_bank", 0.0), self.components.get(f"{l}_wire", 0.0))
        return parts


def _add(into, node):
    for key, value in node.items():
        if isinstance(value, dict):
            _add(into.setdefault(key, {}), value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            into[key] = into.get(key, 0) + value


def load(report):
    """{(variant, registers): {workload: Run}} and the points that did not verify."""
    runs, failures = {}, []
    for point in report.points:
        stats = report.stats(point)
        if stats is None:
            continue
        a = point.axes
        run = Run(stats)
        if not run.verified:
            failures.append(f"{a['workload']} {a['variant']} registers={a['registers']}")
        runs.setdefault((a["variant"], str(a["registers"])), {})[a["workload"]] = run
    return runs, failures


def mean(values):
    values = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return sum(values) / len(values) if values else None


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def ratio(a, b):
    return None if not b else a / b
