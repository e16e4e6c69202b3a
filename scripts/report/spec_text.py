"""Pieces of the `warpsim sweep` spec files the experiments' spec writers print (TOML)."""

import json


def toml_list(values):
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def variant_lines(name, description, overlays, sets):
    """A [variants.NAME] table: its description, and its overlays and sets when it has any."""
    lines = [f"[variants.{name}]", f"description = {json.dumps(description)}"]
    if overlays:
        lines.append(f"overlays = {toml_list(overlays)}")
    if sets:
        lines.append(f"sets = {toml_list(sets)}")
    return lines
