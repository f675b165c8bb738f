"""Parsing: LibCST's parse without its validation, in chunks for large files, and the
CPython syntax check used for files no rule can fire on.

:func:`parse_module` gives the same tree as ``libcst.parse_module``, faster and in less
memory (see :mod:`repro_lint._libcst_internals` for what it changes inside LibCST).
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from collections.abc import Iterator
from typing import Dict, List, Optional, Tuple

from ._lazy import cst
from ._gc import GCPaused
from ._libcst_internals import ParserOutput, VerbatimStatement
from .source import line_breaks, line_offsets
from .syntax import ast_module

#: files longer than this (characters) are parsed one group of top-level statements at a time:
#: LibCST's native parser needs several hundred bytes of memory per source byte while it runs
CHUNKED_ABOVE = 384 * 1024
#: the size of one group (a single statement larger than this is one group of its own)
CHUNK_SIZE = 128 * 1024
#: a top-level statement longer than twice ``CHUNK_SIZE`` that binds a list display
#: (``op_db: List[OpInfo] = [OpInfo(...), ...]``) is parsed as its groups of elements: the
#: native parser holds about 430 bytes per byte of the text it parses (a 660 KB list took
#: 286 MB), and the whole tree it gives is a tenth of that
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


#: what a line's indentation is made of
INDENTATION = " \t\f"
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
                module = _parse_in_chunks(text, chunk_size)
            except Exception:
                module = None  # the whole-file parse below raises the error, with its real position
            if module is not None:
                return module
        return cst.parse_module(text)


def first_line(stmt: ast.stmt) -> int:
    """The line a top-level statement's code starts on (its first decorator's, if any)."""
    return min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])


#: a list display split into groups: the offsets of its ``[`` and ``]``, and the offsets
#: just after the commas where its element groups are cut
Split = Tuple[int, int, List[int]]


def _chunk_offsets(text: str, chunk_size: int) -> Optional[Tuple[List[int], Dict[int, int], Dict[int, Split]]]:
    """Offsets where the text may be cut between top-level statements (so that every piece
    is a module of its own), about ``chunk_size`` apart; the pieces that hold one large
    literal-data statement alone, to keep verbatim (see :data:`VERBATIM_ABOVE`): their start
    and the end of the statement's last line; and the pieces that hold one large statement
    binding a list display alone, to parse in groups of elements. None when the text does
    not parse with ``ast`` (newer syntax than this Python's, or an error): then it is
    parsed whole."""
    if _mixed_line_breaks(text):
        return None
    tree = ast_module(text)
    if tree is None:
        return None
    lines = line_offsets(text) + [len(text)]
    cuts = [0]
    verbatim: Dict[int, int] = {}
    split: Dict[int, Split] = {}
    last_end = 0
    body = tree.body
    for number, stmt in enumerate(body):
        first = first_line(stmt)
        end = stmt.end_lineno or stmt.lineno
        if first > last_end:
            offset = lines[first - 1]
            following = first_line(body[number + 1]) if number + 1 < len(body) else None
            # alone on its lines; the last statement only when a line break ends it (a verbatim
            # statement must not be the token a module without a final newline drops)
            alone = following > end if following is not None else text[lines[end] - 1 : lines[end]] in ("\n", "\r")
            size = lines[end] - offset
            groups = _element_groups(text, lines, stmt, chunk_size) if alone and size > 2 * chunk_size else None
            if alone and (groups is not None or (last_end and size >= VERBATIM_ABOVE and _binds_only_literals(stmt))):
                # alone in its piece, with the comment and blank lines up to the next statement
                if offset > cuts[-1]:
                    cuts.append(offset)
                if groups is not None:
                    split[offset] = groups
                else:
                    verbatim[offset] = lines[end]
                if following is not None:
                    cuts.append(lines[following - 1])
            elif last_end and offset > cuts[-1] and offset - cuts[-1] >= chunk_size and len(text) - offset >= chunk_size // 2:
                cuts.append(offset)
        last_end = max(last_end, end)
    return (cuts, verbatim, split) if len(cuts) > 1 else None


def _mixed_line_breaks(text: str) -> bool:
    """Has ``text`` carriage returns other than all its line breaks being ``\r\n``?"""
    if "\r" not in text:
        return False
    _, lf, cr = line_breaks(text)
    return lf > 0 or cr > 0


def _offset(text: str, lines: List[int], line: int, col: int) -> int:
    """The character offset of ``ast``'s (line, UTF-8 byte column)."""
    start = lines[line - 1]
    return start + len(text[start : lines[line]].encode("utf-8")[:col].decode("utf-8", "replace"))


def _element_groups(text: str, lines: List[int], stmt: ast.stmt, chunk_size: int) -> Optional[Split]:
    """Where to cut the list display that ``stmt`` binds (``NAME = [...]``, ``NAME: T = [...]``)
    into groups of elements about ``chunk_size`` long: just after the comma that follows an
    element (found between the two elements' ``ast`` spans, where only brackets, blanks,
    comments and that comma can be). None for any other statement."""
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
    if not isinstance(value, ast.List) or len(value.elts) < 2:
        return None
    if value.end_lineno is None or value.end_col_offset is None:
        return None
    opening = _offset(text, lines, value.lineno, value.col_offset)
    closing = _offset(text, lines, value.end_lineno, value.end_col_offset) - 1
    if text[opening] != "[" or text[closing] != "]":
        return None
    cuts: List[int] = []
    last = opening
    for before, after in zip(value.elts, value.elts[1:]):
        if before.end_lineno is None or before.end_col_offset is None:
            return None
        start = _offset(text, lines, before.end_lineno, before.end_col_offset)
        stop = _offset(text, lines, after.lineno, after.col_offset)
        comma = _comma(text, start, stop)
        if comma is None:
            return None
        if comma + 1 - last >= chunk_size:
            cuts.append(comma + 1)
            last = comma + 1
    return (opening, closing, cuts) if cuts else None


def _comma(text: str, start: int, stop: int) -> Optional[int]:
    """The offset of the first comma in ``text[start:stop]`` outside comments."""
    position = start
    while position < stop:
        char = text[position]
        if char == ",":
            return position
        if char == "#":
            newline = text.find("\n", position, stop)
            if newline < 0:
                return None
            position = newline
        position += 1
    return None


def _parse_in_chunks(text: str, chunk_size: int) -> Optional[cst.Module]:
    found = _chunk_offsets(text, chunk_size)
    if found is None:
        return None
    cuts, verbatim, split = found
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
            piece = after.with_changes(
                body=[statement], header=[], footer=[*after.header, *after.footer],
                has_trailing_newline=after.has_trailing_newline or end == stop,
            )
        elif start in split:
            piece = _parse_split(text, start, stop, split[start])
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




def _parse_split(text: str, start: int, stop: int, groups: Split) -> cst.Module:
    """The piece ``text[start:stop]``, whose statement binds the list display ``groups``
    describes, parsed as the statement with an empty list and each group of elements on its
    own, then put together as a whole parse gives it: the whitespace after a cut comma
    (the next group's ``[``'s) belongs to that comma."""
    opening, closing, cuts = groups
    skeleton = cst.parse_module(text[start : opening + 1] + text[closing:stop])
    line = skeleton.body[0] if len(skeleton.body) == 1 else None
    small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    if not isinstance(small, (cst.Assign, cst.AnnAssign)) or not isinstance(small.value, cst.List):
        raise ValueError("not the statement that was split")
    bounds = [opening + 1, *cuts, closing]
    elements: List[cst.BaseElement] = []
    first: Optional[cst.List] = None
    last: Optional[cst.List] = None
    for low, high in zip(bounds, bounds[1:]):
        group = cst.parse_expression("[" + text[low:high] + "]")
        if not isinstance(group, cst.List) or not group.elements:
            raise ValueError("a group is not a list of elements")
        if last is not None:
            tail = elements[-1]
            if not isinstance(tail.comma, cst.Comma):
                raise ValueError("a group does not end with a comma")
            elements[-1] = tail.with_changes(comma=tail.comma.with_changes(whitespace_after=group.lbracket.whitespace_after))
        elements.extend(group.elements)
        first = first or group
        last = group
    assert first is not None and last is not None
    value = small.value.with_changes(elements=elements, lbracket=first.lbracket, rbracket=last.rbracket)
    return skeleton.with_changes(body=[line.with_changes(body=[small.with_changes(value=value)])])
