"""Positions: node -> (line, column) spans, computed only for files that report something."""

from __future__ import annotations

import bisect
from typing import Callable, List, Optional, Tuple

import libcst as cst

from ._libcst_internals import OffsetCodegenState
from .source import line_offsets

Span = Tuple[Tuple[int, int], Tuple[int, int]]


def node_positions(module: cst.Module, text: Optional[str] = None) -> Callable[[cst.CSTNode], Span]:
    """``node -> ((line, col), (end_line, end_col))``, the same as LibCST's ``PositionProvider``
    (1-based lines, 0-based code-point columns), for every node of ``module``. ``text`` is the
    module's code when the caller has it (the source it was parsed from)."""
    state = OffsetCodegenState(module)
    module._codegen(state)
    text_lines: List[int] = []

    def position(offset: int) -> Tuple[int, int]:
        if not text_lines:
            text_lines.extend(line_offsets((text if text is not None else module.code) + state.popped))
        line = bisect.bisect_right(text_lines, offset)
        return line, offset - text_lines[line - 1]

    def where(node: cst.CSTNode) -> Span:
        start, end = state.spans[node]
        return position(start), position(end)

    return where


