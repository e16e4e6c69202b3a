"""The G-Scalar experiment's metrics: per workload from its runs in every configuration, and the
suite averages. A metric is a float, or None when a run it needs is missing or a denominator is 0.

Definitions (counters are sums over a run's kernels, see gscalar_stats.py):
  warp IPC           sm.warp_instructions / cycles
  average power (W)  energy.total_nj / simulated_ns
  IPC/W              warp IPC / average power
  RF dynamic energy  register_file + rf_crossbar + rf_metadata + scalar_rf components (nJ); the
                     compressors and decompressors (rf_codec) are counted apart
  scalar fraction    scalar-executed instructions (all categories) / instructions.total
  compression ratio  uncompressed_bytes / (array_bytes + base_bytes) [+ metadata_bytes]
  achieved occupancy sm.resident_warp_cycles / occupancy.warp_slot_cycles (baseline run): the
                     resident warps' share of the warp slots of the SMs' active cycles
"""

import math

RF = "sm.register_file"
SCALAR_CATEGORIES = ("full_alu", "full_sfu", "full_mem", "half", "divergent")
READ_KINDS = ("scalar", "bytes3", "bytes2", "bytes1", "bytes0", "divergent")
VALUE_KINDS = ("uniform", "affine", "msb3", "msb2", "msb1", "random")
RF_COMPONENTS = ("register_file", "rf_crossbar", "rf_metadata", "scalar_rf")
EXE_COMPONENTS = ("alu", "sfu", "fp64", "lsu")
# GPUWattch's shares of GPU chip power that the paper quotes (digest s4.1): register file ~16%,
# execution units ~24%. IPC/W "with the paper's shares" applies our measured RF and execution
# power ratios to those shares instead of our energy model's.
PAPER_RF_SHARE, PAPER_EXE_SHARE = 0.16, 0.24
BASELINE = "baseline"
STEPS = ("alu-scalar", "gs-alu", "gs-all", "gs-half", "gscalar")
COMPRESSED = ("gscalar", "bdi")
# (metric, config it grows from, config it reaches): what each G-Scalar step adds.
STEP_INCREMENTS = (("step.sfu_mem", "gs-alu", "gs-all"), ("step.half", "gs-all", "gs-half"),
                   ("step.divergent", "gs-half", "gscalar"))
# Normalised IPC/W is averaged geometrically, everything else arithmetically.
GEOMETRIC = ("ipcw.", "ipcw_gscalar_vs_alu")
PAPER_SHARES_VS_ALU = "ipcw.paper_shares.gscalar_vs_alu"


def ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def difference(a, b):
    return None if a is None or b is None else a - b


def plus(a, b):
    return None if a is None or b is None else a + b


def instructions(run):
    """Dynamic warp instructions the register file saw; the core's count when it has none."""
    return run.get(f"{RF}.instructions.total") or run.get("sm.warp_instructions")


def scalar_fraction(run, group, categories=SCALAR_CATEGORIES):
    return ratio(run.total(f"{RF}.{group}", categories), instructions(run))


def rf_energy(run, with_codec=False):
    names = RF_COMPONENTS + (("rf_codec",) if with_codec else ())
    return sum(run.get(f"energy.components.{name}.nj") for name in names)


def exe_energy(run):
    return sum(run.get(f"energy.components.{name}.nj") for name in EXE_COMPONENTS)


def power_ratio(run, base, energy):
    return ratio(ratio(energy(run), run.get("simulated_ns")), ratio(energy(base), base.get("simulated_ns")))


def ipcw_with_paper_shares(ipc_ratio, rf_power, exe_power):
    """IPC/W relative to the baseline if the RF and the execution units were PAPER_*_SHARE of the
    baseline's power and the rest of the power did not change."""
    if ipc_ratio is None or rf_power is None or exe_power is None:
        return None
    return ipc_ratio / (1 - PAPER_RF_SHARE * (1 - rf_power) - PAPER_EXE_SHARE * (1 - exe_power))


def ipc(run):
    return ratio(run.get("sm.warp_instructions"), run.get("cycles"))


def ipc_per_watt(run):
    return ratio(ipc(run), ratio(run.get("energy.total_nj"), run.get("simulated_ns")))


def compression_ratio(run, with_metadata):
    parts = ("array_bytes", "base_bytes") + (("metadata_bytes",) if with_metadata else ())
    return ratio(run.get(f"{RF}.compression.uncompressed_bytes"),
                 run.total(f"{RF}.compression", parts))


def shares(run, prefix, names):
    """{name: run[prefix.name] / sum over names}."""
    whole = run.total(prefix, names)
    return {name: ratio(run.get(f"{prefix}.{name}"), whole) for name in names}


def workload_metrics(runs):
    """Metrics of one workload from {config: Run or None}."""
    def of(config, function):
        run = runs.get(config)
        return None if run is None else function(run)

    m = {"instructions": of(BASELINE, lambda r: r.get("sm.warp_instructions"))
         or of("gscalar", instructions)}
    m["divergent_share"] = of("gscalar", lambda r: ratio(r.get(f"{RF}.instructions.divergent"),
                                                        instructions(r)))
    for config in STEPS:
        m[f"eligible.{config}"] = of(config, lambda r: scalar_fraction(r, "scalar_executed"))
    for group in ("oracle", "detected"):
        m[f"eligible.{group}"] = of("gscalar", lambda r: scalar_fraction(r, f"scalar_{group}"))
    for category in SCALAR_CATEGORIES:
        for group in ("executed", "oracle", "detected"):
            m[f"{group}.{category}"] = of(
                "gscalar", lambda r: scalar_fraction(r, f"scalar_{group}", (category,)))
    for group in ("executed", "oracle"):
        m[f"{group}.sfu_mem"] = plus(m[f"{group}.full_sfu"], m[f"{group}.full_mem"])
    for name, start, end in STEP_INCREMENTS:
        m[name] = difference(m[f"eligible.{end}"], m[f"eligible.{start}"])
    for group in ("executed", "oracle", "detected"):
        m[f"divergent_scalar.{group}"] = of("gscalar", lambda r: ratio(
            r.get(f"{RF}.scalar_{group}.divergent"), r.get(f"{RF}.instructions.divergent")))

    for config in COMPRESSED:
        m[f"ratio.{config}"] = of(config, lambda r: compression_ratio(r, False))
        m[f"ratio_metadata.{config}"] = of(config, lambda r: compression_ratio(r, True))

    base = runs.get(BASELINE)
    for config, run in runs.items():
        if config == BASELINE:
            continue
        present = run is not None and base is not None
        m[f"rf_energy.{config}"] = ratio(rf_energy(run), rf_energy(base)) if present else None
        m[f"rf_power.{config}"] = ratio(
            ratio(rf_energy(run), run.get("simulated_ns")),
            ratio(rf_energy(base), base.get("simulated_ns"))) if present else None
        m[f"rf_power_codec.{config}"] = ratio(
            ratio(rf_energy(run, True), run.get("simulated_ns")),
            ratio(rf_energy(base, True), base.get("simulated_ns"))) if present else None
        m[f"ipc.{config}"] = ratio(ipc(run), ipc(base)) if present else None
        m[f"ipcw.{config}"] = ratio(ipc_per_watt(run), ipc_per_watt(base)) if present else None
        m[f"exe_power.{config}"] = power_ratio(run, base, exe_energy) if present else None
        m[f"ipcw.paper_shares.{config}"] = ipcw_with_paper_shares(
            m[f"ipc.{config}"], m[f"rf_power_codec.{config}"], m[f"exe_power.{config}"])
    m["ipcw_gscalar_vs_alu"] = ratio(of("gscalar", ipc_per_watt), of("alu-scalar", ipc_per_watt))
    m[PAPER_SHARES_VS_ALU] = ratio(m.get("ipcw.paper_shares.gscalar"),
                                   m.get("ipcw.paper_shares.alu-scalar"))
    m["special_moves"] = of("gscalar", lambda r: ratio(r.get(f"{RF}.special_moves"),
                                                      instructions(r)))
    m["sfu_share"] = of("gscalar", lambda r: ratio(r.get(f"{RF}.instructions.sfu"),
                                                  instructions(r)))

    for kind, share in (of("gscalar", lambda r: shares(r, f"{RF}.operand_reads", READ_KINDS))
                        or {}).items():
        m[f"reads.{kind}"] = share
    if base is not None:
        m["baseline.ipc"] = ipc(base)
        m["baseline.power_w"] = ratio(base.get("energy.total_nj"), base.get("simulated_ns"))
        m["baseline.rf_dynamic_share"] = ratio(rf_energy(base), base.get("energy.dynamic_nj"))
        m["baseline.rf_total_share"] = ratio(rf_energy(base), base.get("energy.total_nj"))
        m["baseline.exe_total_share"] = ratio(exe_energy(base), base.get("energy.total_nj"))
        m["baseline.static_share"] = ratio(base.get("energy.static_nj"),
                                           base.get("energy.total_nj"))
        m["baseline.static_power_w"] = ratio(base.get("energy.static_nj"),
                                             base.get("simulated_ns"))
        m["baseline.occupancy"] = ratio(base.get("sm.resident_warp_cycles"),
                                        base.get("occupancy.warp_slot_cycles"))
        writes = {kind: base.get(f"register_writes.non_divergent.{kind}")
                  + base.get(f"register_writes.divergent.{kind}") for kind in VALUE_KINDS}
        total = sum(writes.values())
        for kind in VALUE_KINDS:
            m[f"values.{kind}"] = ratio(writes[kind], total)
        m["values.divergent_writes"] = ratio(
            base.total("register_writes.divergent", VALUE_KINDS), total)
    return m


def mean(values, geometric=False):
    """(mean, count) over the values that are not None (geometric: over the positive ones);
    (None, 0) when there are none."""
    values = [v for v in values if v is not None and (v > 0 or not geometric)]
    if not values:
        return None, 0
    if geometric:
        return math.exp(sum(math.log(v) for v in values) / len(values)), len(values)
    return sum(values) / len(values), len(values)


def suite_means(per_workload):
    """{metric: (mean over workloads, workloads counted)} from {workload: metrics}."""
    keys = []
    for metrics in per_workload.values():
        keys.extend(k for k in metrics if k not in keys)
    return {key: mean((m.get(key) for m in per_workload.values()), key.startswith(GEOMETRIC))
            for key in keys}
