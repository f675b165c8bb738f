"""The language server: ``repro-lint server`` speaks the Language Server Protocol over stdio.

Built on ``pygls`` (the optional extra ``repro-lint[lsp]``); nothing else imports this package,
and the CLI imports it only for the ``server`` command. There is no second implementation:

- **diagnostics**: the text the editor holds (not the file on disk) goes through
  :meth:`repro_lint.engine.Linter.lint_source` on open, on change (after a short pause in
  typing) and on save, with the configuration the CLI would find for the document's path
  (``[tool.repro-lint]`` in the nearest ``pyproject.toml``; per-file-ignores and ``noqa``
  apply), and a project context over the files the CLI would lint from the project root;
- **quick fixes**: one code action per finding with a fix, its edits planned by
  :func:`repro_lint.fixer.plan`, as ``--fix`` plans them; safe fixes are preferred, unsafe ones
  say so in their title; and for every finding, ``# noqa: CODE`` on its line, as
  ``--add-noqa`` writes it (:func:`repro_lint.baseline.add_noqa_to_text`);
- **fix all** (``source.fixAll.repro-lint``): :func:`repro_lint.fixer.fix_source`, every safe
  fix, pass after pass, as ``--fix`` applies them, as one edit, computed only when the action is
  chosen (``codeAction/resolve``) for clients that support it;
- **hover** over a finding: the rule's code and name, and the first paragraph of its page;
- **notebooks** (LSP 3.17 notebook documents): the code cells are linted together, as the CLI
  lints an ``.ipynb`` file, and each finding is published on its cell
  (:mod:`repro_lint.server.notebooks`).

A configuration error is shown as a finding at the top of the document (the message names the
file and the key). What the project context knows of an open document (is it an entry point,
what its functions seed) comes from its text in the editor, for its own findings and for those
of the documents that import it; other files are read from disk, and read again on each save,
which relints every open document.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Dict, List, Optional, Sequence, Tuple

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..diagnostics import SAFE
from ..fixer import apply_text_edits, is_selected
from .documents import (
    FIX_ALL, NAME, Linted, Projects, Text, fix_all, findings_in, fix_title, hover_text, lint_text, lsp_diagnostics, quick_fix, to_lsp, wants, with_noqa,
)
from .notebooks import CellEdit, NotebookLinted, lint_notebook

FIX_ALL_TITLE = "repro-lint: fix all safely fixable findings"
#: seconds without a change before an edited document is linted again
DEBOUNCE_SECONDS = 0.25
PYTHON_SUFFIXES = (".py", ".pyi")

log = logging.getLogger(__name__)


# -- the server ------------------------------------------------------------------------------------

#: notebooks whose Python cells the server lints
NOTEBOOK_SYNC = lsp.NotebookDocumentSyncOptions(
    notebook_selector=[lsp.NotebookDocumentFilterWithCells(cells=[lsp.NotebookCellLanguage(language="python")], notebook="*")],
    save=True,
)


class ReproServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental, notebook_document_sync=NOTEBOOK_SYNC)
        self.projects = Projects()
        #: by document uri: text documents, and notebooks (by the notebook's uri)
        self.linted: Dict[str, Linted] = {}
        self.notebooks: Dict[str, NotebookLinted] = {}
        self.pending: Dict[str, "asyncio.Task[None]"] = {}

    @property
    def root(self) -> Optional[str]:
        return self.workspace.root_path if self.workspace is not None else None

    def is_python(self, uri: str) -> bool:
        document = self.workspace.get_text_document(uri)
        return document.language_id == "python" or uri.endswith(PYTHON_SUFFIXES)

    def publish(self, uri: str, diagnostics: List[lsp.Diagnostic], version: Optional[int] = None) -> None:
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    # -- linting ---------------------------------------------------------------------------------
    def lint(self, uri: str) -> Optional[Linted]:
        """Lint the text document's current text and publish the findings."""
        self.cancel_pending(uri)
        if not self.is_python(uri):
            return None
        document = self.workspace.get_text_document(uri)
        text = Text(document.source, self.workspace.position_codec)
        linted = lint_text(self.projects, uri, document.version, text, self.root)
        self.log_errors(linted)
        self.linted[uri] = linted
        self.publish(uri, lsp_diagnostics(linted), document.version)
        return linted

    def lint_notebook(self, uri: str) -> Optional[NotebookLinted]:
        """Lint the notebook's code cells and publish the findings on each cell."""
        self.cancel_pending(uri)
        document = self.workspace.get_notebook_document(notebook_uri=uri)
        if document is None:
            return None
        before = self.notebooks.get(uri)
        linted = lint_notebook(self.projects, document, self.workspace.get_text_document, self.workspace.position_codec, self.root)
        self.log_errors(linted.linted)
        self.notebooks[uri] = linted
        found = linted.diagnostics()
        for cell in linted.cells:
            self.publish(cell.uri, found[cell.uri], cell.version)
        for gone in set(c.uri for c in before.cells) - set(found) if before is not None else ():
            self.publish(gone, [])  # a cell deleted, or no longer a Python code cell
        return linted

    def log_errors(self, linted: Linted) -> None:
        for error in linted.result.errors if linted.result is not None else ():
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=f"repro-lint: {error}"))

    def saved(self, uri: str, notebook: bool = False) -> None:
        """A document was saved. The project context read other files from disk (a seeding
        helper, an entry point), which may have changed outside the editor since: read them
        again, and relint every open document."""
        self.projects.files_changed()
        if uri not in (self.notebooks if notebook else self.linted):
            (self.lint_notebook if notebook else self.lint)(uri)
        for text_uri in list(self.linted):
            self.lint(text_uri)
        for notebook_uri in list(self.notebooks):
            self.lint_notebook(notebook_uri)

    def current(self, uri: str) -> "Tuple[Optional[Linted], Optional[NotebookLinted]]":
        """What linting a text document's (or a notebook cell's notebook's) current version gave,
        linting it now if it changed since."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            known_notebook = self.notebooks.get(notebook.uri)
            text_of = lambda cell: self.workspace.get_text_document(cell).source  # noqa: E731
            if known_notebook is None or not known_notebook.is_current(notebook.version, text_of):
                known_notebook = self.lint_notebook(notebook.uri)
            return (known_notebook.linted if known_notebook else None), known_notebook
        if not self.is_python(uri):
            return None, None
        known = self.linted.get(uri)
        document = self.workspace.get_text_document(uri)
        if known is None or known.version != document.version or known.text.text != document.source:
            known = self.lint(uri)
        return known, None

    def cancel_pending(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def lint_later(self, uri: str, notebook: bool = False) -> None:
        self.cancel_pending(uri)

        async def later() -> None:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            self.pending.pop(uri, None)
            (self.lint_notebook if notebook else self.lint)(uri)

        self.pending[uri] = asyncio.get_running_loop().create_task(later())

    def forget(self, uri: str) -> None:
        self.cancel_pending(uri)
        linted = self.linted.pop(uri, None)
        if linted is not None and linted.linter is not None:
            linted.linter.project.learn_text(linted.path, None)  # closed: the file is the one on disk again
        notebook = self.notebooks.pop(uri, None)
        for cell_uri in [cell.uri for cell in notebook.cells] if notebook is not None else [uri]:
            self.publish(cell_uri, [])

    # -- requests ----------------------------------------------------------------------------------
    def workspace_edit(self, edits: List[CellEdit]) -> lsp.WorkspaceEdit:
        capabilities = self.client_capabilities
        versioned = bool(capabilities.workspace and capabilities.workspace.workspace_edit and capabilities.workspace.workspace_edit.document_changes)
        if versioned:
            return lsp.WorkspaceEdit(
                document_changes=[
                    lsp.TextDocumentEdit(text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits=list(changes))
                    for uri, version, changes in edits
                ]
            )
        return lsp.WorkspaceEdit(changes={uri: list(changes) for uri, _, changes in edits})

    def code_actions(self, params: lsp.CodeActionParams) -> List[lsp.CodeAction]:
        uri = params.text_document.uri
        linted, notebook = self.current(uri)
        if linted is None:
            return []
        cell = notebook.cell(uri) if notebook is not None else None
        if notebook is not None and cell is None:
            return []
        wanted = notebook.to_text_range(cell, params.range) if notebook is not None and cell is not None else params.range

        def edits_for(new_text: str) -> List[CellEdit]:
            if notebook is not None:
                return notebook.cell_edits(new_text)
            return [(uri, linted.version, linted.text.replace_with(new_text))] if new_text != linted.text.text else []

        only = params.context.only
        actions = []
        if wants(only, lsp.CodeActionKind.QuickFix.value):
            given = {(d.range.start.line, d.range.start.character, str(d.code)): d for d in params.context.diagnostics}
            for diag in findings_in(linted, wanted):
                if notebook is not None:
                    place, local = notebook.local(diag)
                    shown = to_lsp(local, place.text)
                else:
                    shown = to_lsp(diag, linted.text)
                shown = given.get((shown.range.start.line, shown.range.start.character, diag.code)) or shown
                step = quick_fix(linted, diag)
                if step is not None:
                    if notebook is not None:
                        edits = edits_for(apply_text_edits(linted.text.text, step.edits))
                    else:
                        edits = [(uri, linted.version, linted.text.edits(step.edits))]
                    if edits:
                        preferred = diag.fix is not None and diag.fix.applicability == SAFE
                        actions.append(lsp.CodeAction(title=fix_title(diag), kind=lsp.CodeActionKind.QuickFix, diagnostics=[shown], is_preferred=preferred, edit=self.workspace_edit(edits)))
                suppressed = with_noqa(linted, diag)
                if suppressed is not None:
                    title = f"Disable {diag.code} for this line (# noqa)"
                    actions.append(lsp.CodeAction(title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[shown], edit=self.workspace_edit(edits_for(suppressed))))
        if wants(only, FIX_ALL) and any(is_selected(d, unsafe=False) for d in linted.diagnostics):
            action = lsp.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL, data={"uri": uri})
            if not self.resolves_edits():  # else the edit is computed only if the action is chosen
                action = self.resolve_code_action(action)
            if action.edit is not None or action.data is not None:
                actions.append(action)
        return actions

    def resolves_edits(self) -> bool:
        """Does the client ask for a code action's edit when the action is chosen?"""
        text_document = self.client_capabilities.text_document
        code_action = text_document.code_action if text_document is not None else None
        resolve = code_action.resolve_support if code_action is not None else None
        return bool(code_action and code_action.data_support and resolve and "edit" in resolve.properties)

    def resolve_code_action(self, action: lsp.CodeAction) -> lsp.CodeAction:
        """The edit of the fix-all action (the only action whose edit is computed lazily)."""
        uri = action.data.get("uri") if isinstance(action.data, dict) else None
        if action.kind != FIX_ALL or not isinstance(uri, str):
            return action
        linted, notebook = self.current(uri)
        fixed = fix_all(linted) if linted is not None else None
        if fixed is None:
            return lsp.CodeAction(title=action.title, kind=action.kind)
        if notebook is not None:
            edits = notebook.cell_edits(fixed)
        else:
            edits = [(uri, linted.version, linted.text.replace_with(fixed))]
        return lsp.CodeAction(title=action.title, kind=action.kind, edit=self.workspace_edit(edits))

    def hover(self, params: lsp.HoverParams) -> Optional[lsp.Hover]:
        uri = params.text_document.uri
        linted, notebook = self.current(uri)
        if linted is None:
            return None
        if notebook is not None:
            cell = notebook.cell(uri)
            if cell is None:
                return None
            text = hover_text(linted, *notebook.to_text_position(cell, params.position))
        else:
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
        server.saved(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        server.forget(params.text_document.uri)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(params: lsp.DidOpenNotebookDocumentParams) -> None:
        server.lint_notebook(params.notebook_document.uri)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(params: lsp.DidChangeNotebookDocumentParams) -> None:
        server.lint_later(params.notebook_document.uri, notebook=True)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(params: lsp.DidSaveNotebookDocumentParams) -> None:
        server.saved(params.notebook_document.uri, notebook=True)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(params: lsp.DidCloseNotebookDocumentParams) -> None:
        server.forget(params.notebook_document.uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True),
    )
    def code_action(params: lsp.CodeActionParams) -> List[lsp.CodeAction]:
        return server.code_actions(params)

    @server.feature(lsp.CODE_ACTION_RESOLVE)
    def code_action_resolve(action: lsp.CodeAction) -> lsp.CodeAction:
        return server.resolve_code_action(action)

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
