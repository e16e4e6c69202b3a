"""Prose with numbers from runs: a results page's discussion is a Markdown template whose
numbers are {name} placeholders, filled from the metrics the page's tables show, so that no
number is ever typed into a page.

fill() is strict both ways: a placeholder without a value, or a value no placeholder uses, is
an error, so a misspelt name cannot pass silently.
"""

import re
import string

from sweep_report import ReportError

_COMMENT = re.compile(r"\A\s*<!--.*?-->\s*", re.DOTALL)
_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


def fill(template, values, source="discussion"):
    """`template` without its leading <!-- comment -->, each {name} replaced by values[name]
    ({{ and }} stand for braces). Raises ReportError naming `source` for a placeholder that is
    not a plain {name}, one without a value, or a value no placeholder uses."""
    body = _COMMENT.sub("", template, count=1).strip()
    used = set()
    try:
        fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(body)
                  if f is not None]
    except ValueError as error:
        raise ReportError(f"{source}: {error}") from None
    for field, spec, conversion in fields:
        if spec or conversion or not _NAME.match(field):
            raise ReportError(f"{source}: placeholder {{{field}}}: expected {{name}}, a "
                              f"lowercase name without format or conversion")
        used.add(field)
    unknown = sorted(used - set(values))
    if unknown:
        raise ReportError(f"{source}: unknown placeholder(s) "
                          + ", ".join(f"{{{u}}}" for u in unknown))
    unused = sorted(set(values) - used)
    if unused:
        raise ReportError(f"{source}: value(s) without a placeholder: " + ", ".join(unused))
    return body.format(**values)


def fill_file(path, values, source):
    """fill() on the text of the file at `path` (UTF-8)."""
    with open(path, encoding="utf-8") as f:
        return fill(f.read(), values, source)
