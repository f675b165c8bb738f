"""The values that flow out of the engine: diagnostics, fixes and text edits.

Everything here is plain data (no CST nodes), so it can cross process boundaries, be
cached on disk and be printed by any reporter. Lines are 1-based; columns are 0-based
code-point offsets inside the line (reporters add 1 when they print, as flake8 and ruff do).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from .notebook import CellIndex
    from .source import Source

Position = Tuple[int, int]  # (line, column)

SAFE = "safe"
UNSAFE = "unsafe"


@dataclass(frozen=True)
class Edit:
    """Replace the text between ``start`` and ``end`` with ``content`` (an insertion when equal)."""

    start: Position
    end: Position
    content: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "location": {"row": self.start[0], "column": self.start[1] + 1},
            "end_location": {"row": self.end[0], "column": self.end[1] + 1},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Edit":
        loc, end = data["location"], data["end_location"]
        return cls((loc["row"], loc["column"] - 1), (end["row"], end["column"] - 1), data["content"])


@dataclass(frozen=True)
class Fix:
    """A set of edits that must be applied together. ``applicability`` is ``safe`` or ``unsafe``."""

    message: str
    edits: Tuple[Edit, ...]
    applicability: str = SAFE

    def to_dict(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability,
            "message": self.message,
            "edits": [e.to_dict() for e in self.edits],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Fix":
        return cls(data["message"], tuple(Edit.from_dict(e) for e in data["edits"]), data["applicability"])


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    path: str
    start: Position
    end: Position
    fix: Optional[Fix] = None
    noqa_row: int = field(default=0)
    #: a notebook's cells (positions are in the notebook's text, see :mod:`repro_lint.notebook`)
    cells: Optional["CellIndex"] = field(default=None, compare=False, repr=False)

    @property
    def line(self) -> int:
        return self.start[0]

    @property
    def cell(self) -> Optional[int]:
        """The notebook cell (1-based) of the finding; None outside notebooks."""
        return self.cells.locate(self.start[0])[0] if self.cells is not None else None

    def shown(self, position: Position) -> Position:
        """``position`` as reporters show it: in a notebook, its line counts from its cell's first."""
        if self.cells is None:
            return position
        return (self.cells.locate(position[0])[1], position[1])

    @property
    def col(self) -> int:
        return self.start[1]

    def sort_key(self) -> tuple:
        return (self.path, self.start, self.code, self.message)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "start": list(self.start),
            "end": list(self.end),
            "fix": self.fix.to_dict() if self.fix else None,
            "noqa_row": self.noqa_row,
            "cells": self.cells.to_list() if self.cells is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Diagnostic":
        return cls(
            data["code"],
            data["message"],
            data["path"],
            tuple(data["start"]),  # type: ignore[arg-type]
            tuple(data["end"]),  # type: ignore[arg-type]
            Fix.from_dict(data["fix"]) if data["fix"] else None,
            data["noqa_row"],
            _cell_index(data.get("cells")),
        )


def _cell_index(data: Any) -> "Optional[CellIndex]":
    if not data:
        return None
    from .notebook import CellIndex

    return CellIndex.from_list(data)


@dataclass(frozen=True)
class InternalError:
    """Something went wrong inside repro-lint itself (a rule raised, a fix would not parse).

    These are not findings about the user's code: they are printed to stderr and make the
    run exit with status 2, while every other finding is still reported.
    """

    path: str
    message: str
    rule: Optional[str] = None

    def __str__(self) -> str:
        where = f" in {self.rule}" if self.rule else ""
        return f"{self.path}: internal error{where}: {self.message}"


@dataclass
class FileResult:
    """What linting one file gave."""

    path: str
    diagnostics: List[Diagnostic] = field(default_factory=list)
    errors: List[InternalError] = field(default_factory=list)
    #: False when the prefilter proved no selected rule can fire (the file was not parsed)
    parsed: bool = False
    #: the decoded source and its encoding, kept only when the caller asks (fixer, --add-noqa)
    source: "Optional[Source]" = None
    #: other files the findings depend on, through the project context (absolute paths, or
    #: :data:`~repro_lint.context.ALL_FILES`); empty when they depend on this file alone
    depends_on: Tuple[str, ...] = ()
