"""Reading a Python file the way the interpreter does (PEP 263 cookie, BOM) and writing it
back byte-for-byte the same way (encoding, BOM and line endings kept)."""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, FrozenSet, Optional, Tuple

from .notebook import CellIndex, Notebook, NotebookError, is_notebook, read_notebook


class SourceError(Exception):
    """The file cannot be read or decoded. ``line``/``col`` locate the problem (1-based line)."""

    def __init__(self, message: str, line: int = 1, col: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


@dataclass
class Source:
    text: str
    encoding: str  # as detected: "utf-8", "utf-8-sig" (BOM), "latin-1", ...

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)

    def with_text(self, text: str) -> "Source":
        """The same file with ``text`` (e.g. fixed): same encoding (a notebook: same cells)."""
        return Source(text, self.encoding)


def decode(data: bytes) -> Source:
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        raise SourceError("binary file: contains NUL bytes, not Python source", line)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # unknown or conflicting coding cookie
        raise SourceError(f"cannot decode: {exc.msg if hasattr(exc, 'msg') else exc}", getattr(exc, "lineno", 1) or 1)
    try:
        codecs.lookup(encoding)
        text = data.decode(encoding)
    except LookupError:
        raise SourceError(f"cannot decode: unknown encoding {encoding!r}")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise SourceError(
            f"cannot decode as {encoding}: byte 0x{data[exc.start]:02x} at offset {exc.start} is invalid "
            "(add a PEP 263 coding cookie or save the file as UTF-8)",
            line,
            col,
        ) from None
    if encoding == "utf-8-sig" and text.startswith("\ufeff"):
        text = text[1:]
    return Source(text, encoding)


class NotebookSource(Source):
    """A Jupyter notebook as the engine lints it: its text is the code cells'
    (:attr:`~repro_lint.notebook.Notebook.text`); :attr:`index` maps it to cells; :meth:`encode`
    gives the ``.ipynb`` bytes for a fixed text (raises ``ValueError`` when it cannot)."""

    def __init__(self, notebook: Notebook) -> None:
        super().__init__(notebook.text, "utf-8")
        self.notebook = notebook

    @property
    def index(self) -> CellIndex:
        return self.notebook.index

    @property
    def shown_text(self) -> str:
        return self.notebook.shown_text

    @property
    def unparsed(self) -> "list[tuple[str, int, int]]":
        """(message, text line, column) of each cell left out as not Python (RPL001)."""
        return self.notebook.unparsed

    def encode(self, text: str) -> bytes:
        return self.notebook.with_text(text).dumps()

    def with_text(self, text: str) -> "NotebookSource":
        return NotebookSource(self.notebook.with_text(text))

    def changed_cells(self, text: str) -> "list[tuple[int, str, str]]":
        """(cell number, old source, new source) of each cell ``text`` changes."""
        return self.notebook.changed_cells(self.notebook.with_text(text))


def decode_file(data: bytes, path: "str | os.PathLike[str]") -> Source:
    """Decode ``data``, the bytes of the file ``path``: a Jupyter notebook's code cells
    (:class:`NotebookSource`), else Python source (:func:`decode`)."""
    if is_notebook(path):
        try:
            return NotebookSource(read_notebook(data))
        except NotebookError as exc:
            raise SourceError(exc.message, exc.line, exc.col) from None
    return decode(data)


def too_large(size: int, limit: int) -> str:
    return (
        f"file is {size / 2**20:.1f} MiB, larger than max-file-size ({limit / 2**20:.1f} MiB): "
        "not linted (generated code?); raise max-file-size in [tool.repro-lint] to lint it"
    )


def read_bytes(path: "str | os.PathLike[str]", max_bytes: Optional[int] = None) -> bytes:
    """The bytes of ``path``. Raises :class:`SourceError` for anything that is not a readable
    regular file of at most ``max_bytes`` bytes: a FIFO or device named ``*.py`` would block or
    never end, so it is never opened. Every file repro-lint reads goes through here."""
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise SourceError("is a directory, not a Python file")
        if not stat.S_ISREG(info.st_mode):
            raise SourceError("not a regular file (a pipe, socket or device): not read")
        if max_bytes is not None and info.st_size > max_bytes:
            raise SourceError(too_large(info.st_size, max_bytes))
        with open(path, "rb") as handle:
            return handle.read()
    except SourceError:
        raise
    except OSError as exc:
        raise SourceError(f"cannot read file: {exc.strerror or exc}") from None


def read_source(path: "str | os.PathLike[str]", max_bytes: Optional[int] = None) -> Source:
    """Read and decode ``path`` (see :func:`read_bytes` and :func:`decode_file`)."""
    return decode_file(read_bytes(path, max_bytes), path)


#: what :func:`read_text` reads at most (as the default ``max-file-size``)
TEXT_LIMIT = 2 * 2**20


def read_text(path: "str | os.PathLike[str]") -> Optional[str]:
    """The decoded text of ``path``, or None when it cannot be read or decoded (the file's own
    lint reports why). A notebook's limit is on its code: outputs (images) make it large."""
    try:
        if is_notebook(path):
            text = read_source(path).text
            return text if len(text) <= TEXT_LIMIT else None
        return read_source(path, TEXT_LIMIT).text
    except SourceError:
        return None


#: a line break as LibCST (and CPython) count them
_LINE_BREAK = re.compile(r"\r\n?|\n")


#: what a line's indentation is made of
INDENTATION = " \t\f"


def line_offsets(text: str) -> list:
    """Offsets of the start of every line, with the same notion of a line break as LibCST
    (``\\n``, ``\\r\\n`` or a lone ``\\r``)."""
    return [0, *(match.end() for match in _LINE_BREAK.finditer(text))]


def line_breaks(text: str) -> Tuple[int, int, int]:
    """How many ``\r\n``, lone ``\n`` and lone ``\r`` line breaks ``text`` has."""
    crlf = text.count("\r\n")
    return crlf, text.count("\n") - crlf, text.count("\r") - crlf


def dominant_newline(text: str) -> str:
    crlf, lf, cr = line_breaks(text)
    if crlf > lf and crlf >= cr:
        return "\r\n"
    if cr > lf:
        return "\r"
    return "\n"


#: temporary files of writes in progress (see :func:`remove_temporaries`)
_IN_PROGRESS: set = set()


def remove_temporaries() -> None:
    """Remove the temporary files of writes in progress: a worker process whose parent died
    calls it before it exits (the files it replaces stay as they are, old or new)."""
    for tmp in list(_IN_PROGRESS):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def write_atomic(path: "str | os.PathLike[str]", data: bytes, durable: bool = True) -> None:
    """Write via a temporary file in the same folder and an atomic rename; keep the mode.
    ``durable``: flush the data to disk before the rename (a user's file); a cache can skip it."""
    import tempfile

    path = Path(path)
    mode: Optional[int] = None
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    _IN_PROGRESS.add(tmp)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        _IN_PROGRESS.discard(tmp)


def real(path: "str | os.PathLike[str]") -> Path:
    """The canonical path, like ``Path.resolve()`` but never raising on a symlink loop."""
    return Path(os.path.realpath(path))


#: the prose of a Python text, left to right: a comment, or a triple-quoted string (a
#: docstring, a help text, a template). Code and single-quoted strings are matched too, so that
#: a ``#`` or a ``'''`` inside a string is never taken for the start of prose.
_PROSE = re.compile(
    r"""
      (?P<code>[^'"\#]+)
    | (?P<prose>\"\"\"(?:[^"\\]|\\.|"(?!""))*(?:\"\"\"|\Z)|'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)|\#[^\n]*)
    | (?P<string>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)
    """,
    re.VERBOSE | re.DOTALL,
)


def without_prose(text: str) -> str:
    """``text`` with each comment and triple-quoted string replaced by a space: the words a
    rule can act on. No rule reads a docstring or a comment (``noqa`` comments are read by the
    engine, whose rule says so), and a word in one is no reason to parse a file with LibCST:
    on ten training repositories, 88 of 602 parsed files (1.26 of 9.84 MB) were parsed only
    for such words, and produced no finding.

    A regular scan, not a tokenizer (a tenth of ``tokenize``'s time on the same text, and it
    never fails): what it can misread is an f-string that nests its own quote and a ``#`` or
    ``'''`` (Python 3.12), which only makes it drop the rest of that line."""
    global _last_prose
    last = _last_prose
    if last is not None and last[0] is text:
        return last[1]
    code = "".join([match.group() if match.lastgroup != "prose" else " " for match in _PROSE.finditer(text)])
    _last_prose = (text, code)
    return code


#: the last text :func:`without_prose` was given, and its answer: the prefilter's word search
#: and the entry-point checks (:func:`in_code`) ask it of the same text in turn
_last_prose: Optional[Tuple[str, str]] = None


#: a maximal run of name characters: ``\w`` is what ``str.isalnum()`` accepts, and ``_``
NAME_RUN = re.compile(r"\w+")


def names_in(text: str) -> FrozenSet[str]:
    """The distinct maximal runs of name characters in ``text`` (what ``\\w+`` finds). An
    ASCII text is cut at every other byte by ``bytes.translate`` (the project corpus's texts
    without their prose: 114 ms instead of 206 ms for the regular expression)."""
    if text.isascii():
        return frozenset([run.decode("ascii") for run in set(text.encode("ascii").translate(_NOT_NAME).split())])
    return frozenset(NAME_RUN.findall(text))


def is_name_char(char: str) -> bool:
    """Can ``char`` be part of a name (what ``\\w`` matches: ``str.isalnum()``, and ``_``)?"""
    return char.isalnum() or char == "_"


#: every byte that is not an ASCII name character, made a space (see :func:`names_in`)
_NOT_NAME = bytes(byte if byte < 128 and is_name_char(chr(byte)) else 32 for byte in range(256))


def in_code(check: Callable[[str], object], text: str) -> bool:
    """Does ``check`` hold for ``text`` without its prose (:func:`without_prose`)? A cheap text
    check that gates an ``ast`` pass (an entry point's ``__main__`` or training call) answers for
    the code alone: docstrings and comments are full of such words (``loss.backward()`` in a
    usage example) and no ``ast`` fact comes from them. ``check`` runs on the whole text first,
    and the prose is taken out only when it holds there."""
    return bool(check(text)) and bool(check(without_prose(text)))



# -- CPython's reading ---------------------------------------------------------------------------


def compile_check(text: str, path: str, bytecode: bool) -> None:
    """CPython's check of ``text`` (SyntaxError if it rejects it); warnings are not ours to print."""
    import ast
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(text, path, "exec", 0 if bytecode else ast.PyCF_ONLY_AST, dont_inherit=True)


def compiles(text: str, path: str, bytecode: bool) -> bool:
    try:
        compile_check(text, path, bytecode)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True

# -- indentation that mixes tabs and spaces ------------------------------------------------------


def with_tabs_expanded(text: str) -> Optional[str]:
    """``text`` with the tabs in the indentation of each logical line expanded to spaces as
    CPython reads them (to the next multiple of 8), or None when it has none there, or when
    CPython does not read it either.

    LibCST's tokenizer rejects some indentation that CPython accepts (seven spaces, a tab and
    four spaces: column 12 for both, with a tab of 8 or of 1 column), and the file would be
    reported as unreadable and go unlinted. Only the indentation of lines that start a
    statement changes; a string that spans lines, and the code within lines, stay as written.
    The columns of what is found on such a line are those of the expanded text."""
    if "\t" not in text or not compiles(text, "<text>", bytecode=False):
        return None
    starts = set()
    at_start = True
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NEWLINE:
                at_start = True
            elif token.type == tokenize.INDENT:
                starts.add(token.start[0])
            elif token.type not in (tokenize.NL, tokenize.COMMENT, tokenize.DEDENT, tokenize.ENDMARKER) and at_start:
                starts.add(token.start[0])
                at_start = False
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = text.splitlines(keepends=True)
    changed = False
    for number in starts:
        line = lines[number - 1]
        body = line.lstrip(" \t\f")
        indent = line[: len(line) - len(body)]
        if "\t" in indent:
            lines[number - 1] = indent.expandtabs(8) + body
            changed = True
    return "".join(lines) if changed else None
