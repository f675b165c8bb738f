"""Linting many files: read and hash each file once, answer what the cache can, prefilter
the rest, survey the project in workers when it is large, and send only real work to a pool
of forked workers, biggest first (the cost model: bytes to parse, a syntax-only check
counting an eighth, plus FILE_COST per file). The fixer runs its workers in the same pool.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from .cache import Dependencies, digest as content_digest, stat_key
from .context import Learnt
from .discovery import display_path
from .facts import module_name_for
from .diagnostics import FileResult
from .source import SourceError, decode_file, read_bytes

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import ProcessPoolExecutor

    from .cache import ResultsCache
    from .context import ProjectContext
    from .linter import Linter, WordsHint


#: what a forked worker works with (a linter, or a linter and options): set in the parent
#: before the pool forks, so workers inherit it without pickling
_WORKER: Any = None


def _init_worker(state: Any, parent: int) -> None:
    global _WORKER
    _WORKER = state
    # what the worker inherited (the linter, the project context's facts of every file) lives
    # as long as it does: the cyclic garbage collector need not scan it again and again
    gc.freeze()
    _exit_with_parent(parent)


#: Linux's prctl option: the signal a process gets when its parent dies
PR_SET_PDEATHSIG = 1
#: how often a worker checks that its parent is alive (where prctl is not available)
PARENT_POLL_SECONDS = 1.0


def _exit_with_parent(parent: int) -> None:
    """End this worker when ``parent`` dies, even by SIGKILL (which leaves the parent no
    chance to stop its pool): on Linux the kernel sends SIGTERM then (prctl
    PR_SET_PDEATHSIG); everywhere, a thread checks the parent's pid every
    :data:`PARENT_POLL_SECONDS`. Either way the worker removes the temporary file of a write
    in progress (the file it replaces stays old or new) and exits."""
    import signal
    import threading

    signal.signal(signal.SIGTERM, lambda signum, frame: _leave())
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no usable libc
            pass
    if os.getppid() != parent:  # it died before prctl took effect
        _leave()

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        _leave()

    threading.Thread(target=watch, name="repro-lint-parent-watch", daemon=True).start()


def _leave() -> None:
    from .source import remove_temporaries

    remove_temporaries()
    os._exit(1)


def worker_state() -> Any:
    """What :func:`pool` gave this worker process."""
    assert _WORKER is not None
    return _WORKER


def _lint_file(linter: Linter, path: Path) -> Tuple[FileResult, Optional[str]]:
    """Lint one file; also return the digest of the bytes that were linted (for the cache)."""
    shown = display_path(path)
    try:
        data = read_bytes(path)
    except SourceError as exc:
        return linter._unreadable(shown, exc.message, exc.line, exc.col, ""), None
    return linter.lint_bytes(shown, data), content_digest(data)


Task = List[Tuple[int, Path]]


def _run_task(task: Task) -> List[Tuple[int, FileResult, Optional[str]]]:
    linter = worker_state()
    return [(index, *_lint_file(linter, path)) for index, path in task]


def _needs_parse(linter: Linter, path: Path, data: bytes) -> "Tuple[bool, Optional[WordsHint]]":
    """Must the file be parsed, and what the prefilter found in it (for the process that
    lints it, which asks again: :meth:`~repro_lint.linter.Linter.take_hint`)."""
    try:
        text = decode_file(data, path).text
    except SourceError:
        return True, None  # reported by the worker; cheap
    return linter.needs_parse(text, str(path)), linter.hint(text) if linter.prefilter else None


def _survey_task(task: Task) -> Tuple[List[Tuple[int, bool, int, "Optional[Learnt]", "Optional[WordsHint]"]], Dict[str, Any]]:
    """For each file: must it be parsed, its size, what the project context learnt of it and
    what the prefilter found in it; and the module facts that deciding it needed (of these
    files or of others)."""
    linter = worker_state()
    done = []
    for index, path in task:
        try:
            data = read_bytes(path)
        except SourceError:
            done.append((index, True, 0, None, None))  # the lint worker reports it
            continue
        kind, hint = _needs_parse(linter, path, data)
        done.append((index, kind, len(data), linter.project.survey(path), hint))
    return done, linter.project.unsent_facts()


def survey_tasks(files: Sequence[Path], todo: List[Tuple[int, int]], jobs: int) -> List[Task]:
    """The survey's tasks for the files ``todo`` ((index, size) pairs of ``files``): groups of
    neighbours, as the lint workers get them, biggest first."""
    return [task for _, task in sorted(_neighbour_groups(files, todo, jobs), key=lambda group: -group[0])]


def survey(linter: Linter, files: Sequence[Path], todo: List[Tuple[int, int]], jobs: int) -> Dict[int, Tuple[bool, int]]:
    """Must each file of ``todo`` ((index, size) pairs of ``files``) be parsed, and its size
    (index -> (must, size)), decided in ``jobs`` worker processes. What the project context
    learnt meanwhile (the module facts the entry-point questions needed, and what
    :meth:`~repro_lint.context.ProjectContext.survey` learns of each file) and what the
    prefilter found in each file are taken here, so that the workers forked next, to lint or
    to fix, inherit them."""
    project = linter.project
    sorted_: Dict[int, Tuple[bool, int]] = {}
    project.index_imports()  # the workers ask it for their entry points: built once, inherited
    with pool(linter, jobs) as workers:
        for done, facts in workers.map(_survey_task, survey_tasks(files, todo, jobs)):
            project.absorb_facts(facts)
            for index, kind, size, learnt, hint in done:
                sorted_[index] = (kind, size)
                if hint is not None:
                    linter.take_hint(display_path(files[index]), hint)
                if learnt is not None:
                    project.absorb(files[index], learnt)
    return sorted_


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


def _neighbour_groups(
    files: Sequence[Path], sized: Iterable[Tuple[int, int]], jobs: int, per_job: Optional[int] = None
) -> List[Tuple[int, Task]]:
    """The files of ``sized`` ((index, size) pairs) in about ``per_job * jobs`` groups
    (default :data:`LINT_GROUPS_PER_JOB`) of neighbours in path order (a group ends at the file
    that fills it, so a big file makes its group big): (bytes, group) per group, in path order."""
    neighbours = sorted(sized, key=lambda item: files[item[0]].parts)
    group = max(1, sum(size + FILE_COST for _, size in neighbours) // ((per_job or LINT_GROUPS_PER_JOB) * max(1, jobs)))
    return list(_batches(files, neighbours, group))


def pool(state: Any, jobs: int) -> "ProcessPoolExecutor":
    """A pool of ``jobs`` worker processes that work with ``state`` (:func:`worker_state`):
    the linter and the fixer both run their workers here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork: workers inherit the linter, its rules and the project context without pickling
    method = "fork" if sys.platform.startswith("linux") else None
    context = multiprocessing.get_context(method)
    return ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(state, os.getpid()))


def file_size(path: Path) -> int:
    """The bytes of a file not yet read (0 when it cannot be read: its worker reports it)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def work_of(files: Sequence[Path]) -> int:
    """The cost model for files not yet read: their bytes plus FILE_COST each."""
    return sum(file_size(path) + FILE_COST for path in files)


def fix_groups(files: Sequence[Path], jobs: int) -> List[Task]:
    """The fixer's tasks: every file of ``files`` (not read yet: sized on disk) in
    :data:`FIX_GROUPS_PER_JOB` groups of neighbours per job, biggest first."""
    groups = _neighbour_groups(files, [(index, file_size(path)) for index, path in enumerate(files)], jobs, FIX_GROUPS_PER_JOB)
    return [task for _, task in sorted(groups, key=lambda group: -group[0])]


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: below this much work (bytes to parse, a syntax-only check counting an eighth, plus
#: FILE_COST per file) a process pool costs more than it saves (the measured cost of a pool
#: and of a parse is in docs/performance.md)
POOL_MIN_WORK = 48 * 1024
FILE_COST = 1024
#: files that need only a syntax check are sent to workers in groups of about this many bytes
CHECK_BATCH_BYTES = 512 * 1024
CHECK_COST = 8  # a syntax-only check is roughly this many times cheaper than a LibCST parse
#: from this many bytes of files not answered by the cache on, and when a selected rule asks
#: the project context, the files are sorted in worker processes, which also compute the
#: facts of each file for the project context (an ``ast`` pass over the whole project: the
#: largest serial part of a cold run otherwise; docs/performance.md has the figures)
SURVEY_MIN_BYTES = 4 * 1024 * 1024
#: the files to parse are linted in this many groups per worker, each of files next to each
#: other in path order: the modules one file's evaluation reads (its package's, its siblings')
#: are parsed once per worker that needs them, and the fewer workers need them, the fewer
#: parses (project corpus, 2 workers: 64 such parses instead of 77, 543 LibCST parses in all
#: instead of 562, and 237 modules' facts extracted instead of 265; a group per folder gave 70
#: and 554). A group is a few per cent of the work, so the workers still finish together
#: (biggest first). The survey's files go in such groups too: the modules whose facts the gates
#: and the entry-point questions read are then extracted by one worker (project corpus: 1.66 MB
#: of modules extracted by both workers, 0.64 MB in groups; 256 KB batches of the biggest files
#: first before), and it ends no later on torch's source.
LINT_GROUPS_PER_JOB = 8
#: ``--fix``/``--diff`` sends every file to its workers in groups of neighbours too, more of them:
#: its files are not prefiltered yet, so a group's cost is known less well (project corpus,
#: 2 jobs, six alternated pairs of ``--diff`` runs against chunks of 16 files in turn: CPU
#: 17.6 s against 18.7 s, wall 11.2 s against 11.65 s; 8 groups per job gave the same CPU but
#: 12.0 s of wall, the workers finishing apart)
FIX_GROUPS_PER_JOB = 24


class _Run:
    """One ``lint_files`` call: read and hash every file in this process, answer what the cache
    can, prefilter the rest, and send only real work to the workers, biggest first.

    The linter is built by ``build`` when the first file needs it: a run that the cache
    answers entirely never imports LibCST or the rules."""

    def __init__(
        self, build: "Callable[[], Linter]", project: "ProjectContext", files: Sequence[Path], cache: "Optional[ResultsCache]"
    ) -> None:
        self._build: "Optional[Callable[[], Linter]]" = build
        self._linter: "Optional[Linter]" = None
        self.project = project
        self.files = list(files)
        self.cache = cache
        self.results: List[Optional[FileResult]] = [None] * len(self.files)
        self.digests: Dict[int, str] = {}
        self.modules: Dict[int, str] = {}
        self.stats: Dict[int, List[int]] = {}  # cache.stat_key of each file, where trusted
        self.index_of: Dict[str, int] = {}
        self.packages: Dict[str, Tuple[str, ...]] = {}  # module_name_for's memo, for this run
        self.parse: List[Tuple[int, int]] = []  # (index, size): files a rule may fire on
        self.check: List[Tuple[int, int]] = []  # (index, size): syntax check only
        self.deps = Dependencies(self.files, self.digests, self.index_of, project.state_key, project.roots) if cache is not None else None

    @property
    def linter(self) -> "Linter":
        if self._linter is None:
            assert self._build is not None
            self._linter, self._build = self._build(), None
        return self._linter

    # -- reading, cache and prefilter ------------------------------------------------------
    def classify(self, jobs: int = 1) -> None:
        """Read and hash every file here and answer what the cache can; sort the rest into
        files to parse and files to check only: here, or, when there are many and a selected
        rule asks the project context, in workers that also survey the project."""
        may_survey: Optional[bool] = None  # decided when the first file is not answered by the cache
        todo: List[Tuple[int, int]] = []  # (index, size): to sort, in workers or here
        pending: List[Tuple[int, Dict[str, Any]]] = []
        started = time.time_ns()
        for index, path in enumerate(self.files):
            data: Optional[bytes] = None
            if self.cache is not None:
                key = self.cache.key_of(path)
                try:
                    info = os.stat(path)  # before the bytes are read: see cache.stat_key
                except OSError:
                    info = None
                found = self.cache.unchanged(key, info) if info is not None else None
                if found is None:
                    data = self._read(index)
                    if data is None:
                        continue
                    found = content_digest(data)
                if info is not None:
                    stat = stat_key(info, started)
                    if stat is not None:
                        self.stats[index] = stat
                self.index_of[os.path.abspath(path)] = index
                self.digests[index] = found
                self.modules[index] = module_name_for(path, self.packages)[0]
                entry = self.cache.lookup(key, found, self.modules[index])
                if entry is not None:
                    if not self.cache.has_dependencies(entry):
                        if self._answer(index, entry):
                            continue
                    else:
                        pending.append((index, entry))  # dependencies are checked once all are hashed
                        continue
            if data is None:
                data = self._read(index)
                if data is None:
                    continue
            if may_survey is None:
                may_survey = jobs > 1 and self.linter.needs_project
            if may_survey:
                todo.append((index, len(data)))
            else:
                self._sort(index, data)
        for index, entry in pending:
            if not (self._dependencies_hold(entry) and self._answer(index, entry)):
                todo.append((index, 0))
        if todo and may_survey is None:
            may_survey = jobs > 1 and self.linter.needs_project
        if may_survey and sum(size for _, size in todo) >= SURVEY_MIN_BYTES:
            self._survey(todo, jobs)
            return
        for index, _ in todo:  # little: read again rather than held
            try:
                data = read_bytes(self.files[index])
            except SourceError:
                self.parse.append((index, 0))  # changed since: the worker reports it
                continue
            self._sort(index, data)

    def _read(self, index: int) -> Optional[bytes]:
        """The bytes of file ``index``; None when it cannot be read (its result is set)."""
        path = self.files[index]
        try:
            return read_bytes(path)
        except SourceError as exc:
            self.results[index] = self.linter._unreadable(display_path(path), exc.message, exc.line, exc.col, "")
            return None

    def _survey(self, todo: List[Tuple[int, int]], jobs: int) -> None:
        """:meth:`_sort` the files in worker processes (:func:`survey`), before the lint
        workers are forked."""
        sorted_ = survey(self.linter, self.files, todo, jobs)
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
        kind, hint = _needs_parse(self.linter, self.files[index], data)
        if hint is not None:
            self.linter.take_hint(display_path(self.files[index]), hint)
        if kind:
            self.parse.append((index, len(data)))
        else:
            self.check.append((index, len(data)))

    # -- the cache -------------------------------------------------------------------------
    def _dependencies_hold(self, entry: Dict[str, Any]) -> bool:
        assert self.cache is not None and self.deps is not None
        return self.cache.dependencies_hold(entry, self.deps)

    def _store(self, index: int, result: FileResult, digest: Optional[str]) -> None:
        if self.cache is None or self.deps is None or digest is None or result.errors:
            return  # internal errors are reported again on the next run
        path = self.files[index]
        self.cache.store(
            self.cache.key_of(path), digest, self.modules.get(index) or module_name_for(path, self.packages)[0],
            result.parsed, result.diagnostics, self.deps.of(result.depends_on), self.stats.get(index),
        )

    # -- the work ---------------------------------------------------------------------------
    def tasks(self, jobs: int = 1) -> List[Tuple[int, Task]]:
        """(estimated cost, files) per task, biggest first. The files to parse go in about
        ``LINT_GROUPS_PER_JOB * jobs`` groups of neighbours in path order (a group ends at the
        file that fills it, so a big file makes its group big, and first); syntax-only checks
        go in batches."""
        tasks = _neighbour_groups(self.files, self.parse, jobs)
        for batch_bytes, batch in _batches(self.files, self.check, CHECK_BATCH_BYTES):
            tasks.append((batch_bytes // CHECK_COST, batch))
        tasks.sort(key=lambda task: -task[0])
        return tasks

    def execute(self, jobs: int) -> None:
        tasks = self.tasks(jobs)
        if not tasks:
            return
        linter = self.linter
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
        with pool(linter, jobs) as workers:
            for done in workers.map(_run_task, [task for _, task in tasks]):
                for index, result, digest in done:
                    self.results[index] = result
                    self._store(index, result, digest)


def lint_files(
    linter: "Linter | Callable[[], Linter]",
    files: Sequence[Path],
    jobs: Optional[int] = None,
    cache: "Optional[ResultsCache]" = None,
    project: "Optional[ProjectContext]" = None,
) -> List[FileResult]:
    """Lint ``files`` with ``jobs`` processes (default: usable cores; 1: in this process).

    With a ``cache`` (:class:`~repro_lint.cache.ResultsCache`), files whose content, settings
    and project dependencies are unchanged are answered from it, and new results are saved.
    Results come back in the order of ``files``. ``linter`` may be a function that builds the
    linter (whose project context is ``project``): it is called only when some file is not
    answered by the cache.
    """
    if callable(linter):
        assert project is not None, "a linter built on demand needs its project context"
        run = _Run(linter, project, files, cache)
    else:
        built = linter
        run = _Run(lambda: built, built.project, files, cache)
    jobs = jobs or default_jobs()
    run.classify(jobs)
    run.execute(jobs)
    if cache is not None:
        cache.save()
    assert all(result is not None for result in run.results)
    return run.results  # type: ignore[return-value]
