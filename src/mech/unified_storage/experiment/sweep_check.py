"""run.sh's check after a sweep that did not pass everywhere: Needle's largest blocking needs more
shared memory than some designs have, and the simulator refuses such a launch (exit status 1,
"kernel 'K' cannot run on ..."); the page shows those points as "does not fit". Every other
point that did not pass is an error. Prints the points of each kind; exit status 0 when all
that did not pass do not fit, 3 otherwise.

Usage: python3 sweep_check.py SWEEP_DIR
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources it imports
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "report"))
import unified_data as data  # noqa: E402
from sweep_report import Report, ReportError  # noqa: E402


def check(report):
    """([points that do not fit], [points that did not pass otherwise])."""
    no_fit, failed = [], []
    for p in report.points:
        if p.status == "pass":
            continue
        (no_fit if p.status == "fail" and data.does_not_fit(report.result(p)) else failed).append(p)
    return no_fit, failed


def describe(p):
    return f"{p.axes.get('workload')} {p.axes.get('variant')} ({p.status})"


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: sweep_check.py SWEEP_DIR")
    try:
        report = Report(argv[1], os.path.join(argv[1], "unused.md"), plots=False)
    except ReportError as error:
        sys.exit(f"sweep_check.py: {error}")
    no_fit, failed = check(report)
    for p in no_fit:
        print(f"sweep_check: does not fit its design (shown so on the page): {describe(p)}")
    for p in failed:
        print(f"sweep_check: did not pass: {describe(p)}", file=sys.stderr)
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
