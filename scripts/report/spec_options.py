"""The command line the experiments' spec writers share (spec.py OUT [--size SIZE]
[--workloads LIST], and --warpsim where a writer asks the simulator), and the check of the
applications --workloads names."""

import argparse
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_WARPSIM = os.path.join(ROOT, "build", "apps", "warpsim", "warpsim")


def spec_parser(doc, size="small"):
    """A parser of OUT, --size (default `size`) and --workloads, described by the first
    paragraph of `doc` (the spec writer's docstring)."""
    parser = argparse.ArgumentParser(prog="spec.py", description=doc.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--size", default=size)
    parser.add_argument("--workloads", default="")
    return parser


def add_warpsim_option(parser):
    """--warpsim PATH: the simulator the writer asks (default build/apps/warpsim/warpsim)."""
    parser.add_argument("--warpsim", default=DEFAULT_WARPSIM)


def named_workloads(text):
    """The names of a --workloads value (separated by commas; none for "")."""
    return [w for w in text.split(",") if w]


def study_workloads(text, known):
    """The applications --workloads names, or every one of `known` when it names none; exits
    with a message for a name the study does not have."""
    workloads = named_workloads(text) or known
    for w in workloads:
        if w not in known:
            raise SystemExit(f"spec.py: {w} is not an application of the study here "
                             f"(known: {', '.join(known)})")
    return workloads
