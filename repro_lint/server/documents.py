"""What the language server does with one document, apart from the protocol's plumbing: the
document's text and positions in the client's units (:class:`Text`), linting it with the
CLI's configuration (:class:`Projects`, :func:`lint_text`), findings as LSP diagnostics, the
fixes of ``--fix`` as edits, and hover text. Notebook documents build on it
(:mod:`repro_lint.server.notebooks`).
"""

from __future__ import annotations

import bisect
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from lsprotocol import types as lsp
from pygls.uris import to_fs_path, uri_scheme
from pygls.workspace.position_codec import PositionCodec

from ..baseline import add_noqa_to_text
from ..config import ConfigError, Settings, load_settings
from ..context import ProjectContext
from ..diagnostics import SAFE, Diagnostic, InternalError
from ..discovery import DiscoveryError, discover
from ..fixer import Plan, TextEdit, fix_source, is_selected, plan
from ..linter import FileResult, Linter
from ..rulebook import rule_url, summary
from ..rules import all_rules, check_settings
from ..source import Source, line_offsets

NAME = "repro-lint"
FIX_ALL = f"{lsp.CodeActionKind.SourceFixAll.value}.{NAME}"

log = logging.getLogger(__name__)


# -- text and positions -------------------------------------------------------------------------


class Text:
    """A document's text as the protocol addresses it: lines broken at ``\\n``, ``\\r\\n`` or
    ``\\r`` (as LibCST and the fixer break them), columns in the client's units."""

    def __init__(self, text: str, codec: PositionCodec) -> None:
        self.text = text
        self.codec = codec
        self.offsets = line_offsets(text)
        # every line start begins a line, the last one too (empty after a final line break)
        ends = self.offsets[1:] + [len(text)]
        self.lines = [text[a:b].rstrip("\r\n") for a, b in zip(self.offsets, ends)]

    def position(self, line: int, col: int) -> lsp.Position:
        """A 0-based line and a column in code points, in the client's units (clamped to the text)."""
        if line >= len(self.lines):
            return lsp.Position(len(self.lines) - 1, self.codec.client_num_units(self.lines[-1]))
        return self.codec.position_to_client_units(self.lines, lsp.Position(max(line, 0), max(col, 0)))

    def at_offset(self, offset: int) -> lsp.Position:
        line = bisect.bisect_right(self.offsets, offset) - 1
        return self.position(line, offset - self.offsets[line])

    def range(self, diag: Diagnostic) -> lsp.Range:
        """The range of a finding (1-based line, column in code points)."""
        start = self.position(diag.start[0] - 1, diag.start[1])
        end = self.position(diag.end[0] - 1, diag.end[1])
        return lsp.Range(start, end if (end.line, end.character) >= (start.line, start.character) else start)

    def server_position(self, position: lsp.Position) -> Tuple[int, int]:
        """A client position as a 0-based line and a column in code points."""
        server = self.codec.position_from_client_units(self.lines, lsp.Position(position.line, position.character))
        return server.line, server.character

    def edits(self, edits: Sequence[TextEdit]) -> List[lsp.TextEdit]:
        return [lsp.TextEdit(lsp.Range(self.at_offset(e.start), self.at_offset(e.end)), e.content) for e in edits]

    def replace_with(self, new: str) -> List[lsp.TextEdit]:
        """One edit that turns this text into ``new``: the part between their common prefix and suffix."""
        old = self.text
        if old == new:
            return []
        prefix = len(os.path.commonprefix([old, new]))
        limit = min(len(old), len(new)) - prefix
        suffix = 0
        while suffix < limit and old[-1 - suffix] == new[-1 - suffix]:
            suffix += 1
        return self.edits([TextEdit(prefix, len(old) - suffix, new[prefix:len(new) - suffix])])


def overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    """Do two ranges share a position (touching ends count, so a cursor on a finding's edge does)?"""
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line, b.start.character) <= (a.end.line, a.end.character)


# -- linting documents --------------------------------------------------------------------------


@dataclass
class Linted:
    """One version of a document and what linting it gave."""

    uri: str
    version: Optional[int]
    text: Text
    path: str
    #: what the engine lints: the text (a notebook's: its code cells, and how to split them back)
    source: Source = field(default_factory=lambda: Source("", "utf-8"))
    linter: Optional[Linter] = None
    result: Optional[FileResult] = None
    #: a configuration error: no linting until it is fixed
    error: Optional[str] = None

    @property
    def diagnostics(self) -> List[Diagnostic]:
        return list(self.result.diagnostics) if self.result is not None else []


class Projects:
    """One linter per project root, with the settings the CLI would load there; rebuilt when
    the settings change or a file is saved (the project context reads other files from disk)."""

    def __init__(self) -> None:
        self._linters: Dict[Path, Tuple[Settings, Linter]] = {}

    def linter_for(self, path: Path) -> Linter:
        """Raises ConfigError."""
        settings = load_settings(start=path)
        check_settings(settings)
        known = self._linters.get(settings.root)
        if known is not None and known[0] == settings:
            return known[1]
        try:
            files = discover([str(settings.root)], settings)
        except DiscoveryError:
            files = []
        linter = Linter(settings, ProjectContext(settings, files))
        self._linters[settings.root] = (settings, linter)
        return linter

    def files_changed(self) -> None:
        self._linters.clear()


def document_path(uri: str, root: Optional[str]) -> Path:
    """The file a document is (an unsaved one: a file of that name in the workspace root)."""
    if uri_scheme(uri) == "file":
        path = to_fs_path(uri)
        if path:
            return Path(path).absolute()
    name = uri.rstrip("/").rsplit("/", 1)[-1] or "untitled.py"
    return Path(root or os.getcwd()).absolute() / name


def lint_text(projects: Projects, uri: str, version: Optional[int], text: Text, root: Optional[str], source: Optional[Source] = None) -> Linted:
    """Lint a document's text (``source``: how the engine sees it, when not plain Python) as the
    file it is, with that file's configuration."""
    path = document_path(uri, root)
    linted = Linted(uri, version, text, str(path), source or Source(text.text, "utf-8"))
    try:
        linted.linter = projects.linter_for(path)
    except ConfigError as exc:
        linted.error = str(exc)
        return linted
    project = linted.linter.project
    project.learn_text(path, linted.source.text)  # other documents' findings see the editor's text too
    try:
        linted.result = linted.linter.lint_source(str(path), linted.source)
    except Exception as exc:  # a bug of ours: reported to the editor's log, never a dead server
        log.exception("linting %s failed", path)
        linted.result = FileResult(str(path), errors=[InternalError(str(path), f"{type(exc).__name__}: {exc}")])
    return linted


def to_lsp(diag: Diagnostic, text: Text) -> lsp.Diagnostic:
    rule = all_rules().get(diag.code)
    error = rule is not None and rule.severity == "error"
    return lsp.Diagnostic(
        range=text.range(diag),
        message=diag.message,
        severity=lsp.DiagnosticSeverity.Error if error else lsp.DiagnosticSeverity.Warning,
        code=diag.code,
        code_description=lsp.CodeDescription(href=rule_url(diag.code)),
        source=NAME,
    )


def configuration_error(message: str) -> lsp.Diagnostic:
    top = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    return lsp.Diagnostic(range=top, message=f"configuration error: {message}", severity=lsp.DiagnosticSeverity.Error, source=NAME)


def lsp_diagnostics(linted: Linted) -> List[lsp.Diagnostic]:
    if linted.error is not None:
        return [configuration_error(linted.error)]
    return [to_lsp(d, linted.text) for d in sorted(linted.diagnostics, key=lambda d: d.sort_key())]


# -- code actions and hover -----------------------------------------------------------------------


def fix_title(diag: Diagnostic) -> str:
    assert diag.fix is not None
    if diag.fix.applicability == SAFE:
        return f"{diag.fix.message} ({diag.code})"
    return f"{diag.fix.message} ({diag.code}, unsafe fix: may change behaviour, review it)"


def findings_in(linted: Linted, wanted: lsp.Range) -> List[Diagnostic]:
    """The findings whose range meets ``wanted`` (a range of :attr:`Linted.text`)."""
    return [d for d in sorted(linted.diagnostics, key=lambda d: d.sort_key()) if overlaps(linted.text.range(d), wanted)]


def quick_fix(linted: Linted, diag: Diagnostic) -> Optional[Plan]:
    """The finding's fix, its edits planned as ``--fix`` plans them (None: it has none)."""
    if not is_selected(diag, unsafe=True):
        return None
    step = plan(linted.text.text, [diag])
    return step if step.applied else None


def with_noqa(linted: Linted, diag: Diagnostic) -> Optional[str]:
    """The text with ``# noqa: CODE`` for the finding, as ``--add-noqa`` writes it (None when
    its line cannot take a comment, or the rule is never baselined)."""
    new, added, _ = add_noqa_to_text(linted.text.text, [diag])
    return new if added else None


def fix_all(linted: Linted) -> Optional[str]:
    """The text with every safe fix applied as ``--fix`` applies them (pass after pass), or
    None when nothing changes."""
    if linted.linter is None or linted.result is None:
        return None
    try:
        outcome = fix_source(linted.linter, linted.path, linted.source, result=linted.result)
    except ValueError as exc:  # fixed text that no longer splits into a notebook's cells
        log.warning("%s: fixes not applied: %s", linted.path, exc)
        return None
    for error in outcome.errors:
        log.warning("%s", error)
    return outcome.text if outcome.text != linted.text.text else None


def wants(only: Optional[Sequence[str]], kind: str) -> bool:
    """Does a code action request limited to the kinds ``only`` ask for ``kind``?"""
    return not only or any(kind == base or kind.startswith(f"{base}.") for base in only)


def hover_text(linted: Linted, line: int, col: int) -> Optional[str]:
    """Markdown for the findings at a position (0-based line, column in code points)."""
    parts = []
    for diag in sorted(linted.diagnostics, key=lambda d: d.sort_key()):
        start, end = (diag.start[0] - 1, diag.start[1]), (diag.end[0] - 1, diag.end[1])
        if not start <= (line, col) <= max(start, end):
            continue
        rule = all_rules().get(diag.code)
        name = rule.name if rule is not None else ""
        about = summary(diag.code) or diag.message
        parts.append(f"**{diag.code}** `{name}`\n\n{about}\n\n[{diag.code} in the rule book]({rule_url(diag.code)})")
    return "\n\n---\n\n".join(dict.fromkeys(parts)) or None
