"""Which files to lint: recurse into folders, skip what is never user code, honour excludes
and ``.gitignore``. A file named explicitly on the command line is always linted."""

from __future__ import annotations

import os
from pathlib import Path

from typing import Dict, Iterable, List, Optional, Sequence

import pathspec

from .config import Settings
from .source import TEXT_LIMIT, SourceError, read_bytes, real

#: folder names that never hold the user's own code (ruff's list, plus our cache)
DEFAULT_EXCLUDED_DIRS = frozenset(
    {
        ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints",
        ".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache",
        ".repro_lint_cache", ".svn", ".tox", ".venv", ".vscode", "__pycache__", "__pypackages__",
        "_build", "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
    }
)


class DiscoveryError(Exception):
    """A path given on the command line does not exist."""


def _spec(patterns: Sequence[str]) -> Optional[pathspec.PathSpec]:
    return pathspec.GitIgnoreSpec.from_lines(patterns) if patterns else None


def _relative(path: Path, root: Path) -> Optional[str]:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


class _GitIgnores:
    """``.gitignore`` files met while walking, each applying to its own folder and below."""

    def __init__(self, root: Path) -> None:
        self.specs: Dict[Path, pathspec.PathSpec] = {}
        # .gitignore files above the walk start, up to the repository root, apply too
        for folder in (root, *root.parents):
            self.load(folder)
            if (folder / ".git").exists():
                break

    def load(self, folder: Path) -> None:
        if folder in self.specs:
            return
        path = folder / ".gitignore"
        try:
            lines = read_bytes(path, TEXT_LIMIT).decode("utf-8", errors="replace").splitlines()
        except SourceError:
            lines = []  # missing, or not a regular file (a FIFO is never opened)
        if lines:
            self.specs[folder] = pathspec.GitIgnoreSpec.from_lines(lines)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        for folder, spec in self.specs.items():
            rel = _relative(path, folder)
            if rel is None:
                continue
            if spec.match_file(rel + ("/" if is_dir else "")):
                return True
        return False


def discover(paths: Iterable[str], settings: Settings) -> List[Path]:
    """Files to lint, sorted and without duplicates. Raises DiscoveryError for a missing path."""
    root = settings.root
    excludes = _spec(list(settings.exclude) + list(settings.extend_exclude))
    include = list(settings.include) + list(settings.extend_include)
    includes = _spec(include)
    by_name = all("/" not in pattern for pattern in include)  # "*.py": no need to resolve the path
    found: Dict[str, Path] = {}

    def included(path: Path) -> bool:
        """Is a file met in a folder one to lint (``include``, ``extend-include``)?"""
        if includes is None:
            return False
        rel = None if by_name else _relative(real(path), root)
        return includes.match_file(rel if rel is not None else path.name)

    def excluded(path: Path, is_dir: bool) -> bool:
        if excludes is None:
            return False
        rel = _relative(real(path), root)
        if rel is None:
            return False
        return excludes.match_file(rel + ("/" if is_dir else ""))

    for raw in paths:
        path = Path(raw)
        if not os.path.lexists(path):
            raise DiscoveryError(f"{raw}: no such file or directory")
        if not path.is_dir():
            found.setdefault(os.path.normpath(str(path)), path)  # explicit files are always linted
            continue
        gitignores = _GitIgnores(real(path)) if settings.respect_gitignore else None
        for dirpath, dirnames, filenames in os.walk(path):  # does not follow folder symlinks
            current = Path(dirpath)
            if gitignores is not None:
                gitignores.load(real(current))
            kept = []
            for name in sorted(dirnames):
                sub = current / name
                if name in DEFAULT_EXCLUDED_DIRS or (sub / "pyvenv.cfg").exists():
                    continue
                if excluded(sub, True) or (gitignores and gitignores.ignored(real(sub), True)):
                    continue
                kept.append(name)
            dirnames[:] = kept
            for name in sorted(filenames):
                file = current / name
                if not included(file):
                    continue
                if file.is_symlink():
                    continue  # never follow links inside a tree (loops, files outside it)
                if excluded(file, False) or (gitignores and gitignores.ignored(real(file), False)):
                    continue
                found.setdefault(os.path.normpath(str(file)), file)
    return sorted(found.values(), key=lambda p: str(p))


def display_path(path: Path, cwd: Optional[Path] = None) -> str:
    """The path as printed: relative to the working directory when below it."""
    cwd = cwd or Path.cwd()
    absolute = Path(os.path.abspath(path))
    rel = _relative(absolute, cwd)
    return rel if rel is not None else str(absolute)

