"""The flake8 plugin: ``flake8`` reports repro-lint's findings under the prefix ``RPL``.

There is no second implementation: each file flake8 checks goes through
:meth:`repro_lint.engine.Linter.lint_source` with the text flake8 already read, so the
prefilter, the LibCST parse (only for files that can contain a finding), the rules, the project
context and the suppressions are exactly the command line's.

- **Selection** is flake8's: the rules flake8 would report (``--select``, ``--extend-select``,
  ``--ignore``, ...) are the rules that run. Rules that are off by default in repro-lint are
  added to flake8's default ignore list, so they stay off unless selected.
- **noqa**: the engine applies ``# noqa`` with flake8's semantics and records which comments
  were used (for RPL002); flake8 then applies its own. ``--disable-noqa`` turns both off.
- **Options** ``--repro-entry-points``, ``--repro-seed-functions``, ``--repro-torch-version``
  (also readable from flake8's configuration as ``repro-entry-points = ...``) extend or override
  ``[tool.repro-lint]`` in the nearest ``pyproject.toml``, which is read as the CLI reads it.
- **Project context**: one per process, built from the paths given to flake8, so entry points
  and seeding helpers defined in other files are found as the CLI finds them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Iterator, List, Optional, Sequence, Tuple, Type

from . import __version__
from ._lazy import code_cache_path, generated_code_compiled_once

# (the data classes of what the plugin imports compiled once, as in a command-line run)
with generated_code_compiled_once(code_cache_path()):
    from .config import ConfigError, Settings, load_settings, parse_version
    from .context import ProjectContext
    from .engine import FileResult, Linter
    from .noqa import Suppressions
    from .rules import all_rules, check_settings
    from .rules.suppression import UnusedNoqa
    from .source import Source


class _Flake8Linter(Linter):
    """The engine as the plugin runs it: flake8 has already parsed the file with ``ast`` (a
    plugin never sees a file with a syntax error), and ``--disable-noqa`` is honoured."""

    def __init__(self, settings: Settings, project: ProjectContext, codes: Sequence[str], honour_noqa: bool) -> None:
        super().__init__(settings, project, codes)
        self.honour_noqa = honour_noqa

    def _check_syntax_only(self, path: str, text: str) -> FileResult:
        return FileResult(path)

    def suppress(self, diagnostics, path, suppressions):  # type: ignore[no-untyped-def]
        if not self.honour_noqa:
            suppressions = Suppressions(file_codes=suppressions.file_codes)
        return super().suppress(diagnostics, path, suppressions)


def _codes_flake8_selects(options: argparse.Namespace) -> List[str]:
    """The repro-lint codes that flake8 would report with these options."""
    try:
        from flake8.style_guide import Decision, DecisionEngine
    except ImportError:  # pragma: no cover - flake8 is running us, so it is there
        return [code for code, rule in all_rules().items() if rule.default]
    engine = DecisionEngine(options)
    return [code for code in all_rules() if engine.decision_for(code) is Decision.Selected]


def settings_from(options: argparse.Namespace) -> Settings:
    """``[tool.repro-lint]`` found from the first path given to flake8 (as the CLI finds it),
    with flake8's ``repro-*`` options on top. Raises ConfigError."""
    paths = [p for p in (getattr(options, "filenames", None) or []) if p != "-"] or ["."]
    settings = load_settings(start=Path(paths[0]))
    check_settings(settings)
    entry_points = list(getattr(options, "repro_entry_points", None) or [])
    seed_functions = dict(settings.seed_functions)
    for name in getattr(options, "repro_seed_functions", None) or []:
        seed_functions[name] = ["torch", "numpy", "random"]
    torch_version = getattr(options, "repro_torch_version", None)
    if torch_version and parse_version(torch_version) is None:
        raise ConfigError(f"flake8 option repro-torch-version: expected a version such as 2.13, got {torch_version!r}")
    return settings.with_overrides(
        entry_points=settings.entry_points + entry_points if entry_points else None,
        seed_functions=seed_functions,
        torch_version_text=torch_version or None,
    )


class Plugin:
    """flake8 entry point ``RPL = repro_lint.flake8:Plugin``."""

    name = "repro-lint"
    version = __version__

    #: set by :meth:`parse_options` (in the main process; workers inherit or re-parse it)
    _options: Optional[argparse.Namespace] = None
    _settings: Optional[Settings] = None
    #: one linter (and so one project context) per process, built on first use
    _linter: Optional[Linter] = None

    def __init__(self, tree: Any, filename: str, lines: Sequence[str]) -> None:
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, parser: Any) -> None:
        parser.add_option(
            "--repro-entry-points",
            default="",
            parse_from_config=True,
            comma_separated_list=True,
            help="repro-lint: glob patterns (relative to the project root) of files to treat as entry points, added to [tool.repro-lint] entry-points",
        )
        parser.add_option(
            "--repro-seed-functions",
            default="",
            parse_from_config=True,
            comma_separated_list=True,
            help="repro-lint: qualified names of your own functions that seed torch, numpy and random",
        )
        parser.add_option(
            "--repro-torch-version",
            default=None,
            parse_from_config=True,
            help="repro-lint: target torch version X.Y for version-aware rules (default: the installed torch)",
        )
        parser.extend_default_ignore([code for code, rule in all_rules().items() if not rule.default])

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        cls._options = options
        cls._linter = None
        try:
            cls._settings = settings_from(options)
        except ConfigError as exc:
            raise SystemExit(f"repro-lint: error: {exc}") from None

    @classmethod
    def linter(cls) -> Linter:
        if cls._linter is None:
            options = cls._options if cls._options is not None else argparse.Namespace()
            settings = cls._settings if cls._settings is not None else load_settings(start=Path.cwd())
            codes = _codes_flake8_selects(options) if cls._options is not None else None
            honour_noqa = not getattr(options, "disable_noqa", False)
            if codes is None:
                codes = [code for code, rule in all_rules().items() if rule.default]
            if not honour_noqa:
                codes = [c for c in codes if c != UnusedNoqa.code]  # nothing is suppressed, so nothing is used
            cls._linter = _Flake8Linter(settings, ProjectContext(settings, _project_files(options, settings)), codes, honour_noqa)
        return cls._linter

    def run(self) -> Iterator[Tuple[int, int, str, Type["Plugin"]]]:
        linter = self.linter()
        result = linter.lint_source(self.filename, Source("".join(self.lines), "utf-8"))
        for error in result.errors:
            print(f"repro-lint: {error}", file=sys.stderr)
        for diag in sorted(result.diagnostics, key=lambda d: d.sort_key()):
            yield diag.start[0], diag.start[1], f"{diag.code} {diag.message}", type(self)


def _project_files(options: argparse.Namespace, settings: Settings) -> List[Path]:
    """The files the CLI would lint for the paths given to flake8 (the project context's view
    of the run: source roots, and whether the project turns deterministic algorithms on)."""
    from .discovery import DiscoveryError, discover

    paths = [p for p in (getattr(options, "filenames", None) or []) if p != "-"] or ["."]
    try:
        return discover(paths, settings)
    except DiscoveryError:  # flake8 reports a missing path itself (E902)
        return []
