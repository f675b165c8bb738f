"""JSON in the shape of ``ruff --output-format json``, so tools that read ruff's JSON read ours."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, TextIO, Tuple

from ..diagnostics import Diagnostic
from ..rulebook import rule_url
from . import ReportOptions, readable_path, register


def _location(diag: Diagnostic, position: Tuple[int, int]) -> Dict[str, int]:
    line, col = diag.shown(position)
    return {"column": col + 1, "row": line}


def _fix(diag: Diagnostic) -> Optional[Dict[str, Any]]:
    if diag.fix is None:
        return None
    fix = diag.fix.to_dict()
    if diag.cells is not None:  # a notebook: rows within their cells, as ruff gives them
        for edit, data in zip(diag.fix.edits, fix["edits"]):
            data["location"], data["end_location"] = _location(diag, edit.start), _location(diag, edit.end)
    return fix


def to_ruff_dict(diag: Diagnostic) -> Dict[str, Any]:
    """One finding; in a notebook, ``cell`` is the cell's number (1-based) and rows count
    from the cell's first line."""
    return {
        "cell": diag.cell,
        "code": diag.code,
        "end_location": _location(diag, diag.end),
        "filename": readable_path(os.path.abspath(diag.path)),
        "fix": _fix(diag),
        "location": _location(diag, diag.start),
        "message": diag.message,
        "noqa_row": diag.shown((diag.noqa_row, 0))[0] if diag.noqa_row else diag.noqa_row,
        "url": rule_url(diag.code),
    }


@register("json")
def report_json(diagnostics: List[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    json.dump([to_ruff_dict(d) for d in diagnostics], out, indent=2, sort_keys=True)
    out.write("\n")
