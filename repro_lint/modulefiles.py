"""Where a dotted module name lives among the project's source roots, answered from one
directory listing per folder (a project survey looks up thousands of names, most of them
third-party modules that are in none of the roots, in dozens of roots). The results cache
asks the same listings whether the files its entries found missing are still missing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Tuple

Listing = Tuple[FrozenSet[str], FrozenSet[str]]
_EMPTY: Listing = (frozenset(), frozenset())


def _split(path: str) -> Tuple[str, str]:
    """``os.path.split`` of an absolute, normalised path, cheaper (the cache asks it of tens
    of thousands of paths on a warm run)."""
    head, _, tail = path.rpartition(os.sep)
    return head or os.sep, tail


class Listings:
    """One ``os.scandir`` per folder, memoised: (files, folders) of a folder, links counting as
    what they point to. A folder whose parent's listing does not hold it is never listed."""

    def __init__(self) -> None:
        self._listings: Dict[str, Optional[Listing]] = {}
        self._folders: Dict[str, Optional[bool]] = {}

    def listing(self, folder: str) -> Listing:
        """(files, folders) in ``folder``; nothing when it cannot be listed."""
        return self._list(folder) or _EMPTY

    def _list(self, folder: str) -> Optional[Listing]:
        """(files, folders) in ``folder``; None when it exists but cannot be listed."""
        if folder in self._listings:
            return self._listings[folder]
        found: Optional[Listing] = None
        try:
            files, folders = [], []
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_file():
                        files.append(entry.name)
                    elif entry.is_dir():
                        folders.append(entry.name)
            found = (frozenset(files), frozenset(folders))
        except (FileNotFoundError, NotADirectoryError):
            found = _EMPTY
        except OSError:
            found = None
        self._listings[folder] = found
        return found

    def is_file(self, path: str) -> Optional[bool]:
        """Is the absolute, normalised ``path`` a file (or a link to one)? None when a folder on
        the way cannot be listed (then only opening it tells)."""
        folder, name = _split(path)
        there = self._is_folder(folder)
        if there is not True:
            return there
        found = self._list(folder)
        return None if found is None else name in found[0]

    def _is_folder(self, folder: str) -> Optional[bool]:
        """Is ``folder`` a folder (None: cannot tell)? Asked of its parent's listing."""
        known = self._folders.get(folder, ...)
        if known is not ...:
            return known
        parent, name = _split(folder)
        if parent == folder:  # the file system's root
            answer: Optional[bool] = True
        else:
            answer = self._is_folder(parent)
            if answer is True:
                found = self._list(parent)
                answer = None if found is None else name in found[1]
        self._folders[folder] = answer
        return answer


class ModuleFiles:
    """``look_up(dotted)``: the file defining ``dotted`` in the first root that has it
    (``root/a/b.py``, then ``root/a/b/__init__.py``, roots in sorted order, those where ``a``
    is a regular package before those where it is a folder without ``__init__.py``), and every
    candidate looked at on the way, as absolute paths. The same answer as checking each
    candidate with ``Path.is_file``, from one ``os.scandir`` per folder actually reached
    (``root/torch/nn`` is never listed when ``root`` holds no ``torch``). Plain data: it
    pickles with the project context."""

    def __init__(self, roots: Iterable[Path], listings: Optional[Listings] = None) -> None:
        self.roots: List[str] = [os.path.abspath(root) for root in sorted(roots)]
        self._prefixes = [os.path.join(root, "") for root in self.roots]
        self._folders = listings if listings is not None else Listings()
        self._head_names: Optional[FrozenSet[str]] = None
        self._holder_prefixes: Dict[str, Tuple[str, ...]] = {}
        self._ambiguous: Optional[FrozenSet[str]] = None
        self._prefix_set: Optional[FrozenSet[str]] = None
        self._around: Dict[str, Tuple[str, ...]] = {}
        self._folder_of: Dict[str, str] = {}  # importer -> its folder (asked once per name it imports)

    def _is_file(self, prefix: str, folders: List[str], name: str) -> bool:
        """Is ``prefix + folders... / name`` a file? (``prefix`` ends with a separator.)"""
        folder = prefix
        for part in folders:
            if part not in self._folders.listing(folder)[1]:
                return False
            folder = folder + part + os.sep
        return name in self._folders.listing(folder)[0]

    def heads(self) -> FrozenSet[str]:
        """The top-level names any root holds (no other dotted name can be the project's)."""
        return self._heads()

    def _heads(self) -> FrozenSet[str]:
        """The top-level names any root holds: its folders, and its ``.py`` files' stems."""
        if self._head_names is None:
            names = set()
            for prefix in self._prefixes:
                files, folders = self._folders.listing(prefix)
                names |= folders
                names.update(name[:-3] for name in files if name.endswith(".py"))
            self._head_names = frozenset(names)
        return self._head_names

    def find(self, dotted: str, importer: Optional[str] = None) -> Optional[str]:
        """``look_up(dotted)[0]``, without listing the candidates: a name whose first part no
        root holds (``torch``, ``numpy`` in a project's tree) is answered by one set look-up,
        and the others are looked for only in the roots that hold their first part (a tree of
        many projects has dozens of roots; a warm run of the project corpus checks 1,327 names
        again). ``importer``: see :meth:`preferred`."""
        head = dotted.partition(".")[0]
        if "" in dotted.split("."):
            return self.look_up(dotted, self.preferred(head, importer))[0]
        if head not in self._heads():
            return None
        # (a root without ``head`` has neither candidate, and the others keep their order)
        return self.look_up(dotted, self.preferred(head, importer), self._holding(head))[0]

    def preferred(self, head: str, importer: Optional[str]) -> Tuple[str, ...]:
        """The roots searched first for a module whose first part is ``head``, imported from the
        file ``importer``: when several roots hold ``head`` (two projects linted in one tree,
        each with its own ``utils``), those that hold the importer, the deepest first, as the
        importer's own folders come first on its ``sys.path``. Empty when it is not ambiguous."""
        if importer is None or not head or len(self._holding(head)) < 2:
            return ()
        folder = self._folder_of.get(importer)
        if folder is None:
            folder = self._folder_of[importer] = os.path.dirname(os.path.abspath(importer))
        return self._roots_around(folder)

    def roots_above(self, folder: str) -> Tuple[str, ...]:
        """The roots (as paths) that hold the absolute ``folder`` deeper than itself, the
        deepest first: found by walking up from it, not by comparing every root."""
        own = os.path.join(folder, "")
        return tuple(os.path.dirname(prefix) for prefix in self._roots_around(folder) if prefix != own)

    def _roots_around(self, folder: str) -> Tuple[str, ...]:
        """The roots (as prefixes) that are the absolute ``folder`` or hold it, the deepest first."""
        found = self._around.get(folder)
        if found is None:
            # the roots holding the importer are the folders above it that are roots: walked up
            # once per folder, not compared with every root for every name (a tree of four
            # copies of the project corpus has 132 roots and asks this for most names)
            prefixes = self._prefix_set
            if prefixes is None:
                prefixes = self._prefix_set = frozenset(self._prefixes)
            above, up = [], folder
            while True:
                prefix = os.path.join(up, "")
                if prefix in prefixes:
                    above.append(prefix)
                parent = os.path.dirname(up)
                if parent == up:
                    break
                up = parent
            found = self._around[folder] = tuple(above)  # the deepest first
        return found

    def _holding(self, head: str) -> Tuple[str, ...]:
        """The roots (as prefixes, in order) that hold a top-level module or folder named
        ``head`` (none for most names: those no root holds are answered by one set look-up)."""
        if head not in self._heads():
            return ()
        found = self._holder_prefixes.get(head)
        if found is None:
            module = head + ".py"
            found = tuple(p for p in self._prefixes if head in self._folders.listing(p)[1] or module in self._folders.listing(p)[0])
            self._holder_prefixes[head] = found
        return found

    def ambiguous(self) -> FrozenSet[str]:
        """The top-level names several roots hold (where the importer decides), computed once."""
        if self._ambiguous is None:
            seen: Dict[str, int] = {}
            for prefix in self._prefixes:
                files, folders = self._folders.listing(prefix)
                for name in {*folders, *(f[:-3] for f in files if f.endswith(".py"))}:
                    seen[name] = seen.get(name, 0) + 1
            self._ambiguous = frozenset(name for name, count in seen.items() if count > 1)
        return self._ambiguous

    def look_up(
        self, dotted: str, prefer: Tuple[str, ...] = (), within: Optional[Tuple[str, ...]] = None
    ) -> Tuple[Optional[str], Tuple[str, ...]]:
        """See the class; ``within``: only those roots (prefixes, in order), as :meth:`find`
        asks."""
        if not dotted:
            return None, ()
        parts = dotted.split(".")
        if "" in parts:  # not a module name; as pathlib would read it
            return _look_up_paths(self.roots, dotted)
        rel = os.sep.join(parts)
        module, package = rel + ".py", rel + os.sep + "__init__.py"
        looked: List[str] = []
        # as Python's import does, a root whose folders on the way are regular packages (with an
        # ``__init__.py``) comes before an earlier root where they are folders without one
        # (``repo/mypkg/mypkg.py`` under the root ``repo/``, not ``mypkg/`` as a namespace
        # portion under the root above it)
        prefixes = self._prefixes if within is None else within
        regular = [prefix for prefix in prefixes if self._regular(prefix, parts[:-1])]
        others = [prefix for prefix in prefixes if prefix not in regular] if len(regular) < len(prefixes) else []
        order = regular + others
        if prefer:
            order = [p for p in prefer if p in order] + [p for p in order if p not in prefer]
        for prefix in order:
            looked.append(prefix + module)
            if self._is_file(prefix, parts[:-1], parts[-1] + ".py"):
                return looked[-1], tuple(looked)
            looked.append(prefix + package)
            if self._is_file(prefix, parts, "__init__.py"):
                return looked[-1], tuple(looked)
        return None, tuple(looked)

    def beside(self, dotted: str, importer: str) -> Tuple[Optional[str], Tuple[str, ...]]:
        """``look_up(dotted)`` in the folder of the file ``importer`` when that folder is not a
        root (a script inside a package, ``pkg/sub/train.py`` doing ``from dev import f``:
        ``python pkg/sub/train.py`` puts ``pkg/sub`` first on ``sys.path``), else nothing."""
        folder = os.path.join(os.path.dirname(os.path.abspath(importer)), "")
        parts = dotted.split(".")
        if folder in self._prefixes or "" in parts or parts[0] not in self._names_in(folder):
            return None, ()
        rel = os.sep.join(parts)
        looked = (folder + rel + ".py", folder + rel + os.sep + "__init__.py")
        if self._is_file(folder, parts[:-1], parts[-1] + ".py"):
            return looked[0], looked[:1]
        if self._is_file(folder, parts, "__init__.py"):
            return looked[1], looked
        return None, looked

    def _names_in(self, folder: str) -> FrozenSet[str]:
        files, folders = self._folders.listing(folder)
        return folders | frozenset(name[:-3] for name in files if name.endswith(".py"))

    def _regular(self, prefix: str, folders: List[str]) -> bool:
        """Is each of ``prefix + folders[0]``, ``... / folders[1]``, ... a regular package?"""
        return all(self._is_file(prefix, folders[: index + 1], "__init__.py") for index in range(len(folders)))


def _look_up_paths(roots: List[str], dotted: str) -> Tuple[Optional[str], Tuple[str, ...]]:
    """:meth:`ModuleFiles.look_up` for names with empty parts (``a..b``), with pathlib."""
    looked: List[str] = []
    rel = Path(*dotted.split("."))
    for root in roots:
        try:
            candidates = (Path(root) / rel.with_suffix(".py"), Path(root) / rel / "__init__.py")
        except ValueError:  # no name to put a suffix on
            candidates = (Path(root) / rel / "__init__.py",)
        for candidate in candidates:
            looked.append(os.path.abspath(candidate))
            if candidate.is_file():
                return os.path.abspath(candidate), tuple(looked)
    return None, tuple(looked)
