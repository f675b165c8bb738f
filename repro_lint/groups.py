"""Parsing a large file in groups of statements: LibCST's native parser holds several
hundred bytes per byte of the text it parses while it runs, and the whole tree it gives is a
tenth of that, so a file (and a large statement in it: a list display, a class) is parsed one
group at a time and joined into the tree a whole parse gives, node for node
(:func:`parse_in_groups`, called by :func:`repro_lint.parse.parse_module`).
"""

from __future__ import annotations

import ast
import re
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple

from ._lazy import cst
from ._libcst_internals import VerbatimStatement
from .source import INDENTATION, line_breaks, line_offsets
from .syntax import ast_module

#: the size of one group (a single statement larger than this is one group of its own)
CHUNK_SIZE = 128 * 1024
#: a top-level statement longer than twice ``CHUNK_SIZE`` that binds a list display
#: (``op_db: List[OpInfo] = [OpInfo(...), ...]``) is parsed as its groups of elements: the
#: native parser holds about 430 bytes per byte of the text it parses (a 660 KB list took
#: 286 MB), and the whole tree it gives is a tenth of that; such a class is parsed as groups
#: of its body's statements (``DistributedTest`` in torch's tests, 431 KB, raised a worker's
#: peak by 49 MB at once, by 14 MB in groups)
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




def first_line(stmt: ast.stmt) -> int:
    """The line a top-level statement's code starts on (its first decorator's, if any)."""
    return min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])


#: a list display split into groups: the offsets of its ``[`` and ``]``, and the offsets
#: just after the commas where its element groups are cut
Split = Tuple[int, int, List[int]]


class _Plan(NamedTuple):
    """Where to cut a text (see :func:`_chunk_offsets`), and its lines' offsets."""

    cuts: List[int]
    verbatim: Dict[int, int]
    split: Dict[int, Split]
    classes: Dict[int, ast.ClassDef]
    lines: List[int]


def _chunk_offsets(text: str, chunk_size: int) -> Optional[_Plan]:
    """Offsets where the text may be cut between top-level statements (so that every piece
    is a module of its own), about ``chunk_size`` apart; the pieces that hold one large
    literal-data statement alone, to keep verbatim (see :data:`VERBATIM_ABOVE`): their start
    and the end of the statement's last line; and the pieces that hold one large statement
    binding a list display alone, to parse in groups of elements, and those that hold one
    large class alone, to parse in groups of its body's statements (:func:`_parse_class`).
    None when the text does not parse with ``ast`` (newer syntax than this Python's, or an
    error): then it is parsed whole."""
    if _mixed_line_breaks(text):
        return None
    tree = ast_module(text)
    if tree is None:
        return None
    lines = line_offsets(text) + [len(text)]
    cuts = [0]
    verbatim: Dict[int, int] = {}
    split: Dict[int, Split] = {}
    classes: Dict[int, ast.ClassDef] = {}
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
            large = alone and size > 2 * chunk_size
            groups = _element_groups(text, lines, stmt, chunk_size) if large else None
            in_groups = large and groups is None and _splittable_class(text, lines, stmt)
            if alone and (groups is not None or in_groups or (last_end and size >= VERBATIM_ABOVE and _binds_only_literals(stmt))):
                # alone in its piece, with the comment and blank lines up to the next statement
                if offset > cuts[-1]:
                    cuts.append(offset)
                if groups is not None:
                    split[offset] = groups
                elif in_groups:
                    classes[offset] = stmt  # type: ignore[assignment]
                else:
                    verbatim[offset] = lines[end]
                if following is not None:
                    cuts.append(lines[following - 1])
            elif last_end and offset > cuts[-1] and offset - cuts[-1] >= chunk_size and len(text) - offset >= chunk_size // 2:
                cuts.append(offset)
        last_end = max(last_end, end)
    return _Plan(cuts, verbatim, split, classes, lines) if len(cuts) > 1 else None


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


def parse_in_groups(text: str, chunk_size: int) -> Optional[cst.Module]:
    """``text`` parsed in groups of top-level statements of about ``chunk_size`` (a large list
    display in groups of its elements, a large class in groups of its body's statements, a
    large table of literals kept as its text), joined into the tree a whole parse gives.
    None where the text cannot be cut (``ast`` rejects it, or it mixes line breaks)."""
    found = _chunk_offsets(text, chunk_size)
    if found is None:
        return None
    cuts, verbatim, split, classes, lines = found
    cuts.append(len(text))
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
        elif start in classes:
            piece = _parse_class_piece(text, lines, start, stop, classes[start], chunk_size)
        else:
            piece = cst.parse_module(text[start:stop])
        pieces.append(piece)
    # what a whole-file parse detects: the first indentation of the file, the last piece's end
    indent = next(
        (p.default_indent for p in pieces if any(isinstance(getattr(s, "body", None), cst.IndentedBlock) for s in p.body)),
        pieces[0].default_indent,
    )
    body: List[cst.BaseStatement] = []
    pending: List[cst.EmptyLine] = []  # comment and blank lines waiting for the next statement
    for number, piece in enumerate(pieces):
        statements = list(piece.body)
        if piece.default_indent != indent:
            # its blocks indented as its first one say so by ``indent=None``, which means the
            # file's first indentation in the whole tree (only compound statements hold blocks)
            reindented = _Reindented(piece.default_indent, indent)
            statements = [s if type(s) in _NO_BLOCKS else s.visit(reindented) for s in statements]  # type: ignore[misc]
        if number == 0:
            body.extend(statements)
            pending = list(piece.footer)
            continue
        # a whole-file parse gives these lines to the next statement's leading_lines
        lead = pending + list(piece.header)
        if statements:
            if lead:
                statements[0] = statements[0].with_changes(leading_lines=lead + list(statements[0].leading_lines))
            pending = list(piece.footer)
        else:
            pending = lead + list(piece.footer)
        body.extend(statements)
    return pieces[0].with_changes(
        body=body, footer=pending, default_indent=indent, has_trailing_newline=pieces[-1].has_trailing_newline
    )


#: statements that hold no indented block
_NO_BLOCKS = (cst.SimpleStatementLine, VerbatimStatement)


class _Reindented(cst.CSTTransformer):
    """Blocks of a piece parsed on its own, whose first indentation (``own``) is not the
    file's (``final``): each block's ``indent`` as the whole file's parse gives it (None
    where it is the file's first indentation, the string elsewhere)."""

    def __init__(self, own: str, final: str) -> None:
        super().__init__()
        self.own, self.final = own, final

    def _indent(self, indent: Optional[str]) -> Optional[str]:
        actual = indent if indent is not None else self.own
        return None if actual == self.final else actual

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated_node.with_changes(indent=self._indent(updated_node.indent))

    def leave_Match(self, original_node: cst.Match, updated_node: cst.Match) -> cst.Match:
        return updated_node.with_changes(indent=self._indent(updated_node.indent))


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


# -- a large class, in groups of its body's statements -----------------------------------------

#: a line's indentation
_INDENT = re.compile(rf"[{INDENTATION}]*")
#: the name of the classes that stand for the blocks around a group of statements
_STAND_IN = "class _:"


def _starts_line(text: str, lines: List[int], stmt: ast.stmt) -> bool:
    """Does ``stmt`` (its first decorator, if any) start its line, after the indentation?"""
    start = lines[first_line(stmt) - 1]
    code = _INDENT.match(text, start).end()  # type: ignore[union-attr]
    if getattr(stmt, "decorator_list", None):
        return text.startswith("@", code)
    return code - start == stmt.col_offset  # (indentation is ASCII: as many bytes as characters)


def _splittable_class(text: str, lines: List[int], stmt: ast.stmt) -> bool:
    """Is ``stmt`` a class whose body is an indented block of statements each on lines of
    its own (not ``class A: x = 1``, nor ``a = 1; b = 2``), at least two of them or one such
    class (``class DistributedTest:`` holds ``class _DistTestBase:`` alone)?"""
    if not isinstance(stmt, ast.ClassDef) or not stmt.body:
        return False
    if len(stmt.body) == 1 and not _splittable_class(text, lines, stmt.body[0]):
        return False
    previous = None
    for child in stmt.body:
        if previous is not None and first_line(child) <= (previous.end_lineno or previous.lineno):
            return False
        if not _starts_line(text, lines, child):
            return False
        previous = child
    return True


def _parse_class_piece(text: str, lines: List[int], start: int, stop: int, stmt: ast.ClassDef, chunk_size: int) -> cst.Module:
    """The piece ``text[start:stop]``, which holds the class ``stmt`` alone, as
    ``cst.parse_module`` gives it: the class parsed in groups of its body's statements."""
    newline = "\r\n" if "\r\n" in text else "\n"
    classdef, around, _, shell = _parse_class(text, lines, (), start, stop, stmt, chunk_size, newline, None)
    return shell.with_changes(body=[classdef], footer=around[0], has_trailing_newline=text[stop - 1 : stop] in ("\n", "\r"))


#: the statement that stands for what follows a group: its leading lines are those a whole
#: parse gives to the next statement
_FOLLOWER = "pass"


def _parse_class(
    text: str,
    lines: List[int],
    chain: Tuple[str, ...],
    start: int,
    stop: int,
    stmt: ast.ClassDef,
    chunk_size: int,
    newline: str,
    follower: Optional[str],
) -> Tuple[cst.ClassDef, List[List[cst.EmptyLine]], List[cst.EmptyLine], cst.Module]:
    """The class ``stmt``, whose text (from its first line, decorators included) runs from
    ``start`` to ``stop`` (with the comment and blank lines up to what follows it), inside
    classes whose lines are indented by ``chain``, as the whole file's parse gives it.

    It is parsed as its shell (the header, with ``pass`` for a body) and its body's statements
    in groups of about ``chunk_size``, a statement that is itself a large class in groups of
    its own body. Each group is parsed under stand-in classes (``class _:``) indented as the
    classes around it, so that every line is read as in the whole file, and followed by a
    stand-in statement (``pass``) indented as what follows the group in the file: the next
    group's first statement, or, with ``follower`` (the indentation of the statement that
    follows the class in the block around it), that statement. The whole parse gives the
    lines before a statement to it (the stand-in's leading lines are the next group's first
    statement's), and a block's trailing lines indented as its body to its footer.

    Returns the class; the footers of the blocks around it (the module's first) that the
    last group's parse gave (where the class ends its block, and the blocks around it,
    without a ``follower``); the stand-in follower's leading lines; and the shell's module."""
    body = stmt.body
    first = lines[first_line(body[0]) - 1]
    own = _INDENT.match(text, lines[first_line(stmt) - 1]).group()  # type: ignore[union-attr]
    inner = _INDENT.match(text, first).group()  # type: ignore[union-attr]
    prefix = "".join(indent + _STAND_IN + newline for indent in chain)
    shell = cst.parse_module(prefix + text[start:first] + inner + _FOLLOWER + newline)
    shell_class = _blocks(shell, len(chain))[-1].body[0]
    if not isinstance(shell_class, cst.ClassDef) or not isinstance(shell_class.body, cst.IndentedBlock):
        raise ValueError("not the class that was split")
    block = shell_class.body
    lead = list(block.body[0].leading_lines)  # the lines between the header and the first statement
    chain = (*chain, own)
    prefix += own + _STAND_IN + newline
    depth = len(chain)  # the stand-in classes around a group's statements
    statements: List[cst.BaseStatement] = []
    groups = list(_body_groups(text, lines, body, stop, chunk_size))
    footers: List[List[cst.EmptyLine]] = []
    followed: List[cst.EmptyLine] = []
    for number, (low, high, nested) in enumerate(groups):
        last = number == len(groups) - 1
        follow = follower if last else inner  # (within the class's block unless last)
        if nested is not None:
            classdef, footers, followed, _ = _parse_class(text, lines, chain, low, high, nested, chunk_size, newline, follow)
            group: List[cst.BaseStatement] = [classdef]
        else:
            module = cst.parse_module(prefix + text[low:high] + (follow + _FOLLOWER + newline if follow is not None else ""))
            blocks = _blocks(module, depth)
            own_block = blocks[-1]
            if not isinstance(own_block, cst.IndentedBlock) or own_block.indent != block.indent:
                raise ValueError("a group is indented otherwise")
            group = list(own_block.body)
            followed = []
            if follow is not None:
                # the stand-in follower: the last statement of the class's block or of the one around it
                holder = blocks[-2] if last else blocks[-1]
                stand_in = holder.body[-1]
                if not isinstance(stand_in, cst.SimpleStatementLine) or not isinstance(stand_in.body[0], cst.Pass):
                    raise ValueError("the follower is not where it was put")
                followed = list(stand_in.leading_lines)
                if not last:
                    group.pop()
            footers = [list(level.footer) for level in blocks]
        if not group:
            raise ValueError("an empty group")
        if lead:
            group[0] = group[0].with_changes(leading_lines=[*lead, *group[0].leading_lines])
        statements.extend(group)
        lead = followed
    classdef = shell_class.with_changes(body=block.with_changes(body=statements, footer=footers[-1]))
    return classdef, footers[:-1], followed if follower is not None else [], shell


def _body_groups(
    text: str, lines: List[int], body: List[ast.stmt], stop: int, chunk_size: int
) -> Iterator[Tuple[int, int, Optional[ast.ClassDef]]]:
    """(start, end, class) of each group of the statements ``body``: from the first line of its
    first statement to that of the next group's (``stop`` for the last), about ``chunk_size``
    long; a statement that is itself a class larger than twice that is a group of its own,
    with the class (to parse in groups in turn)."""
    starts = [lines[first_line(child) - 1] for child in body] + [stop]
    low = starts[0]
    for number, child in enumerate(body):
        high = starts[number + 1]
        if high - starts[number] > 2 * chunk_size and _splittable_class(text, lines, child):
            if starts[number] > low:
                yield low, starts[number], None
            yield starts[number], high, child  # type: ignore[misc]
            low = high
        elif high - low >= chunk_size or number == len(body) - 1:
            yield low, high, None
            low = high


def _blocks(module: cst.Module, depth: int) -> List[Any]:
    """The module and the blocks of the ``depth`` stand-in classes in it, each the first
    statement of the block around it, outermost first."""
    blocks: List[Any] = [module]
    for _ in range(depth):
        node = blocks[-1].body[0]
        if not isinstance(node, cst.ClassDef) or not isinstance(node.body, cst.IndentedBlock):
            raise ValueError("not a stand-in class")
        blocks.append(node.body)
    return blocks
