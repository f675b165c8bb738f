"""The engine's public face: :class:`~repro_lint.linter.Linter` lints one file,
:func:`~repro_lint.run.lint_files` lints many (in parallel, with the results cache).

The steps live in their own modules (see ``docs/architecture.md``): :mod:`~repro_lint.parse`,
:mod:`~repro_lint.walk`, :mod:`~repro_lint.positions`, :mod:`~repro_lint.linter` and
:mod:`~repro_lint.run`.
"""

from __future__ import annotations

from .linter import FileResult, Linter
from .run import default_jobs, lint_files

__all__ = ["FileResult", "Linter", "default_jobs", "lint_files"]
