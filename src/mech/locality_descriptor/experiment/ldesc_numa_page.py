"""The NUMA study's section of the Locality Descriptor results page (ldesc_page.py puts it in):
the 4-module GPU's configuration against the study's Table 3, the bandwidth filter, the four
configurations' speedups, access efficiencies and zone distributions, the inter-module traffic
and the zone bits Algorithm 2 chose; and the values its paragraph of the discussion takes.
Missing runs show as "–".
"""

import ldesc_data as data
import ldesc_headlines as hl
import ldesc_paper as paper
from ldesc_cells import count, label, num, resolved_config
from page_text import NONE, not_met_text, pct, points, signed  # scripts/report
from report_markdown import table, words  # scripts/report
from run_stats import value_at  # scripts/report

NUMA_FILE = "mcm-4gpm.toml"  # `warpsim config show mcm-4gpm`, written by run.sh beside the sweep
BURST_BYTES = 32             # bytes a DRAM channel moves per burst (gtx480's, which mcm-4gpm keeps)

# Table 3's NUMA column (digest s2.5) against the resolved configuration: (parameter, the
# study's value, the key).
TABLE3 = [("GPU modules (NUMA zones)", 4, "gpu.modules"), ("SMs (16 per module)", 64, "gpu.num_sms"),
          ("shader clock, MHz", 1400, "clocks.core"), ("warp scheduler", "gto", "sm.warp_scheduler.impl"),
          ("schedulers per SM", 2, "sm.schedulers"), ("registers per SM", 32768, "sm.registers"),
          ("scratchpad bytes per SM", 49152, "sm.shared_bytes"), ("L1 bytes", 32768, "l1.size"),
          ("L1 ways", 4, "l1.assoc"), ("CTA scheduler (Baseline)", "round-robin", "cta_scheduler.impl"),
          ("memory scheduling", "fr-fcfs", "dram.scheduler"), ("banks per channel", 16, "dram.banks"),
          ("memory channels", 32, "dram.channels"), ("L2 bytes", 4194304, "l2.size"), ("L2 ways", 16, "l2.assoc"),
          ("inter-module bandwidth, GB/s", 192, "module_link.gbps"),
          ("zone placement (Baseline)", "xor", "zone_placement.impl"),
          ("page bytes (first touch)", 65536, "zone_placement.page_bytes")]
DRAM_GBPS = 768  # Table 3: 768 GB/s (192 per module)


def mb(x):
    return NONE if x is None else f"{x / 1e6:.2f}"


def numa_config(report):
    """The resolved mcm-4gpm configuration run.sh wrote beside the sweep, or None."""
    return resolved_config(report, NUMA_FILE)


def dram_gbps(config, channels=None):
    """The DRAM bandwidth a configuration gives: channels x 32 B per burst / burst cycles x the
    DRAM clock; None where a key is missing."""
    channels = channels or value_at(config, "dram.channels")
    clock, burst = value_at(config, "clocks.dram"), value_at(config, "dram.burst_cycles")
    if not channels or not clock or not burst:
        return None
    return channels * BURST_BYTES / burst * clock / 1000


def numa_sms(s):
    """The SMs the NUMA runs' statistics name (the first one's), or None."""
    return next((r.config.get("sms") for r in s.sweep.numa_runs() if r.config.get("sms")), None)


def apps_run(s):
    """The NUMA set's applications whose four configurations (some of them) were run."""
    return [a for a in data.NUMA_SET if a in s.numa_config_apps]


def configuration_text(report, s):
    config = numa_config(report)
    filter_channels = data.CHANNELS * data.BW_FACTOR
    out = ("### Configuration\n\nEvery NUMA run is `mcm-4gpm` (`configs/mcm-4gpm.toml`: four modules of 16 SMs, "
           "each a NUMA zone with its 8 memory channels, their L2 slices and DRAM, joined by inter-module links; "
           "the zone placement is the study's XOR hash of address bits): the Baseline with no overlay, "
           "FirstTouch-Distrib with `--overlay numa-first-touch` (64 KB pages placed at the module of first touch, "
           "the grid split into one contiguous chunk of CTAs per module), LDesc-Placement with `--overlay "
           "ldesc-placement` (Algorithm 2's zone bit per described structure, CTAs placed round robin) and LDesc "
           "with `--overlay ldesc-numa` (the same bits and Algorithm 2's CTA partition, Algorithm 1 within each "
           "zone; the L1 policies stay the Baseline's). The filter's twice the memory bandwidth is "
           f"`--set dram.channels={filter_channels}`: {filter_channels // data.ZONES} channels per module instead "
           f"of {data.CHANNELS // data.ZONES}, each of the same DRAM timing and clock (one L2 slice per channel, so "
           "the L2 keeps its size in twice the slices of half the size).")
    sms = {r.config.get("sms") for r in s.sweep.numa_runs() if r.config.get("sms")}
    if sms:
        out += f" The NUMA runs' statistics name {words(sorted(str(x) for x in sms))} SMs."
    if config is None:
        return out + (f"\n\nThe resolved configuration ({NUMA_FILE} beside the sweep, which run.sh writes) is "
                      "missing, so Table 3's NUMA column is not compared here.")
    rows = []
    for name, study, key in TABLE3:
        ours = value_at(config, key)
        rows.append((name, str(study), f"`{key}` = {ours}", "same" if ours == study else "differs"))
    gbps = dram_gbps(config)
    rows.append(("DRAM bandwidth, GB/s (192 per module)", str(DRAM_GBPS),
                 f"`dram.channels` x {BURST_BYTES} B / `dram.burst_cycles` x `clocks.dram` = {num(gbps, 1)}",
                 NONE if gbps is None else ("same" if abs(gbps - DRAM_GBPS) < 0.5 else "differs")))
    wide = dram_gbps(config, filter_channels)
    return out + ("\n\nThe study's Table 3 (its NUMA column) against the resolved configuration (`warpsim config show "
                  "mcm-4gpm`); the link latency (`module_link.latency`) is MCM-GPU's, the rest the study leaves "
                  f"unstated is gtx480's. The filter's runs have {num(wide, 1)} GB/s.\n\n"
                  + table(("parameter", "study (Table 3, NUMA)", "ours", ""), rows))


def filter_text(s, image):
    rows = []
    for a in s.numa_apps:
        base, wide = s.numa_base(a), s.sweep.run(a, data.NUMA_FILTER)
        rows.append((label(a), s.sweep.numa_sizes.get(a, NONE), count(None if base is None else base.max_ctas()),
                     count(None if base is None else base.cycles), count(None if wide is None else wide.cycles),
                     num(s.bandwidth_speedup(a)), hl_yes_no(s.in_numa_set(a)),
                     "yes" if a in data.NUMA_SET else "no"))
    out = ("### Applications and the bandwidth filter\n\nEvery application on `mcm-4gpm`, each at one size (the CTAs "
           f"of its largest launch beside it: {numa_sms(s) or NONE} SMs). The study's NUMA set (s2.6): an "
           "application more than "
           f"{pct(data.BW_GAIN, 0)} faster with {data.BW_FACTOR}x the memory bandwidth is memory-bandwidth-"
           "sensitive. The four configurations run on the applications the study's NUMA discussion names "
           f"({words(data.abbreviation(a) for a in data.NUMA_SET)}), whatever our filter says; the table shows "
           "both.\n\n")
    if image:
        out += f"![The bandwidth filter]({image})\n\n"
    return out + table(("application", "size", "CTAs (largest launch)", "Baseline cycles",
                        f"{data.BW_FACTOR}x bandwidth cycles", "speedup", "bandwidth-sensitive", "configurations run"),
                       rows)


def hl_yes_no(x):
    return NONE if x is None else ("yes" if x else "no")


def per_config_table(s, apps, f, fmt, mean=True):
    rows = [[label(a)] + [fmt(f(a, v)) for v, _, _ in data.NUMA_CONFIGS] for a in apps]
    if mean and apps:
        rows.append(["**mean**"] + [fmt(s.over(lambda a, v=v: f(a, v), apps)) for v, _, _ in data.NUMA_CONFIGS])
    return table(["application"] + [n for _, n, _ in data.NUMA_CONFIGS], rows)


def shares_text(shares):
    return NONE if shares is None else " / ".join(f"{100 * x:.0f}" for x in shares)


def ranges_text(run):
    ranges, predicted = (None, None) if run is None else run.placement_ranges()
    if ranges is None:
        return NONE, NONE
    text = ", ".join(f"bit {r.get('bit')} ({r.get('bytes', 0) / 1024:,.0f} KB)" for r in ranges) or "none"
    return text, pct(predicted)


def section(report, s, images):
    apps = apps_run(s)
    if not s.numa_apps:
        return "## The NUMA study\n\nNot run."
    out = [("## The NUMA study\n\nThe study's case study 2 (s2.2) and its NUMA evaluation (s2.4.4, s2.6, s2.7): a "
            "GPU of four modules, each a NUMA zone with its own SMs, L2 and DRAM; a request to another module's "
            "memory crosses the slower inter-module links. Performance is 1 / the run's cycles; the access "
            "efficiency is the requests that left an SM for its own zone over all that left an SM "
            "(`memory.numa.local_requests` / (`local_requests` + `remote_requests`), summed over the run's "
            "launches); the zone distribution is each zone's share of them (`memory.numa.zone_requests`)."),
           configuration_text(report, s), filter_text(s, images.get("numa_filter"))]
    if not apps:
        out.append("The four configurations were not run.")
        return "\n\n".join(out)
    out.append("### Speedup (Fig. 21)\n\nThe NUMA Baseline's cycles over the configuration's (higher is faster); "
               "the last column is LDesc over FirstTouch-Distrib.")
    if images.get("numa_speedup"):
        out.append(f"![Speedup per NUMA configuration]({images['numa_speedup']})")
    rows = [[label(a)] + [num(s.numa_speedup(a, v)) for v, _, _ in data.NUMA_CONFIGS]
            + [num(s.numa_speedup(a, data.LDESC_NUMA, data.FIRST_TOUCH))] for a in apps]
    rows.append(["**mean**"] + [num(s.over(lambda a, v=v: s.numa_speedup(a, v), apps)) for v, _, _ in data.NUMA_CONFIGS]
                + [num(s.over(lambda a: s.numa_speedup(a, data.LDESC_NUMA, data.FIRST_TOUCH), apps))])
    out.append(table(["application"] + [n for _, n, _ in data.NUMA_CONFIGS] + ["LDesc over FirstTouch-Distrib"],
                     rows))
    out.append("### Access efficiency (Fig. 22)\n\nRequests to the SM's own zone over all requests (the study's mean: "
               + ", ".join(f"{data.NUMA_NAMES[v]} {pct(x)}" for v, x in paper.EFFICIENCY.items()) + ").")
    if images.get("efficiency"):
        out.append(f"![Access efficiency per NUMA configuration]({images['efficiency']})")
    out.append(per_config_table(s, apps, s.efficiency, pct))
    out.append("### Zone distribution (Fig. 23)\n\nEach zone's share of the requests, zones 0 / 1 / 2 / 3 in percent, "
               "and below them the largest zone's share per configuration (an even spread is "
               f"{pct(1 / data.ZONES, 0)}; the headlines call a mean largest share of at most "
               f"{pct(hl.EVEN_MAX_SHARE)} close to even).")
    out.append(per_config_table(s, apps, lambda a, v: s.shares(a, v), shares_text, mean=False))
    out.append(per_config_table(s, apps, s.largest_share, pct))
    out.append("### Inter-module traffic and the zone bits\n\nBytes that crossed the inter-module links (headers and "
               "payloads, requests and replies: `link_request_bytes` + `link_reply_bytes`), in MB per configuration; "
               "and for LDesc the zone bit Algorithm 2 chose for each described structure in the first launch "
               "(`memory.numa.placement.ranges`, with the structure's aligned size; zone = the two address bits from "
               "that bit up) and the share of bytes it predicted local (`predicted_local_fraction`).")
    rows = []
    for a in apps:
        bits, predicted = ranges_text(s.sweep.run(a, data.LDESC_NUMA))
        rows.append([label(a)] + [mb(s.link_bytes(a, v)) for v, _, _ in data.NUMA_CONFIGS] + [bits, predicted])
    out.append(table(["application"] + [f"{n}, MB" for _, n, _ in data.NUMA_CONFIGS]
                     + ["LDesc's zone bits (first launch)", "predicted local"], rows))
    return "\n\n".join(out)


def extreme(values, pick, fmt=signed):
    if not values:
        return NONE
    app = pick(values, key=values.get)
    return f"{fmt(values[app])} ({data.abbreviation(app)})"


def discussion_values(s, h):
    apps = apps_run(s)
    numa_set = s.numa_set()
    named_out = [a for a in data.NUMA_SET if a in s.numa_apps and s.in_numa_set(a) is False]
    others_in = [a for a in numa_set if a not in data.NUMA_SET]
    sms = numa_sms(s)
    few = [a for a in apps if sms and s.numa_base(a) is not None and (s.numa_base(a).max_ctas() or 0) < sms]
    ldesc = s.values(lambda a: s.numa_gain(a, data.LDESC_NUMA), apps)
    over_ft = s.values(lambda a: s.numa_gain(a, data.LDESC_NUMA, data.FIRST_TOUCH), apps)
    ft = s.values(lambda a: s.numa_gain(a, data.FIRST_TOUCH), apps)
    placement = s.values(lambda a: s.numa_gain(a, data.PLACEMENT), apps)
    eff = {v: s.values(lambda a, v=v: s.efficiency(a, v), apps) for v, _, _ in data.NUMA_CONFIGS}
    bw = s.values(lambda a: None if s.bandwidth_speedup(a) is None else s.bandwidth_speedup(a) - 1.0, s.numa_apps)
    pages = [a for a in apps if s.efficiency(a, data.FIRST_TOUCH) is not None
             and s.efficiency(a, data.LDESC_NUMA) is not None
             and s.efficiency(a, data.FIRST_TOUCH) > s.efficiency(a, data.LDESC_NUMA)]
    gained = [a for a in apps if s.efficiency(a, data.LDESC_NUMA) is not None
              and s.efficiency(a, data.NUMA_BASELINE) is not None and ldesc.get(a) is not None
              and s.efficiency(a, data.LDESC_NUMA) > s.efficiency(a, data.NUMA_BASELINE) + hl.NOISE
              and ldesc[a] <= hl.NOISE]

    # Slower under LDesc with an L2 that serves clearly less (5 pp or more) than the Baseline's.
    l2_lost = [a for a in apps if ldesc.get(a) is not None and ldesc[a] < -hl.NOISE
               and s.l2_hit_rate(a, data.NUMA_BASELINE) is not None and s.l2_hit_rate(a, data.LDESC_NUMA) is not None
               and s.l2_hit_rate(a, data.LDESC_NUMA) < s.l2_hit_rate(a, data.NUMA_BASELINE) - 0.05]

    def span(values, fmt=signed):
        return f"{extreme(values, min, fmt)} to {extreme(values, max, fmt)}"

    return {
        "numa_apps": words([data.abbreviation(a) for a in apps], "none"),
        "numa_sizes": ", ".join(f"{a} {s.sweep.numa_sizes[a]}" for a in apps if a in s.sweep.numa_sizes) or NONE,
        "numa_few_ctas": (f"{words([data.abbreviation(a) for a in few])} launch fewer CTAs than the GPU's {sms} "
                          "SMs, so some SMs, or whole modules, hold none of their CTAs" if few else
                          "every one of them launches at least as many CTAs as the GPU has SMs"),
        "numa_set": words([data.abbreviation(a) for a in numa_set], "none"),
        "numa_named_out": words([data.abbreviation(a) for a in named_out], "none"),
        "numa_others_in": words([data.abbreviation(a) for a in others_in], "none"),
        "bw_range": span(bw),
        "numa_ldesc_range": span(ldesc),
        "numa_over_ft_range": span(over_ft),
        "numa_ft_range": span(ft),
        "numa_placement_range": span(placement),
        "eff_base_range": span(eff[data.NUMA_BASELINE], pct),
        "eff_ft_range": span(eff[data.FIRST_TOUCH], pct),
        "eff_placement_range": span(eff[data.PLACEMENT], pct),
        "eff_ldesc_range": span(eff[data.LDESC_NUMA], pct),
        "ft_beats_ldesc": words([data.abbreviation(a) for a in pages], "none"),
        "local_without_speed": words([data.abbreviation(a) for a in gained], "none"),
        "eff_ldesc_gain": points(s.over(lambda a: None if s.efficiency(a, data.LDESC_NUMA) is None
                                        or s.efficiency(a, data.NUMA_BASELINE) is None
                                        else s.efficiency(a, data.LDESC_NUMA) - s.efficiency(a, data.NUMA_BASELINE),
                                        apps)),
        "numa_l2_lost": (
            "LDesc is slower than Baseline with an L2 that serves less on "
            + words([f"{data.abbreviation(a)} (L2 hit rate {pct(s.l2_hit_rate(a, data.NUMA_BASELINE))} under Baseline, "
                     f"{pct(s.l2_hit_rate(a, data.LDESC_NUMA))} under LDesc)" for a in l2_lost])
            + ": a structure a later kernel describes first is placed when that kernel starts (Algorithm 2 "
            "runs per launch, and a placed structure then keeps its bit), so the L2 slices of its new zones "
            "do not hold what earlier kernels left in the L2 under the XOR hash"
            if l2_lost else "No application is slower under LDesc with an L2 that serves clearly less"),
        "not_met_numa": not_met_text(h, "numa"),
    }
