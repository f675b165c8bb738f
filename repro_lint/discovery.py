"""Which files to lint: recurse into folders, skip what is never user code, honour excludes
and ``.gitignore``. A file named explicitly on the command line is always linted."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from typing import TYPE_CHECKING, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from .config import Settings
from .source import TEXT_LIMIT, SourceError, read_bytes

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


#: an include pattern that only names an extension (``*.py``): any name ending so matches it
_SUFFIX_PATTERN = re.compile(r"\*(\.[A-Za-z0-9_.-]+)")


def _suffixes(patterns: Sequence[str]) -> Optional[Tuple[str, ...]]:
    """The extensions ``patterns`` name, when each of them only names one (the default
    ``*.py``, ``*.ipynb``): a file's name then matches them exactly when it ends with one, as
    the gitignore-style match of :func:`pattern_spec` answers, without that match for every
    file of the tree (nor, in a tree without ``.gitignore`` or excludes, importing
    ``pathspec``). None: some pattern says more."""
    found = [_SUFFIX_PATTERN.fullmatch(pattern) for pattern in patterns]
    if not found or not all(found):
        return None
    return tuple(match.group(1) for match in found if match is not None)


def _relative(path: str, root: str) -> Optional[str]:
    """``path`` relative to ``root`` in ``/`` form (``.`` for the root itself), or None when it
    is not below it, as ``Path.relative_to`` answers for normalised paths but without building
    paths or raising: discovery asks it of every file and folder for each ``.gitignore`` met
    above it and for the excludes (``relative_to`` raises for each other repository's
    ``.gitignore`` in a tree of many)."""
    if os.path.normcase(path) == os.path.normcase(root):
        return "."
    prefix = root if root.endswith(os.sep) else root + os.sep
    if not os.path.normcase(path).startswith(os.path.normcase(prefix)):
        return None
    return path[len(prefix) :].replace(os.sep, "/")


class _GitIgnores:
    """``.gitignore`` files met while walking, each applying to its own folder and below
    (folders by their canonical paths)."""

    def __init__(self, root: str) -> None:
        self.specs: "Dict[str, pathspec.PathSpec]" = {}
        self.seen: Set[str] = set()
        # .gitignore files above the walk start, up to the repository root, apply too
        for folder in (Path(root), *Path(root).parents):
            self.load(str(folder))
            if (folder / ".git").exists():
                break

    def load(self, folder: str) -> None:
        if folder in self.seen:
            return
        self.seen.add(folder)
        path = os.path.join(folder, ".gitignore")
        try:
            lines = read_bytes(path, TEXT_LIMIT).decode("utf-8", errors="replace").splitlines()
        except SourceError as exc:
            lines = []
            if os.path.lexists(path):  # a pipe or device (never opened), unreadable, too large
                print(f"repro-lint: warning: {display_path(Path(path))}: {exc.message}; its patterns are not applied", file=sys.stderr)
        spec = pattern_spec(lines, display_path(Path(path))) if lines else None
        if spec is not None:
            self.specs[folder] = spec

    def ignored(self, path: str, is_dir: bool) -> bool:
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


def _tree(top: str, canonical: str) -> Iterator[Tuple[str, str, List[str], List[str]]]:
    """Like :func:`os.walk` from ``top`` (top-down, never into a linked folder, unreadable
    folders skipped), yielding also each folder's canonical path, and only files that are
    not links: ``(folder, canonical, subfolders, files)``. The caller may prune
    ``subfolders`` in place. A folder that is not a link has its parent's canonical path
    joined with its name, so no path is resolved below ``top`` (``os.path.realpath`` checks
    every part of a path: 4,974 ``lstat`` calls for the project corpus's 265 folders, 269 now),
    and the folder listing tells links apart without a ``stat`` per file."""
    stack = [(top, canonical)]
    while stack:
        folder, resolved = stack.pop()
        subfolders: List[str] = []
        files: List[str] = []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    try:
                        is_link = entry.is_symlink()
                    except OSError:
                        is_link = False
                    if is_link:
                        continue  # os.walk lists a linked folder but never enters it; a linked file is never followed
                    (subfolders if is_dir else files).append(entry.name)
        except OSError:
            continue
        yield folder, resolved, subfolders, files
        stack.extend((os.path.join(folder, name), os.path.join(resolved, name)) for name in reversed(subfolders))


def discover(paths: Iterable[str], settings: Settings) -> List[Path]:
    """Files to lint, sorted and without duplicates. Raises DiscoveryError for a missing path."""
    root = str(settings.root)
    include = list(settings.include) + list(settings.extend_include)
    by_name = all("/" not in pattern for pattern in include)  # "*.py": no need to resolve the path
    found: Dict[str, Path] = {}
    specs: "Dict[str, Optional[pathspec.PathSpec]]" = {}  # built when a folder is walked

    suffixes = _suffixes(include)

    def included(folder: str, name: str) -> bool:
        """Is a file met in a folder one to lint (``include``, ``extend-include``)?"""
        if suffixes is not None:
            return name.endswith(suffixes)
        if "include" not in specs:
            specs["include"] = _spec(include)
        includes = specs["include"]
        if includes is None:
            return False
        rel = None if by_name else _relative(os.path.realpath(os.path.join(folder, name)), root)
        return includes.match_file(rel if rel is not None else name)

    def excluded(resolved: str, is_dir: bool) -> bool:
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
        top = str(path)
        canonical = os.path.realpath(top)
        gitignores = _GitIgnores(canonical) if settings.respect_gitignore else None
        for dirpath, resolved, dirnames, filenames in _tree(top, canonical):
            if gitignores is not None:
                gitignores.load(resolved)
            kept = []
            for name in sorted(dirnames):
                if name in DEFAULT_EXCLUDED_DIRS or os.path.exists(os.path.join(dirpath, name, "pyvenv.cfg")):
                    continue
                sub = os.path.join(resolved, name)
                if excluded(sub, True) or (gitignores and gitignores.ignored(sub, True)):
                    continue
                kept.append(name)
            dirnames[:] = kept
            for name in sorted(filenames):
                if not included(dirpath, name):
                    continue
                canonical_file = os.path.join(resolved, name)  # not a link: its folder's canonical path and its name
                if excluded(canonical_file, False) or (gitignores and gitignores.ignored(canonical_file, False)):
                    continue
                file = os.path.join(dirpath, name)
                found.setdefault(os.path.normpath(file), Path(file))
    return sorted(found.values(), key=lambda p: str(p))


def display_path(path: Path, cwd: Optional[Path] = None) -> str:
    """The path as printed: relative to the working directory when below it."""
    base = os.fspath(cwd) if cwd else os.getcwd()
    absolute = os.path.abspath(path)
    prefix = os.path.join(base, "")
    if absolute.startswith(prefix):  # below it: as Path.relative_to gives it
        return absolute[len(prefix) :].replace(os.sep, "/")
    rel = _relative(absolute, os.path.normpath(base))
    return rel if rel is not None else absolute

