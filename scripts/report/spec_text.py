"""Pieces of the `warpsim sweep` spec files the experiments' spec writers print (TOML)."""

import json


def toml_list(values):
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def size_value(size):
    """A size as the spec's size axis takes it: a number as a number, a name as a string."""
    return int(size) if str(size).isdigit() else size


def first_seen(values):
    """Each value once, in the order it first comes (equal values count as one)."""
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def axes_lines(workloads, sizes, configs, variants):
    """The [axes] table of workload, size, config and variant (sizes as size_value gives them)."""
    return ["[axes]", f"workload = {toml_list(workloads)}", f"size = {toml_list(sizes)}",
            f"config = {toml_list(configs)}", f"variant = {toml_list(variants)}", ""]


def exclude_lines(workload, axis, values):
    """An [[exclude]] table that leaves the `values` of `axis` out for `workload` (none for no
    values)."""
    if not values:
        return []
    return ["[[exclude]]", f'workload = "{workload}"', f"{axis} = {toml_list(values)}", ""]


def variant_lines(name, description, overlays, sets):
    """A [variants.NAME] table: its description, and its overlays and sets when it has any."""
    lines = [f"[variants.{name}]", f"description = {json.dumps(description)}"]
    if overlays:
        lines.append(f"overlays = {toml_list(overlays)}")
    if sets:
        lines.append(f"sets = {toml_list(sets)}")
    return lines
