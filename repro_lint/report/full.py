"""``--output-format full``: each finding with its source lines and the range underlined, then
the fix when there is one (the shape of ruff's full output)::

    train.py:3:1: RPL201 cudnn.benchmark = True lets cuDNN pick ...
      |
    3 | torch.backends.cudnn.benchmark = True
      | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ RPL201
      |
      = help: Set cudnn.benchmark to False
"""

from __future__ import annotations

import unicodedata
from typing import Dict, List, Optional, TextIO, Tuple

from ..diagnostics import UNSAFE, Diagnostic
from ..source import SourceError, line_offsets, read_source
from . import ReportOptions, register
from .style import BLUE, BOLD, CYAN, RED, Style
from .text import format_line, report_text, summary

TAB_SIZE = 4
#: longer ranges show their first lines and an ellipsis
MAX_LINES = 5


def _width(char: str, column: int) -> int:
    if char == "\t":
        return TAB_SIZE - column % TAB_SIZE
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display(line: str) -> Tuple[str, List[int]]:
    """The line as a terminal shows it (tabs expanded) and the display column of every
    code point (plus one past the end)."""
    shown, columns, column = [], [], 0
    for char in line:
        columns.append(column)
        width = _width(char, column)
        shown.append(" " * width if char == "\t" else char)
        column += width
    columns.append(column)
    return "".join(shown), columns


class _Sources:
    """Physical lines of the reported files, read once each (None when unreadable)."""

    def __init__(self) -> None:
        self.cache: Dict[str, Optional[List[str]]] = {}

    def lines(self, path: str) -> Optional[List[str]]:
        if path not in self.cache:
            try:
                source = read_source(path)  # type: ignore[arg-type]
                text = getattr(source, "shown_text", source.text)  # a notebook: its lines as written
            except SourceError:
                self.cache[path] = None
            else:
                offsets = line_offsets(text)
                ends = offsets[1:] + [len(text)]
                self.cache[path] = [text[a:b].rstrip("\r\n") for a, b in zip(offsets, ends)]
        return self.cache[path]


def snippet(diag: Diagnostic, lines: List[str], style: Style) -> List[str]:
    (first, start_col), (last, end_col) = diag.start, diag.end
    if not 1 <= first <= len(lines):
        return []
    last = min(max(last, first), len(lines))
    if last > first and end_col == 0:  # a range ending at the start of a line ends on the line before
        last -= 1
        end_col = len(lines[last - 1])
    shown_last = min(last, first + MAX_LINES - 1)
    gutter = len(str(diag.shown((shown_last, 0))[0]))  # in a notebook, lines count within the cell
    bar = style("|", BOLD, BLUE)
    out = [f"{' ' * gutter} {bar}"]
    for number in range(first, shown_last + 1):
        text, columns = display(lines[number - 1])
        begin = start_col if number == first else len(lines[number - 1]) - len(lines[number - 1].lstrip())
        end = end_col if number == last else len(lines[number - 1])
        begin = min(begin, len(columns) - 1)
        end = min(max(end, begin), len(columns) - 1)
        carets = max(1, columns[end] - columns[begin])
        out.append(f"{style(str(diag.shown((number, 0))[0]).rjust(gutter), BOLD, BLUE)} {bar} {text}".rstrip())
        label = f" {diag.code}" if number == shown_last else ""
        out.append(f"{' ' * gutter} {bar} {' ' * columns[begin]}{style('^' * carets + label, BOLD, RED)}")
    if shown_last < last:
        out.append(f"{' ' * gutter} {bar} ... {last - shown_last} more line{'s' if last - shown_last != 1 else ''}")
    out.append(f"{' ' * gutter} {bar}")
    if diag.fix is not None:
        unsafe = " (unsafe fix)" if diag.fix.applicability == UNSAFE else ""
        out.append(f"{' ' * gutter} {style('=', BOLD, BLUE)} {style('help', BOLD, CYAN)}: {diag.fix.message}{unsafe}")
    return out


@register("full")
def report_full(diagnostics: List[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    if options.statistics:
        report_text(diagnostics, out, options)
        return
    style = Style.for_stream(out)
    sources = _Sources()
    for diag in diagnostics:
        out.write(format_line(diag, style) + "\n")
        lines = sources.lines(diag.path)
        if lines is not None:
            for line in snippet(diag, lines, style):
                out.write(line + "\n")
        out.write("\n")
    if not options.quiet:
        for line in summary(diagnostics, options):
            out.write(line + "\n")
