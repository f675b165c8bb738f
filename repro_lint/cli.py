"""The ``repro-lint`` command.

    repro-lint [check] [PATHS...] [options]   lint (default: the current folder)
    repro-lint - --stdin-filename PATH        lint stdin as the file PATH (--fix: fixed source to stdout)
    repro-lint rule CODE                      print a rule's page
    repro-lint rules                          table of all rules
    repro-lint doctor [--seed N]              environment and switches as they stand (exit 1 if inconsistent)
    repro-lint server                         language server (LSP) over stdio

Exit status: 0 no findings, 1 findings, 2 usage error, bad configuration or internal error.
Heavy imports (LibCST) happen only when linting starts, so ``--version`` is instant.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, List, Optional, Sequence

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
SUBCOMMANDS = ("check", "rule", "rules", "doctor", "server")


class UsageError(Exception):
    pass


def _codes(value: str) -> List[str]:
    return [part.strip().upper() for part in value.split(",") if part.strip()]


def _patterns(value: str) -> List[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return number


def check_parser() -> argparse.ArgumentParser:
    from .report import FORMATS

    parser = argparse.ArgumentParser(
        prog="repro-lint",
        description="Find (and fix) reproducibility hazards in PyTorch training code.",
        epilog="Other commands: 'repro-lint rule CODE', 'repro-lint rules', 'repro-lint doctor', 'repro-lint server'.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to lint (default: .)")
    selection = parser.add_argument_group("rule selection")
    selection.add_argument("--select", type=_codes, metavar="CODES", help="comma-separated codes or prefixes to enable, or ALL (replaces the configured set)")
    selection.add_argument("--extend-select", type=_codes, action="append", default=[], metavar="CODES", help="codes or prefixes to enable in addition")
    selection.add_argument("--ignore", type=_codes, action="append", default=[], metavar="CODES", help="codes or prefixes to disable")
    output = parser.add_argument_group("output")
    output.add_argument("--output-format", choices=sorted(FORMATS), default="text", help="output format (default: text)")
    output.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead of each finding")
    output.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    output.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    output.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of stdout")
    output.add_argument("--show-fixes", action="store_true", help="with --fix: list the fixes applied, by file and rule")
    fixing = parser.add_argument_group("fixing")
    fixing.add_argument("--fix", action="store_true", help="apply the safe fixes, then report what remains")
    fixing.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff: apply the unsafe fixes too")
    fixing.add_argument("--diff", action="store_true", help="print the changes --fix would make as a unified diff and write nothing (exit 1 when there are changes)")
    files = parser.add_argument_group("files")
    files.add_argument("--exclude", type=_patterns, action="append", metavar="PATTERNS", help="comma-separated glob patterns to skip in folders (replaces the configured exclude)")
    files.add_argument("--extend-exclude", type=_patterns, action="append", default=[], metavar="PATTERNS", help="glob patterns to skip in addition to the configured ones")
    files.add_argument("--stdin-filename", metavar="PATH", help="with '-' as the path: the file that stdin holds (its configuration, per-file-ignores and kind apply)")
    run = parser.add_argument_group("run")
    run.add_argument("--config", metavar="FILE", help="configuration file (pyproject.toml with [tool.repro-lint], or repro-lint.toml)")
    run.add_argument("--torch-version", metavar="X.Y", help="target torch version for version-aware rules (overrides the configuration)")
    run.add_argument("--add-noqa", action="store_true", help="append '# noqa: CODE' to every reported line (a baseline: later runs report only new findings)")
    run.add_argument("-j", "--jobs", type=_positive, metavar="N", help="worker processes (default: usable cores; 1: no pool)")
    run.add_argument("--no-cache", action="store_true", help="neither read nor write the results cache")
    run.add_argument("--cache-dir", metavar="DIR", help="results cache folder (default: .repro_lint_cache at the project root)")
    parser.add_argument("--version", action="version", version=f"repro-lint {__version__}")
    return parser


def run_check(argv: Sequence[str]) -> int:
    from pathlib import Path

    from .config import ConfigError, load_settings, parse_version
    from .rules import check_settings, use_kept_defaults, validate_selectors
    from .discovery import DiscoveryError, check_paths, discover
    from .report import ReportOptions

    parser = check_parser()
    args = parser.parse_args(list(argv))
    if args.add_noqa and (args.fix or args.diff):
        parser.error("--add-noqa cannot be combined with --fix or --diff")
    paths = args.paths or ["."]
    stdin = "-" in paths
    if stdin and (len(paths) > 1 or args.add_noqa):
        parser.error("'-' (stdin) cannot be combined with other paths or --add-noqa")
    if args.stdin_filename is not None and not stdin:
        parser.error("--stdin-filename needs '-' as the path")
    start = Path(args.stdin_filename or ".") if stdin else Path(paths[0])
    try:
        if not stdin:
            check_paths(paths)
        settings = load_settings(Path(args.config) if args.config else None, start=start)
        cached = not (args.no_cache or args.fix or args.diff or stdin)
        if cached:
            from .cache import cache_folder

            use_kept_defaults(cache_folder(settings, Path(args.cache_dir) if args.cache_dir else None))
        check_settings(settings)
        extend = [c for group in args.extend_select for c in group]
        ignore = [c for group in args.ignore for c in group]
        for name, codes in (("--select", args.select or []), ("--extend-select", extend), ("--ignore", ignore)):
            validate_selectors(codes, name)
        if args.torch_version is not None and parse_version(args.torch_version) is None:
            raise UsageError(f"--torch-version: expected a version such as 2.13, got {args.torch_version!r}")
        settings = settings.with_overrides(
            select=args.select,
            extend_select=settings.extend_select + extend,
            ignore=settings.ignore + ignore,
            torch_version_text=args.torch_version,
            exclude=[p for group in args.exclude for p in group] if args.exclude is not None else None,
            extend_exclude=settings.extend_exclude + [p for group in args.extend_exclude for p in group],
        )
        files = [] if stdin else discover(paths, settings)
    except (ConfigError, DiscoveryError, UsageError) as exc:
        print(f"repro-lint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR

    from .context import ProjectContext
    from .run import lint_files

    if stdin:
        return check_stdin(args, settings)
    project = ProjectContext(settings, files)

    def build(codes: Optional[List[str]] = None) -> Any:
        from .linter import Linter

        return Linter(settings, project, codes=codes)

    fixes = None
    if args.fix or args.diff:
        from .fixer import diff_codes, run_fix_command
        from .rules import selected_codes

        # --diff shows fixes only: it lints with the rules that can make one
        linter = build(diff_codes(selected_codes(settings)) if args.diff else None)

        def relint(stale: Sequence[Path], written: Sequence[Path]) -> List[Any]:
            """Lint ``stale`` again, the project context reading the ``written`` files as fixed."""
            for path in written:
                project.learn_text(path, None)
            return lint_files(build, stale, jobs=args.jobs, project=project)

        # a fix run lints every file afresh: the cache is neither read nor written
        status, run = run_fix_command(linter, files, paths, diff=args.diff, unsafe=args.unsafe_fixes, jobs=args.jobs, relint=relint)
        if status is not None:
            return status
        results, errors, fixed = run.results, run.errors, run.fixed
        fixes = {item.path: item.fixed for item in run.files if item.fixed} if args.show_fixes else None
    else:
        cache = None
        if not args.no_cache:
            from .cache import ResultsCache
            from .rules import selected_codes

            cache = ResultsCache.open(settings, selected_codes(settings), Path(args.cache_dir) if args.cache_dir else None)
        results = lint_files(build, files, jobs=args.jobs, cache=cache, project=project)
        errors, fixed = [e for r in results for e in r.errors], 0
    diagnostics = sorted((d for r in results for d in r.diagnostics), key=lambda d: d.sort_key())
    if args.add_noqa:
        from .baseline import add_noqa_command

        return add_noqa_command(diagnostics, errors)
    if not files:
        print(f"repro-lint: warning: No Python files found under {', '.join(paths)}", file=sys.stderr)
        if args.output_format in ("text", "concise", "full"):
            return EXIT_CLEAN
    options = ReportOptions(quiet=args.quiet, statistics=args.statistics, files_checked=len(files), fixed=fixed, fixes=fixes)
    return finish(args, diagnostics, options, errors)


def check_stdin(args: argparse.Namespace, settings: Any) -> int:
    """``repro-lint - --stdin-filename PATH``: lint stdin as the file ``PATH`` (its configuration,
    per-file-ignores, and whether it is a notebook). With ``--fix``, stdout gets the fixed source
    (the input unchanged when nothing was fixed) and the remaining findings go to stderr, as
    ruff does; with ``--diff``, stdout gets the diff."""
    from pathlib import Path

    from .context import ProjectContext
    from .discovery import display_path
    from .engine import Linter
    from .fixer import diff_codes, fix_source, source_diff
    from .report import ReportOptions
    from .rules import selected_codes
    from .source import SourceError, decode_file

    name = args.stdin_filename or "-"
    shown = display_path(Path(name)) if args.stdin_filename else "-"
    data = sys.stdin.buffer.read()
    codes = diff_codes(selected_codes(settings)) if args.diff else None  # --diff shows fixes only
    linter = Linter(settings, ProjectContext(settings, [Path(name)] if args.stdin_filename else []), codes=codes)
    result = linter.lint_bytes(shown, data)
    errors, fixed, out = list(result.errors), 0, sys.stdout
    if args.fix or args.diff:
        out = sys.stderr if args.fix else sys.stdout
        try:
            source = decode_file(data, name)
        except SourceError:
            source = None  # unreadable: reported as such, nothing to fix
        new = data
        if source is not None:
            outcome = fix_source(linter, shown, source, unsafe=args.unsafe_fixes, result=result)
            errors.extend(outcome.errors)
            if outcome.text != source.text:
                try:
                    new = source.encode(outcome.text)
                except (UnicodeError, ValueError) as exc:
                    errors.append(f"{shown}: the fixed text cannot be saved ({exc}); nothing was fixed")
                else:
                    result, fixed = outcome.result, outcome.fixed_count
        if args.diff:
            if new != data and source is not None:
                sys.stdout.write(source_diff(shown, source, decode_file(new, name).text))
            for error in errors:
                print(f"repro-lint: {error}", file=sys.stderr)
            return EXIT_ERROR if errors else (EXIT_FINDINGS if new != data else EXIT_CLEAN)
        sys.stdout.buffer.write(new)
        sys.stdout.flush()
    diagnostics = sorted(result.diagnostics, key=lambda d: d.sort_key())
    options = ReportOptions(quiet=args.quiet, statistics=args.statistics, files_checked=1, fixed=fixed)
    return finish(args, diagnostics, options, errors, out)


def finish(args: argparse.Namespace, diagnostics: List[Any], options: Any, errors: Sequence[Any], out: Any = None) -> int:
    """Report the findings, then the errors, and give the run's exit status: 2 on an error
    (writing the report included), 1 on findings unless ``--exit-zero``, else 0."""
    from .report import FORMATS

    status = report(FORMATS[args.output_format], diagnostics, options, args.output_file, out)
    if status is not None:
        return status
    for error in errors:
        print(f"repro-lint: {error}", file=sys.stderr)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if diagnostics and not args.exit_zero else EXIT_CLEAN


def report(reporter: Any, diagnostics: List[Any], options: Any, output_file: Optional[str], out: Any = None) -> Optional[int]:
    """Write the report to ``out`` (default: stdout), or to ``output_file`` (atomically).
    Returns None when written, else an exit status (after a message).

    The report is written whole, with one write: where the stream is unbuffered
    (``PYTHONUNBUFFERED=1``, common in containers and CI), a reporter's many small writes are as
    many system calls (``json.dump`` of 237 findings: 41,000 writes to a pipe, 0.25 s)."""
    import io

    stream = (out or sys.stdout) if output_file is None else None

    class Buffer(io.StringIO):
        def isatty(self) -> bool:  # colours as for the stream it goes to (a file: none)
            check = getattr(stream, "isatty", None)
            return bool(check and check())

    buffer = Buffer()
    reporter(diagnostics, buffer, options)
    if stream is not None:
        stream.write(buffer.getvalue())
        stream.flush()
        return None
    from .source import write_atomic

    try:
        write_atomic(output_file, buffer.getvalue().encode("utf-8"), durable=False)
    except OSError as exc:
        print(f"repro-lint: error: cannot write {output_file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    return None


def run_rule(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="repro-lint rule", description="Print a rule's page.")
    parser.add_argument("code", metavar="CODE", help="a rule's code (RPL201) or name (cudnn-benchmark-enabled)")
    args = parser.parse_args(list(argv))
    from .rulebook import read_page
    from .rules import all_rules

    rules = all_rules()
    by_name = {rule.name: code for code, rule in rules.items()}
    code = by_name.get(args.code.strip().lower(), args.code.upper())
    if code not in rules:
        print(f"repro-lint: error: unknown rule {args.code!r} (see 'repro-lint rules')", file=sys.stderr)
        return EXIT_ERROR
    page = read_page(code)
    if page is None:
        rule = rules[code]
        page = f"# {code}: {rule.name}\n\n{rule.message}\n"
    sys.stdout.write(page if page.endswith("\n") else page + "\n")
    return EXIT_CLEAN


def run_rules(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="repro-lint rules", description="List every rule.")
    parser.parse_args(list(argv))
    from .rules import all_rules

    rows = [("code", "name", "default", "fix")]
    for code, rule in all_rules().items():
        rows.append((code, rule.name, "on" if rule.default else "off", rule.fix or "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return EXIT_CLEAN


def run_doctor(argv: Sequence[str]) -> int:
    try:
        from .runtime.doctor import main as doctor_main
    except ImportError as exc:  # pragma: no cover - the runtime ships with the package
        print(f"repro-lint: error: the runtime module is unavailable: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return doctor_main(list(argv))


#: what the language server imports from the ``lsp`` extra
LSP_PACKAGES = ("pygls", "lsprotocol", "cattrs", "attrs")


def run_server(argv: Sequence[str]) -> int:
    try:
        from .server import main as server_main
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in LSP_PACKAGES:
            raise
        print(
            f"repro-lint: error: the language server needs the 'lsp' extra ({exc.name} is not installed): "
            "pip install 'repro-lint[lsp]'",
            file=sys.stderr,
        )
        return EXIT_ERROR
    return server_main(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--version"]:
        print(f"repro-lint {__version__}")
        return EXIT_CLEAN
    command, rest = "check", argv
    if argv and argv[0] in SUBCOMMANDS:
        command, rest = argv[0], argv[1:]
    handler = {"check": run_check, "rule": run_rule, "rules": run_rules, "doctor": run_doctor, "server": run_server}[command]
    try:
        return handler(rest)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_CLEAN
    except KeyboardInterrupt:
        print("repro-lint: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a traceback for the user unless asked for
        if os.environ.get("REPRO_LINT_DEBUG"):
            raise
        print(
            f"repro-lint: internal error: {type(exc).__name__}: {exc} "
            "(set REPRO_LINT_DEBUG=1 for a traceback, and please report it)",
            file=sys.stderr,
        )
        return EXIT_ERROR


def entry() -> None:
    from ._gc import tune_for_a_batch

    tune_for_a_batch()
    if sys.argv[1:2] == ["--version"]:
        sys.exit(main())  # makes no class: not even ``dataclasses`` is imported
    from ._lazy import code_cache_path, generated_code_compiled_once

    # the data classes of every module the run imports (LibCST's and repro-lint's) are compiled once
    with generated_code_compiled_once(code_cache_path()):
        status = main()
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    entry()
