"""Notebook documents (LSP 3.17 ``notebookDocument/*``): the code cells are linted together as
one script, exactly as the CLI lints an ``.ipynb`` file (:mod:`repro_lint.notebook` joins them,
with the cell index that maps a line of the joined text to a cell), and each finding is
published on its cell's document. Fixes are applied to the joined text as ``--fix`` applies
them, split back into cells by :meth:`repro_lint.notebook.Notebook.with_text`, and sent as one
edit per changed cell.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Dict, List, Optional, Tuple

from lsprotocol import types as lsp
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

from ..diagnostics import Diagnostic
from ..notebook import Notebook, NotebookError, from_cells
from ..source import NotebookSource
from .documents import Linted, Projects, Text, configuration_error, lint_text, to_lsp

#: (cell document uri, its version, the edits of that cell)
CellEdit = Tuple[str, Optional[int], List[lsp.TextEdit]]


@dataclass
class Cell:
    uri: str
    number: int  # 1-based, counting every cell of the notebook (as Jupyter and the CLI number them)
    text: Text
    version: Optional[int]


@dataclass
class NotebookLinted:
    """One version of a notebook document and what linting its code cells gave."""

    linted: Linted  # of the joined text
    notebook: Notebook
    cells: List[Cell]

    @property
    def uri(self) -> str:
        return self.linted.uri

    def cell(self, uri: str) -> Optional[Cell]:
        return next((cell for cell in self.cells if cell.uri == uri), None)

    def is_current(self, version: int, text_of: Callable[[str], str]) -> bool:
        return self.linted.version == version and all(text_of(cell.uri) == cell.text.text for cell in self.cells)

    # -- joined text <-> cells -----------------------------------------------------------------
    def local(self, diag: Diagnostic) -> Tuple[Cell, Diagnostic]:
        """The cell of a finding, and the finding with lines counted from that cell's first."""
        index = self.notebook.index
        which, line = index.code_cell(diag.start[0])  # the code cells are self.cells, in order
        end_which, end_line = index.code_cell(diag.end[0])
        end = (end_line, diag.end[1]) if end_which == which else (line, diag.start[1])
        return self.cells[which], replace(diag, start=(line, diag.start[1]), end=end, cells=None)

    def to_text_range(self, cell: Cell, rng: lsp.Range) -> lsp.Range:
        """A range of a cell as a range of the joined text (a cell's lines are the text's lines)."""
        start = self.notebook.index.to_text_line(cell.number, rng.start.line + 1) - 1
        end = self.notebook.index.to_text_line(cell.number, rng.end.line + 1) - 1
        return lsp.Range(lsp.Position(start, rng.start.character), lsp.Position(end, rng.end.character))

    def to_text_position(self, cell: Cell, position: lsp.Position) -> Tuple[int, int]:
        """A cell position as a 0-based line of the joined text and a column in code points."""
        line, col = cell.text.server_position(position)
        return self.notebook.index.to_text_line(cell.number, line + 1) - 1, col

    def diagnostics(self) -> Dict[str, List[lsp.Diagnostic]]:
        """The findings of every code cell, by cell document (an empty list for a clean cell)."""
        found: Dict[str, List[lsp.Diagnostic]] = {cell.uri: [] for cell in self.cells}
        if self.linted.error is not None:
            if self.cells:
                found[self.cells[0].uri].append(configuration_error(self.linted.error))
            return found
        for diag in sorted(self.linted.diagnostics, key=lambda d: d.sort_key()):
            cell, local = self.local(diag)
            found[cell.uri].append(to_lsp(local, cell.text))
        return found

    def cell_edits(self, new_text: str) -> List[CellEdit]:
        """The joined text changed to ``new_text``, as an edit of each cell it changes."""
        try:
            changed = self.notebook.with_text(new_text)
        except NotebookError:
            return []
        edits = []
        for cell, source in zip(self.cells, changed.cell_sources()):
            cell_edits = cell.text.replace_with(source)
            if cell_edits:
                edits.append((cell.uri, cell.version, cell_edits))
        return edits


def lint_notebook(
    projects: Projects,
    document: lsp.NotebookDocument,
    text_document: Callable[[str], TextDocument],
    codec: PositionCodec,
    root: Optional[str],
) -> NotebookLinted:
    cells = []
    for position, notebook_cell in enumerate(document.cells):
        if notebook_cell.kind != lsp.NotebookCellKind.Code:
            continue
        cell_document = text_document(notebook_cell.document)
        if cell_document.language_id not in (None, "python"):
            continue
        cells.append(Cell(notebook_cell.document, position + 1, Text(cell_document.source, codec), cell_document.version))
    notebook = from_cells([cell.text.text for cell in cells], [cell.number for cell in cells])
    source = NotebookSource(notebook)
    linted = lint_text(projects, document.uri, document.version, Text(notebook.text, codec), root, source)
    return NotebookLinted(linted, notebook, cells)
