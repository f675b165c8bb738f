"""SARIF 2.1.0 (``--output-format sarif``), the format GitHub code scanning and other
dashboards read. Each rule is described once in ``tool.driver.rules`` (id, name, short and
full description, the rule page as help, its URL); each finding is a ``result`` with its
location and, when it has one, its fix as replacements.

Columns are code points (``columnKind: unicodeCodePoints``), 1-based, end exclusive; paths are
relative to the working directory (``uriBaseId: %SRCROOT%``), as GitHub expects for a run from
the repository root.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, TextIO, Tuple

from .. import __version__
from ..diagnostics import Diagnostic, Edit
from ..rulebook import read_page, rule_url, section
from ..rules import all_rules
from . import ReportOptions, register, uri_path

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/repro-lint/repro-lint"
SRCROOT = "%SRCROOT%"


def _section(page: str, heading: str) -> str:
    return " ".join(section(page, heading).split())


#: how long a short description may grow before its parenthetical details are left out (GitHub
#: code scanning takes at most 1,024 characters)
SHORT_DESCRIPTION = 1000


def _first_sentence(text: str) -> str:
    """The first sentence of a rule's "What it does"; a long one up to its first parenthesis
    (``Reports an entry point whose execution path runs on CUDA or an Ascend NPU``), and never
    more than :data:`SHORT_DESCRIPTION` characters and an ellipsis."""
    match = re.match(r"(.+?[.!?])(\s|$)", text, re.DOTALL)
    sentence = " ".join((match.group(1) if match else text).split())
    if len(sentence) <= SHORT_DESCRIPTION:
        return sentence
    head = sentence.split(" (", 1)[0].rstrip(",;:")
    if len(head) <= SHORT_DESCRIPTION:
        return head + "."
    return head[: SHORT_DESCRIPTION - 3].rstrip() + "..."


def level(code: str) -> str:
    rule = all_rules().get(code)
    return rule.severity if rule is not None else "warning"


def rule_descriptor(code: str) -> Dict[str, Any]:
    rule = all_rules()[code]
    page = read_page(code) or ""
    what = _section(page, "What it does") or rule.message
    descriptor: Dict[str, Any] = {
        "id": code,
        "name": rule.name,
        "shortDescription": {"text": _first_sentence(what)},
        "fullDescription": {"text": what},
        "helpUri": rule_url(code),
        "defaultConfiguration": {"enabled": bool(rule.default), "level": level(code)},
        "properties": {"fixable": rule.fix or "no"},
    }
    if page:
        descriptor["help"] = {"text": f"{what} See {rule_url(code)}", "markdown": page}
    return descriptor


def artifact_location(path: str) -> Dict[str, Any]:
    posix = Path(path).as_posix()
    if os.path.isabs(path):
        return {"uri": Path(path).resolve().as_uri()}
    return {"uri": uri_path(posix), "uriBaseId": SRCROOT}


def region(start: Tuple[int, int], end: Tuple[int, int]) -> Dict[str, int]:
    """1-based lines and columns; ``endColumn`` is the column after the last character."""
    start_line, end_line = max(start[0], 1), max(end[0], 1)
    start_col, end_col = start[1] + 1, end[1] + 1
    if (end_line, end_col) < (start_line, start_col):
        end_line, end_col = start_line, start_col
    return {"startLine": start_line, "startColumn": start_col, "endLine": end_line, "endColumn": end_col}


def _replacement(diag: Diagnostic, edit: Edit) -> Dict[str, Any]:
    return {"deletedRegion": region(diag.shown(edit.start), diag.shown(edit.end)), "insertedContent": {"text": edit.content}}


def result(diag: Diagnostic, rule_index: Dict[str, int]) -> Dict[str, Any]:
    """One finding. In a notebook, lines count within the cell, and the cell's number (1-based)
    is the location's ``properties.cell``."""
    location = artifact_location(diag.path)
    physical: Dict[str, Any] = {"artifactLocation": location, "region": region(diag.shown(diag.start), diag.shown(diag.end))}
    where: Dict[str, Any] = {"physicalLocation": physical}
    if diag.cell is not None:
        where["properties"] = {"cell": diag.cell}
    found: Dict[str, Any] = {
        "ruleId": diag.code,
        "level": level(diag.code),
        "message": {"text": diag.message},
        "locations": [where],
    }
    if diag.code in rule_index:
        found["ruleIndex"] = rule_index[diag.code]
    if diag.fix is not None:
        found["fixes"] = [
            {
                "description": {"text": diag.fix.message or f"Fix {diag.code}"},
                "artifactChanges": [
                    {"artifactLocation": location, "replacements": [_replacement(diag, e) for e in diag.fix.edits]}
                ],
            }
        ]
        found["properties"] = {"fixApplicability": diag.fix.applicability}
    return found


def sarif_log(diagnostics: List[Diagnostic], cwd: Optional[str] = None) -> Dict[str, Any]:
    codes = list(all_rules())
    rule_index = {code: i for i, code in enumerate(codes)}
    root = Path(cwd or os.getcwd()).resolve().as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "repro-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [rule_descriptor(code) for code in codes],
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": root}},
                "columnKind": "unicodeCodePoints",
                "results": [result(d, rule_index) for d in diagnostics],
            }
        ],
    }


@register("sarif")
def report_sarif(diagnostics: List[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    json.dump(sarif_log(diagnostics), out, indent=2)
    out.write("\n")
