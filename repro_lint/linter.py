"""The linter of one file: prefilter (the selected rules' trigger words) -> parse -> one
traversal feeding the analyses and rules -> positions (only when something was reported) ->
per-file-ignores and ``noqa`` -> :class:`FileResult`. Many files: :mod:`repro_lint.run`.
"""

from __future__ import annotations

import os
import re
import traceback
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple, Type

from ._lazy import cst
from ._gc import GCPaused
from .config import Settings
from .context import ProjectContext
from .diagnostics import Diagnostic, Edit, FileResult, Fix, InternalError
from .facts import may_star_import, module_name_for
from .names import ImportTable
from .notebook import is_notebook
from .noqa import Suppressions, parse_suppressions
from .parse import DeepRecursion, NestedTooDeeply, parse_module
from .positions import node_positions
from .rules import all_rules, selected_codes
from .edits import NodeEdit, file_width
from .rules.base import FileContext, ImportTracker, PendingReport, Rule, mentions
from .rules.functions import kept_tree, linting
from .rules.core import UnreadableFile
from .rules.suppression import UnusedNoqa, unused_noqa
from .source import Source, SourceError, compile_check, compiles, decode_file, NAME_RUN, names_in, read_bytes, too_large, with_tabs_expanded, without_prose
from .walk import walk
from .discovery import display_path, pattern_spec



def _nodes_of(reports: List[PendingReport]) -> List[cst.CSTNode]:
    """Every node whose position resolving ``reports`` asks for."""
    nodes = []
    for report in reports:
        nodes.append(report.node)
        for node_edit in report.edits:
            nodes.extend(node for node in (node_edit.node, node_edit.wrap_at) if node is not None)
    return nodes


class FoundWords(NamedTuple):
    """What the prefilter found in one text: the trigger words in its code (those of rules
    that read comments, anywhere), those of them a ``whole_words`` rule asks for that occur
    there as whole names, and the rules' second-condition names (``also_triggers``) that are
    names of the code. Small: a survey worker hands it on for the file's lint (:meth:`Linter.hint`)."""

    present: FrozenSet[str]
    whole: FrozenSet[str]
    also: FrozenSet[str]


#: what a process that decided to parse a text knows of it for the one that lints it: the
#: text's length and ``hash`` (the same in processes forked from one parent), and its words
WordsHint = Tuple[int, int, FoundWords]


#: what may follow a call's last argument on its line when nothing of an enclosing call does
_CLOSING = re.compile(r"[)\]}\s,:]*(#.*)?$")


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
        self.report_unreadable = UnreadableFile.code in self.codes
        self.report_unused_noqa = UnusedNoqa.code in self.codes
        self.prefilter = prefilter
        #: the tree :meth:`_parse` made of a text with its indentation's tabs expanded, until linted
        self._expanded: Optional[cst.Module] = None
        self.words: Tuple[str, ...] = tuple(sorted({w for r in self.rule_types for w in r.trigger_words(settings)}))
        #: words of name characters are looked for among the text's names (:meth:`_words_of`), the others
        #: (``.npu``) in its code; the words of rules that read comments (``noqa``) in the whole text
        self._comment_words = tuple(sorted({w for r in self.rule_types if r.reads_comments for w in r.trigger_words(settings)}))
        code_words = [word for word in self.words if word not in self._comment_words]
        self._name_words = tuple(word for word in code_words if NAME_RUN.fullmatch(word))
        self._other_words = tuple(word for word in code_words if not NAME_RUN.fullmatch(word))
        self._present_memo: Optional[Tuple[str, FoundWords]] = None
        #: display path -> the words another process found in its text (:meth:`take_hint`)
        self._hints: Dict[str, WordsHint] = {}
        self._rule_words = [(rule_type, frozenset(rule_type.trigger_words(settings))) for rule_type in self.rule_types]
        self._words_by_rule = dict(self._rule_words)
        #: the rules that a module's facts may leave out (:meth:`Rule.may_fire_in`)
        self._facts_gated = frozenset(r for r in self.rule_types if r.called_words or r.may_fire_in.__func__ is not Rule.may_fire_in.__func__)  # type: ignore[attr-defined]
        self._whole_words = frozenset(word for rule_type, words in self._rule_words if rule_type.whole_words for word in words)
        self._also_words = frozenset(word for rule_type in self.rule_types for word in rule_type.also_triggers)
        self._entry_only = any(rule_type.entry_points_only for rule_type in self.rule_types)
        #: does a selected rule ask the project context (about entry points, helpers, ...)?
        self.needs_project = any(rule_type.needs_project for rule_type in self.rule_types)
        self._per_file = [
            (spec, codes)
            for pattern, codes in settings.per_file_ignores.items()
            if (spec := pattern_spec([pattern], "per-file-ignores")) is not None
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
        if not self.prefilter or (path is not None and is_notebook(path)):
            return True
        # the words found are needed for the rules anyway (one regular expression of all the
        # words, then each word where it matched, was slower than the search of _words_of)
        found = bool(self.found_words(text, path).present)
        if not found and self._entry_without_words(path, text):
            return True
        return found and bool(self.rules_for(text, path))

    def _entry_without_words(self, path: Optional[str], text: str) -> bool:
        """Is ``path`` an entry point whatever words its text has (a console script's module, a
        package's ``__main__.py``, a script that draws only through the project's code), with an
        entry-point rule selected? Its text may have none of the words that make a file one,
        which the entry-point rules' triggers assume."""
        return self._entry_only and path is not None and self.project.entry_point_without_words(path, text)

    def found_words(self, text: str, path: Optional[str] = None) -> FoundWords:
        """The trigger words of ``text`` (:class:`FoundWords`). Remembered for the last text (a
        file's rules are asked for when deciding to parse it and again when it is linted), or
        taken from the hint another process left for ``path`` when it is about the same text:
        the survey's workers search every file's words, and the lint workers need them again
        for the files to parse (2.6 % of a cold run's CPU on the project corpus, searched twice)."""
        memo = self._present_memo
        if memo is not None and (memo[0] is text or memo[0] == text):
            return memo[1]
        hint = self._hints.pop(path, None) if path is not None and self._hints else None
        if hint is not None and hint[0] == len(text) and hint[1] == hash(text):
            found = hint[2]
        else:
            present, names, code = self._words_of(text)
            whole = frozenset(
                word for word in present & self._whole_words
                if (word in names if NAME_RUN.fullmatch(word) else mentions(code, word, True))
            )
            found = FoundWords(present, whole, names & self._also_words)
        self._present_memo = (text, found)
        return found

    def hint(self, text: str) -> WordsHint:
        """What this process found in ``text`` (:meth:`found_words`), for :meth:`take_hint` in
        another."""
        return (len(text), hash(text), self.found_words(text))

    def take_hint(self, path: str, hint: WordsHint) -> None:
        """Use ``hint`` (:meth:`hint`, made where the text of ``path`` was read before) when the
        file is linted, if its text is still the same; each hint serves once."""
        self._hints[path] = hint

    def _words_of(self, text: str) -> Tuple[FrozenSet[str], FrozenSet[str], str]:
        """The trigger words that occur in ``text`` outside its comments and triple-quoted
        strings (:func:`~repro_lint.source.without_prose`; the words of a rule that reads
        comments, anywhere), the names of that code (maximal runs of name characters, as
        :func:`~repro_lint.rules.base.mentions` sees them), and that code.

        A word made only of name characters occurs in the text exactly when it occurs in one of
        its names, and occurs as a whole name exactly when it is one of them: so each such word
        is looked for in the text's distinct names joined, a fraction of the text (project
        corpus, 140 words: 0.37 s instead of 0.61 s of CPU, the same words for every file)."""
        code = without_prose(text)
        names = names_in(code)
        joined = "\n".join(names)
        present = frozenset(
            [word for word in self._name_words if word in joined]
            + [word for word in self._other_words if word in code]
            + [word for word in self._comment_words if word in text]
        )
        return present, names, code

    def rules_for(self, text: str, path: Optional[str] = None) -> List[Type[Rule]]:
        """The selected rules that can fire on ``text``: those with a trigger word in it (and,
        given ``path``, without the entry-point rules when it is not an entry point). In a
        notebook every rule may fire: it is an entry point without the words that make a file
        one (``__main__``, a training call), which the entry-point rules' triggers assume."""
        if not self.prefilter or (path is not None and is_notebook(path)):
            return list(self.rule_types)
        found = self.found_words(text, path)
        present = found.present
        rules = [
            rule_type
            for rule_type, words in self._rule_words
            if not present.isdisjoint(words)
            and (not rule_type.whole_words or not found.whole.isdisjoint(words))
            and (not rule_type.also_triggers or not found.also.isdisjoint(rule_type.also_triggers))
        ]
        for rule_type, words in self._rule_words:
            if rule_type in rules and rule_type.entry_triggers and present.isdisjoint(words - frozenset(rule_type.entry_triggers)):
                # only its entry-point words: an entry point whose summary it may report on
                if not (path is not None and self.project.is_entry_point(path, text)) or (
                    self.project.prepared and not rule_type.may_report_on(self.project.entry_summary(path, text))
                ):
                    rules.remove(rule_type)
        facts = self.project.text_facts(path, text) if path is not None and not self._facts_gated.isdisjoint(rules) else None
        if facts is not None:  # what the module's facts rule out (``seed`` only in ``args.seed``, Rule.may_fire_in)
            rules = [r for r in rules if r not in self._facts_gated or r.may_fire_in(facts, self._words_by_rule[r], self.settings, self.project, path, text)]
        if any(rule.entry_points_only for rule in self.rule_types if rule not in rules) and self._entry_without_words(path, text):
            rules += [rule for rule in self.rule_types if rule.entry_points_only and rule not in rules]
        if path is not None and any(rule.entry_points_only for rule in rules):
            if not self.project.is_entry_point(path, text):
                rules = [rule for rule in rules if not rule.entry_points_only]
            elif self.project.prepared:
                # the summaries are known (lint time, not the survey, whose workers would
                # compute them again): an entry point that uses no generator the rule asks
                # about, or no accelerator, is not parsed for that rule
                summary = self.project.entry_summary(path, text)
                rules = [rule for rule in rules if not rule.entry_points_only or rule.may_report_on(summary)]
        return rules

    def lint_path(self, path: Path, keep_source: bool = False) -> FileResult:
        try:
            data = read_bytes(path)
        except SourceError as exc:
            return self._unreadable(display_path(path), exc.message, exc.line, exc.col, "")
        return self.lint_bytes(display_path(path), data, keep_source=keep_source)

    def lint_bytes(self, path: str, data: bytes, keep_source: bool = False) -> FileResult:
        """Lint ``data`` as the content of the file ``path``, whether or not it is on disk
        (stdin, an editor's buffer): decoded as that file would be (a notebook's code cells for
        ``.ipynb``), with the configuration, per-file-ignores and entry-point-ness of ``path``."""
        try:
            source = decode_file(data, path)
        except SourceError as exc:
            return self._unreadable(path, exc.message, exc.line, exc.col, "")
        return self.lint_source(path, source, keep_source=keep_source)

    def lint_source(self, path: str, source: Source, keep_source: bool = False, module: Optional[cst.Module] = None) -> FileResult:
        """Lint ``source`` (in memory) as the file ``path``; see :meth:`lint_bytes`. ``module``:
        its text already parsed (the fixer parses a fixed text to check it before linting it)."""
        result = self._lint_source(path, source, module)
        for message, line, col in getattr(source, "unparsed", ()):  # a notebook's cells that are not Python, left out
            result.diagnostics = sorted([*result.diagnostics, *self._unreadable(path, message, line, col, source.text).diagnostics], key=lambda d: (d.start, d.code))
        cells = getattr(source, "index", None)  # a notebook: findings carry its cells
        result.diagnostics = [replace(d, cells=cells) for d in result.diagnostics] if cells is not None else result.diagnostics
        result.source = source if keep_source else result.source
        return result

    def _lint_source(self, path: str, source: Source, module: Optional[cst.Module] = None) -> FileResult:
        text = source.text
        limit = self.settings.max_file_size
        oversized = len(text) > limit and len(source.encode(text)) > limit
        with self._consulting(path) as consulted:
            needs = self.needs_parse(text, path)
        if not needs:
            # no rule can fire; a huge file is not even syntax-checked (ast is slow on it too)
            result = FileResult(path) if oversized else self._check_syntax_only(path, text)
            # that depends on whether the file is an entry point: on the files that decided it
            result.depends_on = tuple(sorted(consulted))
        elif oversized:
            result = self._unreadable(path, too_large(len(source.encode(text)), limit), 1, 0, text)
        else:
            result = self._lint_parsed(path, text, module)
            if consulted:
                # which rules ran depended on those files too (an entry point's summary)
                result.depends_on = tuple(sorted(set(result.depends_on) | consulted))
        return result

    def _unreadable(self, path: str, message: str, line: int, col: int, text: str) -> FileResult:
        result = FileResult(path)
        if self.report_unreadable:
            diag = Diagnostic(UnreadableFile.code, message, path, (line, col), (line, col), None, line)
            result.diagnostics = self.suppress([diag], path, parse_suppressions(text)) if text else [diag]
        return result

    def _check_syntax_only(self, path: str, text: str) -> FileResult:
        """A file no rule can fire on is still checked to parse, so RPL001 is never missed.

        CPython's compiler checks it (much faster than a LibCST parse; compiling to
        bytecode is faster still than building ``ast`` objects). Where it rejects the file,
        LibCST has the last word, as it has for the files that are linted: the two can
        disagree (syntax newer than the running Python, which LibCST parses; errors only
        the compiler finds, such as ``return`` outside a function), and RPL001 must be the
        same with and without the prefilter. Held ``ast`` facts of this text (about half these
        files) mean CPython's parser read it, and what its compiler alone rejects LibCST reads.
        """
        if self.report_unreadable and self.project.known_facts(path, text) is None and not compiles(text, path, bytecode=True):
            module = self._parse(path, text)
            if isinstance(module, FileResult):
                return module
        return FileResult(path)

    def _parse(self, path: str, text: str) -> "cst.Module | FileResult":
        try:
            return parse_module(text)
        except cst.ParserSyntaxError as exc:
            expanded = with_tabs_expanded(text)
            if expanded is not None:
                try:
                    module = parse_module(expanded)
                except (cst.ParserSyntaxError, NestedTooDeeply, RecursionError):
                    pass
                else:
                    # linted as CPython reads it; its fixes would be made against another text
                    self._expanded = module
                    return module
            message = exc.message.strip().splitlines()[0] if exc.message.strip() else "invalid syntax"
            return self._parse_failure(path, text, f"cannot parse: {message}", exc.raw_line, exc.raw_column)
        except NestedTooDeeply as exc:  # found before parsing, in a bounded time
            return self._unreadable(path, exc.message, exc.line, 0, text)
        except RecursionError:
            return self._unreadable(path, "cannot parse: the code is nested too deeply for the parser", 1, 0, text)
        except Exception as exc:  # MemoryError, ValueError, and anything else the parser raises
            return self._parse_failure(path, text, f"cannot parse: {type(exc).__name__}: {exc}", 1, 0)

    def _parse_failure(self, path: str, text: str, message: str, line: int, col: int) -> FileResult:
        """RPL001 for text LibCST cannot parse, in CPython's words and position when CPython
        rejects it too (they are the words users know, and often closer to the mistake)."""
        try:
            compile_check(text, path, bytecode=False)
        except SyntaxError as exc:
            return self._unreadable(path, f"cannot parse: {exc.msg}", exc.lineno or 1, max((exc.offset or 1) - 1, 0), text)
        except (ValueError, RecursionError, MemoryError):
            pass
        return self._unreadable(path, message, line, col, text)

    def _lint_parsed(self, path: str, text: str, module: Optional[cst.Module] = None) -> FileResult:
        with GCPaused(), DeepRecursion():
            return self._lint_parsed_now(path, text, module)

    def _lint_parsed_now(self, path: str, text: str, parsed: Optional[cst.Module] = None) -> FileResult:
        module = parsed if parsed is not None else kept_tree(text) or self._parse(path, text)
        if isinstance(module, FileResult):
            return module
        file_text = text  # what an evaluation that reads this module reads (:func:`linting`)
        expanded = module is self._expanded
        if expanded:
            # the file is linted as CPython reads it (:func:`~repro_lint.parse.with_tabs_expanded`):
            # its findings are placed in that text, and come without fixes, which would be
            # made against a text other than the file's
            self._expanded = None
            text = module.code
        result = FileResult(path, parsed=True)
        name, is_package = module_name_for(Path(path))
        names = ImportTable(name, is_package)
        project = self.project
        if may_star_import(text):
            for local, qualified in project.star_library_names(path).items():
                names.aliases.setdefault(local, qualified)
        file = FileContext(path, text, module, names, self.settings, project, self.codes)
        try:
            with linting(file_text, module):
                result = self._lint_file_context(file, result)
        finally:
            file.close()
        if expanded:
            result.diagnostics = [replace(d, fix=None) for d in result.diagnostics]
        return result

    def _lint_file_context(self, file: FileContext, result: FileResult) -> FileResult:
        path, text, module = file.path, file.source, file.module
        rule_types = self.rules_for(text, path)
        analyses = file.start(dict.fromkeys([ImportTracker, *(kind for rule in rule_types for kind in rule.uses)]))
        rules = [rule_type(file) for rule_type in rule_types]

        def on_error(visitor: Any, exc: BaseException) -> None:
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            where = f" ({os.path.basename(frame.filename)}:{frame.lineno})"
            code = getattr(visitor, "code", "") or type(visitor).__name__
            result.errors.append(InternalError(path, f"{type(exc).__name__}: {exc}{where}", code))

        # record the files the project context consults for this file (the cache keys on them)
        with self._consulting(path) as consulted:
            walk(module, file, [*analyses, *rules], on_error)
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
        result.depends_on = tuple(sorted(consulted))
        return result

    @contextmanager
    def _consulting(self, path: str) -> Iterator[Set[str]]:
        """Record, in the set it yields, the files the project context consults meanwhile for
        the file ``path`` (itself left out when done): the results cache keys on them."""
        project = self.project
        outer = project.consulted
        consulted: Set[str] = set()
        project.consulted = consulted
        try:
            with project.importing(path):  # the file's module names, as it imports them
                yield consulted
        finally:
            project.consulted = outer
            if outer is not None:
                outer |= consulted
            consulted.discard(os.path.abspath(path))

    def _resolve(
        self, path: str, module: cst.Module, reports: List[PendingReport], text: Optional[str] = None
    ) -> List[Diagnostic]:
        where = node_positions(module, text, _nodes_of(reports))
        lines = (text if text is not None else module.code).splitlines()
        width = self.settings.line_length or file_width(lines)
        # what the wrappable edits of all reports add at each point (they may share a line)
        growth: Dict[Tuple[int, int], int] = {}
        for report in reports:
            for node_edit in report.edits:
                if node_edit.wrap_at is not None and node_edit.node is not None:
                    point = where(node_edit.node)[1]
                    growth[point] = growth.get(point, 0) + len(node_edit.content)

        def wrapped(node_edit: NodeEdit, point: Tuple[int, int]) -> str:
            """The content on the call's line while the line fits the width; else on a
            continuation line under the first argument, which carries the rest of the line.
            When that rest continues an enclosing call (``Outer(Inner(a), b=1)``: more than
            closing brackets and a comment follow), the continuation line is used only if it
            fits: breaking inside the inner call would leave the outer call's arguments on
            the new line, longer than the line it replaced."""
            line = lines[point[0] - 1] if point[0] - 1 < len(lines) else ""
            if node_edit.wrap_at is None or len(line) + growth.get(point, 0) <= width:
                return node_edit.content
            column = where(node_edit.wrap_at)[0][1]
            continuation = " " * column + node_edit.content[2:].lstrip()
            rest = line[point[1]:]
            if column + growth.get(point, 0) + len(rest) > width and not _CLOSING.match(rest):
                return node_edit.content
            return ",\n" + continuation

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
                return Edit(end, end, wrapped(node_edit, end))
            return Edit(start, end, node_edit.content)

        diagnostics = []
        seen = set()
        for report in reports:
            start, end = where(report.node)
            # no edit that inserts nothing (a setup block's unused import places): each one printed is a change
            edits = tuple(e for e in map(edit, report.edits) if e.content or e.start != e.end) if report.applicability else ()
            fix = Fix(report.fix_message() if callable(report.fix_message) else report.fix_message, edits, report.applicability) if edits else None
            diag = Diagnostic(report.code, report.message, path, start, end, fix, start[0])
            key = (diag.code, diag.start, diag.message)
            if key not in seen:  # two handlers may reach the same node; report it once
                seen.add(key)
                diagnostics.append(diag)
        return diagnostics
