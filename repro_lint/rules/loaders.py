"""Which calls build a DataLoader, and what the loader is given (shared by the RPL3xx rules).

A DataLoader goes by many names: ``torch.utils.data.DataLoader``, the library subclasses that
hand their keywords on to it (``catalog.DATALOADERS``: torchdata's ``StatefulDataLoader``,
PyG's ``DataLoader``/``NeighborLoader``/``ClusterLoader`` and the samplers that are loaders,
DGL's ``GraphDataLoader`` and node/edge ``DataLoader``),
``functools.partial(DataLoader, ...)``, and, in the file itself, ``class X(DataLoader)`` or
``Loader = partial(DataLoader, num_workers=4)`` at module level. :func:`loader_call` answers
for one call with a :class:`LoaderCall`: the arguments the loader gets (a partial's first),
the positions of its parameters, and what a subclass's own ``__init__`` decides itself.

Which loaders a Lightning Trainer runs, whose workers it seeds, is
:mod:`repro_lint.rules.trainer_loaders`.

It is one module because the RPL3xx rules share one reading of a loader call (which calls build
one, what they are given, through which factories, and whether it is built again and again):
split, each rule would come to keep a copy of a part of it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .._lazy import cst
from ..catalog import DATALOADERS, FACTORY_WORD, PARTIALS, loader_position
from ..values import Chain, Const, Values, all_consts, shadowed
from .base import Analysis, Rule, ValueScan, loader_factory_switches, mentions, value_of
from ..children import syntax_children
from ..syntax import MISSING, assigned_targets
from ..source import without_prose
from ..classify import is_known

if TYPE_CHECKING:  # pragma: no cover
    from ..context import ProjectContext
    from ..facts import ModuleFacts

#: a statement that binds a name to a (dotted) name, or to a choice of names: ``fn = DataLoader``,
#: ``fn: type = loaders.Fast``, ``fn = A if fast else B``; the only shapes a loader is called
#: through by a local name
_ASSIGNED = re.compile(
    r"(?:^|;)[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*[A-Za-z_][\w.]*[ \t]*(?=$|#|;|if\b)", re.MULTILINE
)
#: a name bound to a partial (``get_loader = partial(DataLoader, batch_size=8)``, in a function too)
_PARTIAL_BOUND = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(?:functools\.)?partial\(", re.MULTILINE)
#: a parameter whose default is a class (``def loader(dataset, klass=DataLoader)``)
_CLASS_DEFAULT = re.compile(r"[(,][ \t\n]*([A-Za-z_]\w*)[ \t]*(?::[^=,)\n]*)?=[ \t]*(?:[a-z_]\w*\.)*[A-Z]\w*[ \t]*(?=[,)])")


#: the prefilter's words for a call of a loader factory (any part of a word)
FACTORY_TRIGGERS = (FACTORY_WORD, FACTORY_WORD.title())
#: the words a file that builds a loader contains (the rules' prefilter)
LOADER_NAMES = tuple(sorted({name.rsplit(".", 1)[-1] for name in DATALOADERS}))


@dataclass(frozen=True)
class LoaderSpec:
    """A name that builds a DataLoader."""

    #: the library loader it is or derives from (``catalog.DATALOADERS``)
    qualified: str
    #: the parameters it takes by position
    params: Tuple[str, ...]
    #: keywords its own ``__init__`` passes to the loader itself (their value is not the caller's)
    fixed: FrozenSet[str] = frozenset()
    #: whether it forwards keywords it does not name (``**kwargs``)
    forwards: bool = True
    #: arguments bound in advance (``partial(DataLoader, num_workers=4)``)
    prefix: Tuple[cst.Arg, ...] = ()
    short: str = "DataLoader"
    #: a project subclass's own defaults for parameters it passes on (``num_workers=1``)
    defaults: Tuple[Tuple[str, object], ...] = ()


@dataclass(frozen=True)
class LoaderCall:
    """One call that builds a DataLoader."""

    spec: LoaderSpec
    args: Sequence[cst.Arg]

    @property
    def qualified(self) -> str:
        return self.spec.qualified

    @property
    def short(self) -> str:
        return self.spec.short

    def position(self, name: str) -> Optional[int]:
        return loader_position(self.spec.params, name)

    def default(self, name: str) -> object:
        """The project subclass's own default for parameter ``name`` (MISSING: none)."""
        return dict(self.spec.defaults).get(name, MISSING)

    def fixes(self, name: str) -> bool:
        """The loader's own ``__init__`` sets this parameter: what the caller passes is not it."""
        return name in self.spec.fixed

    def own(self, value: cst.CSTNode) -> bool:
        """``value`` is an argument of the call itself, not one a partial bound in advance
        (a finding about that one is the partial's)."""
        return not any(value is arg.value for arg in self.spec.prefix)

    def accepts(self, name: str) -> bool:
        """A keyword ``name=`` added to the call reaches the loader."""
        return self.spec.forwards or name in self.spec.params


class LocalLoaders(Analysis):
    """The loader names the file can call: the library loaders, the partials it defines at
    module level, and the DataLoader subclasses of the project's modules, this one included
    (from their facts: :meth:`~repro_lint.context.ProjectContext.loader_class`)."""

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.specs: Dict[str, LoaderSpec] = {}
        self._assigned: Optional[FrozenSet[str]] = None
        self._partials: Optional[FrozenSet[str]] = None
        #: the loader each call builds (by the call node's id; the tree outlives the analysis)
        self.calls: Dict[int, Optional[LoaderCall]] = {}
        #: project loader classes, by qualified name
        self._classes: Dict[str, Optional[LoaderSpec]] = {}
        for statement in file.module.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                        spec = self._partial(small.value)
                        if spec is not None:
                            self.specs[small.targets[0].target.value] = spec

    @property
    def partial_names(self) -> FrozenSet[str]:
        """The names the file's text binds to a ``partial(...)``, anywhere (one scan of the
        text, when first asked): the names a loader bound in a function may be called through."""
        if self._partials is None:
            self._partials = frozenset(_PARTIAL_BOUND.findall(self.file.source))
        return self._partials

    @property
    def assigned_names(self) -> FrozenSet[str]:
        """The names the file's text binds to another name (:data:`_ASSIGNED`), or takes as a
        parameter whose default is a class (:data:`_CLASS_DEFAULT`): the only names a loader may
        be called through (one scan of the text, when first asked)."""
        if self._assigned is None:
            self._assigned = frozenset(_ASSIGNED.findall(self.file.source)) | frozenset(_CLASS_DEFAULT.findall(self.file.source))
        return self._assigned

    def spec_of(self, func: cst.BaseExpression) -> Optional[LoaderSpec]:
        qualified = self.file.qualify(func)
        if qualified in DATALOADERS:
            return LoaderSpec(qualified, DATALOADERS[qualified], short=qualified.rsplit(".", 1)[-1])
        if qualified is None and isinstance(func, cst.Name):
            if func.value in self.specs:
                return self.specs[func.value]
            facts = self.file.project.facts(self.file.path, self.file.source)
            if facts is None or func.value not in facts.loaders:
                return None
            qualified = f"{facts.module_name}.{func.value}"
        if qualified is None:
            return None
        if qualified not in self._classes:
            found = self.file.project.loader_class(qualified)
            self._classes[qualified] = (
                None if found is None else LoaderSpec(found[0], found[1], found[2], found[3], (), qualified.rsplit(".", 1)[-1], found[4])
            )
        return self._classes[qualified]

    def _partial(self, value: cst.BaseExpression) -> Optional[LoaderSpec]:
        if not (isinstance(value, cst.Call) and self.file.qualify(value.func) in PARTIALS and value.args):
            return None
        first = value.args[0]
        if first.keyword is not None or first.star:
            return None
        base = self.spec_of(first.value)
        if base is None:
            return None
        return LoaderSpec(base.qualified, base.params, base.fixed, base.forwards, base.prefix + tuple(value.args[1:]), base.short, base.defaults)


def may_build_loader(facts: "ModuleFacts", words: FrozenSet[str], project: "ProjectContext", text: str) -> bool:
    """Can a call of the module whose facts are ``facts`` (of ``text``) build a loader or a
    sampler as :func:`loader_call`, the rules' factory checks (:func:`factory_loaders`) and
    RPL302's samplers read calls, ``words`` being the rule's trigger words? A callee or an
    import named with one of them (``DataLoader``, ``RandomSampler``; a factory's ``loader`` in
    any case), a class of the module that may derive from a loader, a star import, a library
    loader or sampler named as a value (``partial(DataLoader, ...)``, ``loader_fn =
    DataLoader``), or a project loader class imported, called or named through its module
    (:meth:`ProjectContext.loader_class`).
    False: ``loader`` only in the names of variables (``train_loader``), and no call can be one."""
    if any(word in facts.called for word in words) or FACTORY_WORD in facts.called.lower():
        return True
    if facts.loaders or facts.star_imports:
        return True
    code = without_prose(text)
    if any(mentions(code, word, True) for word in words if word not in FACTORY_TRIGGERS):
        return True
    # (the same for RPL301 and RPL302, asked one after the other)
    return project.remembered_for_file(facts, ("names a project loader",), lambda: _names_project_loader(facts, project, code))


def _names_project_loader(facts: "ModuleFacts", project: "ProjectContext", code: str) -> bool:
    """Does the module whose facts are ``facts`` (its code ``code``) import, call or name
    through its module a project loader class (:meth:`ProjectContext.loader_class`)?"""
    bodies = (facts.module_body, facts.main_body, *facts.functions.values())
    names = {*facts.aliases.values(), *(name for body in bodies for name in body.imported)}
    # a project class named through its module, not called there (``partial(data.Feeder, ...)``)
    modules = {local: target for local, target in facts.aliases.items() if not is_known(target) and project.resolve_module(target) is not None}
    if modules:
        named = re.compile(r"\b(%s)((?:\.[A-Za-z_]\w*)+)" % "|".join(map(re.escape, modules)))
        names.update(modules[found.group(1)] + found.group(2) for found in named.finditer(code))
    return any(project.loader_class(name) is not None for name in names if not is_known(name))


def loader_call(rule: Rule, node: cst.Call) -> Optional[LoaderCall]:
    """The loader this call builds (a DataLoader by any of its names, or a
    ``functools.partial(DataLoader, ...)`` itself), or None. Decided once per call: every
    loader rule asks it of every call."""
    local = rule.file.analysis(LocalLoaders)
    key = id(node)
    if key not in local.calls:
        local.calls[key] = _loader_call(rule, local, node)
    return local.calls[key]


def _loader_call(rule: Rule, local: LocalLoaders, node: cst.Call) -> Optional[LoaderCall]:
    spec = local.spec_of(node.func)
    if spec is None and isinstance(node.func, cst.Name):
        spec = _aliased(rule, local, node.func) or _bound_partial(rule, local, node.func)
    if spec is not None:
        positional = [a for a in spec.prefix if a.keyword is None]
        keywords = [a for a in spec.prefix if a.keyword is not None]
        return LoaderCall(spec, [*positional, *node.args, *keywords])
    if rule.qualify(node.func) in PARTIALS and node.args and node.args[0].keyword is None and not node.args[0].star:
        base = local.spec_of(node.args[0].value)
        if base is not None:
            return LoaderCall(base, [*base.prefix, *node.args[1:]])
    return None


def _aliased(rule: Rule, local: LocalLoaders, func: cst.Name) -> Optional[LoaderSpec]:
    """A loader called through a local name (``loader_fn = DataLoader``; ``fn =
    MultiEpochsDataLoader if fast else DataLoader``): the first loader it may stand for on the
    default path (:meth:`~repro_lint.values.Values.names`)."""
    found = aliased_names(rule, func, lambda n: local.spec_of(n) is not None)
    return next((s for s in map(local.spec_of, found) if s is not None), None)


def _bound_partial(rule: Rule, local: LocalLoaders, func: cst.Name) -> Optional[LoaderSpec]:
    """A loader called through a name that a function binds to a partial of it
    (``get_loader = partial(DataLoader, batch_size=bs)``, then ``get_loader(ds, shuffle=True)``),
    as a module-level partial is: the partial's arguments come first."""
    if func.value not in local.partial_names:
        return None
    found = rule.file.analysis(ValueScan).values.of(func, rule.file.ancestors)
    specs = [local._partial(c) for c in found or () if isinstance(c, cst.Call)]
    return specs[0] if len(specs) == 1 else None


def aliased_names(rule: Rule, func: cst.BaseExpression, wanted: Callable[[cst.BaseExpression], bool]) -> List[cst.BaseExpression]:
    """The names a local name called here may stand for on the default path (``train_sampler =
    RandomSampler if args.local_rank == -1 else DistributedSampler``), when the file binds it
    to another name and one of the names it is ever bound to is ``wanted`` (what the caller
    looks for: the evaluator's answer is then worth its cost); empty otherwise."""
    local = rule.file.analysis(LocalLoaders)
    if not isinstance(func, cst.Name) or func.value not in local.assigned_names:
        return []  # the file never binds the name to another name
    values = rule.file.analysis(ValueScan).values
    if not any(map(wanted, values.may_name(func.value))):
        return []  # nothing it is ever bound to is what the caller looks for
    names = values.names(func, rule.file.ancestors)
    if not names or (len(names) == 1 and names[0] is func):
        return []
    return list(names)


def none_on_every_path(rule: Rule, node: cst.BaseExpression) -> bool:
    """Is ``node`` None on every path the values see (``generator=g`` where ``g = ... if seeded
    else None`` and every call of the module-level function leaves ``seeded`` off), other than a
    parameter of the enclosing function passed on (torch's own ``RandomSampler(dataset,
    generator=generator)``, whose callers are the library's users) or a value in a method?"""
    function = next((n for n in reversed(rule.file.ancestors) if isinstance(n, (cst.FunctionDef, cst.ClassDef))), None)
    if isinstance(function, cst.FunctionDef) and isinstance(node, cst.Name) and node.value in {p.name.value for p in function.params.params}:
        return False
    if isinstance(function, cst.ClassDef) or any(isinstance(n, cst.ClassDef) for n in rule.file.ancestors):
        return False  # a method: its calls on objects in other modules are not all seen (f5-tts's ``trainer.train(..., resumable_with_seed=666)``)
    found = value_of(rule, node)
    return bool(found) and all(isinstance(c, Const) and c.value is None for c in found)  # type: ignore[union-attr]


# -- loaders built in a project factory -----------------------------------------------------------


@dataclass(frozen=True)
class FactoryLoader:
    """A loader that a module-level function of another project module builds."""

    function: cst.FunctionDef
    call: LoaderCall
    #: the evaluator of the factory's module, and the loader call's enclosing nodes there
    values: Values
    chain: Chain
    #: the factory's parameters that every project call of it turns off as a loader switch
    #: (:func:`~repro_lint.rules.base.decided_switches`): off in the factory itself
    decided: FrozenSet[str] = frozenset()
    #: a method of a module-level class (``self._data_loader(ds, shuffle=True)``): its first
    #: parameter is the object
    method: bool = False


class Factories(Analysis):
    """The project functions this file calls that build a loader (read once per name)."""

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.found: Dict[str, List[FactoryLoader]] = {}

    def loaders(self, qualified: str) -> List[FactoryLoader]:
        if qualified not in self.found:
            self.found[qualified] = self._read(qualified)
        return self.found[qualified]

    def _read(self, qualified: str) -> List[FactoryLoader]:
        project = self.file.project
        resolved = project.resolve_function(qualified)
        if resolved is None:
            return []
        facts, body = resolved

        def project_loader(call: str) -> Optional[LoaderSpec]:
            """A DataLoader subclass of the project that ``call`` (as the facts name it) builds."""
            dotted = call if call in body.imported else f"{facts.module_name}.{call}" if call in facts.loaders else None
            found = project.loader_class(dotted) if dotted is not None else None
            return None if found is None else LoaderSpec(found[0], found[1], found[2], found[3], (), dotted.rsplit(".", 1)[-1], found[4])

        if body.name.count(".") > 1 or not any(call in DATALOADERS or project_loader(call) is not None for call in body.calls):
            return []  # a nested method, or a function that builds no loader itself (the cheap check)
        read = self.file.analysis(ValueScan).modules.read(facts)
        if read is None:
            return []
        module, table, values = read
        owner, _, name = body.name.rpartition(".")
        scope: Sequence[cst.CSTNode] = module.body
        if owner:  # a method of a module-level class
            cls = next((s for s in module.body if isinstance(s, cst.ClassDef) and s.name.value == owner), None)
            scope = cls.body.body if cls is not None and isinstance(cls.body, cst.IndentedBlock) else ()
        function = next((s for s in scope if isinstance(s, cst.FunctionDef) and s.name.value == name), None)
        if function is None:
            return []
        found = []
        evaluator = self.file.analysis(ValueScan).modules.evaluator(facts)
        decided = loader_factory_switches(table.qualify, function, lambda: project.caller_arguments(facts.path, body.name))
        stack: List[Tuple[cst.CSTNode, Chain]] = [(function, ())]
        while stack:
            node, chain = stack.pop()
            if isinstance(node, cst.Call):
                qualified_call = table.qualify(node.func)
                spec: Optional[LoaderSpec] = None
                if qualified_call in DATALOADERS:
                    spec = LoaderSpec(qualified_call, DATALOADERS[qualified_call], short=qualified_call.rsplit(".", 1)[-1])
                elif qualified_call is not None or isinstance(node.func, cst.Name):
                    # a DataLoader subclass of the project (tsl's ``StaticGraphLoader``)
                    spec = project_loader(qualified_call if qualified_call is not None else node.func.value)  # type: ignore[attr-defined]
                    if spec is None and qualified_call is None and node.func.value in body.local_params:  # type: ignore[attr-defined]
                        spec = _defaulted_loader(evaluator, table.qualify, node.func, chain)
                if spec is not None:
                    found.append(FactoryLoader(function, LoaderCall(spec, node.args), values, chain, decided, bool(owner)))
            if isinstance(node, (cst.FunctionDef, cst.Lambda)) and node is not function:
                continue
            stack.extend((child, chain + (node,)) for child in syntax_children(node))
        return found


def _defaulted_loader(values: Optional[Values], qualify: Callable[[cst.CSTNode], Optional[str]], func: cst.Name, chain: Chain) -> Optional[LoaderSpec]:
    """The DataLoader a parameter called as a function holds: its default, when no call of the
    factory gives it another (``def loader(dataset, klass=DataLoader)``, ``klass(dataset)``)."""
    names = values.names(func, chain) if values is not None else None
    qualified = {qualify(name) for name in names or ()}
    if len(qualified) != 1:
        return None
    (loader,) = qualified
    return LoaderSpec(loader, DATALOADERS[loader], short=loader.rsplit(".", 1)[-1]) if loader in DATALOADERS else None


def off_in_factory(rule: Rule, expr: cst.CSTNode, off: Callable[[object], bool], no_default_off: bool = False) -> bool:
    """Is ``expr``, a loader's argument inside a loader factory (``loader`` in the name of the
    function or method around it), a parameter the factory passes on as it is (``shuffle=
    shuffle``) whose own default is off? Then the loader is on only for the calls that turn it
    on, and each such call is reported where it is made, not the loader."""
    if not isinstance(expr, cst.Name):
        return False
    ancestors = rule.file.ancestors
    index = next((i for i in range(len(ancestors) - 1, -1, -1) if isinstance(ancestors[i], cst.FunctionDef)), None)
    function = ancestors[index] if index is not None else None
    if function is None or FACTORY_WORD not in function.name.value.lower():
        return False
    outer = ancestors[:index]
    if not (len(outer) == 1 or (len(outer) == 3 and isinstance(outer[1], cst.ClassDef))):
        return False  # a module-level function, or a method of a module-level class
    if len(outer) == 3:
        # a method's calls are reported as the factory's only where they are ``self.<name>(...)``
        # in its class: so only when no other call of a method of that name is in the project
        called = f".{function.name.value}("
        for other in rule.file.project.mentioning(called):
            text = rule.file.source if other == os.path.abspath(rule.file.path) else rule.file.project.text(other) or ""
            if text.count(called) != text.count(f"self{called}"):
                return False
    return forwarded_switch_off(function, expr.value, lambda default: value_of(rule, default), off, no_default_off)


def forwarded_switch_off(
    function: cst.FunctionDef, name: str, evaluate: Callable[[cst.BaseExpression], object], off: Callable[[object], bool],
    no_default_off: bool = False,
) -> bool:
    """Is ``name`` a parameter of the loader factory ``function`` that it passes on as it is
    (never assigned) whose default, as ``evaluate`` gives it, is ``off`` on every path (or
    that has none, with ``no_default_off``: RPL302's ``shuffle``)? Then a factory's switch is
    reported at the calls that turn it on, else at the factory's loader."""
    params = function.params
    param = next((p for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.name.value == name), None)
    if param is None or _rebinds(function, name):
        return False
    return no_default_off if param.default is None else all_consts(evaluate(param.default), off)  # type: ignore[arg-type]


def _rebinds(function: cst.FunctionDef, name: str) -> bool:
    """Does ``function`` assign ``name`` itself (its parameter then is not what it passes on)?"""
    stack: List[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if any(isinstance(t, cst.Name) and t.value == name for t in assigned_targets(node)):
            return True
        stack.extend(syntax_children(node))
    return False


def _own_method(rule: Rule, func: cst.BaseExpression) -> Optional[str]:
    """``self.<name>`` called in a method of a module-level class that defines ``<name>``
    itself: ``module.Class.<name>``; else None."""
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"):
        return None
    ancestors = rule.file.ancestors
    cls = ancestors[1] if len(ancestors) > 1 and isinstance(ancestors[0], cst.Module) and isinstance(ancestors[1], cst.ClassDef) else None
    body = cls.body.body if cls is not None and isinstance(cls.body, cst.IndentedBlock) else ()
    project = rule.file.project
    facts = project.facts(rule.file.path, rule.file.source)
    if facts is None or cls is None:
        return None
    if any(isinstance(s, cst.FunctionDef) and s.name.value == func.attr.value for s in body):
        return f"{facts.module_name}.{cls.name.value}.{func.attr.value}"
    # inherited from a project base class, in this module or another (torch-uncertainty's
    # ``CIFAR10DataModule`` calling ``self._data_loader`` of ``TUDataModule``)
    method = next((a for a in reversed(ancestors) if isinstance(a, cst.FunctionDef)), None)
    scope = f"{cls.name.value}.{method.name.value}" if method is not None else None
    targets = project.methods_called(rule.file.path, scope, f"self.{func.attr.value}") if scope in facts.functions else []
    if len(targets) != 1 or "." not in targets[0][1]:
        return None
    target = targets[0]
    owner = project.facts(target[0])
    return f"{owner.module_name}.{target[1]}" if owner is not None and owner.module_name else None


def factory_loaders(rule: Rule, node: cst.Call) -> List[FactoryLoader]:
    """The loaders that ``node``, a call of a project function named as a loader factory
    (``build_dataloader``, ``get_loader``, ``create_dataloader``: the name is what the rules'
    prefilter looks for), builds."""
    qualified = rule.qualify(node.func)
    if qualified is None and isinstance(node.func, cst.Name):
        facts = rule.file.project.facts(rule.file.path, rule.file.source)  # a function of this module
        qualified = f"{facts.module_name}.{node.func.value}" if facts is not None else None
    if qualified is None:
        qualified = _own_method(rule, node.func)  # ``self._data_loader(...)`` in its class
    if qualified is None or FACTORY_WORD not in qualified.rsplit(".", 1)[-1].lower():
        return []
    if isinstance(node.func, cst.Name) and shadowed(node.func.value, rule.file.ancestors):
        return []  # a local function or variable of that name, not the factory
    return rule.file.analysis(Factories).loaders(qualified)


# -- loaders built again and again ----------------------------------------------------------------

#: (a comprehension builds distinct loaders, one per split, each once: ``{x: DataLoader(sets[x])
#: for x in ["train", "val"]}``)
_LOOPS = (cst.For, cst.While)


def built_repeatedly(rule: Rule, node: cst.Call) -> bool:
    """Is the loader ``node`` builds made again and again: in a loop of its function (not a
    ``for``'s iterable), or in a function a loop of the module calls (``for epoch in ...: loader
    = make_loaders(8)``), or of another module of the run that may call it? A generator seeded
    afresh each time would repeat one order per epoch."""
    inner, chain = node, rule.file.ancestors
    for here in reversed(chain):
        if isinstance(here, (cst.FunctionDef, cst.Lambda)):
            owner = next((n.name.value for n in reversed(chain) if isinstance(n, cst.ClassDef)), None)
            if not isinstance(here, cst.FunctionDef):
                return False
            name = here.name.value
            # (or a loop of another module that may call it: DivideMix's ``loader.run("warmup")``
            # in each epoch of Train_CIFAR.py)
            return _called_in_loop(rule.file.module, name, owner is not None) or rule.file.project.called_in_loop_elsewhere(
                rule.file.path, f"{owner}.{name}" if owner is not None else name
            )
        if isinstance(here, _LOOPS) and not (isinstance(here, cst.For) and inner is here.iter):
            return True
        inner = here
    return False


def _called_in_loop(module: cst.Module, name: str, method: bool) -> bool:
    """Does a loop of ``module`` call ``name(...)``, or for a method ``self.name(...)``?"""
    stack: List[Tuple[cst.CSTNode, bool]] = [(module, False)]
    while stack:
        node, looped = stack.pop()
        func = node.func if looped and isinstance(node, cst.Call) else None
        if method and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            func = func.attr  # ``self.name(...)``
        if isinstance(func, cst.Name) and func.value == name:
            return True
        loop = isinstance(node, _LOOPS)
        stack.extend((child, looped or (loop and not (isinstance(node, cst.For) and child is node.iter))) for child in syntax_children(node))
    return False
