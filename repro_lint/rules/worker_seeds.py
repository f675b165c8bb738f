"""Worker seeds that never change (RPL303).

A ``worker_init_fn`` runs in every worker after DataLoader seeded it from ``base_seed + id``,
with ``base_seed`` drawn anew every epoch (reference section 1.1). A seeding call in it that
uses a constant makes every worker draw the same numbers; one that uses only the worker's id
and the values a ``functools.partial`` bound (``seed + worker_id + rank * num_workers``, the
MMEngine shape) gives each worker its own stream, but the same one every epoch, unless the
workers persist (``persistent_workers=True``). The function is followed where it is defined:
in the file (a ``def``, a lambda, a ``partial`` of either, a variable that holds one on some
path), or in another module of the project (the finding is then reported where the file
passes it, since that is where the knowledge lives).
"""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, List, Optional, Set, Tuple

from .._lazy import cst
from ..catalog import ARITHMETIC_BUILTINS, PARTIALS, SEEDING_CALLS, WORKER_DEPENDENT_CALLS
from ..names import ImportTable
from ..syntax import MISSING, UNKNOWN
from ..values import OPEN, Const, any_const, target_names
from .base import Rule, mentions_name, value_of
from .dataloader import KwargsDicts, bound, literal_text
from .loaders import LoaderCall, loader_call
from ..children import syntax_children

#: a seeding call with a seed that does not change: (call, seeder, seed, depends on the worker)
Finding = Tuple[cst.Call, str, cst.BaseExpression, bool]
#: the parameters of a worker_init_fn that a ``functools.partial`` binds: how many first positional
#: ones, and which by name
Bound = Tuple[int, FrozenSet[str]]

SAME_IN_EVERY_WORKER = "is the same in every worker, so all workers draw the same random numbers"
SAME_EVERY_EPOCH = (
    "depends on the worker but not on the epoch, so workers re-created every epoch (without "
    "persistent_workers=True) draw the same random numbers every epoch"
)


class WorkerInitConstantSeed(Rule):
    code = "RPL303"
    name = "worker-init-constant-seed"
    message = (
        "worker_init_fn {func} seeds {seeder} with {value}, which {why}: derive the seed from the "
        "worker's torch seed (torch.initial_seed() % 2**32, new for every worker and epoch) or pass "
        "worker_init_fn=seed_worker from repro_lint.runtime"
    )
    triggers = ("worker_init_fn",)
    whole_words = True
    uses = (KwargsDicts,)

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.functions: Dict[str, cst.FunctionDef] = {}
        #: (the loader call, its worker_init_fn argument, what that may be, whether the workers persist)
        self.uses: List[Tuple[cst.BaseExpression, cst.BaseExpression, List[cst.BaseExpression], bool]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.setdefault(node.name.value, node)

    def visit_Call(self, node: cst.Call) -> None:
        call = loader_call(self, node)
        if call is None:
            return
        init = bound(self, call.args, "worker_init_fn", call.position("worker_init_fn"))
        if not isinstance(init, cst.BaseExpression):
            return
        self.uses.append((node, init, self._what(init), self._persists(call)))

    def _persists(self, call: LoaderCall) -> bool:
        """The workers may persist from epoch to epoch: ``persistent_workers`` true on some
        path, or an expression we cannot evaluate (the benefit of the doubt). Not passed, or
        only maybe passed in a ``**config`` we cannot see, it is DataLoader's default, False."""
        persistent = bound(self, call.args, "persistent_workers", None)
        if persistent is MISSING or persistent is UNKNOWN:
            return False
        values = value_of(self, persistent)
        if values is None or any(not isinstance(v, Const) and v is not OPEN for v in values):
            return True
        return any_const(values, bool)

    def _what(self, init: cst.BaseExpression) -> List[cst.BaseExpression]:
        """The functions ``init`` may be: itself, or what a variable holds on its paths."""
        if isinstance(init, cst.Name) and init.value in self.functions:
            return [init]
        if isinstance(init, cst.IfExp):
            # ``partial(worker_init_fn, seed=seed) if seed is not None else None``: either branch
            return [found for branch in (init.body, init.orelse) for found in self._what(branch)]
        candidates = value_of(self, init) if isinstance(init, cst.Name) else None
        if candidates is None:
            return [init]
        return [c for c in candidates if isinstance(c, (cst.Call, cst.Lambda, cst.Name, cst.Attribute))]

    def leave_Module(self, node: cst.Module) -> None:
        # once per loader and function, at the loader's ``worker_init_fn`` argument (where the
        # loader and the function meet: whether its workers persist is the loader's), naming
        # every generator the function seeds that way
        done: Set[Tuple[int, int]] = set()
        for site, init, candidates, persists in self.uses:
            for value in candidates:
                fixed: Bound = (0, frozenset())
                if isinstance(value, cst.Call) and self.qualify(value.func) in PARTIALS and value.args:
                    # partial(seed_fn, seed=seed, rank=rank): what it binds is the same in every worker
                    given = value.args[1:]
                    fixed = (
                        sum(1 for a in given if a.keyword is None and not a.star),
                        frozenset(a.keyword.value for a in given if a.keyword is not None),
                    )
                    value = value.args[0].value
                target = self._function(value, fixed)
                if target is None:
                    continue
                name, body, findings, module, _ = target
                if (id(site), id(body)) in done:
                    continue
                done.add((id(site), id(body)))
                # persistent workers keep their streams from epoch to epoch
                combined: Dict[bool, Finding] = {}
                for call, seeder, seed, per_worker in findings:
                    if per_worker and persists:
                        continue
                    first = combined.get(per_worker)
                    combined[per_worker] = (call, seeder, seed, per_worker) if first is None else (
                        first[0], first[1] if seeder in first[1].split(", ") else f"{first[1]}, {seeder}", first[2], per_worker
                    )
                for call, seeder, seed, per_worker in combined.values():
                    self.report(
                        init,
                        func=f"`{name}`" if name != "lambda" else "(a lambda)",
                        seeder=seeder,
                        value=f"`{literal_text(seed, module)}`",
                        why=SAME_EVERY_EPOCH if per_worker else SAME_IN_EVERY_WORKER,
                    )

    def _function(self, value: cst.BaseExpression, fixed: "Bound"):  # type: ignore[no-untyped-def]
        """(name, body, findings, module, in another file) for a worker_init_fn (``fixed``: the
        parameters a ``functools.partial`` binds, see :func:`constant_seeds`), or None."""
        module = self.file.module
        if isinstance(value, cst.Lambda):
            return "lambda", value.body, constant_seeds(value.params, value.body, self.qualify, fixed), module, False
        if isinstance(value, cst.Name) and value.value in self.functions:
            func = self.functions[value.value]
            return value.value, func.body, constant_seeds(func.params, func.body, self.qualify, fixed), module, False
        qualified = self.qualify(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
        remote = _project_function(self, qualified) if qualified else None
        if remote is None:
            return None
        func, table, other = remote
        return func.name.value, func.body, constant_seeds(func.params, func.body, table.qualify, fixed), other, True


def _project_function(rule: Rule, qualified: str) -> Optional[Tuple[cst.FunctionDef, ImportTable, cst.Module]]:
    """A module-level function of another project module, parsed, with its import table."""
    project = rule.file.project
    found = project.resolve_function(qualified)
    if found is None:
        return None
    facts, body = found
    if "." in body.name:
        return None  # a method: not a plain worker_init_fn
    project.consult(facts.path)
    text = project.text(facts.path)
    if text is None:
        return None
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None
    func = next((s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == body.name), None)
    if func is None:
        return None
    table = ImportTable()
    table.aliases.update(facts.aliases)
    return func, table, module


def constant_seeds(
    params: cst.Parameters, body: cst.CSTNode, qualify: Callable[[cst.CSTNode], Optional[str]], fixed: "Bound" = (0, frozenset()),
) -> List[Finding]:
    """The seeding calls in a worker_init_fn whose seed does not change with the epoch: it
    uses no ``torch.initial_seed()``/``get_worker_info()``, no generator state and no call
    that may vary, directly or through local variables (in source order); each with whether it
    depends on the worker, through a parameter that ``fixed`` does not name: the parameters a
    ``functools.partial`` binds (how many first positional ones, and which by name), the same
    in every worker (Faster-RCNN's ``partial(worker_init_fn, rank=0, seed=seed)`` with
    ``worker_seed = rank + seed``)."""
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    worker: Set[str] = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    worker -= set(positional[: fixed[0]]) | fixed[1]
    for extra in (params.star_arg, params.star_kwarg):
        if isinstance(extra, cst.Param):
            worker.add(extra.name.value)
    varying: Set[str] = set()
    order: List[cst.CSTNode] = []
    stack: List[cst.CSTNode] = [body]
    while stack:
        current = stack.pop()
        order.append(current)
        stack.extend(reversed(syntax_children(current)))
    calls: List[cst.Call] = []
    for current in order:
        if isinstance(current, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and current.value is not None:
            targets = [t.target for t in current.targets] if isinstance(current, cst.Assign) else [current.target]
            names = [n for t in targets for n in target_names(t)]
            if _varies(current.value, varying, qualify):
                varying.update(names)
            elif mentions_name(current.value, worker):
                worker.update(names)
        elif isinstance(current, cst.Call):
            calls.append(current)
    found: List[Finding] = []
    for call in calls:
        seeder = qualify(call.func)
        if seeder not in SEEDING_CALLS or not call.args:
            continue
        seed = call.args[0]
        if seed.star or _varies(seed.value, varying, qualify):
            continue
        found.append((call, seeder, seed.value, mentions_name(seed.value, worker)))
    return found


def _varies(expr: cst.CSTNode, varying: Set[str], qualify: Callable[[cst.CSTNode], Optional[str]]) -> bool:
    """``expr`` changes from epoch to epoch, or may: the worker's torch seed, a generator's
    state, or a call other than arithmetic builtins."""
    if mentions_name(expr, varying):
        return True
    stack: List[cst.CSTNode] = [expr]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name) and current.value in WORKER_DEPENDENT_CALLS:
            return True
        if isinstance(current, cst.Attribute) and current.attr.value in WORKER_DEPENDENT_CALLS:
            return True
        if isinstance(current, cst.Call):
            func = current.func
            if not (isinstance(func, cst.Name) and func.value in ARITHMETIC_BUILTINS and qualify(func) is None):
                return True
        stack.extend(syntax_children(current))
    return False
