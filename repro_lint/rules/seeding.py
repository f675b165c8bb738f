"""Seeding (RPL1xx) and deterministic algorithms on an accelerator (RPL202).

The file-level rules (RPL101-RPL103, RPL202) ask the project context what the execution path
of an entry point seeds, uses and turns on, across the project's files (see
:mod:`repro_lint.context`); this module only finds where to report. All of them share one
scan of the file (:class:`_Scan`): every call classified once, with the body it is in.
"""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from .. import catalog
from ..context import (
    DEVICES,
    ENTRY_WORDS,
    GENERATORS,
    MAIN_BODY,
    MISSING,
    MODULE_BODY,
    NO_EFFECT,
    UNKNOWN,
    UNNAMED,
    CallArgs,
    CallEffect,
    Summary,
    classify_call,
    is_seed_named,
)
from ..diagnostics import SAFE
from ..names import dotted_name
from ..setup_block import setup_block_edits
from .base import Rule, argument, int_value, keyword_arg, string_value

GENERATOR_NAMES = {"torch": "torch", "numpy": "NumPy's global", "random": "Python's random"}
DEVICE_NAMES = {"cuda": "CUDA", "npu": "an Ascend NPU", "accelerator": "an accelerator"}


# -- arguments of a LibCST call, for the shared classifier -------------------------------------


def cst_literal(node: cst.CSTNode) -> Any:
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, (cst.Integer, cst.UnaryOperation)):
        value = int_value(node)
        return UNKNOWN if value is None else value
    if isinstance(node, cst.Float):
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            return UNKNOWN
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = string_value(node)
        return UNKNOWN if value is None else value
    return UNKNOWN


def cst_strings(node: cst.CSTNode) -> List[str]:
    found: List[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.SimpleString):
            value = string_value(current)
            if value is not None:
                found.append(value)
        elif isinstance(current, cst.FormattedStringText):
            found.append(current.value)
        elif isinstance(current, (cst.Name, cst.Integer, cst.Float)):
            continue
        else:
            stack.extend(current.children)
    return found


class CstArgs(CallArgs):
    def __init__(self, call: cst.Call) -> None:
        self.call = call

    def _node(self, name: str, position: Optional[int]) -> Any:
        found = keyword_arg(self.call, name)
        if found is not None:
            return found.value
        if position is not None:
            index = 0
            for arg in self.call.args:
                if arg.star == "*":
                    return UNKNOWN
                if arg.star or arg.keyword is not None:
                    continue
                if index == position:
                    return arg.value
                index += 1
        return UNKNOWN if any(arg.star == "**" for arg in self.call.args) else MISSING

    def _literal(self, node: Any) -> Any:
        return cst_literal(node)

    def _strings(self, node: Any) -> List[str]:
        return cst_strings(node)


def short(code: str, limit: int = 48) -> str:
    code = " ".join(code.split())
    return code if len(code) <= limit else code[: limit - 3] + "..."


def is_main_guard(node: cst.If) -> bool:
    test = node.test
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    if not isinstance(test.comparisons[0].operator, cst.Equal):
        return False
    operands = [test.left, test.comparisons[0].comparator]
    names = {o.value for o in operands if isinstance(o, cst.Name)}
    strings = {string_value(o) for o in operands}
    return "__name__" in names and "__main__" in strings


# -- the shared scan ------------------------------------------------------------------------------


class CallSite:
    __slots__ = ("node", "body", "name", "imported", "effect")

    def __init__(self, node: cst.Call, body: str, name: Optional[str], imported: bool, effect: CallEffect) -> None:
        self.node = node
        #: the body it is in, named as in the module facts (``<module>``, ``<main>``, ``f``, ``C.m``)
        self.body = body
        #: import-qualified name, or the name as written, or None (``f()()``)
        self.name = name
        self.imported = imported
        self.effect = effect


class _Scan:
    """What the seeding rules need from one traversal of a file: every call with the body it
    is in and what it does by itself, and the ``__main__`` guard. Filled once, whichever of the
    rules gets each node first."""

    def __init__(self, rule: Rule) -> None:
        self.file = rule.file
        self.calls: List[CallSite] = []
        self.by_node: Dict[int, CallSite] = {}
        self.scope: List[Tuple[str, bool]] = []  # (name, is_function)
        self.main_guard: Optional[cst.If] = None
        self.in_main = False
        self._seen_enter: Optional[cst.CSTNode] = None
        self._seen_leave: Optional[cst.CSTNode] = None
        self._entry_summary: Optional[Summary] = None

    @staticmethod
    def of(rule: Rule) -> "_Scan":
        scan = getattr(rule.file, "_seeding_scan", None)
        if scan is None:
            scan = _Scan(rule)
            rule.file._seeding_scan = scan  # type: ignore[attr-defined]
        return scan

    def _first(self, node: cst.CSTNode, leaving: bool) -> bool:
        if leaving:
            if node is self._seen_leave:
                return False
            self._seen_leave = node
        else:
            if node is self._seen_enter:
                return False
            self._seen_enter = node
        return True

    def body(self) -> str:
        last = max((i for i, (_, is_fn) in enumerate(self.scope) if is_fn), default=None)
        if last is None:
            return MAIN_BODY if self.in_main else MODULE_BODY
        return ".".join(name for name, _ in self.scope[: last + 1])

    def enter(self, node: cst.CSTNode) -> None:
        if not self._first(node, False):
            return
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            self.scope.append((node.name.value, isinstance(node, cst.FunctionDef)))
        elif isinstance(node, cst.If) and not self.scope and not self.in_main and is_main_guard(node):
            self.in_main = True
            self.main_guard = self.main_guard or node
        elif isinstance(node, cst.Call):
            self._call(node)

    def leave(self, node: cst.CSTNode) -> None:
        if not self._first(node, True):
            return
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            self.scope.pop()
        elif isinstance(node, cst.If) and node is self.main_guard:
            self.in_main = False

    def _call(self, node: cst.Call) -> None:
        written = dotted_name(node.func)
        qualified = self.file.qualify(node.func)
        method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
        effect = classify_call(qualified, method, CstArgs(node))
        name = qualified or written
        if name is None and method is not None:
            name = f"{UNNAMED}.{method}"
        if name is None and effect is NO_EFFECT:
            return
        site = CallSite(node, self.body(), name, qualified is not None, effect)
        self.calls.append(site)
        self.by_node[id(node)] = site

    # -- questions ---------------------------------------------------------------------------
    def entry_summary(self) -> Optional[Summary]:
        """The execution path's summary when this file is an entry point, else None."""
        if not self.file.is_entry_point:
            return None
        if self._entry_summary is None:
            self._entry_summary = self.file.project.entry_summary(self.file.path, self.file.source)
        return self._entry_summary

    def call_summary(self, site: CallSite, construct: bool = False) -> Summary:
        if site.name is None or site.effect.known:
            return Summary()
        return self.file.project.call_summary(self.file.path, site.body, site.name, site.imported, construct=construct)

    def where(self, summary: Summary, wanted: FrozenSet[str]) -> cst.CSTNode:
        """Where to report something the execution path does: the first call on the path in
        this file that does it directly, else the ``__main__`` guard, else the first top-level
        call that leads to it, else the first statement."""
        reached = summary.reached_in(self.file.path)
        for site in self.calls:
            if site.body in reached and site.effect.uses & wanted:
                return site.node
        if self.main_guard is not None:
            return self.main_guard
        for site in self.calls:
            if site.body in (MODULE_BODY, MAIN_BODY) and self.call_summary(site).uses & wanted:
                return site.node
        module = self.file.module
        return module.body[0] if module.body else module


class _SeedingRule(Rule):
    """Feeds the shared scan when it needs it (:meth:`active`); subclasses report."""

    needs_project = True

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.scan: Optional[_Scan] = _Scan.of(self) if self.active() else None

    def active(self) -> bool:
        return True

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.scan is not None:
            self.scan.enter(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.scan is not None:
            self.scan.leave(node)

    visit_ClassDef = visit_FunctionDef  # type: ignore[assignment]
    leave_ClassDef = leave_FunctionDef  # type: ignore[assignment]
    visit_If = visit_FunctionDef  # type: ignore[assignment]
    leave_If = leave_FunctionDef  # type: ignore[assignment]
    visit_Call = visit_FunctionDef  # type: ignore[assignment]


class _EntryPointRule(_SeedingRule):
    """A finding about an entry point's whole execution path, reported once per file.

    Triggers: every entry point contains ``__main__`` or a training call (see
    :data:`repro_lint.context.ENTRY_WORDS`), unless it is one only because it matches the
    ``entry-points`` globs: then it needs ``import`` to reach any generator or device."""

    triggers = ENTRY_WORDS
    entry_points_only = True
    fix = SAFE
    fix_message = "Insert the setup block (seed everything, deterministic algorithms on)"

    def active(self) -> bool:
        return self.file.is_entry_point

    @classmethod
    def trigger_words(cls, settings) -> Tuple[str, ...]:  # type: ignore[no-untyped-def]
        return cls.triggers + (("import",) if settings.entry_points else ())


class _UnseededGenerator(_EntryPointRule):
    generator = ""

    def leave_Module(self, node: cst.Module) -> None:
        scan = self.scan
        summary = scan.entry_summary() if scan is not None else None
        if scan is None or summary is None or not summary.uses_generator(self.generator) or summary.seeds(self.generator):
            return
        where = scan.where(summary, summary.generator_uses(self.generator))
        self.report(where, message=self.message_for(summary), edits=setup_block_edits(self.file, {self.generator}))

    def message_for(self, summary: Summary) -> str:
        return self.message


class UnseededTorch(_UnseededGenerator):
    code = "RPL101"
    name = "unseeded-torch"
    generator = "torch"
    message = (
        "torch RNG is used but never seeded: call torch.manual_seed(seed) "
        "(or repro_lint.runtime.seed_everything(seed)) before building the model"
    )
    cuda_only = (
        "torch RNG is used but only the GPU generators are seeded (torch.cuda.manual_seed and manual_seed_all "
        "do not seed the CPU generator that initialises weights): call torch.manual_seed(seed) "
        "(or repro_lint.runtime.seed_everything(seed)) before building the model"
    )

    def message_for(self, summary: Summary) -> str:
        return self.cuda_only if "cuda" in summary.effects else self.message


class UnseededNumpy(_UnseededGenerator):
    code = "RPL102"
    name = "unseeded-numpy"
    generator = "numpy"
    message = (
        "NumPy's global RNG (np.random.*) is used but never seeded: call np.random.seed(seed) "
        "(or repro_lint.runtime.seed_everything(seed)) at startup"
    )


class UnseededRandom(_UnseededGenerator):
    code = "RPL103"
    name = "unseeded-random"
    generator = "random"
    message = (
        "Python's random module is used but never seeded: call random.seed(seed) "
        "(or repro_lint.runtime.seed_everything(seed)) at startup"
    )


class DeterministicAlgorithmsOff(_EntryPointRule):
    code = "RPL202"
    name = "deterministic-algorithms-off"
    message = (
        "this entry point runs on {device} but never turns deterministic algorithms on: call "
        "torch.use_deterministic_algorithms(True) (or repro_lint.runtime.seed_everything(seed)) at startup"
    )

    def leave_Module(self, node: cst.Module) -> None:
        scan = self.scan
        summary = scan.entry_summary() if scan is not None else None
        if scan is None or summary is None or summary.deterministic:
            return
        devices = [d for d in DEVICES if d in summary.uses]
        if not devices:
            return
        where = scan.where(summary, frozenset(devices))
        self.report(
            where,
            device=" and ".join(DEVICE_NAMES[d] for d in devices),
            edits=setup_block_edits(self.file, {"deterministic"}),
        )


# -- RPL104 -----------------------------------------------------------------------------------------

HASHSEED = "PYTHONHASHSEED"


def is_hashseed(node: cst.CSTNode) -> bool:
    """The literal ``"PYTHONHASHSEED"``, spelt out (so the trigger word is always in the file)."""
    return isinstance(node, cst.SimpleString) and HASHSEED in node.value and string_value(node) == HASHSEED


class HashSeedSetAtRuntime(Rule):
    code = "RPL104"
    name = "hashseed-set-at-runtime"
    message = (
        "setting PYTHONHASHSEED inside a running interpreter does not change its hash(), only that of "
        "processes started later: set it before Python starts (PYTHONHASHSEED=0 python train.py, or in "
        "the job script), or pass it in env= to the subprocess that needs it"
    )
    triggers = (HASHSEED,)
    whole_words = True

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._subscript(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._subscript(node.target)

    def _subscript(self, target: cst.CSTNode) -> None:
        if not isinstance(target, cst.Subscript) or self.qualify(target.value) != "os.environ":
            return
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
            if is_hashseed(target.slice[0].slice.value):
                self.report(target)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified in ("os.environ.setdefault", "os.putenv", "os.environ.__setitem__"):
            arg = argument(node, "key", 0)
            if arg is not None and is_hashseed(arg.value):
                self.report(node)
        elif qualified == "os.environ.update":
            if keyword_arg(node, HASHSEED) is not None:
                self.report(node)
                return
            for arg in node.args:
                if isinstance(arg.value, cst.Dict) and any(
                    isinstance(e, cst.DictElement) and is_hashseed(e.key) for e in arg.value.elements
                ):
                    self.report(node)
                    return


# -- RPL105 -----------------------------------------------------------------------------------------


def _seed_call_words() -> Tuple[str, ...]:
    """Every seeding call is named with ``seed`` or one of these words."""
    words = {"seed"}
    names = list(catalog.SEED_CALLS) + [n for n, h in catalog.SEED_HELPERS.items() if not h.implicit]
    for name in names:
        last = name.rsplit(".", 1)[-1]
        if "seed" not in last:
            words.add(last)
    return tuple(sorted(words))


#: a draw: the call, and the names its statement assigns (``seed = random.randint(...)``)
Draw = Tuple[cst.Call, FrozenSet[str]]


class _Flow:
    __slots__ = ("seeded", "unseeded")

    def __init__(self, seeded: Optional[Set[str]] = None, unseeded: Optional[Dict[str, List[Draw]]] = None) -> None:
        self.seeded: Set[str] = set(seeded or ())
        #: generator -> the draws from it made before it was seeded
        self.unseeded: Dict[str, List[Draw]] = {g: list(d) for g, d in (unseeded or {}).items()}

    def copy(self) -> "_Flow":
        return _Flow(self.seeded, self.unseeded)

    def merge(self, *others: "_Flow") -> None:
        for other in others:
            self.seeded |= other.seeded
            for generator, draws in other.unseeded.items():
                mine = self.unseeded.setdefault(generator, [])
                mine.extend(d for d in draws if d not in mine)
        for generator in self.seeded:
            self.unseeded.pop(generator, None)


def _assigned_names(stmt: cst.CSTNode) -> FrozenSet[str]:
    """The names (``seed``, ``opt.manualSeed``) a simple statement assigns."""
    names: Set[str] = set()
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            targets: List[cst.CSTNode] = []
            if isinstance(small, cst.Assign):
                targets = [t.target for t in small.targets]
            elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                targets = [small.target]
            for target in targets:
                elements = target.elements if isinstance(target, (cst.Tuple, cst.List)) else [target]
                for element in elements:
                    name = dotted_name(element.value if isinstance(element, cst.Element) else element)
                    if name:
                        names.add(name)
    return frozenset(names)


def _mentioned_names(node: cst.CSTNode) -> Set[str]:
    names: Set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        name = dotted_name(current) if isinstance(current, (cst.Name, cst.Attribute)) else None
        if name:
            names.add(name)
        stack.extend(current.children)
    return names


class SeedAfterRngUse(_SeedingRule):
    code = "RPL105"
    name = "seed-after-rng-use"
    message = (
        "{seed}() comes after `{use}` already drew from the {generator} RNG, so that draw differs "
        "between runs: seed first, before building the model or drawing random numbers"
    )
    triggers = _seed_call_words()

    @classmethod
    def trigger_words(cls, settings) -> Tuple[str, ...]:  # type: ignore[no-untyped-def]
        return cls.triggers + tuple(name.rsplit(".", 1)[-1] for name in settings.seed_functions)

    def leave_Module(self, node: cst.Module) -> None:
        scan = _Scan.of(self)
        if not any(self._seeds(site) for site in scan.calls):
            return
        pending: List[cst.BaseSuite] = []
        self._run(node.body, _Flow(), pending)
        while pending:
            body = pending.pop()
            self._run(body.body if isinstance(body, cst.IndentedBlock) else body.body, _Flow(), pending)

    # -- what a call does -------------------------------------------------------------------
    def _seeds(self, site: CallSite) -> FrozenSet[str]:
        direct = site.effect.effects & frozenset(GENERATORS)
        if direct:
            helper = catalog.SEED_HELPERS.get(site.name or "")
            return frozenset() if helper is not None and helper.implicit else direct
        if site.name is None or site.effect.known:
            return frozenset()
        configured = site.name in self.file.settings.seed_functions
        if not (configured or is_seed_named(site.name, site.imported)):
            return frozenset()
        return _Scan.of(self).call_summary(site).effects & frozenset(GENERATORS)

    def _draws(self, site: CallSite) -> FrozenSet[str]:
        draws = site.effect.draws
        if not site.effect.known and site.name is not None:
            draws = draws | _Scan.of(self).call_summary(site, construct=True).draws
        return draws & frozenset(GENERATORS)

    # -- walking a body in execution order ----------------------------------------------------
    def _run(self, statements, flow: _Flow, pending: List[cst.BaseSuite]) -> None:  # type: ignore[no-untyped-def]
        for stmt in statements:
            self._statement(stmt, flow, pending)

    def _block(self, suite: Optional[cst.CSTNode], flow: _Flow, pending: List[cst.BaseSuite]) -> None:
        if suite is None:
            return
        if isinstance(suite, (cst.Else, cst.Finally)):
            suite = suite.body
        if isinstance(suite, cst.IndentedBlock):
            self._run(suite.body, flow, pending)
        elif isinstance(suite, cst.SimpleStatementSuite):
            self._run(suite.body, flow, pending)

    def _statement(self, stmt: cst.CSTNode, flow: _Flow, pending: List[cst.BaseSuite]) -> None:
        if isinstance(stmt, cst.FunctionDef):
            pending.append(stmt.body)
        elif isinstance(stmt, cst.ClassDef):
            for inner in stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ():
                if isinstance(inner, (cst.FunctionDef, cst.ClassDef)):
                    self._statement(inner, _Flow(), pending)
        elif isinstance(stmt, cst.If):
            self._calls(stmt.test, flow)
            then, other = flow.copy(), flow.copy()
            self._block(stmt.body, then, pending)
            orelse = stmt.orelse
            if isinstance(orelse, cst.If):
                self._statement(orelse, other, pending)
            else:
                self._block(orelse, other, pending)
            flow.seeded.clear()
            flow.unseeded.clear()
            flow.merge(then, other)
        elif isinstance(stmt, (cst.For, cst.While)):
            self._calls(stmt.iter if isinstance(stmt, cst.For) else stmt.test, flow)
            self._block(stmt.body, flow, pending)
            self._block(stmt.orelse, flow, pending)
        elif isinstance(stmt, cst.With):
            for item in stmt.items:
                self._calls(item.item, flow)
            self._block(stmt.body, flow, pending)
        elif isinstance(stmt, (cst.Try, cst.TryStar)):
            self._block(stmt.body, flow, pending)
            branches = []
            for handler in stmt.handlers:
                branch = flow.copy()
                self._block(handler.body, branch, pending)
                branches.append(branch)
            self._block(stmt.orelse, flow, pending)
            flow.merge(*branches)
            self._block(stmt.finalbody, flow, pending)
        elif isinstance(stmt, cst.Match):
            self._calls(stmt.subject, flow)
            branches = []
            for case in stmt.cases:
                branch = flow.copy()
                self._block(case.body, branch, pending)
                branches.append(branch)
            flow.merge(*branches)
        else:
            self._calls(stmt, flow, _assigned_names(stmt))

    def _calls(self, node: cst.CSTNode, flow: _Flow, assigned: FrozenSet[str] = frozenset()) -> None:
        """The calls inside ``node`` in evaluation order (arguments before the call), skipping
        code that is only defined here (lambdas, nested functions)."""
        from ..engine import syntax_children

        by_node = _Scan.of(self).by_node
        stack: List[Tuple[cst.CSTNode, bool]] = [(node, False)]
        while stack:
            current, leaving = stack.pop()
            if leaving:
                site = by_node.get(id(current))
                if site is not None:
                    self._event(site, flow, assigned)
                continue
            if isinstance(current, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
                continue
            stack.append((current, True))
            stack.extend((child, False) for child in reversed(syntax_children(current)))

    def _event(self, site: CallSite, flow: _Flow, assigned: FrozenSet[str]) -> None:
        seeds = self._seeds(site)
        if seeds:
            # a draw that only picks the seed (``seed = random.randint(...)``, then
            # ``random.seed(seed)``) is what the user meant: not reported
            feeding = _mentioned_names(site.node.args[0]) if site.node.args else set()
            for arg in site.node.args[1:]:
                feeding |= _mentioned_names(arg)
            late: List[Tuple[str, cst.Call]] = []
            for generator in GENERATORS:
                if generator not in seeds or generator in flow.seeded:
                    continue
                draws = [call for call, names in flow.unseeded.get(generator, ()) if not names & feeding]
                if draws:
                    late.append((generator, draws[0]))
            if late:
                generator, use = late[0]
                name = dotted_name(site.node.func) or short(self.file.code_for(site.node.func))
                self.report(
                    site.node, seed=name, use=short(self.file.code_for(use)), generator=GENERATOR_NAMES[generator]
                )
            flow.seeded |= seeds
            for generator in seeds:
                flow.unseeded.pop(generator, None)
            return
        for generator in self._draws(site):
            if generator not in flow.seeded:
                flow.unseeded.setdefault(generator, []).append((site.node, assigned))


# -- RPL106 -----------------------------------------------------------------------------------------


#: methods that put an RNG object into a chosen state after it was created without a seed
RESEEDING_METHODS = frozenset({"seed", "setstate", "set_state", "manual_seed"})


class UnseededRngObject(Rule):
    code = "RPL106"
    name = "unseeded-rng-object"
    message = (
        "{call}() without a seed starts from fresh OS entropy, so every run draws different numbers: "
        "pass a seed, e.g. {call}(seed)"
    )
    triggers = tuple(sorted({name.rsplit(".", 1)[-1] for name in catalog.RNG_CONSTRUCTORS}))
    whole_words = True

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: unseeded objects assigned to a name, reported at the end unless reseeded
        self.pending: List[Tuple[str, cst.Call]] = []
        #: names whose RNG object gets a state later (``self._rng.seed(s)``)
        self.reseeded: Set[str] = set()

    def _assigned_to(self) -> Optional[List[str]]:
        """The names the enclosing assignment binds, when the current call is its value
        (or part of it); None outside an assignment."""
        for node in reversed(self.file.ancestors):
            if isinstance(node, cst.Assign):
                return [dotted_name(t.target) or "" for t in node.targets]
            if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
                return [dotted_name(node.target) or ""]
            if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Lambda)):
                return None
        return None

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in RESEEDING_METHODS:
            owner = dotted_name(node.func.value)
            if owner:
                self.reseeded.add(owner)
        qualified = self.qualify(node.func)
        spec = catalog.RNG_CONSTRUCTORS.get(qualified or "")
        if spec is None or any(arg.star for arg in node.args):
            return
        arg = argument(node, *spec)
        if arg is not None and cst_literal(arg.value) is not None:
            return
        targets = self._assigned_to()
        if targets and any("seed" in t.rsplit(".", 1)[-1].lower() for t in targets):
            return  # drawing a fresh seed on purpose: ``seed = np.random.RandomState().randint(...)``
        if targets and len(targets) == 1 and targets[0] and self.file.parent is not None and isinstance(
            self.file.parent, (cst.Assign, cst.AnnAssign)
        ):
            self.pending.append((targets[0], node))  # ``self._rng = random.Random()``: maybe seeded later
            return
        self.report(node, call=short(self.file.code_for(node.func)))

    def leave_Module(self, node: cst.Module) -> None:
        for target, call in self.pending:
            if target not in self.reseeded:
                self.report(call, call=short(self.file.code_for(call.func)))


# -- RPL107 -----------------------------------------------------------------------------------------

RANDOM_FACTORIES = frozenset(f"torch.{n}" for n in ("rand", "randn", "randint", "randperm", "normal"))


def _is_cpu(node: cst.CSTNode, rule: Rule) -> bool:
    value = cst_literal(node)
    if isinstance(value, str):
        return value.split(":", 1)[0].strip().lower() == "cpu"
    if isinstance(node, cst.Call) and rule.qualify(node.func) == "torch.device" and node.args:
        first = cst_literal(node.args[0].value)
        return isinstance(first, str) and first.split(":", 1)[0].strip().lower() == "cpu"
    return False


class RandomTensorOnDevice(Rule):
    code = "RPL107"
    name = "random-tensor-on-device"
    default = False
    message = (
        "{func}(..., device={device}) draws from that device's own generator, and the same seed gives "
        "different numbers on CPU, CUDA and NPU: generate on CPU and move the result with .to({device}) "
        "when results must match across hardware"
    )
    triggers = ("rand", "normal")

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified not in RANDOM_FACTORIES:
            return
        device = keyword_arg(node, "device")
        if device is None or _is_cpu(device.value, self):
            return
        self.report(node, func=qualified, device=short(self.file.code_for(device.value), 32))


# -- RPL108 -----------------------------------------------------------------------------------------

DATASET_BASES = frozenset(
    {
        "torch.utils.data.Dataset", "torch.utils.data.IterableDataset",
        "torch.utils.data.dataset.Dataset", "torch.utils.data.dataset.IterableDataset",
    }
)
DRAWING_METHODS = ("__getitem__", "__iter__", "__getitems__")


class _DatasetClass:
    def __init__(self, node: cst.ClassDef) -> None:
        self.node = node
        self.created: Dict[str, Tuple[cst.CSTNode, str]] = {}
        self.used: Set[str] = set()


class RngObjectOnDataset(Rule):
    code = "RPL108"
    name = "rng-object-on-dataset"
    message = (
        "self.{attr} = {ctor}(...) on a Dataset is copied, in the same state, into every DataLoader worker, "
        "so all workers draw the same numbers: create it per worker (seeded from "
        "torch.utils.data.get_worker_info().seed) or reseed it in a worker_init_fn"
    )
    triggers = ("Dataset",)

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: per enclosing class: the dataset being analysed, or None
        self.classes: List[Optional[_DatasetClass]] = []
        #: per enclosing function: its name, and whether it is a method of a dataset
        self.functions: List[str] = []
        self.reseeds = "get_worker_info" in file.source

    def _is_dataset(self, node: cst.ClassDef) -> bool:
        for base in node.bases:
            qualified = self.qualify(base.value)
            written = dotted_name(base.value) or ""
            if qualified in DATASET_BASES or (qualified or written).endswith("Dataset"):
                return True
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(_DatasetClass(node) if self._is_dataset(node) else None)
        self.functions.append("")

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.functions.pop()
        dataset = self.classes.pop()
        if dataset is None or self.reseeds:
            return
        for attr, (where, ctor) in dataset.created.items():
            if attr in dataset.used:
                self.report(where, attr=attr, ctor=ctor)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node.name.value)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()

    def _method(self) -> Optional[str]:
        """The method of a dataset class the current node is in (a nested function counts
        as its method)."""
        if not self.classes or self.classes[-1] is None:
            return None
        # functions: "" marks the class; the method is the entry right after the last ""
        index = len(self.functions) - 1 - self.functions[::-1].index("")
        return self.functions[index + 1] if index + 1 < len(self.functions) else None

    def visit_Assign(self, node: cst.Assign) -> None:
        method = self._method()
        if method is None or method in DRAWING_METHODS:
            return
        value = node.value
        # torch.Generator().manual_seed(s) returns the generator
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and isinstance(value.func.value, cst.Call):
            value = value.func.value
        if not isinstance(value, cst.Call):
            return
        ctor = self.qualify(value.func)
        if ctor not in catalog.RNG_OBJECTS:
            return
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                dataset = self.classes[-1]
                assert dataset is not None
                dataset.created.setdefault(t.attr.value, (node, short(self.file.code_for(value.func), 32)))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self._method() in DRAWING_METHODS and isinstance(node.value, cst.Name) and node.value.value == "self":
            dataset = self.classes[-1]
            assert dataset is not None
            dataset.used.add(node.attr.value)


# -- RPL109 -----------------------------------------------------------------------------------------

MAX_SEED = 2**32 - 1


def _constant(node: cst.CSTNode) -> Optional[int]:
    """The value of a small integer expression (``2**32``, ``1 << 32``, ``2**32 - 1``), or None."""
    value = int_value(node)
    if value is not None:
        return value
    if isinstance(node, cst.BinaryOperation):
        left, right = _constant(node.left), _constant(node.right)
        if left is None or right is None:
            return None
        op = node.operator
        try:
            if isinstance(op, cst.Power) and 0 <= right <= 128:
                return left**right
            if isinstance(op, cst.LeftShift) and 0 <= right <= 128:
                return left << right
            if isinstance(op, cst.Add):
                return left + right
            if isinstance(op, cst.Subtract):
                return left - right
            if isinstance(op, cst.Multiply):
                return left * right
        except (OverflowError, ValueError):
            return None
    return None


class NumpySeedOutOfRange(Rule):
    code = "RPL109"
    name = "numpy-seed-out-of-range"
    message = (
        "{func}({arg}) raises ValueError when the value exceeds 2**32-1 ({why}): reduce it with "
        "% 2**32, as in np.random.seed(torch.initial_seed() % 2**32)"
    )
    fix = SAFE
    fix_message = "Reduce the seed modulo 2**32"
    triggers = ("seed", "RandomState")

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: local names bound to get_worker_info() (their .seed is 64-bit)
        self.worker_infos: Set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if isinstance(value, cst.Call) and self.qualify(value.func) == "torch.utils.data.get_worker_info":
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.worker_infos.add(target.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified not in ("numpy.random.seed", "numpy.random.RandomState"):
            return
        arg = argument(node, "seed", 0)
        if arg is None or arg.star:
            return
        why = self._too_big(arg.value)
        if why is None:
            return
        # the reported range excludes the node's own parentheses: they stay around the edit
        bare = arg.value.with_changes(lpar=[], rpar=[]) if getattr(arg.value, "lpar", ()) else arg.value
        text = self.file.module.code_for_node(bare)
        atomic = isinstance(bare, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer))
        wrapped = f"{text} % 2**32" if atomic else f"({text}) % 2**32"
        self.report(
            arg.value,
            func=short(self.file.code_for(node.func), 24),
            arg=short(text, 40),
            why=why,
            edits=[self.replace(arg.value, wrapped)],
        )

    def _too_big(self, node: cst.CSTNode) -> Optional[str]:
        """Why ``node`` can fall outside [0, 2**32-1], or None."""
        value = _constant(node)
        if value is not None:
            return None if 0 <= value <= MAX_SEED else "a literal out of range"
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, cst.BinaryOperation) and isinstance(current.operator, (cst.Modulo, cst.BitAnd)):
                bound = _constant(current.right)
                if bound is None or bound <= MAX_SEED + 1:
                    continue  # reduced: what is inside cannot overflow
            if isinstance(current, cst.Call):
                qualified = self.qualify(current.func)
                if qualified in catalog.SEED_GETTERS_64BIT:
                    return f"{qualified}() is a 64-bit seed"
            if isinstance(current, cst.Attribute) and current.attr.value == "seed":
                owner = current.value
                if isinstance(owner, cst.Call) and self.qualify(owner.func) == "torch.utils.data.get_worker_info":
                    return "get_worker_info().seed is a 64-bit seed"
                if isinstance(owner, cst.Name) and owner.value in self.worker_infos:
                    return f"{owner.value}.seed from get_worker_info() is a 64-bit seed"
            stack.extend(current.children)
        return None
