"""JSON in the shape of ``ruff --output-format json``, so tools that read ruff's JSON read ours."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, TextIO

from ..diagnostics import Diagnostic
from ..rulebook import rule_url
from . import ReportOptions, readable_path, register


def to_ruff_dict(diag: Diagnostic) -> Dict[str, Any]:
    return {
        "cell": None,
        "code": diag.code,
        "end_location": {"column": diag.end[1] + 1, "row": diag.end[0]},
        "filename": readable_path(os.path.abspath(diag.path)),
        "fix": diag.fix.to_dict() if diag.fix else None,
        "location": {"column": diag.start[1] + 1, "row": diag.start[0]},
        "message": diag.message,
        "noqa_row": diag.noqa_row,
        "url": rule_url(diag.code),
    }


@register("json")
def report_json(diagnostics: List[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    json.dump([to_ruff_dict(d) for d in diagnostics], out, indent=2, sort_keys=True)
    out.write("\n")
