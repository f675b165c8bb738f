"""Jupyter notebooks (``.ipynb``): their code cells as one Python source, and back.

The engine lints one text per file. A notebook's text is its code cells in order, each
followed by a boundary line (a comment, :data:`BOUNDARY`), so that:

- a position in the text maps to (cell, line, column) by a line offset alone: a cell's lines
  keep their number of characters (:class:`CellIndex`, which diagnostics carry);
- fixed text splits back into cells exactly: a fix never edits a comment, and an insertion
  after a cell's last line lands before the boundary (in that cell), one before a cell's
  first line after it (:meth:`Notebook.with_text`).

IPython syntax that is not Python (``%magic``, ``!shell``, ``x = !cmd``, ``obj?``, and whole
``%%cell`` magics, but for the first line of one whose body runs as Python, ``%%time``) is replaced, line for line, by placeholders that parse and that no rule
reports on; writing back restores the original lines. A cell that is not Python even so (an
exercise's ``lr = ``) is left out the same way, every line a comment of its own length, and
:attr:`Notebook.unparsed` says where (RPL001): the other cells are linted. A notebook is read and written with
:mod:`json`: nbformat's writer normalizes the whole file (indentation, key order, line
splitting), whereas here an unchanged notebook is never written and a changed one is written
with its own indentation, key order and escaping, only the sources of the changed cells
differing.

The API (the CLI, the fixer and editors use it):

- :func:`read_notebook` (bytes -> :class:`Notebook`, or :class:`NotebookError`: RPL001),
  :func:`from_cells` (cell texts, e.g. from an editor -> :class:`Notebook`);
- :attr:`Notebook.text` and :attr:`Notebook.index` (:meth:`CellIndex.locate`: text line ->
  (cell number, line in cell); :meth:`CellIndex.code_cell`: (code cell index, line in cell);
  :meth:`CellIndex.to_text_line` back; columns are the same);
- :meth:`Notebook.with_text` (fixed text -> new :class:`Notebook`), :meth:`Notebook.dumps`
  (the ``.ipynb`` bytes), :meth:`Notebook.cell_sources` and :meth:`Notebook.changed_cells`;
- :class:`repro_lint.source.NotebookSource` wraps a :class:`Notebook` as the
  :class:`~repro_lint.source.Source` the engine lints (``source.decode_file`` reads one).

It imports nothing of the package: editors and tools may use it alone.
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

SUFFIX = ".ipynb"
#: the comment line that follows every code cell in a notebook's text
BOUNDARY = "# repro-lint: end of cell"

#: ``x = !ls``, ``files = %sx ls``: an assignment from a magic or a shell command
_MAGIC_ASSIGNMENT = re.compile(r"^\s*[\w.,\s\[\]()*]+=\s*[%!]")
#: ``obj?``, ``obj??``, ``?obj``: IPython's help
_HELP = re.compile(r"^(\?{1,2}[\w.*]+|[\w.*]+\?{1,2})$")


class NotebookError(ValueError):
    """Not a valid notebook, or fixed text that cannot go back into its cells. ``line``/``col``
    locate the problem in the file (1-based line, 0-based column)."""

    def __init__(self, message: str, line: int = 1, col: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def is_notebook(path: "str | object") -> bool:
    """Is the file at ``path`` a Jupyter notebook (by its name, as Jupyter and ruff decide)?"""
    return str(path).endswith(SUFFIX)


@dataclass(frozen=True)
class CellIndex:
    """Where each code cell starts in a notebook's text: ``starts[i]`` is the text line
    (1-based) of the first line of the code cell numbered ``numbers[i]`` (1-based, counting
    every cell of the notebook, markdown too, as Jupyter shows them and ruff reports them)."""

    starts: Tuple[int, ...]
    numbers: Tuple[int, ...]

    def code_cell(self, line: int) -> Tuple[int, int]:
        """(which code cell, 0-based among the code cells; line in it, 1-based) of text line
        ``line`` (an editor's notebook document counts code cells so). A boundary line counts
        as the line after its cell's last line; the column is the same in the text and the cell."""
        i = max(bisect.bisect_right(self.starts, line) - 1, 0)
        return i, line - (self.starts[i] if self.starts else 1) + 1

    def locate(self, line: int) -> Tuple[int, int]:
        """(cell number, line in that cell), both 1-based, of text line ``line``."""
        i, in_cell = self.code_cell(line)
        return (self.numbers[i] if self.numbers else 1), in_cell

    def to_text_line(self, cell: int, line: int) -> int:
        """The text line of ``line`` (1-based) in cell number ``cell``."""
        return self.starts[self.numbers.index(cell)] + line - 1

    def to_list(self) -> List[List[int]]:
        return [[s, n] for s, n in zip(self.starts, self.numbers)]

    @classmethod
    def from_list(cls, data: Sequence[Sequence[int]]) -> "CellIndex":
        return cls(tuple(int(s) for s, _ in data), tuple(int(n) for _, n in data))


def _is_line_magic(stripped: str) -> bool:
    return stripped.startswith(("%", "!")) or bool(_HELP.match(stripped))


def _parses(source: str) -> bool:
    from .syntax import ast_module  # warnings about the user's code are not ours to print

    return ast_module(source) is not None


#: string literals, for the rough bracket count of :func:`placeholder_lines`
_STRINGS = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


#: cell magics whose body is Python that runs in the notebook's namespace as it is (``%%time``
#: times it, ``%%capture`` keeps its output): only their first line is IPython's
PYTHON_CELL_MAGICS = frozenset({"%%time", "%%capture"})


def _whole_cell_magic(first: str) -> bool:
    """Is a cell whose first line (stripped) is ``first`` a cell magic whose body is not
    Python run as it is (``%%bash``, ``%%writefile``, ``%%timeit``)?"""
    return first.startswith("%%") and first.split(None, 1)[0] not in PYTHON_CELL_MAGICS


def placeholder_lines(source: str) -> Tuple[List[str], Dict[int, str]]:
    """The lines of one cell (without line ends) with IPython syntax replaced, and the
    original of every replaced line by its index. A cell that parses as Python is left alone
    (a line starting with ``%`` may continue an expression); in one that does not, a line
    inside open brackets is taken as code."""
    lines = source.split("\n")
    replaced: Dict[int, str] = {}
    first = next((line.strip() for line in lines if line.strip()), "")
    cell_magic = _whole_cell_magic(first)
    if not first.startswith("%%") and _parses(source):
        return lines, replaced
    continued = False
    depth = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        magic = cell_magic or continued or (depth <= 0 and (_is_line_magic(stripped) or bool(_MAGIC_ASSIGNMENT.match(line))))
        if not magic or not stripped:
            continued = False
            code = _STRINGS.sub("", line).split("#", 1)[0]
            depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
            continue
        indent = line[: len(line) - len(line.lstrip())]
        if cell_magic or continued or not indent:  # a comment, as long as the line
            lines[i] = f"{line[:-1]}#" if len(line) == len(indent) + 1 else f"{indent}#{line.lstrip()[1:]}"
        else:  # a magic inside a block: a statement, so the block is never left empty
            lines[i] = f"{indent}pass  # IPython"
        continued = line.rstrip().endswith("\\")
        replaced[i] = line
    return lines, replaced


def _syntax_error(text: str) -> Optional[Tuple[str, int, int]]:
    """Why ``text`` is not Python: (message, 1-based line, 0-based column), or None."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # warnings about the user's code are not ours to print
            ast.parse(text)
    except SyntaxError as exc:
        return exc.msg, max(exc.lineno or 1, 1), max((exc.offset or 1) - 1, 0)
    except (ValueError, RecursionError, MemoryError) as exc:  # a null byte; nested too deeply
        return f"{type(exc).__name__}: {exc}", 1, 0
    return None


def _commented(line: str) -> str:
    """``line`` as a comment of the same length (an empty or blank line as it is)."""
    stripped = line.lstrip()
    if not stripped:
        return line
    indent = line[: len(line) - len(stripped)]
    return f"{indent}#{stripped[1:]}"


@dataclass
class Cell:
    """One code cell: its place in the notebook's ``cells`` list, its source as written, and
    how that source was stored (a list of lines, or one string). A cell that is not Python
    even with IPython's syntax set aside (an exercise's ``lr = ``) is left out of the lintable
    text, each of its lines a comment of the same length, and :attr:`unparsed` says why: the
    other cells are linted (a kernel runs each cell on its own, so one that does not parse
    stops only itself)."""

    position: int
    source: str
    as_list: bool
    lines: List[str] = field(default_factory=list)  # with placeholders
    replaced: Dict[int, str] = field(default_factory=dict)
    #: why the cell is not Python: (message, 1-based line in the cell, 0-based column)
    unparsed: Optional[Tuple[str, int, int]] = None

    def __post_init__(self) -> None:
        if not self.lines:
            first = next((line.strip() for line in self.source.split("\n") if line.strip()), "")
            if first.startswith("%%") or _syntax_error(self.source) is not None:
                self.lines, self.replaced = placeholder_lines(self.source)
                self.unparsed = _syntax_error("\n".join(self.lines))
            else:  # Python as it is (the common case): parsed once
                self.lines = self.source.split("\n")
            if self.unparsed is not None:
                original = self.source.split("\n")
                self.lines = [_commented(line) for line in original]
                self.replaced = {i: line for i, line in enumerate(original) if self.lines[i] != line}

    @property
    def text(self) -> str:
        """The cell's lintable text, ending with a line break (empty for an empty cell)."""
        if not self.source:
            return ""
        text = "\n".join(self.lines)
        return text if text.endswith("\n") else text + "\n"

    def with_text(self, text: str) -> "Cell":
        """This cell with its lintable text changed to ``text`` (IPython lines restored)."""
        if text == self.text:
            return self
        new_lines = text.split("\n")
        old_lines = self.text.split("\n")
        restored: List[str] = []
        for tag, a1, a2, b1, b2 in _line_changes(old_lines, new_lines):
            if tag == "equal":
                restored.extend(self.replaced.get(a1 + k, new_lines[b1 + k]) for k in range(a2 - a1))
                continue
            if any(a in self.replaced for a in range(a1, a2)):
                raise NotebookError(f"a fix changed an IPython line of cell {self.position + 1}")
            restored.extend(new_lines[b1:b2])
        source = "\n".join(restored)
        if not self.source.endswith("\n") and source.endswith("\n"):
            source = source[:-1]  # the cell's last line had no line break: it still has none
        return Cell(self.position, source, self.as_list)


def _line_changes(old: List[str], new: List[str]) -> List[Tuple[str, int, int, int, int]]:
    """``difflib``'s opcodes from ``old`` to ``new``, the lines both start and end with matched
    first: a fix inserts or replaces lines between them, and a diff of the whole may pair an
    unchanged line with another copy of it (a blank line, a placeholder) and so take the lines
    around the insertion, a placeholder among them, for changed ones (``["", "#", "", "#"]``
    with a line inserted after the first ``#``: the whole diff matches the first three old
    lines with the last three new ones)."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    middle = difflib.SequenceMatcher(a=old[head : len(old) - tail], b=new[head : len(new) - tail], autojunk=False)
    return [
        ("equal", 0, head, 0, head),
        *((tag, a1 + head, a2 + head, b1 + head, b2 + head) for tag, a1, a2, b1, b2 in middle.get_opcodes()),
        ("equal", len(old) - tail, len(old), len(new) - tail, len(new)),
    ]


class Notebook:
    """A notebook's JSON and its code cells. ``data``: the notebook as read (None when built
    from cell texts); ``raw``: its bytes."""

    def __init__(self, cells: List[Cell], data: Optional[Dict[str, Any]] = None, raw: bytes = b"", boundary: str = BOUNDARY) -> None:
        self.cells = cells
        self.data = data
        self.raw = raw
        self.boundary = boundary
        parts: List[str] = []
        starts: List[int] = []
        line = 1
        for cell in cells:
            starts.append(line)
            parts.append(cell.text)
            parts.append(boundary + "\n")
            line += cell.text.count("\n") + 1
        self.text = "".join(parts)
        #: :attr:`text` with the IPython lines as written (line for line the same): for showing
        self.shown_text = "".join(
            f"{cell.source}{'' if not cell.source or cell.source.endswith(chr(10)) else chr(10)}{boundary}\n" for cell in cells
        )
        self.index = CellIndex(tuple(starts), tuple(cell.position + 1 for cell in cells))

    @property
    def unparsed(self) -> List[Tuple[str, int, int]]:
        """Each code cell left out of :attr:`text` as not Python (:attr:`Cell.unparsed`): a
        message that names it, and the text line and column of its error."""
        return [
            (f"cell {self.index.numbers[i]} cannot be parsed: {cell.unparsed[0]}; it was left out and the other cells "
             f"were linted", self.index.starts[i] + cell.unparsed[1] - 1, cell.unparsed[2])
            for i, cell in enumerate(self.cells) if cell.unparsed is not None
        ]

    # -- text -> cells ----------------------------------------------------------------------
    def with_text(self, text: str) -> "Notebook":
        """The notebook with its code cells changed to those of ``text`` (this notebook's
        :attr:`text`, edited). Raises :class:`NotebookError` when ``text`` no longer has one
        boundary line per cell."""
        if text == self.text:
            return self
        pieces = re.split(rf"(?m)^{re.escape(self.boundary)}\r?\n", text)
        if len(pieces) != len(self.cells) + 1 or pieces[-1].strip():
            raise NotebookError("the cell boundaries of the notebook changed; it was left unchanged")
        cells = [cell.with_text(piece) for cell, piece in zip(self.cells, pieces)]
        return Notebook(cells, self.data, self.raw, self.boundary)

    def cell_sources(self) -> List[str]:
        """The source of every code cell, as it is stored in the notebook."""
        return [cell.source for cell in self.cells]

    # -- writing ----------------------------------------------------------------------------
    def dumps(self) -> bytes:
        """The ``.ipynb`` bytes: the notebook as read, with the code cells' sources replaced,
        in the file's own indentation, escaping and final line break (byte-identical to the
        file when nothing changed)."""
        if self.data is None:
            raise ValueError("a notebook built from cell texts has no file to write")
        data = json.loads(self.raw.decode("utf-8-sig"))  # a copy to change
        changed = False
        for cell in self.cells:
            stored = data["cells"][cell.position].get("source", "")
            if ("".join(stored) if isinstance(stored, list) else stored) != cell.source:
                data["cells"][cell.position]["source"] = _stored(cell.source, cell.as_list)
                changed = True
        return _dumps(data, self.raw) if changed else self.raw

    def changed_cells(self, new: "Notebook") -> List[Tuple[int, str, str]]:
        """(cell number, old source, new source) of each code cell that ``new`` (this notebook
        :meth:`with_text`) changed: what ``--diff`` shows, a diff per cell."""
        return [
            (old.position + 1, old.source, cell.source)
            for old, cell in zip(self.cells, new.cells)
            if old.source != cell.source
        ]


def _stored(source: str, as_list: bool) -> Any:
    return source.splitlines(keepends=True) if as_list else source


def _format(raw: bytes) -> Dict[str, Any]:
    """How the file was written: indentation, ASCII escaping, line breaks, BOM."""
    text = raw.decode("utf-8-sig")
    match = re.search(r"\n([ \t]+)\S", text)
    indent: "int | str | None" = None
    if match:
        unit = match.group(1)
        indent = len(unit) if set(unit) == {" "} else unit
    ensure_ascii = text.isascii() and "\\u" in text
    return {
        "indent": indent, "ensure_ascii": ensure_ascii, "newline": text.endswith("\n"),
        "crlf": "\r\n" in text, "bom": raw.startswith(b"\xef\xbb\xbf"),
    }


def _dumps(data: Dict[str, Any], raw: bytes) -> bytes:
    fmt = _format(raw)
    separators = (",", ": ") if fmt["indent"] is not None else None
    text = json.dumps(data, indent=fmt["indent"], ensure_ascii=fmt["ensure_ascii"], separators=separators)
    if fmt["newline"]:
        text += "\n"
    if fmt["crlf"]:  # JSON escapes the line breaks inside strings: these are the file's own
        text = text.replace("\n", "\r\n")
    return (b"\xef\xbb\xbf" if fmt["bom"] else b"") + text.encode("utf-8")


def _error(message: str, line: int = 1, col: int = 0) -> NotebookError:
    return NotebookError(f"not a valid Jupyter notebook: {message}", line, col)


def _read(raw: bytes) -> Notebook:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise _error(f"not UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})", line) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _error(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno - 1) from None
    except RecursionError:
        raise _error("invalid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise _error("the top level is not a JSON object")
    if "worksheets" in data:
        raise _error("nbformat 3 is not supported; convert it with 'jupyter nbconvert --to notebook --nbformat 4'")
    raw_cells = data.get("cells")
    if not isinstance(raw_cells, list):
        raise _error("no 'cells' list")
    cells: List[Cell] = []
    if not _is_python(data):
        return Notebook(cells, data, raw)
    for position, cell in enumerate(raw_cells):
        if not isinstance(cell, dict):
            raise _error(f"cell {position + 1} is not a JSON object")
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            cells.append(Cell(position, "".join(source), True))
        elif isinstance(source, str):
            cells.append(Cell(position, source, False))
        else:
            raise _error(f"the source of cell {position + 1} is neither a string nor a list of strings")
    return Notebook(cells, data, raw, _boundary_for(cells))


def _is_python(data: Dict[str, Any]) -> bool:
    """False for a notebook of another language (an R or Julia kernel): nothing to lint."""
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        return True
    info = metadata.get("language_info")
    name = info.get("name") if isinstance(info, dict) else None
    if name is None:
        kernel = metadata.get("kernelspec")
        name = kernel.get("language") if isinstance(kernel, dict) else None
    return not isinstance(name, str) or name.lower() in ("python", "python3", "ipython")


def _boundary_for(cells: Sequence[Cell]) -> str:
    """:data:`BOUNDARY`, or a variant of it that no cell contains as a line of its own."""
    lines = {line.strip() for cell in cells for line in cell.lines}
    boundary, n = BOUNDARY, 0
    while boundary in lines:
        n += 1
        boundary = f"{BOUNDARY} {n}"
    return boundary


def read_notebook(raw: bytes) -> Notebook:
    """The notebook in ``raw`` (the bytes of an ``.ipynb`` file). Raises
    :class:`NotebookError` (RPL001) when it is not a valid notebook."""
    return _read(raw)


def from_cells(sources: Sequence[str], numbers: Optional[Sequence[int]] = None) -> Notebook:
    """A notebook built from code cell texts (an editor's notebook document); ``numbers``: the
    1-based cell number of each (default 1, 2, ...)."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(sources) + 1))
    cells = [Cell(n - 1, source, True) for n, source in zip(numbers, sources)]
    return Notebook(cells, None, b"", _boundary_for(cells))
