"""repro-lint speed benchmark: builds its corpora, then measures on the same files

- repro-lint cold (``--no-cache``), cold filling the cache, warm (unchanged tree), after one
  module of the corpus changed (with the cache: a function appended, then taken away again),
  one file, ``--version``;
- the LibCST parse-only floor: ``libcst.parse_module`` on exactly the files a cold run of
  repro-lint parsed (those that passed its prefilter), on the same number of processes;
- flake8 with its default rules on the whole tree, same number of processes, run from a side
  environment that holds flake8 alone (``--flake8 PATH``, or built in the workdir), so that no
  plugin, this package's included, adds to its time;
- TorchFix (``--torchfix PATH_TO_ITS_BINARY``, installed in a separate environment) on a
  sample of the files, extrapolated by line count (it is too slow to run on all of them);
- ruff (``--ruff PATH``, or the one beside this Python) with its default rules, no cache;
- ``--diff`` cold (what ``--fix`` computes, writing nothing) and ``--fix`` cold (on a fresh
  copy of hard links each time; it also lints with the rules that fix nothing, to report what
  remains) against the lint-only cold run;
- ``--growth``: cold runs on 1, 2 and 4 copies of the corpus in one tree, in rounds
  (``--growth-repeat``: one of each per round, the ratios taken within each round too);
- wall time, CPU time (user + system, all processes), peak RSS of the largest process and of
  the whole process tree (sampled), the number of findings of each tool, lines per second
  and ratios. Measurements repeated ``--repeat``/``--repeat-cold`` times show the median
  and the spread (min-max); the load average is printed before and after each corpus.

The cold runs that the ratios compare (repro-lint cold, ``--diff`` cold, the parse floor,
flake8) run in rounds, one of each per round, so that every round's runs see the same speed
of the host (on a shared machine it drifts by a third within minutes); besides the ratios of
the medians, the ratios within each round are printed (median and spread).

Every tool runs as a fresh subprocess, measured with ``os.wait4`` (its rusage covers the
process and all its children). Usage::

    python benchmarks/bench.py                      # torch 2.13 source, 2 jobs
    python benchmarks/bench.py --corpus torch transformers synthetic --torchfix ~/tf/bin/torchfix
    python benchmarks/bench.py --corpus projects --growth  # ten training repositories from PyPI
    python benchmarks/bench.py _phases PATH               # CPU time per phase, --jobs 1, profiled
    python benchmarks/bench.py _spy A.txt [B.txt]         # phases of py-spy raw recordings

Corpora are built in ``--workdir`` (default ``~/.cache/repro-lint-bench``), outside the repo.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import statistics
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import corpora  # noqa: E402


@dataclass
class Measure:
    wall: float
    cpu: float
    peak_mb: float
    returncode: int
    stdout: str = ""
    tree_mb: float = 0.0

    def line(self, label: str, lines: int = 0) -> str:
        rate = f"{lines / self.wall / 1000:8.1f} k lines/s" if lines and self.wall else " " * 19
        return f"  {label:<44} {self.wall:8.2f} s wall {self.cpu:8.2f} s cpu {self.peak_mb:7.0f} MB peak {rate}"


@dataclass
class Runs:
    """Repeated measurements of one command: medians and spreads."""

    runs: List[Measure]

    @property
    def wall(self) -> float:
        return statistics.median(m.wall for m in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(m.cpu for m in self.runs)

    @property
    def peak_mb(self) -> float:
        return max(m.peak_mb for m in self.runs)

    @property
    def tree_mb(self) -> float:
        return max(m.tree_mb for m in self.runs)

    @property
    def stdout(self) -> str:
        return self.runs[0].stdout

    def line(self, label: str, findings: Optional[int] = None) -> str:
        walls = [m.wall for m in self.runs]
        cpus = [m.cpu for m in self.runs]
        spread = lambda xs: f"({min(xs):.2f}-{max(xs):.2f})" if len(xs) > 1 else ""  # noqa: E731
        found = f"{findings:7d} findings" if findings is not None else ""
        return (
            f"  {label:<40} {self.wall:7.2f} s wall {spread(walls):<15} {self.cpu:7.2f} s cpu {spread(cpus):<15}"
            f" {self.peak_mb:5.0f} MB peak {self.tree_mb:5.0f} MB tree  {found}  [{len(self.runs)} runs]"
        )


def tree_rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` and all its descendants (Linux ``/proc``)."""
    parents: Dict[int, int] = {}
    rss: Dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(fields[21])
    tree, todo = {pid}, [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in tree:
                tree.add(child)
                todo.append(child)
    return sum(rss.get(p, 0) for p in tree) * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(command: Sequence[str], cwd: Path, env: Optional[Dict[str, str]] = None) -> Measure:
    """Run ``command``; wall time, CPU time and peak RSS of it and all its children."""
    start = time.perf_counter()
    process = subprocess.Popen(
        list(command), cwd=str(cwd), env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    tree = [0.0]
    done = threading.Event()

    def sample() -> None:  # the whole tree's memory, every 0.5 s (Linux only)
        while not done.wait(0.5):
            try:
                tree[0] = max(tree[0], tree_rss_mb(process.pid))
            except (OSError, ValueError, IndexError):
                return

    sampler = threading.Thread(target=sample, daemon=True)
    if os.path.isdir("/proc"):
        sampler.start()
    out, _ = process.communicate()
    wall = time.perf_counter() - start
    done.set()
    # communicate() reaped the child already: read its rusage through RUSAGE_CHILDREN deltas
    usage = _last_child_usage()
    return Measure(wall, usage[0], usage[1], process.returncode, out, tree[0])


_SEEN = [0.0]


def _last_child_usage():
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    delta = cpu - _SEEN[0]
    _SEEN[0] = cpu
    # ru_maxrss of RUSAGE_CHILDREN is the largest of all children so far: run each tool from
    # a fresh wrapper process so that the figure belongs to that tool alone
    return delta, usage.ru_maxrss / 1024


def measure_isolated(command: Sequence[str], cwd: Path) -> Measure:
    """``measure`` inside a fresh wrapper, so that the peak RSS is this command's own."""
    wrapper = [sys.executable, str(Path(__file__).resolve()), "_measure", str(cwd), "--", *command]
    result = subprocess.run(wrapper, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"measuring {command} failed: {result.stderr[-2000:]}")
    data = json.loads(result.stdout.splitlines()[-1])
    return Measure(**data)


def repeated(command: Sequence[str], cwd: Path, times: int) -> Runs:
    return Runs([measure_isolated(command, cwd) for _ in range(max(1, times))])


def in_rounds(commands: Dict[str, Tuple[Sequence[str], Path]], times: int, before: Optional[Dict[str, Callable[[], None]]] = None) -> Dict[str, Runs]:
    """Each command once per round, ``times`` rounds, the commands in turn within a round;
    ``before``: what to do, unmeasured, before each run of a command (a fresh copy to fix)."""
    measured: Dict[str, List[Measure]] = {name: [] for name in commands}
    for _ in range(max(1, times)):
        for name, (command, cwd) in commands.items():
            if before and name in before:
                before[name]()
            measured[name].append(measure_isolated(command, cwd))
    return {name: Runs(runs) for name, runs in measured.items()}


def fresh_copy(source: Path, folder: Path) -> Callable[[], None]:
    """A function that makes ``folder`` a new copy of the tree at ``source``, every file a hard
    link (``--fix`` replaces a file it writes by a new one, so the corpus stays as it is)."""

    def make() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(source, folder, copy_function=os.link, ignore=shutil.ignore_patterns(".repro_lint_cache"))

    return make


def paired(a: Runs, b: Runs) -> str:
    """The CPU ratios a / b of the runs of the same round: median and spread."""
    ratios = [x.cpu / y.cpu for x, y in zip(a.runs, b.runs) if y.cpu]
    if not ratios:
        return ""
    spread = f" ({min(ratios):.2f}-{max(ratios):.2f})" if len(ratios) > 1 else ""
    return f"; within rounds, cpu {statistics.median(ratios):.2f} x{spread}"


def json_count(out: str) -> int:
    return len(json.loads(out)) if out.strip() else 0


def ruff_binary(given: Optional[str]) -> Optional[str]:
    if given:
        return given
    beside = Path(sys.executable).parent / "ruff"
    return str(beside) if beside.exists() else shutil.which("ruff")


def repro_lint_command() -> List[str]:
    script = Path(sys.executable).parent / "repro-lint"
    return [str(script)] if script.exists() else [sys.executable, "-m", "repro_lint"]


def count_lines(files: Sequence[Path]) -> int:
    total = 0
    for path in files:
        with open(path, "rb") as handle:
            total += handle.read().count(b"\n")
    return total


def parsed_files(root: Path, target: str, jobs: int) -> List[Path]:
    """The files repro-lint parses, as a cold run with ``jobs`` processes decides (the words of
    the prefilter, the entry points' summaries, what the modules' facts rule out): one such run,
    in this process's Python, reporting which files it parsed."""
    from repro_lint.config import load_settings
    from repro_lint.context import ProjectContext
    from repro_lint.discovery import discover
    from repro_lint.engine import Linter, lint_files

    settings = load_settings(start=root / target)
    files = list(discover([str(root / target)], settings))
    project = ProjectContext(settings, files)
    results = lint_files(lambda: Linter(settings, project), files, jobs=jobs, project=project)
    return [path for path, result in zip(files, results) if result.parsed]


def all_files(root: Path, target: str) -> List[Path]:
    from repro_lint.config import load_settings
    from repro_lint.discovery import discover

    return discover([str(root / target)], load_settings(start=root / target))


# -- helpers run in subprocesses -------------------------------------------------------------


def _parse_one(path: str) -> int:
    import libcst

    with open(path, "rb") as handle:
        source = handle.read()
    try:
        libcst.parse_module(source)
    except Exception:
        return 0
    return 1


def floor_main(list_file: str, jobs: int) -> None:
    """Parse every file of ``list_file`` with ``libcst.parse_module``, biggest first, on ``jobs``
    forked processes (the floor any LibCST-based linter pays for these files)."""
    import multiprocessing

    paths = Path(list_file).read_text().splitlines()
    paths.sort(key=lambda p: -os.path.getsize(p))
    if jobs <= 1:
        for path in paths:
            _parse_one(path)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        list(pool.imap_unordered(_parse_one, paths, chunksize=1))


def pool_start_main() -> None:
    """Start-up cost of a 2-worker pool, fork vs forkserver vs spawn."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import repro_lint.engine  # noqa: F401  (a realistic parent: LibCST and the rules loaded)

    for method in ("fork", "forkserver", "spawn"):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(method)) as pool:
                list(pool.map(abs, [1, 2]))
            times.append(time.perf_counter() - start)
        print(f"  2-worker pool, start + one task + shutdown, {method:<10} {min(times) * 1000:7.1f} ms (best of 5)")


#: the phases of a run and the functions whose CPU time (cumulative, in one process) they are;
#: nested ones are shown indented and are part of the phase above them
PHASES = (
    ("discovery", "repro_lint/discovery.py", "discover", 0),
    ("read + hash + cache lookup (parent)", "repro_lint/run.py", "classify", 0),
    ("prefilter (trigger words, entry points)", "repro_lint/linter.py", "needs_parse", 1),
    ("project summaries (call graph of the entry points)", "repro_lint/context.py", "prepare", 0),
    ("linting the files (workers)", "repro_lint/run.py", "execute", 0),
    ("syntax check of files no rule needs", "repro_lint/linter.py", "_check_syntax_only", 1),
    ("LibCST parse", "repro_lint/parse.py", "parse_module", 1),
    ("walk: analyses and rules", "repro_lint/walk.py", "walk", 1),
    ("positions of what is reported", "repro_lint/positions.py", "node_positions", 1),
    ("ast facts, wherever computed", "repro_lint/facts.py", "extract_facts", 0),
    ("module look-ups, wherever made", "repro_lint/context.py", "resolve_module", 0),
    ("reporting (json)", "repro_lint/report/json.py", "report_json", 0),
)


def phases_main(target: str, extra: List[str]) -> None:
    """Profile one in-process run (``--jobs 1 --no-cache``) with a CPU-time clock and print
    the CPU time of each phase (cumulative; a function that calls itself counts once)."""
    import cProfile
    import io
    import pstats

    from repro_lint.cli import main as cli_main

    profiler = cProfile.Profile(time.process_time)
    stdout = sys.stdout
    sys.stdout = io.StringIO()
    try:
        profiler.runcall(cli_main, [target, "--jobs", "1", "--no-cache", "--output-format", "json", "--exit-zero", *extra])
    finally:
        sys.stdout = stdout
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = max(ct for (_, _, name), (_, _, _, ct, _) in stats.items() if name == "main")
    print(f"  total CPU of the run (profiled, so slower than without): {total:.2f} s")
    for label, path, function, depth in PHASES:
        cumulative = sum(
            ct for (filename, _, name), (_, _, _, ct, _) in stats.items()
            if filename.endswith(path) and name == function
        )
        print(f"  {'  ' * depth}{label:<{56 - 2 * depth}} {cumulative:8.2f} s cpu {100 * cumulative / total:5.1f} %")


#: (label, file, function) for :func:`spy_main`: each sample counts for the innermost of these
#: on its stack (so every sample counts once: facts computed by the prefilter count as facts)
SPY_PHASES = (
    ("positions of what is reported", "repro_lint/positions.py", ("node_positions", "statement_spans")),
    ("walk: analyses and rules", "repro_lint/walk.py", ("walk",)),
    ("LibCST parse", "repro_lint/parse.py", ("parse_module",)),
    ("syntax check of files no rule needs", "repro_lint/linter.py", ("Linter._check_syntax_only",)),
    ("ast facts", "repro_lint/facts.py", ("extract_facts",)),
    ("module look-ups", "repro_lint/context.py", ("ProjectContext.resolve_module",)),
    ("project summaries (other)", "repro_lint/context.py", ("ProjectContext.prepare",)),
    ("prefilter (other)", "repro_lint/linter.py", ("Linter.needs_parse",)),
    ("survey workers (other)", "repro_lint/run.py", ("_survey_task",)),
    ("read + hash + cache (parent, other)", "repro_lint/run.py", ("_Run.classify",)),
    ("discovery", "repro_lint/discovery.py", ("discover",)),
    ("reporting", "repro_lint/report/json.py", ("report_json",)),
    ("lint workers (other: read, decode, results)", "repro_lint/run.py", ("_lint_file", "_run_task")),
)


def spy_phases(raw: str) -> Dict[str, int]:
    """Samples per phase of a ``py-spy record --format raw`` output."""
    phase_of = {(path, function): label for label, path, functions in SPY_PHASES for function in functions}
    counts: Dict[str, int] = {}
    for line in raw.splitlines():
        stack, _, number = line.rpartition(" ")
        if not number.isdigit():
            continue
        label = "other (start-up, imports, pool, pickling)"
        for frame in reversed(stack.split(";")):
            name, _, where = frame.partition(" (")
            path = where.rsplit(":", 1)[0]
            found = next((phase_of[key] for key in phase_of if key[1] == name and path.endswith(key[0])), None)
            if found is not None:
                label = found
                break
        counts[label] = counts.get(label, 0) + int(number)
    return counts


def spy_main(files: List[str]) -> None:
    """Samples per phase of py-spy raw recordings (``py-spy record --subprocesses --format
    raw``), side by side: share of all samples of each."""
    tables = [spy_phases(Path(f).read_text(encoding="utf-8", errors="replace")) for f in files]
    labels = [phase for phase, _, _ in SPY_PHASES] + ["other (start-up, imports, pool, pickling)"]
    print("  " + " " * 46 + "".join(f"{Path(f).name[-24:]:>26}" for f in files))
    for label in labels:
        cells = "".join(f"{t.get(label, 0):>16} {100 * t.get(label, 0) / max(1, sum(t.values())):5.1f} %  " for t in tables)
        print(f"  {label:<46}{cells}")
    print(f"  {'all samples':<46}" + "".join(f"{sum(t.values()):>16}          " for t in tables))


def measure_main(cwd: str, command: List[str]) -> None:
    m = measure(command, Path(cwd))
    print(json.dumps(asdict(m)))


# -- the benchmark ---------------------------------------------------------------------------


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    from importlib.metadata import version

    return (
        f"{model or platform.processor()}, {cores} usable cores, Python {platform.python_version()}, "
        f"libcst {version('libcst')}, {platform.system()} {platform.release()}"
    )


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def bench_corpus(name: str, root: Path, target: str, args: argparse.Namespace) -> None:
    files = all_files(root, target)
    lines = count_lines(files)
    parsed = parsed_files(root, target, args.jobs)
    parsed_lines = count_lines(parsed)
    print(f"\n== {name}: {root / target}")
    print(f"  {len(files)} files, {lines:,} lines; {len(parsed)} files ({parsed_lines:,} lines) pass the prefilter and are parsed")
    print(f"  load average before: {load()}")
    jobs = str(args.jobs)
    cache = root / ".repro_lint_cache"
    shutil.rmtree(cache, ignore_errors=True)
    lint = repro_lint_command() + [target, "--jobs", jobs, "--output-format", "json", "--exit-zero"]

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(str(p) for p in parsed))
        list_file = handle.name
    compared: Dict[str, Tuple[Sequence[str], Path]] = {"cold": (lint + ["--no-cache"], root)}
    before: Dict[str, Callable[[], None]] = {}
    if args.diff:
        compared["diff"] = (repro_lint_command() + [target, "--jobs", jobs, "--diff", "--no-cache"], root)
        fixed_root = root.parent / f"{root.name}-fixed"
        compared["fix"] = (lint + ["--fix", "--no-cache"], fixed_root)
        before["fix"] = fresh_copy(root, fixed_root)
    compared["floor"] = ([sys.executable, str(Path(__file__).resolve()), "_floor", list_file, jobs], root)
    if args.flake8:
        compared["flake8"] = ([args.flake8, "--jobs", jobs, target], root)
    measured = in_rounds(compared, args.repeat_cold, before)  # none of them reads or writes the cache
    os.unlink(list_file)
    cold = measured["cold"]
    findings = json_count(cold.stdout)
    print(cold.line("repro-lint cold (--no-cache)", findings))
    fill = measure_isolated(lint, root)
    print(Runs([fill]).line("repro-lint cold, writing the cache", json_count(fill.stdout)))
    warm = repeated(lint, root, args.repeat)
    print(warm.line("repro-lint warm (unchanged tree)", json_count(warm.stdout)))
    edited = root / target / EDITED[name] if name in EDITED else None
    runs = [*cold.runs, fill, *warm.runs]
    changed = edited is not None and edited.is_file()
    if changed:
        after_edit = bench_edit(lint, root, edited, args.repeat)
        print(after_edit.line("repro-lint after one module changed", json_count(after_edit.stdout)))
        runs += after_edit.runs
    same = all(m.stdout == cold.stdout for m in runs)
    print(f"  same findings in every cold / filling / warm{' / one-change' if changed else ''} run: {'yes' if same else 'NO'} ({findings} findings)")
    shutil.rmtree(cache, ignore_errors=True)
    diff = measured.get("diff")
    if diff is not None:
        changed = sum(1 for line in diff.stdout.splitlines() if line.startswith("+++ "))
        print(diff.line(f"repro-lint --diff cold ({changed} files changed)"))
        fix = measured["fix"]
        print(fix.line("repro-lint --fix cold (what remains)", json_count(fix.stdout)))
        shutil.rmtree(root.parent / f"{root.name}-fixed", ignore_errors=True)
    floor = measured["floor"]
    print(floor.line(f"LibCST parse-only floor ({len(parsed)} files)"))
    flake8 = measured.get("flake8")
    if flake8 is not None:
        print(flake8.line("flake8 (default rules, no plugins)", len(flake8.stdout.splitlines())))
    ruff = ruff_binary(args.ruff)
    if ruff:
        ruffs = repeated([ruff, "check", "--isolated", "--no-cache", "--exit-zero", "--output-format", "json", target], root, args.repeat)
        print(ruffs.line("ruff (default rules, no cache)", json_count(ruffs.stdout)))

    torchfix_line = None
    if args.torchfix:
        step = max(1, round(1 / args.torchfix_sample))
        sample = files[::step]
        sample_lines = count_lines(sample)
        tf = measure_isolated([args.torchfix, *[str(p.relative_to(root)) for p in sample]], root)
        estimate = tf.wall * lines / max(sample_lines, 1)
        print(tf.line(f"TorchFix on a sample of {len(sample)} files", sample_lines))
        print(f"  TorchFix estimate for the whole tree: {estimate:8.1f} s (extrapolated by lines from the sample)")
        torchfix_line = estimate

    print(f"  load average after: {load()}")
    print("  ratios (of medians):")
    print(f"    cold / parse floor       {cold.wall / floor.wall:6.2f} x  (cpu {cold.cpu / floor.cpu:5.2f} x){paired(cold, floor)}")
    if flake8 is not None:
        print(f"    cold / flake8            {cold.wall / flake8.wall:6.2f} x  (cpu {cold.cpu / flake8.cpu:5.2f} x){paired(cold, flake8)}")
    if diff is not None:
        print(f"    --diff cold / cold       {diff.wall / cold.wall:6.2f} x  (cpu {diff.cpu / cold.cpu:5.2f} x){paired(diff, cold)}")
        fix = measured["fix"]
        print(f"    --fix cold / cold        {fix.wall / cold.wall:6.2f} x  (cpu {fix.cpu / cold.cpu:5.2f} x){paired(fix, cold)}")
    if torchfix_line:
        print(f"    TorchFix (est.) / cold   {torchfix_line / cold.wall:6.1f} x faster")
    print(f"    warm / cold              {warm.wall / cold.wall:6.3f} x")
    print(f"    peak RSS of any repro-lint process: {max(cold.peak_mb, fill.peak_mb, warm.peak_mb):.0f} MB; of its process tree: {max(cold.tree_mb, fill.tree_mb):.0f} MB")
    if args.growth:
        bench_growth(root, target, cold, args)


#: per corpus, a module that the corpus's programs import, changed between the runs that
#: measure a run after one change (its path under the corpus's target)
EDITED = {"projects": "yolov5/yolov5/utils/general.py", "torch": "nn/functional.py"}
#: the change: a function nothing calls, appended (the findings stay those of the cold run)
EDIT = "\n\ndef _benchmark_edit():\n    return 0\n"


def bench_edit(lint: Sequence[str], root: Path, module: Path, times: int) -> Runs:
    """Runs with the cache after one module changed since the run before (the cache filled by
    the runs before): in turn with a function appended and without it, ``times`` runs; the
    module is left as it was. It is written as a new file, never through a hard link that a
    copy of the corpus may share."""
    original = module.read_bytes()
    measured = []
    try:
        for round_ in range(max(1, times)):
            module.unlink()
            module.write_bytes(original + EDIT.encode() if round_ % 2 == 0 else original)
            measured.append(measure_isolated(lint, root))
    finally:
        module.unlink()
        module.write_bytes(original)
    return Runs(measured)


def bench_growth(root: Path, target: str, single: Runs, args: argparse.Namespace) -> None:
    """Cold runs on 1, 2 and 4 copies of the corpus in one tree (hard links), in rounds (one of
    each per round, so that the host's load drifts over all three alike), against one copy;
    ``single``, the cold runs measured before, is shown beside them."""
    print(f"  growth (cold, --no-cache, {args.growth_repeat} round(s); load average before: {load()}):")
    print(f"    1 x, measured above: {single.wall:7.2f} s wall {single.cpu:7.2f} s cpu")
    lint = repro_lint_command() + [".", "--jobs", str(args.jobs), "--output-format", "json", "--exit-zero", "--no-cache"]
    commands: Dict[str, Tuple[Sequence[str], Path]] = {"1": (lint, root / target)}
    for copies in (2, 4):
        commands[str(copies)] = (lint, corpora.copies(root / target, root.parent / f"{root.name}-x{copies}", copies))
    measured = in_rounds(commands, args.growth_repeat)
    one = measured["1"]
    for copies, runs in measured.items():
        line = f"    {copies} x: {runs.wall:7.2f} s wall {runs.cpu:7.2f} s cpu {runs.peak_mb:5.0f} MB peak {runs.tree_mb:5.0f} MB tree"
        if copies != "1":
            line += f"  ({runs.wall / one.wall:.2f} x wall, {runs.cpu / one.cpu:.2f} x cpu{paired(runs, one)}; {json_count(runs.stdout)} findings)"
        print(line)


def bench_startup(args: argparse.Namespace, workdir: Path) -> None:
    print("\n== start-up")
    print(f"  load average before: {load()}")
    version = repeated(repro_lint_command() + ["--version"], workdir, args.repeat)
    print(version.line("repro-lint --version"))
    synthetic = corpora.synthetic_repo(workdir, 40)
    script = sorted((synthetic / "scripts").glob("train_*.py"))[0]
    one = repro_lint_command() + [str(script.relative_to(synthetic)), "--exit-zero"]
    cold = repeated(one + ["--no-cache"], synthetic, args.repeat)
    print(cold.line(f"one file ({script.name}, --no-cache)"))
    shutil.rmtree(synthetic / ".repro_lint_cache", ignore_errors=True)
    measure_isolated(one, synthetic)
    warm = repeated(one, synthetic, args.repeat)
    print(warm.line("one file (cached)"))
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "_poolstart"], check=False)


def plain_flake8(workdir: Path) -> Optional[str]:
    """flake8 alone, in a virtual environment of its own under the workdir."""
    venv = workdir / "flake8-venv"
    binary = venv / ("Scripts" if os.name == "nt" else "bin") / "flake8"
    if not binary.exists():
        try:
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(binary.parent / "python"), "-m", "pip", "install", "-q", "flake8"], check=True)
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"  flake8 skipped: could not build {venv}: {error}")
            return None
    return str(binary)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_floor"]:
        floor_main(argv[1], int(argv[2]))
        return 0
    if argv[:1] == ["_poolstart"]:
        pool_start_main()
        return 0
    if argv[:1] == ["_spy"]:
        spy_main(argv[1:])
        return 0
    if argv[:1] == ["_phases"]:
        phases_main(argv[1], argv[2:])
        return 0
    if argv[:1] == ["_measure"]:
        measure_main(argv[1], argv[3:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path.home() / ".cache" / "repro-lint-bench")
    parser.add_argument("--corpus", nargs="+", default=["torch"], choices=["torch", "transformers", "synthetic", "projects"])
    parser.add_argument("--jobs", type=int, default=2, help="processes for repro-lint, the floor and flake8 (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the quick measurements (median and spread)")
    parser.add_argument("--repeat-cold", type=int, default=3, help="runs of each cold measurement (median and spread)")
    parser.add_argument("--ruff", metavar="PATH", help="ruff executable (default: the one beside this Python, or on PATH)")
    parser.add_argument("--no-diff", dest="diff", action="store_false", help="skip the --diff and --fix cold runs")
    parser.add_argument("--growth", action="store_true", help="also cold runs on 2 and 4 copies of each corpus in one tree")
    parser.add_argument("--growth-repeat", type=int, default=1, help="rounds of the growth measurement (1, 2 and 4 copies once each per round)")
    parser.add_argument("--torchfix", metavar="PATH", help="TorchFix executable, installed in a separate environment")
    parser.add_argument("--torchfix-sample", type=float, default=0.05, help="fraction of files TorchFix runs on")
    parser.add_argument("--flake8", metavar="PATH", help="flake8 executable of an environment without plugins (default: built in the workdir)")
    parser.add_argument("--skip-flake8", action="store_true")
    parser.add_argument("--synthetic-files", type=int, default=400)
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    if not args.skip_flake8 and not args.flake8:
        args.flake8 = plain_flake8(args.workdir)
    # an installed package has its bytecode; an editable one gets it on first import, unless
    # PYTHONDONTWRITEBYTECODE is set (then every run would compile repro-lint's modules again)
    import compileall

    compileall.compile_dir(str(REPO / "repro_lint"), quiet=1)
    # and the code LibCST's classes generate, which repro-lint keeps beside its bytecode
    # (``repro_lint._lazy``), written by one import where bytecode may be written
    quiet_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", "from repro_lint._lazy import cst; cst.Module"], cwd=str(REPO), env=quiet_env, check=False)
    print(f"machine: {machine()}")
    print("environment: " + ", ".join(f"{k}={os.environ.get(k, '')!r}" for k in ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED")))
    if args.flake8:
        flake8_version = subprocess.run([args.flake8, "--version"], capture_output=True, text=True).stdout.strip()
        print(f"flake8 for the comparison: {args.flake8} ({flake8_version.splitlines()[0] if flake8_version else '?'})")
    print(f"repro-lint at {REPO} ({subprocess.run(['git', '-C', str(REPO), 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip() or '?'}), jobs {args.jobs}")
    for name in args.corpus:
        if name == "torch":
            root, target = corpora.torch_source(args.workdir), "torch"
        elif name == "transformers":
            root, target = corpora.transformers_source(args.workdir), "transformers"
        elif name == "projects":
            root, target = corpora.projects_source(args.workdir), "."
        else:
            root, target = corpora.synthetic_repo(args.workdir, args.synthetic_files), "."
        bench_corpus(name, root, target, args)
    bench_startup(args, args.workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
