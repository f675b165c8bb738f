"""``--output-format github``: one GitHub Actions workflow command per finding, so each one
shows up as an annotation on the pull request's diff::

    ::warning file=train.py,line=3,col=1,endLine=3,endColumn=31,title=RPL201::cudnn.benchmark ...

Escaping follows the Actions toolkit: ``%``, CR and LF in the message; additionally ``:`` and
``,`` in the properties.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, TextIO

from ..diagnostics import Diagnostic
from . import ReportOptions, readable_path, register
from .sarif import level


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(diag: Diagnostic) -> str:
    (line, col), (end_line, end_col) = diag.shown(diag.start), diag.shown(diag.end)
    if (end_line, end_col) < (line, col):
        end_line, end_col = line, col
    properties = [
        ("file", readable_path(Path(diag.path).as_posix())),
        ("line", str(line)),
        ("col", str(col + 1)),
        ("endLine", str(end_line)),
        ("endColumn", str(end_col + 1)),
        ("title", diag.code if diag.cell is None else f"{diag.code} (cell {diag.cell})"),
    ]
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{level(diag.code)} {props}::{escape_data(diag.message)}"


@register("github")
def report_github(diagnostics: List[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    for diag in diagnostics:
        out.write(command(diag) + "\n")
