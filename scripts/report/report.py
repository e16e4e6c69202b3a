#!/usr/bin/env python3
"""`warpsim report DIR [--template T] [--out PAGE.md] [--baseline AXIS=VALUE ...]`: writes a
Markdown page from a sweep's table, with PNG plots beside it (docs/experiments.md, "Reports").

warpsim runs this script (after checking DIR, the options and that Python has matplotlib);
it can also be run by hand with the same arguments. Without --template the page is
default_page.py's; a template is a Python file with a function render(report) that returns the
page's text (sweep_report.py describes `report`). Errors are one line on stderr, exit status 1.
"""

import argparse
import importlib.util
import os
import sys
import traceback

sys.dont_write_bytecode = True  # no __pycache__ beside the sources or the templates
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import sweep_report  # noqa: E402 (after the lines above on purpose)


def load_template(path):
    """The template module at `path`; its folder goes on sys.path (after ours) so that it can
    import the modules beside it."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.append(folder)
    name = "report_template_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise sweep_report.ReportError(f"--template {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "render", None)):
        raise sweep_report.ReportError(f"--template {path}: defines no function render(report)")
    return module


def write_atomically(path, text):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
    os.replace(temporary, path)


def main(argv):
    parser = argparse.ArgumentParser(prog="warpsim report", description=__doc__.split("\n")[0])
    parser.add_argument("dir", help="output directory of `warpsim sweep`")
    parser.add_argument("--out", help="the page to write (default DIR/report.md); plots go "
                        "beside it")
    parser.add_argument("--template", help="a Python file with render(report)")
    parser.add_argument("--baseline", action="append", default=[], metavar="AXIS=VALUE",
                        help="normalise the columns to this point (repeatable: one point)")
    args = parser.parse_args(argv)
    page = args.out or os.path.join(args.dir, "report.md")
    try:
        report = sweep_report.Report(args.dir, page, args.baseline)
        render = load_template(args.template).render if args.template else \
            sweep_report.Report.default_page
        os.makedirs(report.page_dir, exist_ok=True)
        text = render(report)
        if not isinstance(text, str):
            raise sweep_report.ReportError(f"--template {args.template}: render() returned "
                                           f"{type(text).__name__}, not the page's text")
        write_atomically(page, text)
    except sweep_report.ReportError as error:
        print(f"warpsim: error: report: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"warpsim: error: report: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # a template's bug: its traceback, then one line
        traceback.print_exc()
        print(f"warpsim: error: report: {args.template or 'the page'} failed: "
              f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(f"report: wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
