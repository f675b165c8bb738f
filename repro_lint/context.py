"""Project context: what rules may ask about the whole linted project.

Built once per run, before the per-file rule pass, and shared with every worker:
- which modules are **entry points** (an ``if __name__ == "__main__":`` block, training
  run at module level, or a path matching the ``entry-points`` globs);
- each file's **module name** (from the package layout), to resolve project imports;
- **module facts** for the files that matter (entry points and the project modules they reach),
  extracted with Python's ``ast`` (fast, and only for those files): the imports, the functions
  each module defines and the calls each makes. The seeding rules ask, through
  :meth:`ProjectContext.effects`, which generators a call seeds, across files.

Nothing here imports or runs user code.

The results cache keys a file's findings on every file the context consulted while the file
was linted: each method that reads a file, or looks for one, calls :meth:`ProjectContext.consult`
with its path (new methods must do the same, or the cache could serve stale findings).
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import pathspec

from .config import Settings

#: calls that, made at module level, mean the module itself trains (a script without a guard)
TRAINING_METHODS = frozenset({"backward", "step", "fit", "train_step", "zero_grad"})
ENTRY_WORDS = ("__main__",) + tuple(TRAINING_METHODS)
DETERMINISM_TEXT = re.compile(
    r"use_deterministic_algorithms\(\s*(?:mode\s*=\s*)?True|cudnn\.deterministic\s*=\s*True|deterministic\s*=\s*True"
)


#: recorded in ``ProjectContext.consulted`` by answers that depend on every file of the run
ALL_FILES = "*"


def module_name_for(path: Path) -> Tuple[str, bool]:
    """(dotted module name, is_package) from the package layout around ``path``."""
    path = Path(os.path.abspath(path))
    is_package = path.name == "__init__.py"
    parts = [] if is_package else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.append(folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return ".".join(reversed(parts)), is_package


def source_root_for(path: Path) -> Path:
    """The folder a module's dotted name starts from."""
    path = Path(os.path.abspath(path))
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
    return folder


@dataclass
class FunctionFacts:
    name: str
    #: callee names in source order, qualified through the module's imports where possible
    calls: List[str] = field(default_factory=list)


@dataclass
class ModuleFacts:
    """What one module imports, defines and calls at top level (serialisable)."""

    path: str
    module_name: str
    aliases: Dict[str, str] = field(default_factory=dict)
    functions: Dict[str, FunctionFacts] = field(default_factory=dict)
    top_level_calls: List[str] = field(default_factory=list)
    has_main_guard: bool = False
    trains_at_module_level: bool = False


def _dotted(node: ast.AST) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    operands = [test.left, *test.comparators]
    names = {o.id for o in operands if isinstance(o, ast.Name)}
    strings = {o.value for o in operands if isinstance(o, ast.Constant)}
    return "__name__" in names and "__main__" in strings


class _FactsCollector(ast.NodeVisitor):
    def __init__(self, facts: ModuleFacts, is_package: bool) -> None:
        self.facts = facts
        self.is_package = is_package
        self.scope: List[str] = []
        self.current: Optional[FunctionFacts] = None

    def qualify(self, name: str) -> str:
        head, _, rest = name.partition(".")
        target = self.facts.aliases.get(head)
        if target is None:
            return name
        return f"{target}.{rest}" if rest else target

    def _relative_base(self, level: int, module: Optional[str]) -> Optional[str]:
        if level == 0:
            return module
        parts = self.facts.module_name.split(".") if self.facts.module_name else []
        if not self.is_package:
            parts = parts[:-1]
        if level - 1 > len(parts):
            return None
        parts = parts[: len(parts) - (level - 1)]
        if module:
            parts.append(module)
        return ".".join(parts) or None

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.facts.aliases[alias.asname] = alias.name
            else:
                head = alias.name.split(".")[0]
                self.facts.aliases[head] = head

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._relative_base(node.level or 0, node.module)
        if base is None:
            return
        for alias in node.names:
            if alias.name != "*":
                self.facts.aliases[alias.asname or alias.name] = f"{base}.{alias.name}"

    def _function(self, node: ast.AST) -> None:
        name = ".".join(self.scope + [node.name])  # type: ignore[attr-defined]
        outer = self.current
        self.current = self.facts.functions.setdefault(name, FunctionFacts(name))
        self.scope.append(node.name)  # type: ignore[attr-defined]
        self.generic_visit(node)
        self.scope.pop()
        self.current = outer

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func)
        if name is not None:
            qualified = self.qualify(name)
            if self.current is not None:
                self.current.calls.append(qualified)
            else:
                self.facts.top_level_calls.append(qualified)
                if name.rsplit(".", 1)[-1] in TRAINING_METHODS and "." in name:
                    self.facts.trains_at_module_level = True
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        if not self.scope and _is_main_guard(node):
            self.facts.has_main_guard = True
        self.generic_visit(node)


def extract_facts(path: Path, source: str) -> Optional[ModuleFacts]:
    """Facts of one module, or None if it does not parse (RPL001 reports that elsewhere)."""
    name, is_package = module_name_for(path)
    try:
        tree = ast.parse(source, filename=str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    facts = ModuleFacts(str(path), name)
    _FactsCollector(facts, is_package).visit(tree)
    return facts


def read_text(path: Path) -> Optional[str]:
    from .source import SourceError, read_source

    try:
        return read_source(path).text
    except SourceError:
        return None


class ProjectContext:
    """Entry points and module facts for one run. Cheap to build; facts are computed on demand
    and can be computed eagerly in the parent process (:meth:`prepare`) to share with workers."""

    def __init__(self, settings: Settings, files: Iterable[Path] = ()) -> None:
        self.settings = settings
        self.files = [Path(f) for f in files]
        self._entry_globs = (
            pathspec.GitIgnoreSpec.from_lines(settings.entry_points) if settings.entry_points else None
        )
        self._facts: Dict[str, Optional[ModuleFacts]] = {}
        self._entry: Dict[str, bool] = {}
        self._enables_determinism: Optional[bool] = None
        self._roots: Set[Path] = {settings.root}
        for f in self.files:
            self._roots.add(source_root_for(f))
        #: when a set, the absolute paths of the files consulted (read, or looked for) are added
        self.consulted: Optional[Set[str]] = None

    def consult(self, path: "str | Path") -> None:
        """Record that an answer depends on the file at ``path`` (its content, or that it is
        missing). An answer that depends on every file of the run records :data:`ALL_FILES`."""
        if self.consulted is not None:
            self.consulted.add(os.path.abspath(path))

    def state_key(self) -> str:
        """What answers depend on besides file contents and settings: the source roots searched."""
        return "|".join(sorted(str(root) for root in self._roots))

    # -- entry points ----------------------------------------------------------------------
    def matches_entry_glob(self, path: Path) -> bool:
        if self._entry_globs is None:
            return False
        try:
            rel = Path(os.path.abspath(path)).relative_to(self.settings.root).as_posix()
        except ValueError:
            rel = Path(path).as_posix()
        return self._entry_globs.match_file(rel)

    def is_entry_point(self, path: "str | Path", source: Optional[str] = None) -> bool:
        key = os.path.abspath(path)
        self.consult(key)
        cached = self._entry.get(key)
        if cached is None:
            cached = self._compute_entry(Path(key), source)
            self._entry[key] = cached
        return cached

    def _compute_entry(self, path: Path, source: Optional[str]) -> bool:
        if self.matches_entry_glob(path):
            return True
        if source is None:
            source = read_text(path)
        # only a file that mentions __main__ or a training call can be an entry point: a text
        # check spares parsing every library module
        if source is None or not any(word in source for word in ENTRY_WORDS):
            return False
        facts = self.facts(path, source)
        return bool(facts and (facts.has_main_guard or facts.trains_at_module_level))

    # -- module facts ----------------------------------------------------------------------
    def facts(self, path: "str | Path", source: Optional[str] = None) -> Optional[ModuleFacts]:
        key = os.path.abspath(path)
        self.consult(key)
        if key not in self._facts:
            text = source if source is not None else read_text(Path(key))
            self._facts[key] = extract_facts(Path(key), text) if text is not None else None
        return self._facts[key]

    def resolve_module(self, dotted: str) -> Optional[Path]:
        """The project file defining module ``dotted`` (searched in the project's source roots)."""
        rel = Path(*dotted.split("."))
        for root in sorted(self._roots):
            for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
                self.consult(candidate)
                if candidate.is_file():
                    return candidate
        return None

    def resolve_function(self, qualified: str) -> Optional[Tuple[ModuleFacts, FunctionFacts]]:
        """``pkg.mod.func`` (or ``pkg.mod.Class.method``) defined in the project, with its facts."""
        parts = qualified.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            path = self.resolve_module(".".join(parts[:cut]))
            if path is None:
                continue
            facts = self.facts(path)
            if facts is None:
                return None
            func = facts.functions.get(".".join(parts[cut:]))
            if func is not None:
                return facts, func
            # a re-export: ``from .seed import set_seed`` in a package __init__
            target = facts.aliases.get(parts[cut])
            if target and target != qualified:
                rest = ".".join(parts[cut + 1 :])
                return self.resolve_function(f"{target}.{rest}" if rest else target)
            return None
        return None

    def enables_determinism(self) -> bool:
        """Does the linted project turn deterministic algorithms on anywhere?

        Rules that report individual nondeterministic ops stay quiet when it does.
        First version: a text check over the run's files for the usual spellings.
        """
        if self.consulted is not None:
            self.consulted.add(ALL_FILES)
        if self._enables_determinism is None:
            self._enables_determinism = any(
                DETERMINISM_TEXT.search(text or "") for text in map(read_text, self.files)
            )
        return self._enables_determinism

    def prepare(self, paths: Iterable[Path]) -> None:
        """Compute entry-point flags (and so the facts) for ``paths`` now, e.g. before forking."""
        for path in paths:
            self.is_entry_point(path)

    def entry_points(self) -> FrozenSet[str]:
        return frozenset(p for p, is_entry in self._entry.items() if is_entry)
