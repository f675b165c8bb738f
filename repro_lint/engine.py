"""The linting engine: prefilter, parse once, run every selected rule in one traversal,
turn reports into diagnostics, apply suppressions; over many files, in parallel.

Data flow per file: read + decode -> text prefilter (the selected rules' trigger words) ->
LibCST parse -> one traversal dispatching to all rules -> positions (only when something
was reported) -> per-file-ignores and ``noqa`` -> :class:`FileResult`.
"""

from __future__ import annotations

import ast
import bisect
import contextlib
import dataclasses
import functools
import os
import re
import sys
import threading
import traceback
import typing
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Type

import libcst as cst
from libcst._nodes.internal import CodegenState
import pathspec

from .cache import digest as content_digest
from .config import Settings, selected_codes
from ._gc import GCPaused
from .context import ProjectContext, module_name_for
from .diagnostics import Diagnostic, Edit, Fix, InternalError
from .discovery import display_path
from .names import ImportTable
from .noqa import Suppressions, parse_suppressions
from .rules import all_rules
from .rules.base import FileContext, NodeEdit, PendingReport, Rule, mentions
from .rules.suppression import unused_noqa
from .source import Source, SourceError, decode, read_source, too_large

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import ProcessPoolExecutor

    from .cache import ResultsCache
    from .context import Learnt

UNREADABLE = "RPL001"
UNUSED_NOQA = "RPL002"

# -- parsing ------------------------------------------------------------------------------

#: files longer than this (characters) are parsed one group of top-level statements at a time:
#: LibCST's native parser needs several hundred bytes of memory per source byte while it runs
CHUNKED_ABOVE = 384 * 1024
#: the size of one group (a single statement larger than this is one group of its own)
CHUNK_SIZE = 128 * 1024
#: a top-level statement at least this long that only binds literal data (a table of numbers
#: and strings, as generated code holds) is kept as its text, not parsed: no rule looks inside
#: such a statement, and LibCST would need over a gigabyte per megabyte of it
VERBATIM_ABOVE = 64 * 1024


@dataclass(frozen=True)
class VerbatimStatement(cst.BaseStatement):
    """A top-level statement kept as its source text (see :data:`VERBATIM_ABOVE`): code
    generation writes it back unchanged, so the module's code and every position after it
    are those of a full parse; rules see a statement without children."""

    code: str
    leading_lines: Sequence[cst.EmptyLine] = ()

    def _visit_and_replace_children(self, visitor: Any) -> "VerbatimStatement":
        from libcst._nodes.internal import visit_sequence

        return VerbatimStatement(code=self.code, leading_lines=visit_sequence(self, "leading_lines", self.leading_lines, visitor))

    def _codegen_impl(self, state: CodegenState) -> None:
        for line in self.leading_lines:
            line._codegen(state)
        with state.record_syntactic_position(self):
            state.add_token(self.code)


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


class _ParserOutput:
    """While active, LibCST node constructors skip ``_validate``: the parser only builds valid
    nodes, and the checks cost about a quarter of the parse (LibCST's own ``PERF`` note on
    ``CSTNode.__post_init__`` says as much). Only the parse runs with it; nodes that rules or
    fixes build later are validated as usual. Safe with threads: the original method comes
    back when the last parse running in this process ends."""

    _lock = threading.Lock()
    _active = 0
    _original: Any = None

    def __enter__(self) -> None:
        from libcst._nodes.base import CSTNode

        cls = type(self)
        with cls._lock:
            if cls._active == 0:
                cls._original = CSTNode.__dict__.get("__post_init__")
                if cls._original is not None:
                    CSTNode.__post_init__ = _no_validation  # type: ignore[assignment]
            cls._active += 1

    def __exit__(self, *exc: object) -> None:
        from libcst._nodes.base import CSTNode

        cls = type(self)
        with cls._lock:
            cls._active -= 1
            if cls._active == 0 and cls._original is not None:
                CSTNode.__post_init__ = cls._original  # type: ignore[assignment]


def _no_validation(self: object) -> None:
    return None


def _compile(text: str, path: str, bytecode: bool) -> None:
    """CPython's check of ``text`` (SyntaxError if it rejects it); warnings are not ours to print."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(text, path, "exec", 0 if bytecode else ast.PyCF_ONLY_AST, dont_inherit=True)


def _compiles(text: str, path: str, bytecode: bool) -> bool:
    try:
        _compile(text, path, bytecode)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def parse_module(text: str, chunked_above: int = CHUNKED_ABOVE, chunk_size: int = CHUNK_SIZE) -> cst.Module:
    """``libcst.parse_module(text)``, the same tree, faster and in less memory.

    Raises what ``libcst.parse_module`` raises for text it cannot parse.
    """
    with _ParserOutput(), GCPaused():
        if len(text) > chunked_above:
            try:
                module = _parse_in_chunks(text, chunk_size)
            except Exception:
                module = None  # the whole-file parse below raises the error, with its real position
            if module is not None:
                return module
        return cst.parse_module(text)


def _first_line(stmt: ast.stmt) -> int:
    return min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])


def _chunk_offsets(text: str, chunk_size: int) -> Optional[Tuple[List[int], Dict[int, int]]]:
    """Offsets where the text may be cut between top-level statements (so that every piece
    is a module of its own), about ``chunk_size`` apart; and the pieces that hold one large
    literal-data statement alone, to keep verbatim (see :data:`VERBATIM_ABOVE`): their start
    and the end of the statement's last line. None when the text does not parse with
    ``ast`` (newer syntax than this Python's, or an error): then it is parsed whole."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    from .source import line_offsets

    lines = line_offsets(text) + [len(text)]
    cuts = [0]
    verbatim: Dict[int, int] = {}
    last_end = 0
    body = tree.body
    for number, stmt in enumerate(body):
        first = _first_line(stmt)
        end = stmt.end_lineno or stmt.lineno
        if last_end and first > last_end:
            offset = lines[first - 1]
            following = _first_line(body[number + 1]) if number + 1 < len(body) else None
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


# -- positions ------------------------------------------------------------------------------


class _OffsetCodegenState(CodegenState):
    """LibCST's code generation, keeping for each node what ``PositionProvider`` keeps (the
    syntactic range where the node records one, else the whitespace-inclusive range), but as
    character offsets: no line/column objects are made per token and node. Eight
    times cheaper than ``PositionProvider``, which matters for files that report."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.offset = 0
        self.popped = ""
        self.spans: Dict[cst.CSTNode, Tuple[int, int]] = {}
        self.starts: List[int] = []

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def pop_trailing_newline(self) -> None:
        # PositionProvider does not step back over the dropped newline: nor do we
        if self.tokens:
            self.popped = self.tokens.pop()

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.starts.pop()
        if node not in self.spans:
            self.spans[node] = (start, self.offset)

    @contextlib.contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: Optional[cst.CSTNode] = None,
        end_node: Optional[cst.CSTNode] = None,
    ) -> Iterator[None]:
        start = self.offset
        try:
            yield
        finally:
            end = self.offset
            if start_node is not None:
                start = self.spans[start_node][0]
            if end_node is not None:
                end = self.spans[end_node][1]
            self.spans[node] = (start, end)


Span = Tuple[Tuple[int, int], Tuple[int, int]]


def node_positions(module: cst.Module, text: Optional[str] = None) -> Callable[[cst.CSTNode], Span]:
    """``node -> ((line, col), (end_line, end_col))``, the same as LibCST's ``PositionProvider``
    (1-based lines, 0-based code-point columns), for every node of ``module``. ``text`` is the
    module's code when the caller has it (the source it was parsed from)."""
    from .source import line_offsets

    state = _OffsetCodegenState(module)
    module._codegen(state)
    text_lines: List[int] = []

    def position(offset: int) -> Tuple[int, int]:
        if not text_lines:
            text_lines.extend(line_offsets((text if text is not None else module.code) + state.popped))
        line = bisect.bisect_right(text_lines, offset)
        return line, offset - text_lines[line - 1]

    def where(node: cst.CSTNode) -> Span:
        start, end = state.spans[node]
        return position(start), position(end)

    return where


# -- the traversal ----------------------------------------------------------------------------

#: fields that only hold whitespace, comments and punctuation: never worth visiting
_TRIVIA_FIELDS = frozenset(
    {
        "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer",
        "trailing_whitespace", "semicolon", "comma", "equal", "dot", "lbracket", "rbracket",
        "lbrace", "rbrace", "colon", "newline", "asynchronous", "star_tok",
    }
)
#: source order where the dataclass field order differs from it
_FIELD_ORDER = {
    cst.FunctionDef: ("decorators", "name", "params", "returns", "type_parameters", "body"),
    cst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
}


def _holds_nodes(annotation: object) -> bool:
    if isinstance(annotation, type):
        return issubclass(annotation, cst.CSTNode)
    return any(_holds_nodes(arg) for arg in typing.get_args(annotation))


def _child_fields(node_type: type) -> Tuple[str, ...]:
    """The fields of ``node_type`` that can hold nodes worth visiting, in source order."""
    if node_type in _FIELD_ORDER:
        names: Sequence[str] = _FIELD_ORDER[node_type]
    else:
        names = [
            f.name
            for f in dataclasses.fields(node_type)
            if f.name not in _TRIVIA_FIELDS and not f.name.startswith("whitespace")
        ]
    try:
        hints = typing.get_type_hints(node_type)
    except Exception:  # pragma: no cover - unresolvable annotations: keep every field
        return tuple(names)
    return tuple(name for name in names if name not in hints or _holds_nodes(hints[name]))


#: node type -> its child fields in reverse source order (the traversal pushes them on a stack)
_REVERSED_FIELDS: Dict[type, Tuple[str, ...]] = {}
_NODE_TYPES: Set[type] = set()


def _node_types() -> Set[type]:
    if not _NODE_TYPES:
        stack: List[type] = [cst.CSTNode]
        while stack:
            for sub in stack.pop().__subclasses__():
                if sub not in _NODE_TYPES:
                    _NODE_TYPES.add(sub)
                    stack.append(sub)
    return _NODE_TYPES


@functools.lru_cache(maxsize=None)
def _handlers_of(rule_type: Type[Rule]) -> Tuple[Tuple[type, str, bool], ...]:
    """(node type, method name, is_leave) for every visit_X/leave_X a rule defines."""
    found = []
    for attr in dir(rule_type):
        for prefix, is_leave in (("visit_", False), ("leave_", True)):
            if attr.startswith(prefix):
                node_type = getattr(cst, attr[len(prefix):], None)
                if isinstance(node_type, type) and issubclass(node_type, cst.CSTNode):
                    found.append((node_type, attr, is_leave))
    return tuple(found)


_LEAVE = object()  # stack marker: the node on top of ``ancestors`` is done


def syntax_children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """``node.children`` without whitespace, comments and punctuation, in source order, and
    five times cheaper (LibCST builds ``children`` by running a visitor over the node)."""
    node_type = type(node)
    fields = _REVERSED_FIELDS.get(node_type)
    if fields is None:
        fields = _REVERSED_FIELDS[node_type] = tuple(reversed(_child_fields(node_type)))
    node_types = _node_types()
    found: List[cst.CSTNode] = []
    for name in reversed(fields):
        value = getattr(node, name)
        if type(value) in (list, tuple):
            found.extend(child for child in value if type(child) in node_types)
        elif type(value) in node_types:
            found.append(value)
    return found


def _walk(
    module: cst.Module,
    file: FileContext,
    rules: Sequence[Rule],
    on_error: Callable[[Rule, BaseException], None],
) -> None:
    """Visit every node once, in source order, calling each rule's handlers for its type.

    Iterative (no recursion limit on deeply nested code). ``file.ancestors`` holds the path
    from the module to the current node's parent while handlers run. The loop is the
    linter's hottest code: per node it does one dict lookup for handlers and one for the
    node's child fields, and leaves (names, literals, operators) are never pushed.
    """
    visit: Dict[type, List[Tuple[Rule, Callable]]] = {}
    leave: Dict[type, List[Tuple[Rule, Callable]]] = {}
    for rule in rules:
        for node_type, attr, is_leave in _handlers_of(type(rule)):
            (leave if is_leave else visit).setdefault(node_type, []).append((rule, getattr(rule, attr)))
    failed: set = set()

    def call(handlers: List[Tuple[Rule, Callable]], node: cst.CSTNode) -> None:
        for rule, handler in handlers:
            if rule in failed:
                continue
            try:
                handler(node)
            except Exception as exc:  # a bug in one rule must not hide the others' findings
                failed.add(rule)
                on_error(rule, exc)

    node_types = _node_types()
    fields_of = _REVERSED_FIELDS
    ancestors = file.ancestors
    enter, exit_ = ancestors.append, ancestors.pop
    stack: List[object] = [module]
    pop, push = stack.pop, stack.append
    leave_marker = _LEAVE
    list_types = (list, tuple)
    while stack:
        node = pop()
        if node is leave_marker:
            node = exit_()
            handlers = leave.get(type(node))
            if handlers:
                call(handlers, node)  # type: ignore[arg-type]
            continue
        node_type = type(node)
        handlers = visit.get(node_type)
        if handlers:
            call(handlers, node)  # type: ignore[arg-type]
        fields = fields_of.get(node_type)
        if fields is None:
            fields = fields_of[node_type] = tuple(reversed(_child_fields(node_type)))
        if not fields:  # a leaf: no ancestors to keep, leave right away
            handlers = leave.get(node_type)
            if handlers:
                call(handlers, node)  # type: ignore[arg-type]
            continue
        push(leave_marker)
        enter(node)  # type: ignore[arg-type]
        for name in fields:  # reversed, so the first child is popped first
            value = getattr(node, name)
            value_type = type(value)
            if value_type in list_types:
                for child in reversed(value):
                    if type(child) in node_types:
                        push(child)
            elif value_type in node_types:
                push(value)
    assert not ancestors


# -- results --------------------------------------------------------------------------------


@dataclass
class FileResult:
    path: str
    diagnostics: List[Diagnostic] = field(default_factory=list)
    errors: List[InternalError] = field(default_factory=list)
    #: False when the prefilter proved no selected rule can fire (the file was not parsed)
    parsed: bool = False
    #: the decoded source and its encoding, kept only when the caller asks (fixer, --add-noqa)
    source: Optional[Source] = None
    #: other files the findings depend on, through the project context (absolute paths, or
    #: :data:`~repro_lint.context.ALL_FILES`); empty when they depend on this file alone
    depends_on: Tuple[str, ...] = ()


def _pattern(words: Iterable[str]) -> Optional["re.Pattern[str]"]:
    words = sorted(set(words))
    if not words:
        return None
    return re.compile("|".join(re.escape(w) for w in words))


#: up to this many trigger words, ``word in text`` per word beats one regex alternation
#: (CPython's substring search is much faster than ``re`` on literal alternatives)
_SUBSTRING_SEARCH_WORDS = 16


class Linter:
    """Lints files with one configuration and one project context."""

    def __init__(
        self,
        settings: Settings,
        project: Optional[ProjectContext] = None,
        codes: Optional[Sequence[str]] = None,
        prefilter: bool = True,
    ) -> None:
        self.settings = settings
        self.project = project or ProjectContext(settings)
        self.codes = list(codes) if codes is not None else selected_codes(settings)
        registry = all_rules()
        self.rule_types = [registry[c] for c in self.codes if c in registry and registry[c].triggers]
        self.report_unreadable = UNREADABLE in self.codes
        self.report_unused_noqa = UNUSED_NOQA in self.codes
        self.prefilter = prefilter
        self.words: Tuple[str, ...] = tuple(sorted({w for r in self.rule_types for w in r.trigger_words(settings)}))
        self.trigger = _pattern(self.words)
        self._rule_words = [(rule_type, frozenset(rule_type.trigger_words(settings))) for rule_type in self.rule_types]
        self._entry_only = any(rule_type.entry_points_only for rule_type in self.rule_types)
        #: does a selected rule ask the project context (about entry points, helpers, ...)?
        self.needs_project = any(rule_type.needs_project for rule_type in self.rule_types)
        self._per_file = [
            (pathspec.GitIgnoreSpec.from_lines([pattern]), codes)
            for pattern, codes in settings.per_file_ignores.items()
        ]

    # -- suppression -------------------------------------------------------------------------
    def _per_file_ignored(self, path: str) -> List[str]:
        if not self._per_file:
            return []
        absolute = Path(os.path.abspath(path))
        try:
            rel = absolute.relative_to(self.settings.root).as_posix()
        except ValueError:
            rel = absolute.as_posix()
        ignored: List[str] = []
        for spec, codes in self._per_file:
            if spec.match_file(rel):
                ignored.extend(codes)
        return ignored

    def suppress(self, diagnostics: List[Diagnostic], path: str, suppressions: Suppressions) -> List[Diagnostic]:
        ignored = self._per_file_ignored(path)
        kept = []
        for diag in diagnostics:
            if any(diag.code.startswith(code) for code in ignored):
                continue
            if suppressions.file_suppresses(diag.code):
                continue
            directive = suppressions.line_directive(diag.code, diag.noqa_row)
            if directive is not None:
                directive.used.add(diag.code)
                continue
            kept.append(diag)
        return kept

    # -- one file --------------------------------------------------------------------------
    def needs_parse(self, text: str, path: Optional[str] = None) -> bool:
        """Can a selected rule fire on ``text``? (False: no trigger word occurs in it, or only
        entry-point rules could fire and ``path`` is not an entry point.)"""
        if not self.prefilter:
            return True
        if len(self.words) <= _SUBSTRING_SEARCH_WORDS:
            found = any(word in text for word in self.words)
        else:
            found = self.trigger is not None and self.trigger.search(text) is not None
        return found and bool(self.rules_for(text, path))

    def rules_for(self, text: str, path: Optional[str] = None) -> List[Type[Rule]]:
        """The selected rules that can fire on ``text``: those with a trigger word in it (and,
        given ``path``, without the entry-point rules when it is not an entry point)."""
        if not self.prefilter:
            return list(self.rule_types)
        present = {word for word in self.words if word in text}
        whole: Dict[str, bool] = {}

        def found(word: str) -> bool:
            if word not in whole:
                whole[word] = mentions(text, word, True)
            return whole[word]

        rules = [
            rule_type
            for rule_type, words in self._rule_words
            if not present.isdisjoint(words)
            and (not rule_type.whole_words or any(found(word) for word in words & present))
        ]
        if path is not None and any(rule.entry_points_only for rule in rules):
            if not self.project.is_entry_point(path, text):
                rules = [rule for rule in rules if not rule.entry_points_only]
        return rules

    def lint_path(self, path: Path, keep_source: bool = False) -> FileResult:
        shown = display_path(path)
        try:
            source = read_source(path)
        except SourceError as exc:
            return self._unreadable(shown, exc.message, exc.line, exc.col, "")
        return self.lint_source(shown, source, keep_source=keep_source)

    def lint_text(self, path: str, text: str) -> FileResult:
        return self.lint_source(path, Source(text, "utf-8"))

    def lint_source(self, path: str, source: Source, keep_source: bool = False) -> FileResult:
        text = source.text
        limit = self.settings.max_file_size
        oversized = len(text) > limit and len(source.encode(text)) > limit
        if not self.needs_parse(text, path):
            # no rule can fire; a huge file is not even syntax-checked (ast is slow on it too)
            result = FileResult(path) if oversized else self._check_syntax_only(path, text)
        elif oversized:
            result = self._unreadable(path, too_large(len(source.encode(text)), limit), 1, 0, text)
        else:
            result = self._lint_parsed(path, text)
        if keep_source:
            result.source = source
        return result

    def _unreadable(self, path: str, message: str, line: int, col: int, text: str) -> FileResult:
        result = FileResult(path)
        if self.report_unreadable:
            diag = Diagnostic(UNREADABLE, message, path, (line, col), (line, col), None, line)
            result.diagnostics = self.suppress([diag], path, parse_suppressions(text)) if text else [diag]
        return result

    def _check_syntax_only(self, path: str, text: str) -> FileResult:
        """A file no rule can fire on is still checked to parse, so RPL001 is never missed.

        CPython's compiler checks it (10 times faster than a LibCST parse; compiling to
        bytecode is faster still than building ``ast`` objects). Where it rejects the file,
        LibCST has the last word, as it has for the files that are linted: the two can
        disagree (syntax newer than the running Python, which LibCST parses; errors only
        the compiler finds, such as ``return`` outside a function), and RPL001 must be the
        same with and without the prefilter.
        """
        if self.report_unreadable and not _compiles(text, path, bytecode=True):
            module = self._parse(path, text)
            if isinstance(module, FileResult):
                return module
        return FileResult(path)

    def _parse(self, path: str, text: str) -> "cst.Module | FileResult":
        try:
            return parse_module(text)
        except cst.ParserSyntaxError as exc:
            message = exc.message.strip().splitlines()[0] if exc.message.strip() else "invalid syntax"
            return self._parse_failure(path, text, f"cannot parse: {message}", exc.raw_line, exc.raw_column)
        except RecursionError:
            return self._unreadable(path, "cannot parse: the code is nested too deeply for the parser", 1, 0, text)
        except Exception as exc:  # MemoryError, ValueError, and anything else the parser raises
            return self._parse_failure(path, text, f"cannot parse: {type(exc).__name__}: {exc}", 1, 0)

    def _parse_failure(self, path: str, text: str, message: str, line: int, col: int) -> FileResult:
        """RPL001 for text LibCST cannot parse, in CPython's words and position when CPython
        rejects it too (they are the words users know, and often closer to the mistake)."""
        try:
            _compile(text, path, bytecode=False)
        except SyntaxError as exc:
            return self._unreadable(path, f"cannot parse: {exc.msg}", exc.lineno or 1, max((exc.offset or 1) - 1, 0), text)
        except (ValueError, RecursionError, MemoryError):
            pass
        return self._unreadable(path, message, line, col, text)

    def _lint_parsed(self, path: str, text: str) -> FileResult:
        with GCPaused():
            return self._lint_parsed_now(path, text)

    def _lint_parsed_now(self, path: str, text: str) -> FileResult:
        module = self._parse(path, text)
        if isinstance(module, FileResult):
            return module
        result = FileResult(path, parsed=True)
        name, is_package = module_name_for(Path(path))
        names = ImportTable(name, is_package)
        project = self.project
        file = FileContext(path, text, module, names, self.settings, project)
        rules = [rule_type(file) for rule_type in self.rules_for(text, path)]

        def on_error(rule: Rule, exc: BaseException) -> None:
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            where = f" ({os.path.basename(frame.filename)}:{frame.lineno})"
            result.errors.append(InternalError(path, f"{type(exc).__name__}: {exc}{where}", rule.code))

        # record the files the project context consults for this file (the cache keys on them)
        recording = hasattr(project, "consulted")
        outer = getattr(project, "consulted", None)
        consulted: Set[str] = set()
        if recording:
            project.consulted = consulted
        try:
            _walk(module, file, [_ImportTracker(file)] + rules, on_error)
            if file.reports or self.report_unused_noqa:
                suppressions = parse_suppressions(text)
                if file.reports:
                    try:
                        result.diagnostics = self._resolve(path, module, file.reports, text)
                    except Exception as exc:  # pragma: no cover - a bug of ours, never the user's
                        result.errors.append(InternalError(path, f"cannot compute positions: {type(exc).__name__}: {exc}"))
                        return result
                    result.diagnostics = self.suppress(result.diagnostics, path, suppressions)
                if self.report_unused_noqa and not result.errors:
                    # after suppression, each noqa directive knows what it suppressed
                    unused = unused_noqa(path, text, suppressions, self.codes)
                    result.diagnostics.extend(self.suppress(unused, path, suppressions))
        finally:
            if recording:
                project.consulted = outer
                if outer is not None:
                    outer |= consulted
        consulted.discard(os.path.abspath(path))
        result.depends_on = tuple(sorted(consulted))
        return result

    def _resolve(
        self, path: str, module: cst.Module, reports: List[PendingReport], text: Optional[str] = None
    ) -> List[Diagnostic]:
        where = node_positions(module, text)

        def edit(node_edit: NodeEdit) -> Edit:
            if node_edit.node is None:
                assert node_edit.at is not None
                return Edit(node_edit.at, node_edit.at, node_edit.content)
            start, end = where(node_edit.node)
            if node_edit.kind == "line_before":
                return Edit((start[0], 0), (start[0], 0), node_edit.content)
            if node_edit.kind == "line_after":
                return Edit((end[0] + 1, 0), (end[0] + 1, 0), node_edit.content)
            if node_edit.kind == "before":
                return Edit(start, start, node_edit.content)
            if node_edit.kind == "after":
                return Edit(end, end, node_edit.content)
            return Edit(start, end, node_edit.content)

        diagnostics = []
        seen = set()
        for report in reports:
            start, end = where(report.node)
            fix = None
            if report.edits and report.applicability:
                fix = Fix(report.fix_message, tuple(edit(e) for e in report.edits), report.applicability)
            diag = Diagnostic(report.code, report.message, path, start, end, fix, start[0])
            key = (diag.code, diag.start, diag.message)
            if key not in seen:  # two handlers may reach the same node; report it once
                seen.add(key)
                diagnostics.append(diag)
        return diagnostics


class _ImportTracker(Rule):
    """Fills the import table as the traversal meets imports and alias assignments
    (not a registered rule: it has no code)."""

    def __init__(self, file: FileContext) -> None:
        super().__init__(file)
        self.names = file.names

    def visit_Import(self, node: cst.Import) -> None:
        self.names.add_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.names.add_import_from(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            self.names.add_assignment(node.targets[0].target, node.value)


# -- many files --------------------------------------------------------------------------------

_WORKER: Optional[Linter] = None


def _init_worker(linter: Linter) -> None:
    global _WORKER
    _WORKER = linter


def _read_bytes(path: Path) -> bytes:
    """The file's bytes; SourceError (as :func:`~repro_lint.source.read_source`) if unreadable."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except IsADirectoryError:
        raise SourceError("is a directory, not a Python file") from None
    except OSError as exc:
        raise SourceError(f"cannot read file: {exc.strerror or exc}") from None


def _lint_file(linter: Linter, path: Path) -> Tuple[FileResult, Optional[str]]:
    """Lint one file; also return the digest of the bytes that were linted (for the cache)."""
    shown = display_path(path)
    try:
        data = _read_bytes(path)
    except SourceError as exc:
        return linter._unreadable(shown, exc.message, exc.line, exc.col, ""), None
    try:
        source = decode(data)
    except SourceError as exc:
        return linter._unreadable(shown, exc.message, exc.line, exc.col, ""), content_digest(data)
    return linter.lint_source(shown, source), content_digest(data)


Task = List[Tuple[int, Path]]


def _run_task(task: Task) -> List[Tuple[int, FileResult, Optional[str]]]:
    assert _WORKER is not None
    return [(index, *_lint_file(_WORKER, path)) for index, path in task]


def _needs_parse(linter: Linter, path: Path, data: bytes) -> bool:
    try:
        text = decode(data).text
    except SourceError:
        return True  # reported by the worker; cheap
    return linter.needs_parse(text, str(path))


def _survey_task(task: Task) -> List[Tuple[int, bool, int, "Optional[Learnt]"]]:
    """For each file: must it be parsed, its size, and what the project context learnt of it."""
    assert _WORKER is not None
    done = []
    for index, path in task:
        try:
            data = _read_bytes(path)
        except SourceError:
            done.append((index, True, 0, None))  # the lint worker reports it
            continue
        kind = _needs_parse(_WORKER, path, data)
        done.append((index, kind, len(data), _WORKER.project.survey(path)))
    return done


def _batches(files: Sequence[Path], sized: Iterable[Tuple[int, int]], limit: int) -> Iterator[Tuple[int, Task]]:
    """The files of ``sized`` ((index, size) pairs) in order, in groups of about ``limit``
    bytes, counting FILE_COST per file: (bytes, group) per group."""
    batch: Task = []
    batch_bytes = 0
    for index, size in sized:
        batch.append((index, files[index]))
        batch_bytes += size + FILE_COST
        if batch_bytes >= limit:
            yield batch_bytes, batch
            batch, batch_bytes = [], 0
    if batch:
        yield batch_bytes, batch


def _pool(linter: Linter, jobs: int) -> "ProcessPoolExecutor":
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork: workers inherit the linter, its rules and the project context without pickling
    method = "fork" if sys.platform.startswith("linux") else None
    context = multiprocessing.get_context(method)
    return ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(linter,))


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: below this much work (bytes to parse, a syntax-only check counting an eighth, plus
#: FILE_COST per file) a process pool costs more than it saves (starting two forked workers
#: and stopping them takes about 10 ms; LibCST parses about 1 MB/s)
POOL_MIN_WORK = 48 * 1024
FILE_COST = 1024
#: files that need only a syntax check are sent to workers in groups of about this many bytes
CHECK_BATCH_BYTES = 512 * 1024
CHECK_COST = 8  # a syntax-only check is roughly this many times cheaper than a LibCST parse
#: from this many bytes of files not answered by the cache on, and when a selected rule asks
#: the project context, the files are sorted in worker processes, which also compute the
#: facts of each file for the project context (an ``ast`` pass over the whole project: on
#: torch's source 11 s in one process, the largest serial part of a cold run otherwise)
SURVEY_MIN_BYTES = 4 * 1024 * 1024
#: a survey task holds files of about this many bytes
SURVEY_TASK_BYTES = 256 * 1024


class _Run:
    """One ``lint_files`` call: read and hash every file in this process, answer what the cache
    can, prefilter the rest, and send only real work to the workers, biggest first."""

    def __init__(self, linter: Linter, files: Sequence[Path], cache: "Optional[ResultsCache]") -> None:
        self.linter = linter
        self.files = list(files)
        self.cache = cache
        self.results: List[Optional[FileResult]] = [None] * len(self.files)
        self.digests: Dict[int, str] = {}
        self.modules: Dict[int, str] = {}
        self.index_of: Dict[str, int] = {}
        self.parse: List[Tuple[int, int]] = []  # (index, size): files a rule may fire on
        self.check: List[Tuple[int, int]] = []  # (index, size): syntax check only
        self._run_digest: Optional[str] = None
        self._other_digests: Dict[str, Optional[str]] = {}

    # -- reading, cache and prefilter ------------------------------------------------------
    def classify(self, jobs: int = 1) -> None:
        """Read and hash every file here and answer what the cache can; sort the rest into
        files to parse and files to check only: here, or, when there are many and a selected
        rule asks the project context, in workers that also survey the project."""
        may_survey = jobs > 1 and self.linter.needs_project
        todo: List[Tuple[int, int]] = []  # (index, size): to sort, in workers or here
        pending: List[Tuple[int, Dict[str, Any]]] = []
        for index, path in enumerate(self.files):
            try:
                data = _read_bytes(path)
            except SourceError as exc:
                self.results[index] = self.linter._unreadable(display_path(path), exc.message, exc.line, exc.col, "")
                continue
            if self.cache is not None:
                self.index_of[os.path.abspath(path)] = index
                self.digests[index] = content_digest(data)
                self.modules[index] = module_name_for(path)[0]
                entry = self.cache.lookup(self.cache.key_of(path), self.digests[index], self.modules[index])
                if entry is not None:
                    if not self.cache.entry_dependencies(entry):
                        if self._answer(index, entry):
                            continue
                    else:
                        pending.append((index, entry))  # dependencies are checked once all are hashed
                        continue
            if may_survey:
                todo.append((index, len(data)))
            else:
                self._sort(index, data)
        for index, entry in pending:
            if not (self._dependencies_hold(entry) and self._answer(index, entry)):
                todo.append((index, 0))
        if may_survey and sum(size for _, size in todo) >= SURVEY_MIN_BYTES:
            self._survey(todo, jobs)
            return
        for index, _ in todo:  # little: read again rather than held
            try:
                data = _read_bytes(self.files[index])
            except SourceError:
                self.parse.append((index, 0))  # changed since: the worker reports it
                continue
            self._sort(index, data)

    def _survey(self, todo: List[Tuple[int, int]], jobs: int) -> None:
        """:meth:`_sort` the files in worker processes, which also learn the project context's
        facts of each (the ``ast`` pass that the entry points' summaries need), and take what
        they learnt here, before the lint workers are forked."""
        biggest_first = sorted(todo, key=lambda item: -item[1])
        tasks = [task for _, task in _batches(self.files, biggest_first, SURVEY_TASK_BYTES)]
        sorted_: Dict[int, Tuple[bool, int]] = {}
        with _pool(self.linter, jobs) as pool:
            for done in pool.map(_survey_task, tasks):
                for index, kind, size, learnt in done:
                    sorted_[index] = (kind, size)
                    if learnt is not None:
                        self.linter.project.absorb(self.files[index], learnt)
        for index, _ in todo:  # in the order the files were given, as without workers
            kind, size = sorted_[index]
            (self.parse if kind else self.check).append((index, size))

    def _answer(self, index: int, entry: Dict[str, Any]) -> bool:
        assert self.cache is not None
        shown = display_path(self.files[index])
        diagnostics = self.cache.diagnostics(entry, shown)
        if diagnostics is None:
            return False  # a malformed entry is ignored
        self.results[index] = FileResult(shown, diagnostics, parsed=bool(entry.get("p")))
        return True

    def _sort(self, index: int, data: bytes) -> None:
        if _needs_parse(self.linter, self.files[index], data):
            self.parse.append((index, len(data)))
        else:
            self.check.append((index, len(data)))

    # -- dependencies through the project context -------------------------------------------
    def run_digest(self) -> str:
        if self._run_digest is None:
            items = sorted((os.path.abspath(p), self.digests.get(i, "")) for i, p in enumerate(self.files))
            self._run_digest = content_digest(repr(items).encode("utf-8"))
        return self._run_digest

    def digest_of(self, dependency: str) -> Optional[str]:
        from .cache import ALL_FILES_KEY, ROOTS_KEY

        if dependency == ALL_FILES_KEY:
            return self.run_digest()
        if dependency == ROOTS_KEY:
            state_key = getattr(self.linter.project, "state_key", None)
            return content_digest(state_key().encode("utf-8")) if state_key else ""
        index = self.index_of.get(dependency)
        if index is not None and index in self.digests:
            return self.digests[index]
        if dependency not in self._other_digests:
            try:
                with open(dependency, "rb") as handle:
                    self._other_digests[dependency] = content_digest(handle.read())
            except OSError:
                self._other_digests[dependency] = None  # missing (or unreadable): that too is a fact
        return self._other_digests[dependency]

    def _dependencies_hold(self, entry: Dict[str, Any]) -> bool:
        assert self.cache is not None
        return all(self.digest_of(dep) == expected for dep, expected in self.cache.entry_dependencies(entry).items())

    def _store(self, index: int, result: FileResult, digest: Optional[str]) -> None:
        if self.cache is None or digest is None or result.errors:
            return  # internal errors are reported again on the next run
        from .cache import ROOTS_KEY

        # (context.ALL_FILES and cache.ALL_FILES_KEY are the same marker)
        dependencies: Dict[str, Optional[str]] = {dep: self.digest_of(dep) for dep in result.depends_on}
        if dependencies:
            dependencies[ROOTS_KEY] = self.digest_of(ROOTS_KEY)
        path = self.files[index]
        self.cache.store(
            self.cache.key_of(path), digest, self.modules.get(index) or module_name_for(path)[0],
            result.parsed, result.diagnostics, dependencies,
        )

    # -- the work ---------------------------------------------------------------------------
    def tasks(self) -> List[Tuple[int, Task]]:
        """(estimated cost, files) per task, biggest first: each file to parse is a task of its
        own; syntax-only checks go in batches."""
        tasks = [(size + FILE_COST, [(index, self.files[index])]) for index, size in self.parse]
        for batch_bytes, batch in _batches(self.files, self.check, CHECK_BATCH_BYTES):
            tasks.append((batch_bytes // CHECK_COST, batch))
        tasks.sort(key=lambda task: -task[0])
        return tasks

    def execute(self, jobs: int) -> None:
        linter = self.linter
        tasks = self.tasks()
        if not tasks:
            return
        if linter.needs_project:
            # once, in this process, so that workers inherit it
            linter.project.prepare([self.files[index] for index, _ in self.parse])
        work = sum(cost for cost, _ in tasks)
        jobs = min(jobs, len(tasks))
        if jobs <= 1 or work < POOL_MIN_WORK:
            for _, task in tasks:
                for index, path in task:
                    result, digest = _lint_file(linter, path)
                    self.results[index] = result
                    self._store(index, result, digest)
            return
        with _pool(linter, jobs) as pool:
            for done in pool.map(_run_task, [task for _, task in tasks]):
                for index, result, digest in done:
                    self.results[index] = result
                    self._store(index, result, digest)


def lint_files(
    linter: Linter,
    files: Sequence[Path],
    jobs: Optional[int] = None,
    cache: "Optional[ResultsCache]" = None,
) -> List[FileResult]:
    """Lint ``files`` with ``jobs`` processes (default: usable cores; 1: in this process).

    With a ``cache`` (:class:`~repro_lint.cache.ResultsCache`), files whose content, settings
    and project dependencies are unchanged are answered from it, and new results are saved.
    Results come back in the order of ``files``.
    """
    run = _Run(linter, files, cache)
    jobs = jobs or default_jobs()
    run.classify(jobs)
    run.execute(jobs)
    if cache is not None:
        cache.save()
    assert all(result is not None for result in run.results)
    return run.results  # type: ignore[return-value]
