"""Console scripts declared in a project's packaging metadata: the functions a program starts in
when it is installed and run by name (``stylegan2_pytorch = stylegan2_pytorch.cli:main``).

Read from the three places setuptools and the PEP 621 tools look:

- ``pyproject.toml``: ``[project.scripts]``, ``[project.gui-scripts]`` and ``[tool.poetry.scripts]``
  (a string, or a table with ``reference``/``callable``);
- ``setup.cfg``: ``console_scripts`` and ``gui_scripts`` of ``[options.entry_points]``;
- ``setup.py``: the ``entry_points`` argument of a ``setup(...)`` call, read with ``ast`` (never
  imported or run): a dict (literal, or a module-level variable holding one) whose
  ``console_scripts``/``gui_scripts`` item is a list or tuple of strings (literal, or a
  variable), or a string of ``[console_scripts]`` sections.

Only literal values count; anything else, or a file that does not parse, gives nothing.
"""

from __future__ import annotations

import ast
import configparser
import os
import re
import sys
import warnings
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from .source import TEXT_LIMIT, SourceError, read_bytes

#: the packaging files of a project folder, in the order they are read
PACKAGING_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
#: the entry-point groups whose functions start a program
SCRIPT_GROUPS = ("console_scripts", "gui_scripts")

#: ``name = package.module:function [extra]`` (the value's ``package.module:Class.method``)
_REFERENCE = re.compile(r"^\s*(?P<module>[\w.]+)\s*:\s*(?P<attr>[\w.]+)\s*(?:\[[^\]]*\])?\s*$")


@dataclass(frozen=True)
class ConsoleScript:
    """One declared script: the module the wrapper imports and the attribute it calls
    (``main``, or ``Class.method``), and the packaging file that declares it."""

    module: str
    attr: str
    declared_in: str


def parse_reference(value: Any) -> Optional[Tuple[str, str]]:
    """``(module, attribute)`` of an object reference ``pkg.cli:main [extra]``, else None."""
    if not isinstance(value, str):
        return None
    match = _REFERENCE.match(value)
    if match is None:
        return None
    module, attr = match.group("module"), match.group("attr")
    if not all(module.split(".")) or not all(attr.split(".")):
        return None
    return module, attr


def _entry_lines(text: str) -> Iterable[str]:
    """The values of ``name = reference`` lines (setup.cfg's format, also a string in setup.py)."""
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip():
            yield value.strip()


def from_pyproject(text: str) -> List[str]:
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    found: List[str] = []
    project = data.get("project")
    tables = []
    if isinstance(project, dict):
        tables += [project.get("scripts"), project.get("gui-scripts")]
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    if isinstance(poetry, dict):
        tables.append(poetry.get("scripts"))
    for table in tables:
        if not isinstance(table, dict):
            continue
        for value in table.values():
            if isinstance(value, dict):  # poetry: {reference = "...", type = "console"} or {callable = "..."}
                if value.get("type", "console") != "console":
                    continue
                value = value.get("reference", value.get("callable"))
            if isinstance(value, str):
                found.append(value)
    return found


def _ini(text: str) -> Optional[configparser.ConfigParser]:
    """``text`` read as an INI file (``name = value`` lines), or None when it does not read."""
    parser = configparser.ConfigParser(interpolation=None, strict=False, delimiters=("=",))
    try:
        parser.read_string(text)
    except (configparser.Error, ValueError):
        return None
    return parser


def from_setup_cfg(text: str) -> List[str]:
    parser = _ini(text)
    if parser is None or not parser.has_section("options.entry_points"):
        return []
    found: List[str] = []
    for group in SCRIPT_GROUPS:
        value = parser.get("options.entry_points", group, fallback=None)
        if value:
            found.extend(_entry_lines(value))
    return found


def _from_ini_groups(text: str) -> List[str]:
    """``entry_points`` as one string: a ``[console_scripts]`` section of ``name = reference`` lines."""
    parser = _ini(text)
    if parser is None:
        return []
    return [value for group in SCRIPT_GROUPS if parser.has_section(group) for value in parser[group].values()]


def from_setup_py(text: str) -> List[str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    # module-level variables, by name (the last literal assignment before use is enough here),
    # also those the top level assigns in a block (``if __name__ == "__main__":``, ``try:``)
    variables: Dict[str, ast.expr] = {}
    statements: List[ast.stmt] = list(tree.body)
    while statements:
        stmt = statements.pop(0)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            variables[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            variables[stmt.target.id] = stmt.value
        elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
            statements[:0] = [*stmt.body, *getattr(stmt, "orelse", []), *getattr(stmt, "finalbody", [])]

    def value_of(node: Optional[ast.expr], depth: int = 0) -> Optional[ast.expr]:
        while isinstance(node, ast.Name) and depth < 8:
            node, depth = variables.get(node.id), depth + 1
        return node

    found: List[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name != "setup":
            continue
        for keyword in node.keywords:
            if keyword.arg != "entry_points":
                continue
            entry_points = value_of(keyword.value)
            if isinstance(entry_points, ast.Constant) and isinstance(entry_points.value, str):
                found.extend(_from_ini_groups(entry_points.value))
                continue
            if not isinstance(entry_points, ast.Dict):
                continue
            for key, group in zip(entry_points.keys, entry_points.values):
                if not (isinstance(key, ast.Constant) and key.value in SCRIPT_GROUPS):
                    continue
                group = value_of(group)
                if isinstance(group, ast.Constant) and isinstance(group.value, str):
                    found.extend(_entry_lines(group.value))
                elif isinstance(group, (ast.List, ast.Tuple)):
                    for item in group.elts:
                        item = value_of(item)
                        if isinstance(item, ast.Constant) and isinstance(item.value, str):
                            found.extend(_entry_lines(item.value))
    return found


_READERS = {"pyproject.toml": from_pyproject, "setup.cfg": from_setup_cfg, "setup.py": from_setup_py}


def console_scripts(folder: "str | os.PathLike[str]") -> Tuple[List[ConsoleScript], List[str]]:
    """The scripts the packaging files of ``folder`` declare, and the paths of the files read
    or looked for (their content, or that they are missing, decides the answer)."""
    scripts: List[ConsoleScript] = []
    looked: List[str] = []
    for name in PACKAGING_FILES:
        path = os.path.join(os.path.abspath(folder), name)
        looked.append(path)
        try:
            text = read_bytes(path, TEXT_LIMIT).decode("utf-8")
        except (SourceError, UnicodeDecodeError, OSError):
            continue
        for value in _READERS[name](text):
            reference = parse_reference(value)
            if reference is not None:
                scripts.append(ConsoleScript(reference[0], reference[1], path))
    return scripts, looked
