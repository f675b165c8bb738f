"""The results cache: a second run on an unchanged tree only reads and hashes.

One JSON file per effective configuration, in ``.repro_lint_cache/`` at the project root
(with a ``.gitignore`` of ``*`` inside, as ruff does). Its name is a digest of everything
that can change any finding: repro-lint's version and code, LibCST's version, the Python
version, the settings' fingerprint and the selected codes. Inside, one entry per file:

- ``h``: the digest of the file's bytes, ``m``: its module name (from the package layout);
- ``s``: the file's size, mtime, inode and ctime when it was read (see :func:`stat_key`), kept
  only when its last change was more than :data:`STAT_TRUSTED_AFTER_NS` before the run
  started: a later run whose ``stat`` gives the same four takes ``h`` without reading the file;
- ``d``: what the findings also depend on through the project context: the digest of every
  other file the context consulted (``null`` for a file that did not exist), ``*`` for the
  digest of the whole run's files, ``roots`` for the source roots searched. In the file,
  ``d`` lists positions in the top-level ``deps`` table of (path, digest) pairs: entries
  share most of them (an entry point's call graph, the missing candidates of its imports);
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
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from . import __version__
from .config import installed_version
from .diagnostics import Diagnostic
from .modulefiles import Listings, ModuleFiles
from .source import SourceError, read_bytes, write_atomic

CACHE_DIR = ".repro_lint_cache"
FORMAT = 3
#: key of the entry's dependency on every file of the run (= ``context.ALL_FILES``)
#: a dependency on every file of the run (the project context's answers drawn from the call
#: graph); :data:`repro_lint.context.ALL_FILES` is this marker
ALL_FILES_KEY = "*"
ROOTS_KEY = "roots"
#: prefix of a dependency on where a dotted module name resolves among the source roots (the
#: file found, or that none is): one key per module instead of every candidate path looked at
#: (a module found in no root, ``torch`` in a project's tree, is two candidates per root)
MODULE_KEY_PREFIX = "module:"
#: prefix of a dependency on one file of the run: its content while it is one of the run's files,
#: missing otherwise (that a file imports a module holds while the file is linted with the others
#: and still imports it, whatever its copy outside a narrower run says)
MEMBER_KEY_PREFIX = "member:"


def dependency_file(dependency: str) -> str:
    """The path a file dependency names (a run member's without its prefix); other keys as
    they are."""
    return dependency[len(MEMBER_KEY_PREFIX) :] if dependency.startswith(MEMBER_KEY_PREFIX) else dependency


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


#: a file's ``stat`` is trusted to say that its bytes are unchanged only when the file last
#: changed (mtime and ctime) this long before the run began: a same-size write within the file
#: system's timestamp granularity (up to 2 s on FAT) would leave the ``stat`` unchanged
STAT_TRUSTED_AFTER_NS = 2_000_000_000


def stat_key(info: os.stat_result, started_ns: int) -> Optional[List[int]]:
    """What the cache keeps of a file's ``stat`` (taken before its bytes were read, in a run
    that started at ``started_ns``): None when it changed too recently to be trusted."""
    if started_ns - max(info.st_mtime_ns, info.st_ctime_ns) <= STAT_TRUSTED_AFTER_NS:
        return None
    return _stat_fields(info)


def _stat_fields(info: os.stat_result) -> List[int]:
    return [info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns]


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
    libcst_version = installed_version("libcst") or "?"
    material = [FORMAT, __version__, libcst_version, list(sys.version_info[:2]), fingerprint, sorted(codes), _code_stamp()]
    return digest(json.dumps(material, sort_keys=True, default=str).encode("utf-8"))


def cache_folder(settings: Any, folder: Optional[Path] = None) -> Path:
    """The results cache folder: ``folder``, or ``.repro_lint_cache`` at the project root."""
    return Path(folder) if folder is not None else Path(settings.root) / CACHE_DIR


def _rule_defaults_path(folder: Path) -> Path:
    stamp = json.dumps([FORMAT, __version__, _code_stamp()], sort_keys=True).encode("utf-8")
    return folder / f"rules-{digest(stamp)}.json"


def read_rule_defaults(folder: Path) -> Optional[Dict[str, bool]]:
    """The rule codes and defaults kept in ``folder`` by this version of repro-lint's code
    (:func:`repro_lint.rules.use_kept_defaults`); None when there are none, or they do not read."""
    try:
        data = json.loads(read_bytes(_rule_defaults_path(folder)))
    except (SourceError, ValueError):
        return None
    if not isinstance(data, dict) or not data or not all(isinstance(c, str) and isinstance(d, bool) for c, d in data.items()):
        return None
    return data


def write_rule_defaults(folder: Path, defaults: Dict[str, bool]) -> None:
    """Keep ``defaults`` in ``folder`` for this version of the code (the copies kept by other
    versions are removed). Never raises: it is only a cache."""
    path = _rule_defaults_path(folder)
    try:
        prepare_folder(folder)
        write_atomic(path, json.dumps(defaults, sort_keys=True).encode("utf-8"), durable=False)
        for other in folder.glob("rules-*.json"):
            if other != path:
                other.unlink()
    except OSError:
        return


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
        self.entries, self._table, self._lists = self._load()
        self._held: Dict[int, bool] = {}  # dependencies_hold's answers, by position in _table
        self._held_lists: Dict[int, bool] = {}  # and by an entry's whole list, by position in _lists
        self.updates: Dict[str, Dict[str, Any]] = {}

    @classmethod
    def open(cls, settings: Any, codes: Sequence[str], folder: Optional[Path] = None) -> "ResultsCache":
        """The cache of ``settings`` + ``codes``, in ``folder`` (default: ``<root>/.repro_lint_cache``)."""
        return cls(cache_folder(settings, folder), run_key(settings.fingerprint(), codes), settings.root)

    def _load(self) -> Tuple[Dict[str, Dict[str, Any]], List[Any], List[Any]]:
        """The entries on disk, their ``deps`` table of (path, digest) pairs and their ``lists``
        of positions in it: an entry's ``d`` is the position of its list, decoded only when it
        is asked for (:meth:`dependencies_hold`). Files of one project share whole lists (its
        metadata files, a call graph): the project corpus's 1,519 entries hold 353 distinct
        lists of 187,000 positions in all, which the file keeps once each."""
        try:
            data = json.loads(read_bytes(self.path))
        except (SourceError, ValueError):
            return {}, [], []
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("files"), dict):
            return {}, [], []
        table, lists = data.get("deps"), data.get("lists")
        return data["files"], table if isinstance(table, list) else [], lists if isinstance(lists, list) else []

    @staticmethod
    def _decoded(deps: Any, table: List[Any], lists: List[Any]) -> Dict[str, Optional[str]]:
        """An entry's ``d`` as read (the position of its list in ``lists``) as a dict; one that
        does not decode gives a dependency that never holds."""
        try:
            if type(deps) is not int or deps < 0:
                raise TypeError(deps)
            return {table[i][0]: table[i][1] for i in lists[deps]}
        except (TypeError, IndexError, KeyError):
            return {"": "invalid"}

    @classmethod
    def _dumps(cls, entries: Dict[str, Dict[str, Any]], read: List[Any], read_lists: List[Any]) -> str:
        """The file's text: each entry's ``d`` as the position of its list of positions in one
        ``deps`` table, each distinct list kept once (entries taken from the file as it was read
        still point into its tables, ``read`` and ``read_lists``)."""
        table: Dict[Tuple[str, Optional[str]], int] = {}
        lists: Dict[Tuple[int, ...], int] = {}
        files = {}
        for key, entry in entries.items():
            deps = entry.get("d")
            if deps is not None:
                if not isinstance(deps, dict):
                    deps = cls._decoded(deps, read, read_lists)
                positions = tuple(table.setdefault(pair, len(table)) for pair in deps.items())
                entry = {**entry, "d": lists.setdefault(positions, len(lists))}
            files[key] = entry
        return json.dumps(
            {"format": FORMAT, "files": files, "deps": list(table), "lists": [list(each) for each in lists]},
            separators=(",", ":"), sort_keys=True,
        )

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
    def unchanged(self, key: str, info: os.stat_result) -> Optional[str]:
        """The digest recorded for ``key`` when the file's ``stat`` is still the one recorded
        with it (then its bytes are those that were hashed); None: read and hash the file."""
        entry = self.entries.get(key)
        if not isinstance(entry, dict) or entry.get("s") is None:
            return None
        if entry["s"] != _stat_fields(info):
            return None
        digest = entry.get("h")
        return digest if isinstance(digest, str) else None

    def lookup(self, key: str, content: str, module: str) -> Optional[Dict[str, Any]]:
        """The entry for ``key`` if it was written for this content and module name (its
        dependencies still have to be checked: :meth:`dependencies_hold`)."""
        entry = self.entries.get(key)
        if not isinstance(entry, dict) or entry.get("h") != content or entry.get("m") != module:
            return None
        return entry

    @staticmethod
    def has_dependencies(entry: Dict[str, Any]) -> bool:
        return entry.get("d") not in (None, {})

    def entry_dependencies(self, entry: Dict[str, Any]) -> Dict[str, Optional[str]]:
        deps = entry.get("d")
        if deps is None:
            return {}
        return deps if isinstance(deps, dict) else self._decoded(deps, self._table, self._lists)

    def dependencies_hold(self, entry: Dict[str, Any], dependencies: "Dependencies") -> bool:
        """Are the digests ``entry``'s findings depend on still those of today? Each (path,
        digest) pair of the file's table is checked once, and each list of them once, however
        many entries share it."""
        position = entry.get("d")
        if type(position) is not int:
            return dependencies.hold(self.entry_dependencies(entry))
        known = self._held_lists.get(position)
        if known is not None:
            return known
        try:
            deps = self._lists[position] if position >= 0 else None
        except IndexError:
            deps = None
        if not isinstance(deps, list):
            return False  # an entry that does not decode: its dependencies never hold
        held = self._held
        table = self._table
        answer: Optional[bool] = True
        for i in deps:
            answer = held.get(i) if type(i) is int and i >= 0 else False
            if answer is None:
                try:
                    path, value = table[i]
                    answer = dependencies.digest_of(path) == value
                except (TypeError, ValueError, IndexError):
                    answer = False
                held[i] = answer
            if not answer:
                break
        self._held_lists[position] = bool(answer)
        return bool(answer)

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
        stat: Optional[List[int]] = None,
    ) -> None:
        """Record the findings of the file ``key`` whose bytes had the digest ``content``;
        ``stat``: its :func:`stat_key`, taken before those bytes were read."""
        findings = []
        for diag in diagnostics:
            item = diag.to_dict()
            del item["path"]
            findings.append(item)
        entry: Dict[str, Any] = {"h": content, "m": module, "p": parsed, "r": findings}
        if dependencies:
            entry["d"] = dependencies
        if stat is not None:
            entry["s"] = stat
        self.updates[key] = entry

    def save(self) -> None:
        """Merge this run's entries into the file on disk (re-read now: another run may have
        written since) and replace it atomically. Entries of files that no longer exist are
        dropped. Never raises for an unwritable cache: it is only a cache."""
        if not self.updates:
            return
        try:
            prepare_folder(self.folder)
            merged, table, lists = self._load()
            merged.update(self.updates)
            for key in [k for k in merged if k not in self.updates]:
                if not os.path.exists(self.root / key):  # absolute keys join to themselves
                    del merged[key]
            data = self._dumps(merged, table, lists)
            write_atomic(self.path, data.encode("utf-8"), durable=False)
        except OSError:
            return
        self.entries, self._table, self._lists = merged, table, lists
        self._held = {}
        self._held_lists = {}
        self.updates = {}


class Dependencies:
    """The digests that a cached file's findings depend on, besides its own content: the
    files the project context consulted for it (each file's content, or that it is missing),
    a file's content while it is one of the run's (:data:`MEMBER_KEY_PREFIX`), every file of the
    run (:data:`ALL_FILES_KEY`), the source roots (:data:`ROOTS_KEY`) and
    where module names resolve in them (:data:`MODULE_KEY_PREFIX`). ``digests`` (by file
    index) and ``index_of`` (absolute path -> index) are the run's own tables, filled as it
    reads the files; ``roots``: the source roots the project context searches for modules."""

    def __init__(
        self,
        files: Sequence[Path],
        digests: Dict[int, str],
        index_of: Dict[str, int],
        state_key: Callable[[], str],
        roots: Iterable[Path] = (),
    ) -> None:
        self.files = files
        self.digests = digests
        self.index_of = index_of
        self.state_key = state_key
        self._run: Optional[str] = None
        self._roots: Optional[str] = None
        self._others: Dict[str, Optional[str]] = {}
        self._listings = Listings()
        self._modules = ModuleFiles(roots, self._listings)  # one listing per folder for both

    def run_digest(self) -> str:
        if self._run is None:
            items = sorted((os.path.abspath(p), self.digests.get(i, "")) for i, p in enumerate(self.files))
            self._run = digest(repr(items).encode("utf-8"))
        return self._run

    def digest_of(self, dependency: str) -> Optional[str]:
        if dependency == ALL_FILES_KEY:
            return self.run_digest()
        if dependency == ROOTS_KEY:
            if self._roots is None:
                self._roots = digest(self.state_key().encode("utf-8"))
            return self._roots
        if dependency.startswith(MEMBER_KEY_PREFIX):
            index = self.index_of.get(dependency[len(MEMBER_KEY_PREFIX) :])
            return self.digests.get(index) if index is not None else None
        index = self.index_of.get(dependency)
        if index is not None and index in self.digests:
            return self.digests[index]
        if dependency not in self._others and dependency.startswith(MODULE_KEY_PREFIX):
            self._others[dependency] = self._modules.find(dependency[len(MODULE_KEY_PREFIX) :])
        if dependency not in self._others:
            if self._listings.is_file(dependency) is False:  # most are candidates never there
                self._others[dependency] = None
                return None
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
