"""Positions: node -> (line, column) spans, computed only for files that report something,
and, given the nodes that will be asked about, only for the statements that hold them."""

from __future__ import annotations

import bisect
import re
from typing import Callable, Collection, Dict, List, Optional, Sequence, Set, Tuple

from ._lazy import cst
from ._libcst_internals import OffsetCodegenState, VerbatimStatement
from .parse import code_lines
from .source import INDENTATION
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
    then runs over the innermost statements that hold them alone, each from its own offset in
    ``text`` (see :func:`statement_spans`); where that cannot be done exactly, over the module.
    """
    spans: Optional[Offsets] = None
    popped = ""
    text_lines: List[int] = []
    if targets is not None and text is not None:
        text_lines = line_offsets(text)
        spans = statement_spans(module, text, targets, text_lines)
    if spans is None:
        state = OffsetCodegenState(module)
        module._codegen(state)
        spans, popped = state.spans, state.popped
        if popped:
            text_lines = []  # (the lines of the text with the newline the pass dropped)

    def position(offset: int) -> Tuple[int, int]:
        if not text_lines:
            text_lines.extend(line_offsets((text if text is not None else module.code) + popped))
        line = bisect.bisect_right(text_lines, offset)
        return line, offset - text_lines[line - 1]

    def where(node: cst.CSTNode) -> Span:
        start, end = spans[node]  # type: ignore[index]
        return position(start), position(end)

    return where


def statement_spans(module: cst.Module, text: str, targets: Collection[cst.CSTNode], breaks: Optional[List[int]] = None) -> Optional[Offsets]:
    """The offsets of every node inside the statements of ``module`` that hold ``targets``, as
    a code generation pass over the whole module records them; None when that cannot be had
    this way (then generate the whole module).

    A statement starts at the start of the line its ``leading_lines`` start on, and the line of
    its first token is a logical line that starts with code at the statement's indentation
    (:func:`~repro_lint.parse.code_lines`). For a target inside the body of a compound
    statement (a method of a class, a call in ``main``), only the statement of that body that
    holds it is generated, from its own offset and with the indentation of the blocks around
    it: a finding in a large class costs the line it is on, not the class (the project
    corpus: 47 KB generated instead of 774 KB). Each statement generated must be exactly the
    text found at its offset, or the whole pass is used. ``breaks``: the text's line offsets
    (:func:`~repro_lint.source.line_offsets`), when the caller has them.
    """
    if not module.has_trailing_newline or not targets:
        return None  # the whole pass drops the last newline: let it do so
    paths = _paths_holding(module, targets)
    if paths is None:
        return None
    lines = code_lines(text)
    if breaks is None:
        breaks = line_offsets(text)
    top = [index for index, offset in enumerate(lines) if text[offset] not in _INDENTATION]
    firsts = _first_lines(module.body, top, lines, text)
    if firsts is None:
        return None
    state = OffsetCodegenState(module)
    #: the first lines of a block's statements, by the block (two targets in one class)
    placed: Dict[int, Optional[List[int]]] = {}
    for path in paths:
        first = firsts[path[0][0]]
        indents: List[str] = []
        for (_, owner), (position, _) in zip(path, path[1:]):
            # the statements of ``owner``'s indented body, one level deeper
            block = owner.body  # type: ignore[attr-defined]
            indents.append(block.indent if block.indent is not None else module.default_indent)
            if id(block) not in placed:
                inner = "".join(indents)
                body: List[int] = []
                for index in range(first + len(getattr(owner, "decorators", ())) + 1, len(lines)):
                    offset = lines[index]
                    if not text.startswith(inner, offset):
                        break  # the end of the block
                    if text[offset + len(inner)] not in _INDENTATION:
                        body.append(index)
                placed[id(block)] = _first_lines(block.body, body, lines, text, len(inner))
            found = placed[id(block)]
            if found is None:
                return None
            first = found[position]
        statement = path[-1][1]
        line = bisect.bisect_right(breaks, lines[first]) - len(statement.leading_lines)
        if not 1 <= line <= len(breaks):
            return None
        state.offset = start = breaks[line - 1]
        state.tokens = []
        state.indent_tokens = indents
        statement._codegen(state)
        if text[start : state.offset] != "".join(state.tokens):
            return None
    return state.spans


_INDENTATION = frozenset(INDENTATION)

#: a statement, and its position in the statements of the module or block that holds it
Step = Tuple[int, cst.BaseStatement]


def _paths_holding(module: cst.Module, targets: Collection[cst.CSTNode]) -> Optional[List[Tuple[Step, ...]]]:
    """The statements to generate for ``targets`` (found through the children the traversal
    visits), each as its path from the top-level statement that holds it: a path goes down
    into the indented body of a compound statement's first clause (not into its header,
    decorators or other clauses), to the statement of that body that holds the target. No
    path is inside another. None if a target is elsewhere (the module, its header, a node of
    punctuation or whitespace)."""
    remaining = set(targets)
    # the lines of a statement that the traversal does not visit (a fix's place: a blank line
    # before it, the end of its line), looked for on the statements met
    lines = {target for target in remaining if isinstance(target, (cst.EmptyLine, cst.TrailingWhitespace))}
    found: Set[Tuple[Step, ...]] = set()
    for index, top in enumerate(module.body):
        if not remaining:
            break
        # the statements to look in, each with its path (those of an indented body: a step
        # deeper); a statement's other nodes, on a stack of their own
        statements: List[Tuple[Step, ...]] = [((index, top),)]
        while statements and remaining:
            path = statements.pop()
            statement = path[-1][1]
            inner = _indented_body(statement)
            nodes: List[cst.CSTNode] = [statement]
            while nodes and remaining:
                node = nodes.pop()
                if node in remaining:
                    remaining.discard(node)
                    found.add(path)
                if lines:
                    held = lines.intersection(_lines_of(node))
                    if held:
                        remaining.difference_update(held)
                        lines.difference_update(held)
                        found.add(path)
                for child in syntax_children(node):
                    if child is not inner:
                        nodes.append(child)
                        continue
                    if inner in remaining or (lines and not lines.isdisjoint(_lines_of(inner))):  # type: ignore[arg-type]
                        held = {inner, *_lines_of(inner)}  # type: ignore[arg-type]
                        remaining.difference_update(held)
                        lines.difference_update(held)
                        found.add(path)
                    positions = {id(part): position for position, part in enumerate(inner.body)}  # type: ignore[union-attr]
                    for part in syntax_children(inner):  # type: ignore[arg-type]
                        position = positions.get(id(part))
                        if position is None:
                            nodes.append(part)
                        else:
                            statements.append((*path, (position, part)))  # type: ignore[arg-type]
    if remaining:
        return None
    paths: List[Tuple[Step, ...]] = []
    for path in sorted(found, key=len):  # a statement generated whole holds the deeper ones
        if not any(path[: len(other)] == other for other in paths):
            paths.append(path)
    return paths


def _lines_of(node: cst.CSTNode) -> List[cst.CSTNode]:
    """The blank lines and line ends that belong to a node (a statement's, a clause's, an
    indented block's after its colon and at its end), which generating it generates."""
    found: List[cst.CSTNode] = list(getattr(node, "leading_lines", ()))
    if isinstance(node, cst.IndentedBlock):
        found.append(node.header)
        found.extend(node.footer)
    elif isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        found.append(node.trailing_whitespace)
    for decorator in getattr(node, "decorators", ()):
        found.extend(decorator.leading_lines)
        found.append(decorator.trailing_whitespace)
    return found


def _indented_body(node: cst.CSTNode) -> "Optional[cst.IndentedBlock]":
    """The indented block of a compound statement's first clause (``def``, ``class``, ``if``,
    ``for``, ``while``, ``with``, ``try``), if it has one."""
    body = getattr(node, "body", None) if isinstance(node, cst.BaseCompoundStatement) else None
    return body if isinstance(body, cst.IndentedBlock) else None


def _first_lines(statements: Sequence[cst.BaseStatement], found: List[int], lines: List[int], text: str, column: int = 0) -> Optional[List[int]]:
    """For each of ``statements`` (of the module, or of one block), the index of its first line
    in ``lines`` (the logical lines with code), given ``found``, the indexes of those of them
    that start with code at the statements' ``column``: a statement's first decorator or
    first line, then its other decorators, its own line, and its clauses (``else:``,
    ``except``); None when they do not line up statement for statement. A wrong line cannot go
    unnoticed: :func:`statement_spans` checks the code generated from it against the text."""
    firsts: List[int] = []
    position = 0
    for statement in statements:
        if isinstance(statement, VerbatimStatement) or position >= len(found):
            return None
        firsts.append(found[position])
        position += 1 + len(getattr(statement, "decorators", ()))
        while position < len(found) and _CLAUSE.match(text, lines[found[position]] + column):
            position += 1
    return firsts if position == len(found) else None


#: a clause of a compound statement (at the column of its first line), not a statement
_CLAUSE = re.compile(r"(?:else|elif|except|finally)\b")
