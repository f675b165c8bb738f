"""Applying fixes: ``--fix``, ``--unsafe-fixes`` and ``--diff``.

One file at a time (files in parallel, like linting):

1. lint the text; take the fixes of the findings that survived suppression: safe ones, and
   unsafe ones with ``--unsafe-fixes``;
2. resolve them into one set of non-overlapping text edits (:func:`plan`): fixes are taken in
   order of where their edits start, the enclosing one first, so **the outer fix wins**; a fix
   whose edits overlap an edit already taken waits for the next pass (all of a fix's edits or
   none); an edit identical to one already taken (same range and text, e.g. two fixes adding
   the same import) is applied once; insertions at the same point are all kept, imports first;
3. apply them, converting the ``\\n`` of inserted text to the file's own line ending;
4. parse the new text (LibCST, and ``compile()`` when the original compiled): if it does not
   parse, stop and leave the file untouched, with an internal error naming the rule(s);
5. lint the new text again with the same :class:`~repro_lint.engine.Linter` and repeat from 2,
   until nothing is left to fix or :data:`MAX_PASSES` passes have run.

Only then, once every file of the run has been fixed in memory (so that no file is fixed against
another's new text), is the file written: encoded with its own encoding (PEP 263 cookie, BOM kept),
decoded back as a check, and replaced atomically (temporary file in the same folder, same
mode). A file with nothing to fix is never opened for writing. A symlink, or a file whose real
location is outside the paths given, is never written. Just before the replace, the file is
read again: if its bytes are no longer those the fixes were planned from (another program
wrote it meanwhile), it is left as it now is, with a note. A file that cannot be written (a
read-only folder) is left unchanged with a note; its findings are reported as they are. Then a
file whose remaining findings the project context derived from a file now written (or from every
file) is linted again against the written texts (:func:`stale_results`), so that ``--fix``
reports what the next run reports.

It is one module because planning a pass, applying it and checking its result share one model
of a file's text (offsets, line endings, encoding), and every step must agree on it.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ._lazy import cst
from .cache import ALL_FILES_KEY, dependency_file
from .diagnostics import SAFE, UNSAFE, Diagnostic, Edit, InternalError
from .discovery import display_path
from .linter import FileResult, Linter
from .parse import DeepRecursion, parse_module
from .report import readable_path
from . import run as runs
from .rules import all_rules
from .rules.suppression import UnusedNoqa
from .run import default_jobs, pool, work_of, worker_state
from .source import NotebookSource, Source, SourceError, compile_check, decode_file, dominant_newline, line_offsets, read_bytes, write_atomic

#: passes over one file before giving up (each pass re-lints the new text)
MAX_PASSES = 10


# -- edits to text ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextEdit:
    """An :class:`~repro_lint.diagnostics.Edit` as offsets into one text, content ready to insert."""

    start: int
    end: int
    content: str

    @property
    def is_insertion(self) -> bool:
        return self.start == self.end


def to_text_edit(edit: Edit, text: str, offsets: Sequence[int], newline: str) -> TextEdit:
    """Offsets for ``edit`` in ``text``; its ``\\n`` line breaks become ``newline``.

    A position past the last line (an insertion after the last statement of a file that does
    not end with a line break) lands at the end of the text, after a line break added for it.
    """
    content = edit.content.replace("\r\n", "\n")
    if newline != "\n":
        content = content.replace("\n", newline)

    def offset(line: int, col: int) -> Tuple[int, bool]:
        if line - 1 < len(offsets):
            return min(offsets[line - 1] + col, len(text)), False
        return len(text), True

    start, past_start = offset(*edit.start)
    end, _ = offset(*edit.end)
    if past_start and start == end and text and not text.endswith(("\n", "\r")):
        content = newline + content
    return TextEdit(start, end, content)


def conflict(a: TextEdit, b: TextEdit) -> bool:
    """Do two edits touch the same text? Insertions at the same point do not conflict (both
    are kept); an insertion strictly inside a replaced range does."""
    if a == b:
        return False
    if a.is_insertion and b.is_insertion:
        return False
    if a.is_insertion:
        return b.start < a.start < b.end
    if b.is_insertion:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def _is_import_text(content: str) -> bool:
    first = content.lstrip().split("\n", 1)[0]
    return first.startswith("import ") or (first.startswith("from ") and " import " in first)


def apply_text_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply non-conflicting edits. Insertions at the same point keep their order in ``edits``,
    except that inserted imports go first."""
    order = sorted(
        range(len(edits)),
        key=lambda i: (edits[i].start, edits[i].end, 0 if _is_import_text(edits[i].content) else 1, i),
    )
    parts: List[str] = []
    position = 0
    for i in order:
        edit = edits[i]
        assert edit.start >= position, "overlapping edits reached apply_text_edits"
        parts.append(text[position:edit.start])
        parts.append(edit.content)
        position = edit.end
    parts.append(text[position:])
    return "".join(parts)


def diff_codes(codes: Sequence[str]) -> List[str]:
    """The codes a ``--diff`` run lints with, of the enabled ``codes``.

    A diff shows fixes and nothing else (ruff's ``--diff`` implies ``--fix-only``), and only a
    rule that declares a fix can make one (:meth:`~repro_lint.rules.base.Rule.report` drops the
    edits of any other), so the others are left out: a file that only they could report on is
    not even parsed, and the diff is the one ``--fix`` writes. The engine's own codes stay
    (RPL001 costs nothing). Every code stays when RPL002 is enabled: whether a ``# noqa``
    comment is unused depends on every enabled rule's findings, and its fix removes the codes
    it finds unused.
    """
    registry = all_rules()
    if UnusedNoqa.code in codes:
        return list(codes)
    return [c for c in codes if c in registry and (registry[c].fix is not None or registry[c].found_by == "engine")]


def is_selected(diag: Diagnostic, unsafe: bool) -> bool:
    fix = diag.fix
    return fix is not None and bool(fix.edits) and (fix.applicability == SAFE or (unsafe and fix.applicability == UNSAFE))


@dataclass
class Plan:
    """One pass: the edits to apply and the findings they fix."""

    edits: List[TextEdit] = field(default_factory=list)
    applied: List[Diagnostic] = field(default_factory=list)
    #: fixes left for a later pass because they overlap a fix taken in this one
    deferred: List[Diagnostic] = field(default_factory=list)
    #: fixes that can never apply (their own edits overlap): a bug in the rule
    broken: List[Diagnostic] = field(default_factory=list)


def plan(text: str, diagnostics: Iterable[Diagnostic], newline: Optional[str] = None) -> Plan:
    """Choose the fixes of one pass (the outer one wins; identical edits once; see the module doc)."""
    newline = newline or dominant_newline(text)
    offsets = line_offsets(text)
    candidates = []
    for diag in diagnostics:
        assert diag.fix is not None
        edits = [to_text_edit(e, text, offsets, newline) for e in diag.fix.edits]
        edits = [e for e in edits if e.content or not e.is_insertion] or edits[:1]  # no empty insertions
        start = min(e.start for e in edits)
        end = max(e.end for e in edits if e.start == start)
        candidates.append(((start, -end, diag.sort_key()), diag, edits))
    candidates.sort(key=lambda item: item[0])
    result = Plan()
    taken: Dict[TextEdit, None] = {}  # ordered set
    for _, diag, edits in candidates:
        unique = list(dict.fromkeys(edits))
        if any(conflict(a, b) for i, a in enumerate(unique) for b in unique[i + 1:]):
            result.broken.append(diag)
            continue
        if any(conflict(edit, other) for edit in unique for other in taken):
            result.deferred.append(diag)
            continue
        for edit in unique:
            taken.setdefault(edit, None)
        result.applied.append(diag)
    result.edits = merge_from_imports(list(taken), newline)
    return result


def _from_import(line: str) -> Optional[Tuple[str, List[str]]]:
    """``(module, names)`` when ``line`` (without its line break) is one ``from module import a, b``."""
    if not line.startswith("from ") or " import " not in line or "(" in line or "#" in line or ";" in line:
        return None
    module, _, names = line[5:].partition(" import ")
    return module.strip(), [n.strip() for n in names.split(",") if n.strip()]


def merge_from_imports(edits: List[TextEdit], newline: str) -> List[TextEdit]:
    """Several fixes of one pass that each insert ``from M import x`` at the same point become
    one ``from M import x, y`` (names sorted, as isort and ruff sort them), not a line each.

    An insertion may start with such a line and go on (the setup block: its import, a blank
    line, its calls): the names of the others join that first line, and an insertion that was
    only the import line disappears, so the merged import stays above the code that uses it."""
    groups: Dict[Tuple[int, str], List[Tuple[int, str, List[str]]]] = {}
    for index, edit in enumerate(edits):
        if not edit.is_insertion:
            continue
        first, brk, rest = edit.content.partition(newline)
        parsed = _from_import(first) if brk else None
        if parsed is not None:
            groups.setdefault((edit.start, parsed[0]), []).append((index, rest, parsed[1]))
    replaced: Dict[int, TextEdit] = {}
    for (start, module), members in groups.items():
        if len(members) < 2:
            continue
        names: List[str] = []
        for _, _, given in members:
            names.extend(n for n in given if n not in names)
        line = f"from {module} import {', '.join(sorted(names))}{newline}"
        # the merged line goes where the first import of the group was; the others keep what
        # follows their import line, and vanish when nothing does
        first_index, first_rest, _ = members[0]
        replaced[first_index] = TextEdit(start, start, line + first_rest)
        for index, rest, _ in members[1:]:
            replaced[index] = TextEdit(start, start, rest)
    merged = [replaced.get(i, edit) for i, edit in enumerate(edits)]
    return [edit for edit in merged if edit.content or not edit.is_insertion]


# -- parsing checks ---------------------------------------------------------------------------


def parse_error(text: str, path: str, check_compile: bool) -> Optional[str]:
    """Why ``text`` does not parse (``compile()``, then LibCST), or None when it does."""
    found = _parsed(text, path, check_compile)
    return found if isinstance(found, str) else None


def _parsed(text: str, path: str, check_compile: bool) -> "str | cst.Module":
    """``text`` parsed by LibCST (the linter's parser: the same tree as ``cst.parse_module``),
    or why it does not parse (``compile()`` first, when ``check_compile``)."""
    if check_compile:
        problem = compile_error(text, path)
        if problem is not None:
            return problem
    try:
        with DeepRecursion():
            return parse_module(text)
    except cst.ParserSyntaxError as exc:
        return f"line {exc.raw_line}: {exc.message.strip().splitlines()[0] if exc.message.strip() else 'invalid syntax'}"
    except (RecursionError, MemoryError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"


def compile_error(text: str, path: str) -> Optional[str]:
    try:
        compile_check(text, path, bytecode=True)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    except (RecursionError, MemoryError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


# -- one file -----------------------------------------------------------------------------------


@dataclass
class FixOutcome:
    """What fixing one file's text gave: the new text (equal to the old one when nothing was
    fixed or a fix was refused), the findings on it, and how many were fixed, by rule."""

    text: str
    result: FileResult
    fixed: Counter = field(default_factory=Counter)
    errors: List[InternalError] = field(default_factory=list)
    passes: int = 0

    @property
    def fixed_count(self) -> int:
        return sum(self.fixed.values())


def _codes(diagnostics: Iterable[Diagnostic]) -> str:
    return ", ".join(sorted({d.code for d in diagnostics}))


def _culprits(text: str, path: str, step: Plan, newline: str, check_compile: bool) -> List[Diagnostic]:
    """The fixes of a failed pass that break the parse on their own (all of them if none does)."""
    offsets = line_offsets(text)
    found = []
    for diag in step.applied:
        assert diag.fix is not None
        edits = list(dict.fromkeys(to_text_edit(e, text, offsets, newline) for e in diag.fix.edits))
        if parse_error(apply_text_edits(text, edits), path, check_compile):
            found.append(diag)
    return found or list(step.applied)


def fix_source(
    linter: Linter,
    path: str,
    source: Source,
    unsafe: bool = False,
    max_passes: int = MAX_PASSES,
    result: Optional[FileResult] = None,
) -> FixOutcome:
    """Fix ``source`` (shown as ``path``) in memory. ``result``: its lint result, if already known.

    Each pass lints the new text, and the project context takes it as the file's text for that
    (:meth:`~repro_lint.context.ProjectContext.learn_text`: every question about the file reads
    it, not only those the file's own lint asks first); when the fixes are done, the file has
    the text it had before again, and the project context what it knew before
    (:meth:`~repro_lint.context.ProjectContext.trying`). So every file is fixed against the
    texts the run found, whichever files the same process fixed before (a file whose fix seeds
    at startup does not change the fixes of a file that imports it), and the diffs do not
    depend on ``--jobs`` or on how the files fall to the workers; the files are written once
    every file is fixed (:func:`fix_files`).
    """
    result = result or linter.lint_source(path, source)
    outcome = FixOutcome(source.text, result)
    with linter.project.trying(path):
        return _passes(linter, path, source, unsafe, max_passes, outcome)


def _passes(linter: Linter, path: str, source: Source, unsafe: bool, max_passes: int, outcome: FixOutcome) -> FixOutcome:
    """The passes of :func:`fix_source`, from the findings in ``outcome.result``."""
    original = source.text
    newline = dominant_newline(original)
    result = outcome.result
    text = original
    original_compiles: Optional[bool] = None
    for _ in range(max_passes):
        selected = [d for d in result.diagnostics if is_selected(d, unsafe)]
        if not selected:
            break
        step = plan(text, selected, newline)
        for diag in step.broken:
            outcome.errors.append(InternalError(path, f"the fix's own edits overlap at line {diag.line}; fix skipped", diag.code))
        if not step.applied:
            break
        new_text = apply_text_edits(text, step.edits)
        if new_text == text:
            break  # fixes that change nothing: stop rather than loop
        # the new text must compile where the original does: the original is compiled only
        # when the new text does not (most fixed texts compile, and then it need not be)
        problem = compile_error(new_text, path) if original_compiles is not False else None
        if problem is not None and original_compiles is None:
            original_compiles = compile_error(original, path) is None
            problem = problem if original_compiles else None
        parsed = problem if problem is not None else _parsed(new_text, path, False)
        if isinstance(parsed, str):
            problem = parsed
            if original_compiles is None:
                original_compiles = compile_error(original, path) is None
            culprits = _culprits(text, path, step, newline, original_compiles)
            codes = _codes(culprits)
            outcome.errors.append(
                InternalError(
                    path,
                    f"the fix would make the file unparsable ({problem}); the file was left unchanged: "
                    "please report this, and fix the finding by hand meanwhile",
                    codes,
                )
            )
            outcome.text, outcome.fixed, outcome.passes = original, Counter(), 0  # result: the original's
            return outcome
        text = new_text
        outcome.passes += 1
        outcome.fixed.update(d.code for d in step.applied)
        linter.project.learn_text(path, text)  # what it knew of the file (entry point, seeding) was of the old text
        result = linter.lint_source(path, source.with_text(text), module=parsed)
    else:
        pending = [d for d in result.diagnostics if is_selected(d, unsafe)]
        if pending:
            outcome.errors.append(
                InternalError(
                    path,
                    f"fixes did not settle after {max_passes} passes (each pass found new fixes); "
                    "the file was fixed as far as it got: please report this",
                    _codes(pending),
                )
            )
    outcome.text = text
    outcome.result = result
    return outcome


@dataclass(frozen=True)
class _Unwritten:
    """What writing a fixed file needs (:func:`write_fix`)."""

    path: Path
    #: the bytes the fixes were planned from, and those to write
    original: bytes
    data: bytes
    #: the findings of the text as read: they stand when the file is left unchanged
    result: FileResult


@dataclass
class FileFix:
    """The outcome for one file of a ``--fix`` or ``--diff`` run (picklable)."""

    path: str  # as displayed
    result: FileResult
    fixed: Counter = field(default_factory=Counter)
    changed: bool = False
    written: bool = False
    diff: str = ""
    errors: List[InternalError] = field(default_factory=list)
    #: notes for stderr that are not errors (a symlink skipped)
    notes: List[str] = field(default_factory=list)
    #: the fixed text, until :func:`write_fix` writes it
    unwritten: Optional[_Unwritten] = field(default=None, repr=False)


def _lines(text: str) -> List[str]:
    """Lines with their endings, broken where Python breaks them (not at form feeds)."""
    offsets = line_offsets(text)
    bounds = offsets + ([len(text)] if offsets[-1] != len(text) else [])
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


def unified_diff(path: str, old: str, new: str) -> str:
    path = readable_path(path)  # a file name that is not UTF-8: U+FFFD, as in the reports
    lines = difflib.unified_diff(_lines(old), _lines(new), path, path)
    out = []
    for line in lines:
        if line.endswith(("\n", "\r")):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def source_diff(path: str, source: Source, new: str) -> str:
    """``--diff`` of ``source`` (shown as ``path``) becoming ``new``: one unified diff, or, for
    a notebook, one per changed cell (``--- train.ipynb:cell 3``, as ruff prints)."""
    if isinstance(source, NotebookSource):
        return "".join(unified_diff(f"{path}:cell {n}", old, text) for n, old, text in source.changed_cells(new))
    return unified_diff(path, source.text, new)


def _inside(real: str, roots: Sequence[str]) -> bool:
    for root in roots:
        if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
            return True
    return False


def fix_path(
    linter: Linter,
    path: Path,
    unsafe: bool = False,
    write: bool = True,
    diff: bool = False,
    roots: Optional[Sequence[str]] = None,
) -> FileFix:
    """Lint ``path``, fix it in memory, and write it (``write``) or diff it (``diff``).

    ``roots``: real paths of the folders and files named on the command line; a file whose real
    location is outside them is not changed.
    """
    return write_fix(_fix_path(linter, path, unsafe, write, diff, roots))


def _fix_path(linter: Linter, path: Path, unsafe: bool, write: bool, diff: bool, roots: Optional[Sequence[str]]) -> FileFix:
    """:func:`fix_path` without the writing: the fixed text to write is kept in the result."""
    shown = display_path(path)
    try:
        original = read_bytes(path)
        source = decode_file(original, path)
    except SourceError:
        return FileFix(shown, linter.lint_path(path))
    result = linter.lint_source(shown, source)
    if not any(is_selected(d, unsafe) for d in result.diagnostics):
        return FileFix(shown, result)
    if os.path.islink(path):
        return FileFix(shown, result, notes=[f"{shown}: is a symlink, not fixed (run --fix on the file it points to)"])
    if roots is not None and not _inside(os.path.realpath(path), roots):
        return FileFix(shown, result, notes=[f"{shown}: lies outside the paths given (through a link), not fixed"])
    outcome = fix_source(linter, shown, source, unsafe=unsafe, result=result)
    fixed = FileFix(shown, outcome.result, outcome.fixed, errors=outcome.errors)
    if outcome.text == source.text:
        return fixed
    try:
        data = source.encode(outcome.text)
        back = decode_file(data, path)
        if back.text != outcome.text or back.encoding != source.encoding:
            raise ValueError("the encoding declaration moved")
    except (UnicodeError, ValueError, SourceError) as exc:
        fixed.errors.append(
            InternalError(shown, f"the fixed text cannot be saved as {source.encoding} ({exc}); the file was left unchanged", _codes_of(outcome))
        )
        return FileFix(shown, result, errors=fixed.errors)
    fixed.changed = True
    if diff:
        fixed.diff = source_diff(shown, source, outcome.text)
    if write:
        fixed.unwritten = _Unwritten(path, original, data, result)
    return fixed


def write_fix(item: FileFix) -> FileFix:
    """Write the fixed text ``item`` holds, if any; when the file cannot be written, or changed
    since it was read, it is left as it is, with a note, and its findings are those it has."""
    unwritten, item.unwritten = item.unwritten, None
    if unwritten is None:
        return item
    problem = _write_if_unchanged(unwritten.path, unwritten.original, unwritten.data)
    if problem is not None:
        return FileFix(item.path, unwritten.result, notes=[f"{item.path}: {problem}"])
    item.written = True
    return item


def _write_if_unchanged(path: Path, original: bytes, data: bytes) -> str | None:
    """Replace ``path``'s bytes ``original`` with ``data``; or, when they are no longer
    ``original`` or the file cannot be written, leave it as it is and say why."""
    try:
        current = read_bytes(path)
    except SourceError as exc:
        return f"cannot be read again before writing ({exc.message}); left unchanged"
    if current != original:
        return "changed while it was being fixed (another program wrote it); left as it now is: run --fix again"
    try:
        write_atomic(path, data)
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        return f"cannot write ({reason}); left unchanged"
    return None


def _codes_of(outcome: FixOutcome) -> str:
    return ", ".join(sorted(outcome.fixed))


# -- many files ---------------------------------------------------------------------------------

def _fix_in_worker(task: runs.Task) -> List[Tuple[int, FileFix]]:
    linter, options = worker_state()
    return [(index, _fix_path(linter, path, **options)) for index, path in task]


@dataclass
class FixRun:
    files: List[FileFix]

    @property
    def results(self) -> List[FileResult]:
        return [f.result for f in self.files]

    @property
    def fixed(self) -> int:
        return sum(sum(f.fixed.values()) for f in self.files)

    @property
    def changed(self) -> List[FileFix]:
        return [f for f in self.files if f.changed]

    @property
    def errors(self) -> List[InternalError]:
        return [e for f in self.files for e in list(f.result.errors) + f.errors]


def _to_prepare(linter: Linter, files: Sequence[Path], jobs: int) -> Sequence[Path]:
    """The files whose entry points the project context readies before the workers are
    forked. With many files and workers, those that a survey in worker processes finds must
    be parsed (the others reach no rule: nothing to fix there), as a lint run readies them:
    the facts the questions need are then extracted in parallel, not one after the other in
    this process (the project corpus, 2 jobs: 4.3 s of this process's CPU before its workers
    started); else all of them."""
    if jobs <= 1 or len(files) < 2:
        return files
    todo = [(index, runs.file_size(path)) for index, path in enumerate(files)]
    if sum(size for _, size in todo) < runs.SURVEY_MIN_BYTES:
        return files
    must = runs.survey(linter, files, todo, jobs)
    return [files[index] for index, _ in todo if must[index][0]]


def fix_files(
    linter: Linter,
    files: Sequence[Path],
    *,
    unsafe: bool = False,
    write: bool = True,
    diff: bool = False,
    roots: Optional[Sequence[str]] = None,
    jobs: Optional[int] = None,
) -> FixRun:
    """Fix ``files`` with ``jobs`` processes (see :func:`repro_lint.engine.lint_files`).

    Every file is fixed before any is written (in this process, in the order of ``files``), so
    no file is fixed against another's fixed text (see :func:`fix_source`)."""
    options = {"unsafe": unsafe, "write": write, "diff": diff, "roots": roots}
    jobs = jobs or default_jobs()
    if any(rule.needs_project for rule in linter.rule_types):
        linter.project.prepare(_to_prepare(linter, files, jobs))
    if jobs <= 1 or len(files) < 2 or work_of(files) < runs.POOL_MIN_WORK:
        fixed = [_fix_path(linter, f, **options) for f in files]
    else:
        # groups of neighbours, as the lint workers get them: the modules one file's
        # evaluation reads are then read by fewer workers
        found: Dict[int, FileFix] = {}
        with pool((linter, options), jobs) as workers:
            for done in workers.map(_fix_in_worker, runs.fix_groups(files, jobs)):
                found.update(done)
        fixed = [found[index] for index in range(len(files))]
    return FixRun([write_fix(item) for item in fixed])


def stale_results(run: FixRun, written: Sequence[Path]) -> List[int]:
    """The files (indexes into ``run.files``) whose remaining findings may be out of date: each
    file is fixed against the others' texts from before their fixes, and what a project-wide answer says can change with another file's fixes (an entry point
    that now turns deterministic algorithms on leaves no RPL401 finding in the modules it runs).
    Such a file reports something, and the project context consulted a written file for it, or
    every file (:attr:`FileResult.depends_on`, the results cache's dependencies). A file that
    reports nothing is not among them: a fix takes a hazard away, and what another file reports
    can only go with it. ``written``: the files the run wrote."""
    changed = {os.path.abspath(path) for path in written}
    if not changed:
        return []
    return [
        index for index, item in enumerate(run.files)
        if item.result.diagnostics and any(dependency == ALL_FILES_KEY or dependency_file(dependency) in changed for dependency in item.result.depends_on)
    ]


def run_fix_command(
    linter: Linter, files: Sequence[Path], paths: Sequence[str], *, diff: bool, unsafe: bool, jobs: Optional[int],
    relint: Optional[Callable[[Sequence[Path], Sequence[Path]], List[FileResult]]] = None,
) -> Tuple[Optional[int], FixRun]:
    """The ``--fix`` / ``--diff`` flow of the CLI.

    ``--diff`` prints the diffs and returns its exit status (1 when there is a diff, 2 on an
    internal error, else 0). ``--fix`` writes the files and returns None: the caller then
    reports the remaining findings of ``run.results`` with ``fixed=run.fixed``. Those of the
    files whose findings depended on a file that was written (:func:`stale_results`) come from
    ``relint(stale, written)``: a lint of those files with a project context that has learnt the
    written files' new texts, so that what ``--fix`` reports is what the next run reports.
    """
    roots = [os.path.realpath(p) for p in paths]
    run = fix_files(linter, files, unsafe=unsafe, write=not diff, diff=diff, roots=roots, jobs=jobs)
    for item in run.files:
        for note in item.notes:
            print(f"repro-lint: warning: {note}", file=sys.stderr)
    if not diff:
        written = [files[index] for index, item in enumerate(run.files) if item.written]
        stale = stale_results(run, written) if relint is not None else []
        if stale:
            for index, result in zip(stale, relint([files[index] for index in stale], written)):  # type: ignore[misc]
                run.files[index].result = result
        return None, run
    for item in run.files:
        if item.diff:
            sys.stdout.write(item.diff)
    for error in run.errors:
        print(f"repro-lint: {error}", file=sys.stderr)
    count = run.fixed
    if count:
        print(f"Would fix {count} error{'s' if count != 1 else ''}.", file=sys.stderr)
    else:
        print("No errors would be fixed.", file=sys.stderr)
    if run.errors:
        return 2, run
    return (1 if run.changed else 0), run
