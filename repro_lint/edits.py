"""Where fixes put new code: edits anchored on syntax nodes, the module's header, and the one
way a fix adds an import (after the header, or where isort and ruff would sort it)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Callable, List, Optional, Tuple

from ._lazy import cst

if TYPE_CHECKING:  # pragma: no cover
    from .rules.base import FileContext


@dataclass
class NodeEdit:
    """An edit anchored on a CST node, turned into a text :class:`~repro_lint.diagnostics.Edit`
    once positions are known. ``kind`` is ``replace``, ``before`` (insert at the node's start),
    ``after`` (insert at its end), ``line_before`` (insert at column 0 of the node's first
    line) or ``line_after`` (insert at column 0 of the line after the node's last line).
    ``node`` may be None with ``at=(line, col)``. ``content`` uses ``\n`` line breaks; the
    fixer converts them to the file's own."""

    kind: str
    content: str
    node: Optional[cst.CSTNode] = None
    at: Optional[Tuple[int, int]] = None
    #: for an ``after`` edit that appends ``, keyword=value`` to a call's arguments: the first
    #: argument. When the line would grow past the width (the project's ``line-length``, else
    #: :func:`file_width`), the new text goes on a continuation line aligned with that argument
    #: instead (see ``Linter._resolve``).
    wrap_at: Optional[cst.CSTNode] = None


#: the line lengths projects choose: PEP 8's 79, black's 88, and the common wider limits
COMMON_WIDTHS = (79, 88, 100, 120)


def file_width(lines: List[str]) -> int:
    """The width a file keeps its lines within, for a project that states no line length:
    the smallest of :data:`COMMON_WIDTHS` that at least 99% of its non-blank lines fit,
    else the length that 99% of them fit; never below 79.

    Not the longest line: one long string or URL would let every fix grow lines to its
    length. A file formatted to a limit keeps nearly all its lines within it, and the
    few past it are what formatters leave alone (strings, comments); 1% tolerates one
    such line per hundred, and rounding up to a common width finds the limit the file
    was most likely written to (a file of 80-character lines was not written to 80)."""
    lengths = sorted(len(line.rstrip()) for line in lines if line.strip())
    if not lengths:
        return COMMON_WIDTHS[0]
    fitting = -(-len(lengths) * 99 // 100)  # how many lines must fit: 99%, rounded up
    typical = lengths[fitting - 1]
    return next((width for width in COMMON_WIDTHS if typical <= width), typical)



def _is_docstring(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _is_import_line(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in stmt.body
    )


def header_end(module: cst.Module) -> Optional[cst.CSTNode]:
    """The last statement of the module's header (docstring, ``from __future__`` and the
    leading block of imports): new imports and module-level setup go right after it.
    None when the module starts with code."""
    last = None
    for index, stmt in enumerate(module.body):
        if (index == 0 and _is_docstring(stmt)) or _is_import_line(stmt):
            last = stmt
            continue
        break
    return last



def _imported_module(stmt: cst.CSTNode) -> Optional[Tuple[bool, str]]:
    """``(is_from, module)`` of an import line holding one absolute import statement."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Import) and len(small.names) == 1:
        return False, cst.Module(body=[]).code_for_node(small.names[0].name)
    if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
        return True, cst.Module(body=[]).code_for_node(small.module)
    return None


def sorted_import_anchor(
    module: cst.Module, target: str, is_from: bool = True, first_party: Callable[[str], bool] = lambda name: False,
) -> Optional[Tuple[str, cst.CSTNode, bool]]:
    """Where ``from target import ...`` (``import target`` when not ``is_from``) goes so that a
    file whose imports are sorted (isort, ruff's ``I001``) stays sorted: in the header's group of
    standard-library imports for a standard-library module, else in its group of third-party
    imports (``import x`` lines first, then ``from x import`` lines, each by module name), as
    ``(kind, node, alone)`` for a :class:`NodeEdit`. ``first_party``: whether a module (by its
    dotted name) is the project's own (isort's first-party section, after the third-party one):
    where the header has no third-party group but has a group of the project's own imports after
    its standard-library ones, a third-party import goes in a group of its own right before it
    (``alone``: a blank line follows it). None when the header has no such group or the group is
    not sorted: then the import goes after the header, as before."""
    stdlib = set(getattr(sys, "stdlib_module_names", frozenset()))
    top = target.split(".")[0]
    wants_stdlib = top in stdlib
    groups: List[List[Tuple[cst.CSTNode, Tuple[bool, str]]]] = []
    for index, stmt in enumerate(module.body):
        if index == 0 and _is_docstring(stmt):
            continue
        if not _is_import_line(stmt):
            break
        key = _imported_module(stmt)
        if key is None:
            return None  # several imports on one line: not a layout to sort into
        if not groups or stmt.leading_lines:  # type: ignore[attr-defined]
            groups.append([])
        groups[-1].append((stmt, key))
    third_party = not wants_stdlib and not first_party(target)
    tops_of = [{key[1].split(".")[0] for _, key in group} for group in groups]
    # the groups of the project's own imports, which a third-party import never joins
    owned = [third_party and bool(group) and all(first_party(key[1]) for _, key in group) for group in groups]
    for group, tops, own in zip(groups, tops_of, owned):
        if "__future__" in tops or own:
            continue
        if wants_stdlib != (tops <= stdlib) or (not wants_stdlib and (tops & stdlib or tops == {top})):
            continue
        keys = [(from_, name.lower()) for _, (from_, name) in group]
        if keys != sorted(keys):
            return None
        new = (is_from, target.lower())
        for (stmt, _), key in zip(group, keys):
            if key > new:
                return "line_before", stmt, False
        return "line_after", group[-1][0], False
    if True in owned and all(tops <= stdlib | {"__future__"} for tops in tops_of[: owned.index(True)]):
        # no third-party group, and the project's own imports right after the standard
        # library's: a group of its own before them
        return "line_before", groups[owned.index(True)][0][0], True
    return None


def first_party(file: "FileContext") -> Callable[[str], bool]:
    """isort's first-party test for ``file``, as ruff makes it, asked of a dotted module name
    (``import a.b``, ``from a.b import c``: ``a.b``): a module that the project's ruff or isort
    settings name, or whose parent they name (``known-first-party``, ``known-local-folder``;
    never one they call ``known-third-party``), a module of the file's own top-level package
    (``detect-same-package``), and a module that is a folder or a file in one of the settings'
    ``src`` folders (by default the project's root and its ``src`` folder): ``a/b``, ``a/b.py``.
    A module found only elsewhere (beside a script, in another project of the tree) is
    third-party."""
    project, name, sections = file.project, file.module_name, file.settings.import_sections
    own = name.partition(".")[0] if "." in name or file.names.is_package else None
    root = os.path.abspath(file.settings.root)
    roots = [os.path.normpath(os.path.join(root, folder)) for folder in (sections.src if sections.src is not None else (".", "src"))]

    def test(module: str) -> bool:
        parts = module.split(".")
        names = [".".join(parts[: index + 1]) for index in range(len(parts))]
        if any(fnmatchcase(name, pattern) for pattern in sections.first_party for name in names):
            return True
        if any(fnmatchcase(name, pattern) for pattern in sections.third_party for name in names):
            return False
        if parts[0] == own:
            return True
        for folder in roots:
            base = os.path.join(folder, *parts)
            for candidate in (f"{base}.py", f"{base}.pyi", os.path.join(base, "__init__.py")):
                if project is not None:
                    project.consult(candidate)  # (a fix's edits are cached with its finding)
                if os.path.isfile(candidate):
                    return True
            if os.path.isdir(base):
                return True
        return False

    return test


def opens_group(module: cst.Module, target: str) -> bool:
    """Does an import of ``target`` placed right after the header start a group of its own? Yes
    when ``target`` is not a standard-library module and the header's imports end with a group of
    standard-library ones only: isort and ruff put third-party imports in a group after them,
    separated by a blank line (``from pathlib import Path``, blank line, ``import torch``)."""
    stdlib = set(getattr(sys, "stdlib_module_names", frozenset()))
    if target.split(".")[0] in stdlib:
        return False
    last: List[str] = []
    for index, stmt in enumerate(module.body):
        if index == 0 and _is_docstring(stmt):
            continue
        if not _is_import_line(stmt):
            break
        if stmt.leading_lines:  # type: ignore[attr-defined]
            last = []
        key = _imported_module(stmt)
        if key is None:
            return False
        last.append(key[1].split(".")[0])
    return bool(last) and "__future__" not in last and set(last) <= stdlib


def import_line_target(line: str) -> Optional[Tuple[str, bool]]:
    """``(module, is_from)`` of one ``import x [as y]`` / ``from x import y`` line."""
    words = line.split()
    if len(words) >= 2 and words[0] == "import":
        return words[1], False
    if len(words) >= 4 and words[0] == "from" and words[2] == "import":
        return words[1], True
    return None


def import_edit(file: "FileContext", qualified: str, local: str) -> Optional[NodeEdit]:
    """An edit binding ``local`` to ``qualified`` after the file's import header (``import os``
    when they are the same, else ``from module import name``), or None when the file already
    binds it so. Several fixes may ask for the same import: they produce identical edits,
    which the fixer applies once. The one place where a fix adds an import."""
    if file.names.aliases.get(local) == qualified:
        return None
    if local == qualified:
        line = f"import {qualified}\n"
    else:
        module, _, name = qualified.rpartition(".")
        line = f"from {module} import {name}" + (f" as {local}" if local != name else "") + "\n"
    if local != qualified:
        place = sorted_import_anchor(file.module, qualified.rpartition(".")[0], first_party=first_party(file))
        if place is not None:
            return NodeEdit(place[0], line + ("\n" if place[2] else ""), place[1])
    anchor = header_end(file.module)
    if anchor is None:
        return NodeEdit("at", line, None, (1, 0))
    if opens_group(file.module, qualified.rpartition(".")[0] if local != qualified else qualified):
        line = "\n" + line
    return NodeEdit("line_after", line, anchor)
