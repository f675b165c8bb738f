"""Which files to lint: recurse into folders, skip what is never user code, honour excludes
and ``.gitignore``. A file named explicitly on the command line is always linted."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence

from .config import Settings
from .source import TEXT_LIMIT, SourceError, read_bytes, real

if TYPE_CHECKING:  # imported when a pattern is first matched: a run on named files needs none
    import pathspec

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


#: a pattern with more ``*`` wildcards than this (after runs of ``*`` are collapsed) is skipped
#: with a warning: pathspec matches with a backtracking regular expression, whose time grows
#: as (length of a name) ** (number of wildcards): with 4, a 250-byte name took 7 s a match
MAX_WILDCARDS = 3
_STAR_RUNS = re.compile(r"(\\.)|\*{2,}")
_WILDCARDS = re.compile(r"\\.|\*+")


def bounded_pattern(pattern: str) -> tuple[str, int]:
    """``pattern`` with every run of ``*`` collapsed as git reads it (a whole path segment of
    two or more is ``**``; a run inside a segment is one ``*``), and its number of wildcards."""
    if pattern.startswith("#"):
        return pattern, 0
    negation = "!" if pattern.startswith("!") else ""
    segments = []
    for segment in pattern[len(negation):].split("/"):
        if len(segment) >= 2 and segment.strip("*") == "":
            segments.append("**")
        else:
            segments.append(_STAR_RUNS.sub(lambda m: m.group(1) or "*", segment))
    bounded = negation + "/".join(segments)
    wildcards = sum(1 for m in _WILDCARDS.finditer(bounded) if m.group().startswith("*"))
    return bounded, wildcards


def pattern_spec(patterns: Sequence[str], origin: str) -> "pathspec.PathSpec | None":
    """A gitignore-style spec of ``patterns`` (from ``origin``, for warnings), bounded in time
    (see :data:`MAX_WILDCARDS`); None when no pattern is left."""
    kept = []
    for number, line in enumerate(patterns, 1):
        bounded, wildcards = bounded_pattern(line)
        if wildcards > MAX_WILDCARDS:
            print(
                f"repro-lint: warning: {origin}:{number}: pattern {line.strip()[:80]!r} skipped: "
                f"it has {wildcards} '*' wildcards, more than {MAX_WILDCARDS} make matching take hours",
                file=sys.stderr,
            )
            continue
        kept.append(bounded)
    if not kept:
        return None
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(kept)


def _spec(patterns: Sequence[str]) -> "Optional[pathspec.PathSpec]":
    return pattern_spec(patterns, "exclude") if patterns else None


def _relative(path: Path, root: Path) -> Optional[str]:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


class _GitIgnores:
    """``.gitignore`` files met while walking, each applying to its own folder and below."""

    def __init__(self, root: Path) -> None:
        self.specs: "Dict[Path, pathspec.PathSpec]" = {}
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
        except SourceError as exc:
            lines = []
            if os.path.lexists(path):  # a pipe or device (never opened), unreadable, too large
                print(f"repro-lint: warning: {display_path(path)}: {exc.message}; its patterns are not applied", file=sys.stderr)
        spec = pattern_spec(lines, display_path(path)) if lines else None
        if spec is not None:
            self.specs[folder] = spec

    def ignored(self, path: Path, is_dir: bool) -> bool:
        if not self.specs:
            return False
        for folder, spec in self.specs.items():
            rel = _relative(path, folder)
            if rel is None:
                continue
            if spec.match_file(rel + ("/" if is_dir else "")):
                return True
        return False


def check_paths(paths: Sequence[str]) -> None:
    """Raise :class:`DiscoveryError` for the first path given that does not exist (asked
    before the rules are loaded, so that a mistyped path is reported at once)."""
    for raw in paths:
        if not os.path.lexists(raw):
            raise DiscoveryError(f"{raw}: no such file or directory")


def discover(paths: Iterable[str], settings: Settings) -> List[Path]:
    """Files to lint, sorted and without duplicates. Raises DiscoveryError for a missing path."""
    root = settings.root
    include = list(settings.include) + list(settings.extend_include)
    by_name = all("/" not in pattern for pattern in include)  # "*.py": no need to resolve the path
    found: Dict[str, Path] = {}
    specs: "Dict[str, Optional[pathspec.PathSpec]]" = {}  # built when a folder is walked

    def included(path: Path) -> bool:
        """Is a file met in a folder one to lint (``include``, ``extend-include``)?"""
        if "include" not in specs:
            specs["include"] = _spec(include)
        includes = specs["include"]
        if includes is None:
            return False
        rel = None if by_name else _relative(real(path), root)
        return includes.match_file(rel if rel is not None else path.name)

    def excluded(resolved: Path, is_dir: bool) -> bool:
        """Does ``exclude`` match the file or folder whose canonical path is ``resolved``?"""
        if "exclude" not in specs:
            specs["exclude"] = _spec(list(settings.exclude) + list(settings.extend_exclude))
        excludes = specs["exclude"]
        if excludes is None:
            return False
        rel = _relative(resolved, root)
        if rel is None:
            return False
        return excludes.match_file(rel + ("/" if is_dir else ""))

    paths = list(paths)
    check_paths(paths)
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            found.setdefault(os.path.normpath(str(path)), path)  # explicit files are always linted
            continue
        gitignores = _GitIgnores(real(path)) if settings.respect_gitignore else None
        for dirpath, dirnames, filenames in os.walk(path):  # does not follow folder symlinks
            current = Path(dirpath)
            resolved = real(current)
            if gitignores is not None:
                gitignores.load(resolved)
            kept = []
            for name in sorted(dirnames):
                sub = current / name
                if name in DEFAULT_EXCLUDED_DIRS or os.path.exists(os.path.join(dirpath, name, "pyvenv.cfg")):
                    continue
                if excluded(real(sub), True) or (gitignores and gitignores.ignored(real(sub), True)):
                    continue
                kept.append(name)
            dirnames[:] = kept
            for name in sorted(filenames):
                file = current / name
                if not included(file):
                    continue
                if os.path.islink(os.path.join(dirpath, name)):
                    continue  # never follow links inside a tree (loops, files outside it)
                canonical = resolved / name  # not a link: its folder's canonical path and its name
                if excluded(canonical, False) or (gitignores and gitignores.ignored(canonical, False)):
                    continue
                found.setdefault(os.path.normpath(str(file)), file)
    return sorted(found.values(), key=lambda p: str(p))


def display_path(path: Path, cwd: Optional[Path] = None) -> str:
    """The path as printed: relative to the working directory when below it."""
    base = os.fspath(cwd) if cwd else os.getcwd()
    absolute = os.path.abspath(path)
    prefix = os.path.join(base, "")
    if absolute.startswith(prefix):  # below it: as Path.relative_to gives it
        return absolute[len(prefix) :].replace(os.sep, "/")
    rel = _relative(Path(absolute), Path(base))
    return rel if rel is not None else absolute

