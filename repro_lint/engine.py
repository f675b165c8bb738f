"""The linting engine: prefilter, parse once, run every selected rule in one traversal,
turn reports into diagnostics, apply suppressions; over many files, in parallel.

Data flow per file: read + decode -> text prefilter (the selected rules' trigger words) ->
LibCST parse -> one traversal dispatching to all rules -> positions (only when something
was reported) -> per-file-ignores and ``noqa`` -> :class:`FileResult`.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import os
import re
import sys
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Type

import libcst as cst
import pathspec
from libcst.metadata import MetadataWrapper, PositionProvider

from .config import Settings, selected_codes
from .context import ProjectContext, module_name_for
from .diagnostics import Diagnostic, Edit, Fix, InternalError
from .discovery import display_path
from .names import ImportTable
from .noqa import Suppressions, parse_suppressions
from .rules import all_rules
from .rules.base import FileContext, NodeEdit, PendingReport, Rule
from .rules.suppression import unused_noqa
from .source import Source, SourceError, read_source, too_large

UNREADABLE = "RPL001"
UNUSED_NOQA = "RPL002"

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


@functools.lru_cache(maxsize=None)
def _child_fields(node_type: type) -> Tuple[str, ...]:
    if node_type in _FIELD_ORDER:
        return _FIELD_ORDER[node_type]
    return tuple(
        f.name
        for f in dataclasses.fields(node_type)
        if f.name not in _TRIVIA_FIELDS and not f.name.startswith("whitespace")
    )


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


def _walk(
    module: cst.Module,
    file: FileContext,
    rules: Sequence[Rule],
    on_error: Callable[[Rule, BaseException], None],
) -> None:
    """Visit every node once, in source order, calling each rule's handlers for its type.

    Iterative (no recursion limit on deeply nested code). ``file.ancestors`` holds the path
    from the module to the current node's parent while handlers run.
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

    ancestors = file.ancestors
    stack: List[Tuple[cst.CSTNode, bool]] = [(module, False)]
    pop, push = stack.pop, stack.append
    while stack:
        node, leaving = pop()
        node_type = type(node)
        if leaving:
            ancestors.pop()
            handlers = leave.get(node_type)
            if handlers:
                call(handlers, node)
            continue
        handlers = visit.get(node_type)
        if handlers:
            call(handlers, node)
        push((node, True))
        ancestors.append(node)
        children: List[cst.CSTNode] = []
        for name in _child_fields(node_type):
            value = getattr(node, name, None)
            if isinstance(value, cst.CSTNode):
                children.append(value)
            elif isinstance(value, (list, tuple)):
                children.extend(v for v in value if isinstance(v, cst.CSTNode))
        for child in reversed(children):
            push((child, False))
        # the node itself was pushed for leaving before its children, so leave runs after them
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


def _pattern(words: Iterable[str]) -> Optional["re.Pattern[str]"]:
    words = sorted(set(words))
    if not words:
        return None
    return re.compile("|".join(re.escape(w) for w in words))


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
        self.trigger = _pattern(w for r in self.rule_types for w in r.trigger_words(settings))
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
    def needs_parse(self, text: str) -> bool:
        return not self.prefilter or (self.trigger is not None and self.trigger.search(text) is not None)

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
        if not self.needs_parse(text):
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
        """A file no rule can fire on is still checked to parse, so RPL001 is never missed."""
        if self.report_unreadable:
            try:
                with warnings.catch_warnings():  # the user's SyntaxWarnings are not ours to print
                    warnings.simplefilter("ignore")
                    ast.parse(text)
            except SyntaxError as exc:
                return self._unreadable(path, f"cannot parse: {exc.msg}", exc.lineno or 1, max((exc.offset or 1) - 1, 0), text)
            except (ValueError, RecursionError, MemoryError) as exc:
                return self._unreadable(path, f"cannot parse: {type(exc).__name__}: {exc}", 1, 0, text)
        return FileResult(path)

    def _parse(self, path: str, text: str) -> "cst.Module | FileResult":
        try:
            return cst.parse_module(text)
        except cst.ParserSyntaxError as exc:
            message = exc.message.strip().splitlines()[0] if exc.message.strip() else "invalid syntax"
            return self._unreadable(path, f"cannot parse: {message}", exc.raw_line, exc.raw_column, text)
        except RecursionError:
            return self._unreadable(path, "cannot parse: the code is nested too deeply for the parser", 1, 0, text)
        except (MemoryError, ValueError) as exc:
            return self._unreadable(path, f"cannot parse: {type(exc).__name__}: {exc}", 1, 0, text)

    def _lint_parsed(self, path: str, text: str) -> FileResult:
        module = self._parse(path, text)
        if isinstance(module, FileResult):
            return module
        result = FileResult(path, parsed=True)
        name, is_package = module_name_for(Path(path))
        names = ImportTable(name, is_package)
        file = FileContext(path, text, module, names, self.settings, self.project)
        rules = [rule_type(file) for rule_type in self.rule_types]

        def on_error(rule: Rule, exc: BaseException) -> None:
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            where = f" ({os.path.basename(frame.filename)}:{frame.lineno})"
            result.errors.append(InternalError(path, f"{type(exc).__name__}: {exc}{where}", rule.code))

        _walk(module, file, [_ImportTracker(file)] + rules, on_error)
        if not (file.reports or self.report_unused_noqa):
            return result
        suppressions = parse_suppressions(text)
        if file.reports:
            try:
                result.diagnostics = self._resolve(path, module, file.reports)
            except Exception as exc:  # pragma: no cover - a bug of ours, never the user's
                result.errors.append(InternalError(path, f"cannot compute positions: {type(exc).__name__}: {exc}"))
                return result
            result.diagnostics = self.suppress(result.diagnostics, path, suppressions)
        if self.report_unused_noqa and not result.errors:
            # after suppression, each noqa directive knows what it suppressed
            unused = unused_noqa(path, text, suppressions, self.codes)
            result.diagnostics.extend(self.suppress(unused, path, suppressions))
        return result

    def _resolve(self, path: str, module: cst.Module, reports: List[PendingReport]) -> List[Diagnostic]:
        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

        def where(node: cst.CSTNode) -> Tuple[Tuple[int, int], Tuple[int, int]]:
            rng = positions[node]
            return (rng.start.line, rng.start.column), (rng.end.line, rng.end.column)

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


def _lint_in_worker(path: Path) -> FileResult:
    assert _WORKER is not None
    return _WORKER.lint_path(path)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: below this many files a process pool costs more than it saves
POOL_THRESHOLD = 8


def lint_files(linter: Linter, files: Sequence[Path], jobs: Optional[int] = None) -> List[FileResult]:
    """Lint ``files`` with ``jobs`` processes (default: usable cores; 1: in this process)."""
    jobs = jobs or default_jobs()
    if any(rule.needs_project for rule in linter.rule_types):
        linter.project.prepare(files)  # once, in this process, so workers inherit it
    if jobs <= 1 or len(files) < POOL_THRESHOLD:
        return [linter.lint_path(f) for f in files]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if sys.platform.startswith("linux") else None
    context = multiprocessing.get_context(method)
    chunksize = max(1, min(16, len(files) // (jobs * 8)))
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(linter,)) as pool:
        return list(pool.map(_lint_in_worker, files, chunksize=chunksize))
