"""Which loaders a Lightning Trainer runs, and so whose workers Lightning seeds (shared by the
RPL3xx rules).

:func:`seeded_by_library` says whether a library seeds the loader's workers: Lightning's
``seed_everything(..., workers=True)`` on an entry point's path makes its Trainer install
``pl_worker_init_function`` on loaders without a ``worker_init_fn`` (reference section 4),
for the loaders the Trainer runs: those built in a ``*_dataloader`` hook, or passed to
``trainer.fit``/``validate``/``test``/``predict`` (directly, or through a combined loader), or
returned by a module-level factory whose every call hands them there; and Fabric's, for the
loaders passed to ``fabric.setup_dataloaders``.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Sequence, Set, Tuple

from .._lazy import cst
from ..catalog import LIGHTNING_LOADER_CALLS, LIGHTNING_LOADER_HOOKS
from ..children import syntax_children
from ..syntax import names_feeding
from .base import Analysis, Rule


def seeded_by_library(rule: Rule, node: cst.Call) -> bool:
    """Lightning seeds this loader's workers: the entry points that run this module call
    ``seed_everything(..., workers=True)`` (:meth:`~repro_lint.context.ProjectContext.seeds_workers`)
    and the loader is one its Trainer runs."""
    return _run_by_trainer(rule, node) and rule.file.project.seeds_workers(rule.file.path)


def _called_only_from_hooks(ancestors: Sequence[cst.CSTNode], function: cst.FunctionDef) -> bool:
    """Is ``function`` a method of the class around it that the class calls on ``self`` only
    from its loader hooks (torchmd-net's ``train_dataloader`` returning
    ``self._get_dataloader(...)``), or from private methods that only those hooks call in turn
    (``train_dataloader`` -> ``self._build`` -> ``self._build_one``), and at least once? Then the
    Trainer runs it too."""
    index = next((i for i, n in enumerate(ancestors) if n is function), None)
    cls = ancestors[index - 2] if index is not None and index >= 2 else None
    if not isinstance(cls, cst.ClassDef) or not function.name.value.startswith("_"):
        return False  # a private helper: other code does not call it
    callers: Dict[str, List[str]] = {}  # method -> the methods of the class that call it on self
    for method in cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ():
        if not isinstance(method, cst.FunctionDef):
            continue
        stack: List[cst.CSTNode] = [method.body]
        while stack:
            node = stack.pop()
            func = node.func if isinstance(node, cst.Call) else None
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
                callers.setdefault(func.attr.value, []).append(method.name.value)
            stack.extend(syntax_children(node))

    def only_hooks(name: str, seen: FrozenSet[str]) -> bool:
        found = callers.get(name, [])
        hook = LIGHTNING_LOADER_HOOKS
        return bool(found) and all(c in hook or (c.startswith("_") and c not in seen and only_hooks(c, seen | {c})) for c in found)

    return only_hooks(function.name.value, frozenset({function.name.value}))


def _module_level(ancestors: Sequence[cst.CSTNode], function: cst.FunctionDef) -> bool:
    index = next((i for i, n in enumerate(ancestors) if n is function), None)
    return index is not None and index >= 1 and isinstance(ancestors[index - 1], cst.Module)


def in_loader_hook(rule: Rule) -> bool:
    """Is the node being visited in a Lightning loader hook (``train_dataloader``, ...), or in
    a private method that only such hooks of its class call? The Trainer runs what it builds."""
    ancestors = rule.file.ancestors
    function = next((n for n in reversed(ancestors) if isinstance(n, cst.FunctionDef)), None)
    return function is not None and (function.name.value in LIGHTNING_LOADER_HOOKS or _called_only_from_hooks(ancestors, function))


def built_for_loader_hooks(rule: Rule) -> bool:
    """Is the node being visited built for a Lightning loader hook: in one (:func:`in_loader_hook`),
    or stored by another method of its class on an attribute that a loader hook of the class
    reads (ViLT's ``setup``: ``self.train_sampler = DistributedSampler(...)``, then
    ``train_dataloader``: ``DataLoader(..., sampler=self.train_sampler)``)?"""
    if in_loader_hook(rule):
        return True
    ancestors = rule.file.ancestors
    parent = ancestors[-1] if ancestors else None
    if not isinstance(parent, cst.Assign):
        return False
    stored = {
        t.target.attr.value for t in parent.targets
        if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) and t.target.value.value == "self"
    }
    function = next((n for n in reversed(ancestors) if isinstance(n, cst.FunctionDef)), None)
    index = next((i for i, n in enumerate(ancestors) if n is function), None)
    cls = ancestors[index - 2] if index is not None and index >= 2 else None
    if not stored or not isinstance(cls, cst.ClassDef) or not isinstance(cls.body, cst.IndentedBlock):
        return False
    hooks = [m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value in LIGHTNING_LOADER_HOOKS]
    stack: List[cst.CSTNode] = [hook.body for hook in hooks]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self" and node.attr.value in stored:
            return True
        stack.extend(syntax_children(node))
    return False


def _run_by_trainer(rule: Rule, node: cst.Call) -> bool:
    if in_loader_hook(rule):
        return True
    ancestors = rule.file.ancestors
    function = next((n for n in reversed(ancestors) if isinstance(n, cst.FunctionDef)), None)
    parent = ancestors[-1] if ancestors else None
    if isinstance(parent, cst.Return) and function is not None and _module_level(ancestors, function):
        # a factory whose every caller hands what it returns to the Trainer
        return rule.file.project.results_handed_to_trainer(rule.file.path, function.name.value)
    outer = ancestors[-2] if len(ancestors) >= 2 else None
    if isinstance(parent, cst.Arg) and isinstance(outer, cst.Call) and isinstance(outer.func, cst.Attribute) and outer.func.attr.value in LIGHTNING_LOADER_CALLS:
        return True  # built right in the call that hands it over: ``fabric.setup_dataloaders(DataLoader(...))``
    if not isinstance(parent, cst.Assign):
        return False
    names = {t.target.value for t in parent.targets if isinstance(t.target, cst.Name)}
    if names and function is not None and _module_level(ancestors, function) and not names.isdisjoint(_returned_names(function)):
        # ``loader = DataLoader(...)`` then ``return loader`` (or ``return train, val``): the
        # factory's callers decide, as for ``return DataLoader(...)``
        return rule.file.project.results_handed_to_trainer(rule.file.path, function.name.value)
    return bool(names & rule.file.analysis(TrainerLoaders).names)


def _returned_names(function: cst.FunctionDef) -> Set[str]:
    """The names the function's own ``return`` statements return, alone or in a tuple or list
    (``return loader``, ``return train_dl, val_dl``)."""
    found: Set[str] = set()
    stack: List[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(node, cst.Return) and node.value is not None:
            value = node.value
            parts = [e.value for e in value.elements] if isinstance(value, (cst.Tuple, cst.List)) else [value]
            found.update(p.value for p in parts if isinstance(p, cst.Name))
            continue
        stack.extend(syntax_children(node))
    return found


class TrainerLoaders(Analysis):
    """The names the file hands to a Trainer's ``fit``/``validate``/``test``/``predict``,
    directly or through the calls and containers that built them (``CombinedLoader({...})``)."""

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        passed: Set[str] = set()
        built: List[Tuple[Set[str], Set[str]]] = []  # (targets, names in the value)
        stack: List[cst.CSTNode] = [file.module]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in LIGHTNING_LOADER_CALLS:
                for arg in node.args:
                    passed |= _names(arg.value)
            elif isinstance(node, cst.Assign):
                targets = {t.target.value for t in node.targets if isinstance(t.target, cst.Name)}
                if targets:
                    built.append((targets, _names(node.value)))
            stack.extend(syntax_children(node))
        self.names = frozenset(names_feeding(passed, built))


def _names(node: cst.CSTNode) -> Set[str]:
    found: Set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            found.add(current.value)
        elif isinstance(current, (cst.Lambda, cst.FunctionDef)):
            continue
        stack.extend(syntax_children(current))
    return found
