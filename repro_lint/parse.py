"""Parsing: LibCST's parse without its validation, in chunks for large files, and the
CPython syntax check used for files no rule can fire on.

:func:`parse_module` gives the same tree as ``libcst.parse_module``, faster and in less
memory (see :mod:`repro_lint._libcst_internals` for what it changes inside LibCST).
"""

from __future__ import annotations

import ast
import warnings
from typing import Dict, List, Optional, Tuple

import libcst as cst

from ._gc import GCPaused
from ._libcst_internals import ParserOutput, VerbatimStatement
from .source import line_offsets

#: files longer than this (characters) are parsed one group of top-level statements at a time:
#: LibCST's native parser needs several hundred bytes of memory per source byte while it runs
CHUNKED_ABOVE = 384 * 1024
#: the size of one group (a single statement larger than this is one group of its own)
CHUNK_SIZE = 128 * 1024
#: a top-level statement at least this long that only binds literal data (a table of numbers
#: and strings, as generated code holds) is kept as its text, not parsed: no rule looks inside
#: such a statement, and LibCST would need over a gigabyte per megabyte of it
VERBATIM_ABOVE = 64 * 1024


#: literal data: constants, containers of them, signs, and names read as values (``torch.float16``)
_LITERAL_NODES = (
    ast.Constant, ast.Dict, ast.List, ast.Tuple, ast.Set, ast.Load, ast.UnaryOp, ast.USub, ast.UAdd, ast.Name, ast.Attribute,
)
_ANNOTATION_NODES = (ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.Constant, ast.Load, ast.BinOp, ast.BitOr)


def _only(node: Optional[ast.AST], kinds: Tuple[type, ...]) -> bool:
    return node is None or all(isinstance(child, kinds) for child in ast.walk(node))


def _binds_only_literals(stmt: ast.stmt) -> bool:
    """``NAME = <literal>``, ``NAME: <type> = <literal>`` or a bare literal: numbers, strings,
    names read as values, and dicts, lists, tuples and sets of them (nothing is called,
    subscripted, computed or assigned inside it)."""
    if isinstance(stmt, ast.Assign):
        return all(isinstance(t, ast.Name) for t in stmt.targets) and _only(stmt.value, _LITERAL_NODES)
    if isinstance(stmt, ast.AnnAssign):
        return (
            isinstance(stmt.target, ast.Name)
            and stmt.value is not None
            and _only(stmt.annotation, _ANNOTATION_NODES)
            and _only(stmt.value, _LITERAL_NODES)
        )
    if isinstance(stmt, ast.Expr):
        return _only(stmt.value, _LITERAL_NODES)
    return False



def compile_check(text: str, path: str, bytecode: bool) -> None:
    """CPython's check of ``text`` (SyntaxError if it rejects it); warnings are not ours to print."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(text, path, "exec", 0 if bytecode else ast.PyCF_ONLY_AST, dont_inherit=True)


def compiles(text: str, path: str, bytecode: bool) -> bool:
    try:
        compile_check(text, path, bytecode)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def parse_module(text: str, chunked_above: int = CHUNKED_ABOVE, chunk_size: int = CHUNK_SIZE) -> cst.Module:
    """``libcst.parse_module(text)``, the same tree, faster and in less memory.

    Raises what ``libcst.parse_module`` raises for text it cannot parse.
    """
    with ParserOutput(), GCPaused():
        if len(text) > chunked_above:
            try:
                module = _parse_in_chunks(text, chunk_size)
            except Exception:
                module = None  # the whole-file parse below raises the error, with its real position
            if module is not None:
                return module
        return cst.parse_module(text)


def first_line(stmt: ast.stmt) -> int:
    """The line a top-level statement's code starts on (its first decorator's, if any)."""
    return min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])


def ast_module(text: str) -> Optional[ast.Module]:
    """CPython's ``ast`` of ``text``; None when it does not parse there (newer syntax than
    this Python's, or an error). Warnings about the user's code are not ours to print."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _chunk_offsets(text: str, chunk_size: int) -> Optional[Tuple[List[int], Dict[int, int]]]:
    """Offsets where the text may be cut between top-level statements (so that every piece
    is a module of its own), about ``chunk_size`` apart; and the pieces that hold one large
    literal-data statement alone, to keep verbatim (see :data:`VERBATIM_ABOVE`): their start
    and the end of the statement's last line. None when the text does not parse with
    ``ast`` (newer syntax than this Python's, or an error): then it is parsed whole."""
    tree = ast_module(text)
    if tree is None:
        return None
    lines = line_offsets(text) + [len(text)]
    cuts = [0]
    verbatim: Dict[int, int] = {}
    last_end = 0
    body = tree.body
    for number, stmt in enumerate(body):
        first = first_line(stmt)
        end = stmt.end_lineno or stmt.lineno
        if last_end and first > last_end:
            offset = lines[first - 1]
            following = first_line(body[number + 1]) if number + 1 < len(body) else None
            if following is not None and following > end and lines[end] - offset >= VERBATIM_ABOVE and _binds_only_literals(stmt):
                # alone in its piece, with the comment and blank lines up to the next statement
                if offset > cuts[-1]:
                    cuts.append(offset)
                verbatim[offset] = lines[end]
                cuts.append(lines[following - 1])
            elif offset > cuts[-1] and offset - cuts[-1] >= chunk_size and len(text) - offset >= chunk_size // 2:
                cuts.append(offset)
        last_end = max(last_end, end)
    return (cuts, verbatim) if len(cuts) > 1 else None


def _parse_in_chunks(text: str, chunk_size: int) -> Optional[cst.Module]:
    found = _chunk_offsets(text, chunk_size)
    if found is None:
        return None
    cuts, verbatim = found
    cuts.append(len(text))
    first: Optional[cst.Module] = None
    body: List[cst.BaseStatement] = []
    pending: List[cst.EmptyLine] = []  # comment and blank lines waiting for the next statement
    pieces: List[cst.Module] = []
    for start, stop in zip(cuts, cuts[1:]):
        if start in verbatim:
            end = verbatim[start]
            after = cst.parse_module(text[end:stop])  # only comment and blank lines
            statement = VerbatimStatement(text[start:end])
            piece = after.with_changes(body=[statement], header=[], footer=[*after.header, *after.footer])
        else:
            piece = cst.parse_module(text[start:stop])
        pieces.append(piece)
        if first is None:
            first = piece
            body.extend(piece.body)
            pending = list(piece.footer)
            continue
        # a whole-file parse gives these lines to the next statement's leading_lines
        lead = pending + list(piece.header)
        statements = list(piece.body)
        if statements:
            if lead:
                statements[0] = statements[0].with_changes(leading_lines=lead + list(statements[0].leading_lines))
            pending = list(piece.footer)
        else:
            pending = lead + list(piece.footer)
        body.extend(statements)
    assert first is not None
    # what a whole-file parse detects: the first indentation of the file, the last piece's end
    indent = next(
        (p.default_indent for p in pieces if any(isinstance(getattr(s, "body", None), cst.IndentedBlock) for s in p.body)),
        first.default_indent,
    )
    return first.with_changes(
        body=body, footer=pending, default_indent=indent, has_trailing_newline=pieces[-1].has_trailing_newline
    )


