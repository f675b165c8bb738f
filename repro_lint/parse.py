"""Parsing: LibCST's parse without its validation, in groups of statements for large files
(:mod:`repro_lint.groups`), after a check of how deeply the text nests.

:func:`parse_module` gives the same tree as ``libcst.parse_module``, faster and in less
memory (see :mod:`repro_lint._libcst_internals` for what it changes inside LibCST).
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from collections.abc import Iterator
from typing import List

from ._lazy import cst
from ._gc import GCPaused
from ._libcst_internals import ParserOutput
from . import groups
from .groups import CHUNK_SIZE
from .source import INDENTATION

#: files longer than this (characters) are parsed one group of top-level statements at a time:
#: LibCST's native parser needs several hundred bytes of memory per source byte while it runs
#: (torch's source, 2 jobs: at 384 KB, ``_meta_registrations.py``, 293 KB, raised a worker's
#: peak by 114 MB and ``_inductor/lowering.py`` by 77 MB; at 128 KB by 60 and 28 MB, for about
#: 2 % more CPU on the 42 files between the two sizes, which also build an ``ast``)
CHUNKED_ABOVE = 128 * 1024
# -- nesting: what LibCST and the recursive steps after it can take ----------------------------

#: the deepest expression (levels of the ``ast`` tree) that is analysed. Measured: LibCST's
#: parse time grows faster than the square of the nesting depth (a chain of 1,000 ``+`` took
#: 0.6 s, 2,000 took 2.7 s, 4,000 took 25 s; 200 nested ``(x + ...)`` 0.4 s, 400 took 2 s,
#: 1,000 over a minute), and its code generation (positions) recurses about two frames a
#: level. CPython itself refuses more than 200 nested brackets.
MAX_DEPTH = 300
#: the recursion limit while a tree of at most MAX_DEPTH levels is generated and walked (a
#: subscript is three LibCST levels, each about two frames of code generation)
RECURSION_LIMIT = 10_000

#: what can make an expression deeper, in a statement: brackets, and every operator, dot,
#: keyword, ``=`` or ``:`` (strings and comments are skipped; backslash continuations joined)
#: a string literal (its prefix, if any, is skipped as a name)
_STRING = (
    r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*"'
    r"|'[^'\\\r\n]*(?:\\.[^'\\\r\n]*)*'"
)
#: logical lines: brackets and line breaks, strings and comments skipped (the possessive
#: prefix skips everything else at C speed)
_LINES = re.compile(
    r"[^#\\\"'()\[\]{}\r\n]*+(?:(?P<skip>#[^\r\n]*|\\\r?\n|\\\r|\\|" + _STRING + r")"
    r"|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<newline>\r?\n|\r)|(?P<other>.))",
    re.DOTALL,
)
#: inside one logical line: what can make an expression one level deeper (every string
#: counts, for implicit concatenation)
_CHAIN = re.compile(
    r"[^#\\\"'()\[\]{},;\-+*/%@&|^~.=:<>A-Za-z_]*+"
    r"(?:(?P<skip>#[^\r\n]*|\\)|(?P<word>[A-Za-z_]\w*)|(?P<op>" + _STRING + r"|[-+*/%@&|^~.=:<>])"
    r"|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<comma>[,;])|(?P<other>.))",
    re.DOTALL,
)
_OPERATOR_WORDS = frozenset({"and", "or", "not", "if", "else", "for", "await", "yield"})


#: CPython's words when it refuses to nest further
_TOO_NESTED = ("too many nested", "too complex", "too many statically nested")


class NestedTooDeeply(RecursionError):
    """The text nests deeper than :data:`MAX_DEPTH` (or ``ast`` cannot say): not parsed.
    ``line``: where the deepest statement starts."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _logical_lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each logical line of ``text``: its line breaks inside brackets,
    strings, and after backslashes are skipped; the end is that of its last line, before the
    line break."""
    depth = start = 0
    for match in _LINES.finditer(text):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            if depth:
                depth -= 1
        elif kind == "newline" and not depth:
            yield start, match.start(kind)
            start = match.end()
    yield start, len(text)


def _long_lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of the logical lines longer than :data:`MAX_DEPTH` characters: only
    those can nest deeper (a level takes at least one character)."""
    return ((start, end) for start, end in _logical_lines(text) if end - start > MAX_DEPTH)


def code_lines(text: str) -> List[int]:
    """The offsets of the logical lines of ``text`` that hold code: the first line of each
    statement, of each of its decorators and of each clause (``else:``, ``except``), at any
    indentation; not blank lines, comments, or lines inside brackets, strings or backslash
    continuations. A fraction of an ``ast`` parse (placing the top-level statements of every
    file of torch's source: 0.90 s, against 8.1 s from CPython's ``ast``)."""
    holds_code = _HOLDS_CODE.match
    return [start for start, _ in _logical_lines(text) if holds_code(text, start)]


#: a line whose indentation is followed by code (not a comment, nor the line's end)
_HOLDS_CODE = re.compile(rf"[{INDENTATION}]*[^{INDENTATION}\r\n#]")


def _depth_bound(text: str, start: int, end: int) -> int:
    """An upper bound of the depth of the expressions of one logical line: along the way, the
    sum over the open brackets of two levels each plus the operators since the last comma at
    that level (lambdas count past commas); a closed bracket is one operand of its level."""
    reset: list[int] = [0]  # per open level: operators since its last comma
    kept: list[int] = [0]  # per open level: lambdas
    total = deepest = 0
    for match in _CHAIN.finditer(text, start, end):
        kind = match.lastgroup
        if kind == "word":
            word = match.group(kind)
            kind = "op" if word in _OPERATOR_WORDS else "lambda" if word == "lambda" else None
        if kind == "op":
            reset[-1] += 1
            total += 1
        elif kind == "comma":
            total -= reset[-1]
            reset[-1] = 0
        elif kind == "open":
            reset.append(0)
            kept.append(0)
            total += 2
        elif kind == "close":
            if len(reset) > 1:
                total -= 2 + reset.pop() + kept.pop()
            reset[-1] += 1
            total += 1
        elif kind == "lambda":
            kept[-1] += 1
            total += 1
        else:
            continue
        deepest = max(deepest, total)
    return deepest


def _ast_depth(tree: ast.AST) -> int:
    """The depth of ``tree``; a chain of ``and``/``or`` counts a level per operand, as in
    LibCST (``ast`` keeps it flat)."""
    deepest = 0
    stack = [(tree, 0)]
    pop, push, children = stack.pop, stack.append, ast.iter_child_nodes
    while stack:
        node, depth = pop()
        if type(node) is ast.BoolOp:
            depth += len(node.values) - 1  # type: ignore[attr-defined]
        deepest = max(deepest, depth)
        for child in children(node):
            push((child, depth + 1))
    return deepest


def check_nesting(text: str) -> None:
    """Raise :class:`NestedTooDeeply` when ``text`` nests deeper than :data:`MAX_DEPTH`.

    Linear in the text: one scan finds the logical lines long enough to nest that deep, a
    second bounds their depth from above (:func:`_depth_bound`); only when a line may be too
    deep is the text parsed with ``ast`` (in C) and its real depth measured. When ``ast``
    rejects such a text, its error is the message: LibCST is not given a text it may take
    minutes on."""
    offset = next((start for start, end in _long_lines(text) if _depth_bound(text, start, end) > MAX_DEPTH), None)
    if offset is None:
        return
    line = text.count("\n", 0, offset) + 1
    too_deep = f"nested too deeply to analyse (limit {MAX_DEPTH} levels)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (RecursionError, MemoryError):
        raise NestedTooDeeply(too_deep, line) from None
    except SyntaxError as exc:
        if any(words in str(exc.msg) for words in _TOO_NESTED):
            raise NestedTooDeeply(too_deep, exc.lineno or line) from None
        raise NestedTooDeeply(f"cannot parse: {exc.msg}", exc.lineno or line) from None
    except ValueError as exc:  # e.g. NUL bytes
        raise NestedTooDeeply(f"cannot parse: {exc}", line) from None
    depth = _ast_depth(tree)
    if depth > MAX_DEPTH:
        deepest = max(tree.body, key=_ast_depth, default=None)
        raise NestedTooDeeply(f"nested {depth} levels deep: too deeply to analyse (limit {MAX_DEPTH})", getattr(deepest, "lineno", line))


class DeepRecursion:
    """A recursion limit of at least :data:`RECURSION_LIMIT` while LibCST's recursive steps
    (code generation, positions, a rule's helpers) run on a tree :func:`check_nesting` let through."""

    def __enter__(self) -> None:
        self._was = sys.getrecursionlimit()
        if self._was < RECURSION_LIMIT:
            sys.setrecursionlimit(RECURSION_LIMIT)

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self._was)


def parse_module(text: str, chunked_above: int = CHUNKED_ABOVE, chunk_size: int = CHUNK_SIZE) -> cst.Module:
    """``libcst.parse_module(text)``, the same tree, faster and in less memory.

    Raises what ``libcst.parse_module`` raises for text it cannot parse, and
    :class:`NestedTooDeeply` (before parsing) for text nested deeper than :data:`MAX_DEPTH`.
    """
    check_nesting(text)
    with ParserOutput(), GCPaused():
        if len(text) > chunked_above:
            try:
                module = groups.parse_in_groups(text, chunk_size)
            except Exception:
                module = None  # the whole-file parse below raises the error, with its real position
            if module is not None:
                return module
        return cst.parse_module(text)
