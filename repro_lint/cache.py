"""The results cache: a second run on an unchanged tree only reads and hashes.

One JSON file per effective configuration, in ``.repro_lint_cache/`` at the project root
(with a ``.gitignore`` of ``*`` inside, as ruff does). Its name is a digest of everything
that can change any finding: repro-lint's version and code, LibCST's version, the Python
version, the settings' fingerprint and the selected codes. Inside, one entry per file:

- ``h``: the digest of the file's bytes, ``m``: its module name (from the package layout);
- ``d``: what the findings also depend on through the project context: the digest of every
  other file the context consulted (``null`` for a file that did not exist), ``*`` for the
  digest of the whole run's files, ``roots`` for the source roots searched;
- ``r``: the findings, without their path (the printed path depends on the working folder).

An entry is used only when all of these still match. Writes go to a temporary file and an
atomic rename: concurrent runs (pre-commit may start several) never see a torn file, the last
one to finish wins, and entries lost that way only cost a re-lint. A cache file that cannot
be read or decoded is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from . import __version__
from .diagnostics import Diagnostic
from .source import SourceError, read_bytes, write_atomic

CACHE_DIR = ".repro_lint_cache"
FORMAT = 1
#: key of the entry's dependency on every file of the run (= ``context.ALL_FILES``)
#: a dependency on every file of the run (the project context's answers drawn from the call
#: graph); :data:`repro_lint.context.ALL_FILES` is this marker
ALL_FILES_KEY = "*"
ROOTS_KEY = "roots"


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _code_stamp() -> List[Any]:
    """repro-lint's own modules (name, size, mtime): an edited rule in a development install
    must not be answered from a cache written by the old code."""
    package = Path(__file__).resolve().parent
    stamp: List[Any] = []
    for folder in (package, package / "rules"):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if name.endswith(".py"):
                try:
                    st = os.stat(folder / name)
                except OSError:
                    continue
                stamp.append([f"{folder.name}/{name}", st.st_size, st.st_mtime_ns])
    return stamp


def run_key(fingerprint: str, codes: Iterable[str]) -> str:
    try:
        from importlib.metadata import version

        libcst_version = version("libcst")
    except Exception:  # pragma: no cover - libcst is a dependency
        libcst_version = "?"
    material = [FORMAT, __version__, libcst_version, list(sys.version_info[:2]), fingerprint, sorted(codes), _code_stamp()]
    return digest(json.dumps(material, sort_keys=True, default=str).encode("utf-8"))


def prepare_folder(folder: Path) -> None:
    """Create the cache folder with a ``.gitignore`` that ignores it all (and a CACHEDIR.TAG)."""
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        write_atomic(ignore, durable=False, data=b"# Automatically created by repro-lint.\n*\n")
    tag = folder / "CACHEDIR.TAG"
    if not tag.exists():
        write_atomic(
            tag, durable=False, data=
            b"Signature: 8a477f597d28d172789f06886806bc55\n"
            b"# This file is a cache directory tag created by repro-lint.\n",
        )


class ResultsCache:
    """Cached findings of one configuration, by file."""

    def __init__(self, folder: Path, key: str, root: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / f"results-{key[:24]}.json"
        self.root = Path(root)
        self._root_prefix = os.path.join(os.path.abspath(self.root), "")
        self.entries: Dict[str, Dict[str, Any]] = self._load()
        self.updates: Dict[str, Dict[str, Any]] = {}

    @classmethod
    def open(cls, settings: Any, codes: Sequence[str], folder: Optional[Path] = None) -> "ResultsCache":
        """The cache of ``settings`` + ``codes``, in ``folder`` (default: ``<root>/.repro_lint_cache``)."""
        folder = Path(folder) if folder is not None else Path(settings.root) / CACHE_DIR
        return cls(folder, run_key(settings.fingerprint(), codes), settings.root)

    def _load(self) -> Dict[str, Dict[str, Any]]:
        try:
            data = json.loads(read_bytes(self.path))
        except (SourceError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("files"), dict):
            return {}
        return data["files"]

    def key_of(self, path: Path) -> str:
        """Entries are keyed by path relative to the root (absolute outside it)."""
        absolute = os.path.abspath(path)
        if absolute.startswith(self._root_prefix):  # below the root: as Path.relative_to gives it
            return absolute[len(self._root_prefix) :].replace(os.sep, "/")
        try:
            return Path(absolute).relative_to(self.root).as_posix()
        except ValueError:
            return absolute

    # -- reading -------------------------------------------------------------------------
    def lookup(self, key: str, content: str, module: str) -> Optional[Dict[str, Any]]:
        """The entry for ``key`` if it was written for this content and module name (its
        dependencies still have to be checked: :meth:`entry_dependencies`)."""
        entry = self.entries.get(key)
        if not isinstance(entry, dict) or entry.get("h") != content or entry.get("m") != module:
            return None
        return entry

    @staticmethod
    def entry_dependencies(entry: Dict[str, Any]) -> Dict[str, Optional[str]]:
        deps = entry.get("d") or {}
        return deps if isinstance(deps, dict) else {"": "invalid"}

    @staticmethod
    def diagnostics(entry: Dict[str, Any], shown: str) -> Optional[List[Diagnostic]]:
        """The entry's findings with ``shown`` as their path; None if the entry is malformed."""
        try:
            return [Diagnostic.from_dict({**item, "path": shown}) for item in entry["r"]]
        except (KeyError, TypeError, ValueError, IndexError):
            return None

    # -- writing -------------------------------------------------------------------------
    def store(
        self,
        key: str,
        content: str,
        module: str,
        parsed: bool,
        diagnostics: Sequence[Diagnostic],
        dependencies: Dict[str, Optional[str]],
    ) -> None:
        findings = []
        for diag in diagnostics:
            item = diag.to_dict()
            del item["path"]
            findings.append(item)
        entry: Dict[str, Any] = {"h": content, "m": module, "p": parsed, "r": findings}
        if dependencies:
            entry["d"] = dependencies
        self.updates[key] = entry

    def save(self) -> None:
        """Merge this run's entries into the file on disk (re-read now: another run may have
        written since) and replace it atomically. Entries of files that no longer exist are
        dropped. Never raises for an unwritable cache: it is only a cache."""
        if not self.updates:
            return
        try:
            prepare_folder(self.folder)
            merged = self._load()
            merged.update(self.updates)
            for key in [k for k in merged if k not in self.updates]:
                if not os.path.exists(self.root / key):  # absolute keys join to themselves
                    del merged[key]
            data = json.dumps({"format": FORMAT, "files": merged}, separators=(",", ":"), sort_keys=True)
            write_atomic(self.path, data.encode("utf-8"), durable=False)
        except OSError:
            return
        self.entries = merged
        self.updates = {}


class Dependencies:
    """The digests that a cached file's findings depend on, besides its own content: the
    files the project context consulted for it (each file's content, or that it is missing),
    every file of the run (:data:`ALL_FILES_KEY`) and the source roots (:data:`ROOTS_KEY`).
    ``digests`` (by file index) and ``index_of`` (absolute path -> index) are the run's own
    tables, filled as it reads the files."""

    def __init__(
        self, files: Sequence[Path], digests: Dict[int, str], index_of: Dict[str, int], state_key: Callable[[], str]
    ) -> None:
        self.files = files
        self.digests = digests
        self.index_of = index_of
        self.state_key = state_key
        self._run: Optional[str] = None
        self._others: Dict[str, Optional[str]] = {}

    def run_digest(self) -> str:
        if self._run is None:
            items = sorted((os.path.abspath(p), self.digests.get(i, "")) for i, p in enumerate(self.files))
            self._run = digest(repr(items).encode("utf-8"))
        return self._run

    def digest_of(self, dependency: str) -> Optional[str]:
        if dependency == ALL_FILES_KEY:
            return self.run_digest()
        if dependency == ROOTS_KEY:
            return digest(self.state_key().encode("utf-8"))
        index = self.index_of.get(dependency)
        if index is not None and index in self.digests:
            return self.digests[index]
        if dependency not in self._others:
            try:
                self._others[dependency] = digest(read_bytes(dependency))
            except SourceError:
                self._others[dependency] = None  # missing (or unreadable): that too is a fact
        return self._others[dependency]

    def hold(self, expected: Dict[str, Optional[str]]) -> bool:
        """Are the recorded digests still those of today?"""
        return all(self.digest_of(dep) == value for dep, value in expected.items())

    def of(self, depends_on: Iterable[str]) -> Dict[str, Optional[str]]:
        """The digests to record for findings that depend on ``depends_on``."""
        found: Dict[str, Optional[str]] = {dep: self.digest_of(dep) for dep in depends_on}
        if found:
            found[ROOTS_KEY] = self.digest_of(ROOTS_KEY)
        return found
