"""Matplotlib set up so that the same data give the same PNG file, byte for byte: the Agg
backend, matplotlib's built-in defaults (not the user's matplotlibrc or style), the DejaVu Sans
font that matplotlib ships, a fixed DPI, a fixed SVG hash salt, and no software or date metadata
in the file. (The bytes can still change with the matplotlib version: its text layout and
anti-aliasing change between releases.)"""

import os

DPI = 100


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcdefaults()
    matplotlib.rcParams.update({
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans"],
        "figure.dpi": DPI,
        "savefig.dpi": DPI,
        "svg.hashsalt": "warpsim-report",
        "svg.fonttype": "path",
        "path.simplify": True,
    })
    import matplotlib.pyplot as plt
    return plt


def save(figure, path):
    """Writes `figure` to `path` (PNG) under a temporary name, renames it into place, closes it."""
    import matplotlib.pyplot as plt
    temporary = path + ".tmp"
    figure.savefig(temporary, format="png", dpi=DPI,
                   metadata={"Software": None, "Creation Time": None})
    os.replace(temporary, path)
    plt.close(figure)
