"""The ``repro-lint`` command.

    repro-lint [check] [PATHS...] [options]   lint (default: the current folder)
    repro-lint rule CODE                      print a rule's page
    repro-lint rules                          table of all rules
    repro-lint doctor                         environment, settings and verify() table
    repro-lint server                         language server (LSP) over stdio

Exit status: 0 no findings, 1 findings, 2 usage error, bad configuration or internal error.
Heavy imports (LibCST) happen only when linting starts, so ``--version`` is instant.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
SUBCOMMANDS = ("check", "rule", "rules", "doctor", "server")


class UsageError(Exception):
    pass


def _codes(value: str) -> List[str]:
    return [part.strip().upper() for part in value.split(",") if part.strip()]


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
    fixing = parser.add_argument_group("fixing")
    fixing.add_argument("--fix", action="store_true", help="apply the safe fixes, then report what remains")
    fixing.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff: apply the unsafe fixes too")
    fixing.add_argument("--diff", action="store_true", help="print the changes --fix would make as a unified diff and write nothing (exit 1 when there are changes)")
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
    from .rules import check_settings, validate_selectors
    from .discovery import DiscoveryError, discover
    from .engine import Linter, lint_files
    from .report import FORMATS, ReportOptions

    parser = check_parser()
    args = parser.parse_args(list(argv))
    if args.add_noqa and (args.fix or args.diff):
        parser.error("--add-noqa cannot be combined with --fix or --diff")
    paths = args.paths or ["."]
    try:
        settings = load_settings(Path(args.config) if args.config else None, start=Path(paths[0]))
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
        )
        files = discover(paths, settings)
    except (ConfigError, DiscoveryError, UsageError) as exc:
        print(f"repro-lint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR

    from .context import ProjectContext

    linter = Linter(settings, ProjectContext(settings, files))
    if args.fix or args.diff:
        from .fixer import run_fix_command

        # a fix run lints every file afresh: the cache is neither read nor written
        status, run = run_fix_command(linter, files, paths, diff=args.diff, unsafe=args.unsafe_fixes, jobs=args.jobs)
        if status is not None:
            return status
        results, errors, fixed = run.results, run.errors, run.fixed
    else:
        cache = None
        if not args.no_cache:
            from .cache import ResultsCache

            cache = ResultsCache.open(settings, linter.codes, Path(args.cache_dir) if args.cache_dir else None)
        results = lint_files(linter, files, jobs=args.jobs, cache=cache)
        errors, fixed = [e for r in results for e in r.errors], 0
    diagnostics = sorted((d for r in results for d in r.diagnostics), key=lambda d: d.sort_key())
    if args.add_noqa:
        from .baseline import add_noqa_command

        return add_noqa_command(diagnostics, errors)
    options = ReportOptions(quiet=args.quiet, statistics=args.statistics, files_checked=len(files), fixed=fixed)
    FORMATS[args.output_format](diagnostics, sys.stdout, options)
    for error in errors:
        print(f"repro-lint: {error}", file=sys.stderr)
    if errors:
        return EXIT_ERROR
    if diagnostics and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def run_rule(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="repro-lint rule", description="Print a rule's page.")
    parser.add_argument("code", metavar="CODE")
    args = parser.parse_args(list(argv))
    from .rulebook import read_page
    from .rules import all_rules

    code = args.code.upper()
    rules = all_rules()
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
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
