"""Positions: node -> (line, column) spans, computed only for files that report something,
and, given the nodes that will be asked about, only for the top-level statements that hold
them."""

from __future__ import annotations

import bisect
from typing import Callable, Collection, Dict, List, Optional, Set, Tuple

from ._lazy import cst
from ._libcst_internals import OffsetCodegenState, VerbatimStatement
from .parse import ast_module, first_line
from .source import line_offsets
from .children import syntax_children

Span = Tuple[Tuple[int, int], Tuple[int, int]]
Offsets = Dict[cst.CSTNode, Tuple[int, int]]


def node_positions(
    module: cst.Module, text: Optional[str] = None, targets: Optional[Collection[cst.CSTNode]] = None
) -> Callable[[cst.CSTNode], Span]:
    """``node -> ((line, col), (end_line, end_col))``, the same as LibCST's ``PositionProvider``
    (1-based lines, 0-based code-point columns). ``text`` is the module's code when the caller
    has it (the source it was parsed from).

    Without ``targets``, every node of ``module`` can be asked about (one code generation pass
    over the module). With ``targets`` (and ``text``), only those nodes can: code generation
    then runs over the top-level statements that hold them alone, each from its own offset in
    ``text`` (see :func:`statement_spans`); where that cannot be done exactly, over the module.
    """
    spans: Optional[Offsets] = None
    popped = ""
    if targets is not None and text is not None:
        spans = statement_spans(module, text, targets)
    if spans is None:
        state = OffsetCodegenState(module)
        module._codegen(state)
        spans, popped = state.spans, state.popped
    text_lines: List[int] = []

    def position(offset: int) -> Tuple[int, int]:
        if not text_lines:
            text_lines.extend(line_offsets((text if text is not None else module.code) + popped))
        line = bisect.bisect_right(text_lines, offset)
        return line, offset - text_lines[line - 1]

    def where(node: cst.CSTNode) -> Span:
        start, end = spans[node]  # type: ignore[index]
        return position(start), position(end)

    return where


def statement_spans(module: cst.Module, text: str, targets: Collection[cst.CSTNode]) -> Optional[Offsets]:
    """The offsets of every node inside the top-level statements of ``module`` that hold one
    of ``targets``, as a code generation pass over the whole module records them; None when
    that cannot be had this way (then generate the whole module).

    A top-level statement starts at column 0 of the line its ``leading_lines`` start on, and
    the line of its first token is the line CPython's ``ast`` gives for its first statement
    (or first decorator). Code generation of that statement alone, from that offset, records
    the same offsets as the whole pass, and is checked against ``text``: every statement
    generated must be exactly the text found at its offset, or the whole pass is used.
    """
    if not module.has_trailing_newline or not targets:
        return None  # the whole pass drops the last newline: let it do so
    needed = _statements_holding(module, targets)
    if needed is None:
        return None
    starts = _statement_starts(module, text)
    if starts is None:
        return None
    state = OffsetCodegenState(module)
    for index in sorted(needed):
        state.offset = start = starts[index]
        state.tokens = []
        module.body[index]._codegen(state)
        if text[start : state.offset] != "".join(state.tokens):
            return None
    return state.spans


def _statements_holding(module: cst.Module, targets: Collection[cst.CSTNode]) -> Optional[Set[int]]:
    """The indexes of the top-level statements that hold ``targets`` (found through the
    children the traversal visits); None if one is elsewhere (the module, its header, a
    node of punctuation or whitespace)."""
    remaining = set(targets)
    needed: Set[int] = set()
    for index, statement in enumerate(module.body):
        if not remaining:
            break
        stack: List[cst.CSTNode] = [statement]
        while stack:
            node = stack.pop()
            if node in remaining:
                remaining.discard(node)
                needed.add(index)
            stack.extend(syntax_children(node))
    return None if remaining else needed


def _statement_starts(module: cst.Module, text: str) -> Optional[List[int]]:
    """The offset in ``text`` at which each top-level statement's code starts (its leading
    lines included), from the lines CPython's parser gives; None when the two parsers do not
    line up statement for statement (or CPython cannot parse the text)."""
    tree = ast_module(text)
    if tree is None:
        return None
    lines = line_offsets(text)
    body = tree.body
    starts: List[int] = []
    position = 0
    for statement in module.body:
        if isinstance(statement, VerbatimStatement) or position >= len(body):
            return None
        line = first_line(body[position])
        position += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        start = line - len(statement.leading_lines)
        if not 1 <= start <= len(lines):
            return None
        starts.append(lines[start - 1])
    return starts if position == len(body) else None
