"""The language server: ``repro-lint server`` speaks the Language Server Protocol over stdio.

Built on ``pygls`` (the optional extra ``repro-lint[lsp]``); nothing else imports this module,
and the CLI imports it only for the ``server`` command. There is no second implementation:

- **diagnostics**: the text the editor holds (not the file on disk) goes through
  :meth:`repro_lint.engine.Linter.lint_source` on open, on change (after a short pause in
  typing) and on save, with the configuration the CLI would find for the document's path
  (``[tool.repro-lint]`` in the nearest ``pyproject.toml``; per-file-ignores and ``noqa``
  apply), and a project context over the files the CLI would lint from the project root;
- **quick fixes**: one code action per finding with a fix, its edits planned by
  :func:`repro_lint.fixer.plan`, as ``--fix`` plans them; safe fixes are preferred, unsafe ones
  say so in their title;
- **fix all** (``source.fixAll.repro-lint``): :func:`repro_lint.fixer.fix_source`, every safe
  fix, pass after pass, as ``--fix`` applies them, as one edit;
- **hover** over a finding: the rule's code and name, and the first paragraph of its page.

A configuration error is shown as a finding at the top of the document (the message names the
file and the key). An open document's own facts (is it an entry point, what it seeds) come from
its text in the editor; other files are read from disk, and read again on each save, which
relints every open document.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path, uri_scheme
from pygls.workspace.position_codec import PositionCodec

from . import __version__
from .config import ConfigError, Settings, load_settings
from .context import ProjectContext
from .diagnostics import SAFE, Diagnostic
from .discovery import DiscoveryError, discover
from .fixer import TextEdit, fix_source, is_selected, plan
from .linter import FileResult, Linter
from .rulebook import rule_url, summary
from .rules import all_rules, check_settings
from .source import Source, line_offsets

NAME = "repro-lint"
FIX_ALL = f"{lsp.CodeActionKind.SourceFixAll.value}.{NAME}"
#: seconds without a change before an edited document is linted again
DEBOUNCE_SECONDS = 0.25
PYTHON_SUFFIXES = (".py", ".pyi")

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


def lint_text(projects: Projects, uri: str, version: Optional[int], text: Text, root: Optional[str]) -> Linted:
    path = document_path(uri, root)
    linted = Linted(uri, version, text, str(path))
    try:
        linted.linter = projects.linter_for(path)
    except ConfigError as exc:
        linted.error = str(exc)
        return linted
    linted.linter.project.forget(path)  # what it learnt of this file came from another text
    linted.result = linted.linter.lint_source(str(path), Source(text.text, "utf-8"))
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


def lsp_diagnostics(linted: Linted) -> List[lsp.Diagnostic]:
    if linted.error is not None:
        top = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
        return [lsp.Diagnostic(range=top, message=f"configuration error: {linted.error}", severity=lsp.DiagnosticSeverity.Error, source=NAME)]
    return [to_lsp(d, linted.text) for d in sorted(linted.diagnostics, key=lambda d: d.sort_key())]


# -- code actions and hover -----------------------------------------------------------------------


def fix_title(diag: Diagnostic) -> str:
    assert diag.fix is not None
    if diag.fix.applicability == SAFE:
        return f"{diag.fix.message} ({diag.code})"
    return f"{diag.fix.message} ({diag.code}, unsafe fix: may change behaviour, review it)"


def quick_fixes(linted: Linted, wanted: lsp.Range) -> List[Tuple[Diagnostic, List[lsp.TextEdit]]]:
    """Each finding in ``wanted`` with a fix, and the fix's edits as ``--fix`` would make them."""
    found = []
    for diag in sorted(linted.diagnostics, key=lambda d: d.sort_key()):
        if not is_selected(diag, unsafe=True) or not overlaps(linted.text.range(diag), wanted):
            continue
        step = plan(linted.text.text, [diag])
        if step.applied:
            found.append((diag, linted.text.edits(step.edits)))
    return found


def fix_all(linted: Linted) -> List[lsp.TextEdit]:
    """The edits of every safe fix, applied as ``--fix`` applies them (pass after pass)."""
    if linted.linter is None or linted.result is None:
        return []
    outcome = fix_source(linted.linter, linted.path, Source(linted.text.text, "utf-8"), result=linted.result)
    for error in outcome.errors:
        log.warning("%s", error)
    if outcome.errors and not outcome.fixed:
        return []
    return linted.text.replace_with(outcome.text)


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


# -- the server ------------------------------------------------------------------------------------


class ReproServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.projects = Projects()
        self.linted: Dict[str, Linted] = {}
        self.pending: Dict[str, "asyncio.Task[None]"] = {}

    @property
    def root(self) -> Optional[str]:
        return self.workspace.root_path if self.workspace is not None else None

    def is_python(self, uri: str) -> bool:
        document = self.workspace.get_text_document(uri)
        return document.language_id == "python" or uri.endswith(PYTHON_SUFFIXES)

    def lint(self, uri: str) -> Optional[Linted]:
        """Lint the document's current text and publish the findings."""
        self.cancel_pending(uri)
        if not self.is_python(uri):
            return None
        document = self.workspace.get_text_document(uri)
        text = Text(document.source, self.workspace.position_codec)
        linted = lint_text(self.projects, uri, document.version, text, self.root)
        if linted.result is not None:
            for error in linted.result.errors:
                self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=f"repro-lint: {error}"))
        self.linted[uri] = linted
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=lsp_diagnostics(linted), version=document.version))
        return linted

    def current(self, uri: str) -> Optional[Linted]:
        """What linting the document's current version gave (linting it now if it changed since)."""
        known = self.linted.get(uri)
        document = self.workspace.get_text_document(uri)
        if known is not None and known.version == document.version and known.text.text == document.source:
            return known
        return self.lint(uri)

    def cancel_pending(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def lint_later(self, uri: str) -> None:
        self.cancel_pending(uri)

        async def later() -> None:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            self.pending.pop(uri, None)
            self.lint(uri)

        self.pending[uri] = asyncio.get_running_loop().create_task(later())

    def forget(self, uri: str) -> None:
        self.cancel_pending(uri)
        self.linted.pop(uri, None)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def workspace_edit(self, linted: Linted, edits: List[lsp.TextEdit]) -> lsp.WorkspaceEdit:
        capabilities = self.client_capabilities
        versioned = bool(capabilities.workspace and capabilities.workspace.workspace_edit and capabilities.workspace.workspace_edit.document_changes)
        if versioned:
            document = lsp.OptionalVersionedTextDocumentIdentifier(uri=linted.uri, version=linted.version)
            return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(text_document=document, edits=list(edits))])
        return lsp.WorkspaceEdit(changes={linted.uri: list(edits)})

    def code_actions(self, params: lsp.CodeActionParams) -> List[lsp.CodeAction]:
        uri = params.text_document.uri
        if not self.is_python(uri):
            return []
        linted = self.current(uri)
        if linted is None:
            return []
        only = params.context.only
        actions = []
        if wants(only, lsp.CodeActionKind.QuickFix.value):
            by_range = {(d.range.start.line, d.range.start.character, str(d.code)): d for d in params.context.diagnostics}
            for diag, edits in quick_fixes(linted, params.range):
                rng = linted.text.range(diag)
                actions.append(
                    lsp.CodeAction(
                        title=fix_title(diag),
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=[by_range.get((rng.start.line, rng.start.character, diag.code)) or to_lsp(diag, linted.text)],
                        is_preferred=diag.fix is not None and diag.fix.applicability == SAFE,
                        edit=self.workspace_edit(linted, edits),
                    )
                )
        if wants(only, FIX_ALL) and any(is_selected(d, unsafe=False) for d in linted.diagnostics):
            edits = fix_all(linted)
            if edits:
                actions.append(lsp.CodeAction(title="repro-lint: fix all safely fixable findings", kind=FIX_ALL, edit=self.workspace_edit(linted, edits)))
        return actions

    def hover(self, params: lsp.HoverParams) -> Optional[lsp.Hover]:
        uri = params.text_document.uri
        if not self.is_python(uri):
            return None
        linted = self.current(uri)
        if linted is None:
            return None
        text = hover_text(linted, *linted.text.server_position(params.position))
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def make_server() -> ReproServer:
    server = ReproServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        server.lint(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        server.lint_later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        # the project context read other files from disk (a seeding helper, an entry point),
        # which may have changed outside the editor since: read them again, relint every document
        server.projects.files_changed()
        for uri in dict.fromkeys([params.text_document.uri, *server.linted]):
            server.lint(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        server.forget(params.text_document.uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False),
    )
    def code_action(params: lsp.CodeActionParams) -> List[lsp.CodeAction]:
        return server.code_actions(params)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> Optional[lsp.Hover]:
        return server.hover(params)

    return server


def main(argv: Sequence[str] = ()) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="repro-lint server", description="Run the language server (LSP) over stdio.")
    parser.add_argument("--stdio", action="store_true", help="talk over stdin and stdout (the default, and the only transport)")
    parser.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="what to log on stderr")
    args = parser.parse_args(list(argv))
    logging.basicConfig(level=args.log_level, format="repro-lint server: %(levelname)s: %(message)s")
    make_server().start_io()
    return 0
