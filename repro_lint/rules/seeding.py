"""Seeding (RPL1xx) and deterministic algorithms on an accelerator (RPL202).

The rules of this module (RPL101-RPL103, RPL105, RPL202) ask the project context what the execution path
of an entry point seeds, uses and turns on, across the project's files (see
:mod:`repro_lint.context`); this module only finds where to report. All of them share one
analysis of the file (:class:`SeedingScan`): every call classified once, with the body it is in.
It is one module because the rules and that analysis are one unit: each rule is a few lines
over the scan's answers (where to report, what the path seeds), and splitting them would put
the scan's private answers behind an interface used by this module alone.
Seeding mistakes visible in one file alone are in :mod:`repro_lint.rules.rng`.
"""

from __future__ import annotations

import builtins
import copy
import os
from dataclasses import replace
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from .._lazy import cst
from .. import catalog
from ..children import DEFINITIONS, syntax_children
from ..classify import (
    ALL_GENERATORS, DETERMINISM, DEVICES, ENTROPY, ENTRY_WORDS, GENERATORS, INIT, LOAD, NO_EFFECT, SHUFFLES, TRAIN, OPTION_DEVICE, PLACES, UNNAMED,
    CallEffect, classify_call, is_device_name, library_method, is_seed_named, is_seed_parameter, placed_option_devices,
)
from ..context import VARIANT, ProjectContext, Summary, built_loader_uses
from ..diagnostics import SAFE
from ..edits import NodeEdit
from ..facts import CLASS_PREFIX, MAIN_BODY, MODULE_BODY, BodyFacts, built_object_name, follows_data_device, may_star_import, only_inspects
from ..names import dotted_name
from ..setup_block import SetupBlockState, block_title, setup_block_edits, spawn_targets, spawned_functions
from ..syntax import UNKNOWN, CstArgs, cst_names, cst_names_read, assigned_pairs, assigned_targets, NoArgs, cst_literal, cst_strings, is_main_guard
from ..values import DRAWN, Const, bind_parameter, bound_names, drawing_call, holds_node
from .base import Analysis, KwargsDicts, Rule, ValueScan, is_false, short

RNG_NAMES = {"torch": "the torch RNG", "numpy": "NumPy's global RNG", "random": "Python's random RNG"}
DEVICE_NAMES = {"cuda": "CUDA", "npu": "an Ascend NPU", "accelerator": "an accelerator"}



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


def call_site(file, node: cst.Call, body: str) -> Optional[CallSite]:  # type: ignore[no-untyped-def]
    """A call of ``body`` (named as in the module facts) classified as the seeding rules read
    it: what it does by itself and the name the project context resolves, or None for a call
    of nothing named that does nothing known (``f()()``). The rule declares :class:`KwargsDicts`."""
    written = dotted_name(node.func)
    qualified = file.qualify(node.func)
    method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
    # (``data["train"].shuffle()`` in a module that imports ``load_dataset``: the library's)
    library = library_method(method, file.names.aliases, file.source) if qualified is None and method is not None else None
    effect = classify_call(library or qualified, method, CstArgs(node, file.analysis(KwargsDicts).expand, file.module_constants))
    if any(use.startswith(OPTION_DEVICE) for use in effect.uses):
        # an option declared in the file being linted: where its device shows (the project
        # context decides whether it counts for the execution path)
        effect = replace(effect, uses=frozenset(placed_option_devices(effect.uses, True)))
    name = qualified or written
    imported = qualified is not None
    if name is None and method is not None:
        built = _built_on_the_spot(node.func)  # type: ignore[arg-type]
        if built is not None:
            # ``TrainOptions().parse()``: named as the project's facts name it, resolved
            # through their instances
            name, imported = f"{built}.{method}", False
        else:
            name = f"{UNNAMED}.{method}"
    if name is None and effect is NO_EFFECT:
        return None
    return CallSite(node, body, name, imported, effect)


def _built_on_the_spot(func: cst.Attribute) -> Optional[str]:
    """For a method of an object of a class built on the spot (``TrainOptions().parse``):
    the name the project's facts give that object (``TrainOptions()``), else None."""
    value = func.value
    built = dotted_name(value.func) if isinstance(value, cst.Call) else None
    return built_object_name(built) if built is not None else None


class SeedingScan(Analysis):
    """What the seeding rules need from one traversal of a file: every call with the body it
    is in and what it does by itself, and the ``__main__`` guard (an :class:`Analysis`: the
    engine feeds it once per file, before the rules that declare it)."""

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.calls: List[CallSite] = []
        self.by_node: Dict[int, CallSite] = {}
        self.scope: List[Tuple[str, bool]] = []  # (name, is_function)
        self.main_guard: Optional[cst.If] = None
        self.in_main = False
        #: the seeding calls :meth:`seeded_at_random` found given None on the default path
        self.given_none: Set[int] = set()
        self._entry_summary: Optional[Summary] = None
        self._determinism: Optional[bool] = None  # (:meth:`determinism_on`, once per program)
        #: which program of the module this scan asks about (see
        #: :meth:`~repro_lint.context.ProjectContext.entry_starts`; None: all of them as one)
        self.console: Optional[str] = None
        #: the module's constants (``NUM_GPUS = 2``), read at the first call
        #: the enclosing nodes of the calls that are not known library calls, and of the known
        #: calls that seed a generator
        self.chains: Dict[int, Tuple[cst.CSTNode, ...]] = {}
        #: the determinism switches the file assigns: (assignment, body, effects)
        self.switches: List[Tuple[cst.CSTNode, str, FrozenSet[str]]] = []
        #: the device strings the file stores under a device name (``device = "cuda" if
        #: args.cuda else "cpu"``): (assignment, body, the value)
        self.device_settings: List[Tuple[cst.CSTNode, str, cst.BaseExpression]] = []
        #: per scope (a function's body; the module's top level and its ``__main__`` block are
        #: one) and local name, the accelerator its last assignment so far in the text names,
        #: as the facts follow it; and the calls given such a name as their device
        #: (``model.to(device)``): call -> that accelerator
        self._named_devices: Dict[Tuple[str, str], str] = {}
        self.named_device_calls: Dict[int, str] = {}
        #: can a string of the file name an accelerator at all? (else no assignment is read for one)
        self._names_accelerators = any(name in file.source.lower() for name in catalog.ACCELERATOR_PREFIXES)

    def body(self) -> str:
        last = max((i for i, (_, is_fn) in enumerate(self.scope) if is_fn), default=None)
        if last is None:
            return MAIN_BODY if self.in_main else MODULE_BODY
        return ".".join(name for name, _ in self.scope[: last + 1])

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scope.append((node.name.value, True))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.append((node.name.value, False))

    def leave_FunctionDef(self, node: cst.CSTNode) -> None:
        self.scope.pop()

    leave_ClassDef = leave_FunctionDef  # type: ignore[assignment]

    def visit_If(self, node: cst.If) -> None:
        if not self.scope and not self.in_main and is_main_guard(node):
            self.in_main = True
            self.main_guard = self.main_guard or node

    def leave_If(self, node: cst.If) -> None:
        if node is self.main_guard:
            self.in_main = False

    def visit_Call(self, node: cst.Call) -> None:
        self._call(node)

    def _call(self, node: cst.Call) -> None:
        site = call_site(self.file, node, self.body())
        if site is None:
            return
        method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
        if self._named_devices and (method == "to" or any(a.keyword is not None and a.keyword.value == "device" for a in node.args)):
            given = CstArgs(node).node("device", 0 if method == "to" else None)
            named = self._named_devices.get((self._scope_key(), given.value)) if isinstance(given, cst.Name) else None
            if named is not None:
                self.named_device_calls[id(node)] = named
        self.calls.append(site)
        self.by_node[id(node)] = site
        effect = site.effect
        if not effect.known or effect.effects & _KEPT_EFFECTS or effect.uses or effect.draws or site.name in catalog.SPAWN_CALLS:
            # a project call (its arguments may be asked about), or a seeding call (a device
            # generator's too: whether its seed is drawn at random), a
            # determinism switch, a generator's or a device's use (whether it runs, where it
            # is reported; which device a variable names), or a spawn (whether its children run)
            self.chains[id(node)] = tuple(self.file.ancestors)

    def _scope_key(self) -> str:
        body = self.body()
        return "" if body in (MODULE_BODY, MAIN_BODY) else body

    def visit_Assign(self, node: cst.Assign) -> None:
        # ``torch.backends.cudnn.deterministic = True``: a switch, and whether it runs
        for target, value in assigned_pairs(node):
            if self.file.qualify(target) == catalog.CUDNN_DETERMINISTIC and not (value is not None and is_false(value)):
                self.switches.append((node, self.body(), frozenset({"cudnn_deterministic"})))
                self.chains[id(node)] = tuple(self.file.ancestors)
            if not self._names_accelerators:
                continue
            device = catalog.device_named(cst_strings(value)) if value is not None else None
            if isinstance(target, cst.Name):
                if device is not None:
                    self._named_devices[(self._scope_key(), target.value)] = device
                else:
                    self._named_devices.pop((self._scope_key(), target.value), None)
            # ``device = "cuda"``: a device string under a device name (the facts' evidence)
            # (not ``device = torch.device("cuda")``: the call is the evidence, and not a class's
            # declaration, ``device: str = "cuda"``, which counts as an option's default)
            named = dotted_name(target) if isinstance(target, (cst.Name, cst.Attribute)) else None
            if device is None or named is None or not is_device_name(named) or (self.scope and not self.scope[-1][1]):
                continue
            called = self.file.qualify(value.func) if isinstance(value, cst.Call) else None
            if called not in catalog.DEVICE_CONSTRUCTORS and called not in catalog.DEVICE_INFO_CALLS:
                self.device_settings.append((node, self.body(), value))
                self.chains[id(node)] = tuple(self.file.ancestors)

    # -- questions ---------------------------------------------------------------------------
    def programs(self) -> List["SeedingScan"]:
        """One scan per program that starts in this module: the module itself, or, where
        several console scripts call functions of it (``train = cli:train``, ``predict =
        cli:predict``), one per script, and one for its ``__main__`` block if it has one: each
        is an entry point of its own, reported once."""
        functions = self.file.project.console_functions(self.file.path)
        if len(functions) < 2:
            return [self]
        programs = []
        for console in ((MAIN_BODY,) if self.main_guard is not None else ()) + functions:
            program = copy.copy(self)
            program.console, program._entry_summary, program._determinism = console, None, None
            programs.append(program)
        return programs

    def entry_summary(self) -> Optional[Summary]:
        """The execution path's summary when this file is an entry point, else None."""
        if not self.file.is_entry_point:
            return None
        if self._entry_summary is None:
            self._entry_summary = self.file.project.entry_summary(self.file.path, self.file.source, self.console)
        return self._entry_summary

    def call_summary(self, site: CallSite, construct: bool = False) -> Summary:
        if site.name is None or site.effect.known:
            return Summary()
        return self.file.project.call_summary(self.file.path, site.body, site.name, site.imported, construct=construct)

    def determinism_on(self, summary: Summary) -> bool:
        """Does the entry point's path turn deterministic algorithms on itself, as RPL202 and
        the setup block read it: ``summary``'s determinism, less this file's ``cudnn.deterministic
        = <value>`` assignments whose value is False on the default path (HRNet's
        ``cfg.CUDNN.DETERMINISTIC``, which its yacs config gives False, as RPL201 reads
        ``cfg.CUDNN.BENCHMARK``), where nothing else on the path turns them on."""
        if not summary.deterministic:
            return False
        if self._determinism is None:
            values = self.file.analysis(ValueScan).values
            off: Set[str] = set()
            on: Set[str] = set()
            for node, body, _ in self.switches:
                for target, value in assigned_pairs(node) if isinstance(node, cst.Assign) else ():
                    if self.file.qualify(target) != catalog.CUDNN_DETERMINISTIC:
                        continue
                    found = values.of(value, self.chains.get(id(node), ()) + (node,)) if value is not None else None
                    (off if found and all(isinstance(c, Const) and c.value is False for c in found) else on).add(body)
            off -= on
            key = os.path.abspath(self.file.path)
            held = frozenset(((key, body), "cudnn_deterministic") for body in off)
            self._determinism = not off or self.file.project.entry_summary_without(
                self.file.path, frozenset(), self.file.source, held=held, console=self.console
            ).deterministic
        return self._determinism

    def seeded_at_random(self, summary: Summary, generator: str, _active: FrozenSet[str] = frozenset()) -> Optional[CallSite]:
        """A call on the entry point's path that gives a project function's seed parameter
        (a parameter named ``seed``...) a value drawn at random on the default path
        (``seed = init_random_seed(args.seed)`` with ``--seed`` left out, then
        ``set_random_seed(seed)``), when without such calls nothing would seed ``generator``:
        the run is seeded, but from entropy, as with ``np.random.seed()``."""
        project, path = self.file.project, self.file.path
        reached = summary.reached_in(path)
        facts = project.facts(path, self.file.source)
        values = self.file.analysis(ValueScan).values
        found: List[CallSite] = []
        without: Set[Tuple[str, str]] = set()
        #: per body: for each call that seeds the generator itself, whether its seed is drawn
        own: Dict[str, List[bool]] = {}
        #: per such call: the global generators its seed was drawn from (empty: from entropy)
        draws_from: Dict[int, FrozenSet[str]] = {}
        direct: List[CallSite] = []
        for site in self.calls:
            chain = self.chains.get(id(site.node))
            if chain is None or site.body not in reached or site.name is None:
                continue
            if site.effect.known:
                if not site.node.args:
                    continue
                if generator in site.effect.effects:
                    seed = _seed_argument(site.node)
                    drawn = _drawn(values, seed, chain + (site.node,)) if seed is not None else None
                    if (
                        drawn is None and seed is not None and site.name in catalog.ENTROPY_RESEEDS
                        and values.skipped_branch(chain + (site.node,)) is None and _none_on_default(values, seed, chain + (site.node,))
                    ):
                        # ``np.random.seed(args.seed)`` with ``--seed`` defaulting to None: NumPy
                        # (``random`` too) reseeds from OS entropy, as ``np.random.seed()`` does
                        drawn = frozenset()
                        self.given_none.add(id(site.node))
                    own.setdefault(site.body, []).append(drawn is not None)
                    if drawn is not None:
                        direct.append(site)
                        draws_from[id(site)] = drawn
                continue
            target = project.resolve_call(facts, site.body, site.name, site.imported)
            if not isinstance(target, tuple) or not _has_seed_parameter(project, target):
                continue
            function = values.callee(site.node.func, chain)
            if function is None:
                if target[1].startswith(CLASS_PREFIX) and values.seeds_drawn_within(site.node, chain, lambda q, call: _seeds(q, call, generator)):
                    # a class of another module whose ``__init__`` draws the seed itself when
                    # none is given (collie's ``Interactions()``)
                    found.append(site)
                    without.add(target)  # type: ignore[arg-type]
                continue
            if function[0] is not values and values.seeds_drawn_within(site.node, chain, lambda q, call: _seeds(q, call, generator)):
                # a helper of another module that draws the seed itself when none is given
                found.append(site)
                without.add(target)  # type: ignore[arg-type]
                continue
            if not site.node.args:
                continue
            for param in function[1].params.params:
                if not is_seed_parameter(param.name.value):
                    continue
                given = bind_parameter(function[1], param.name.value, site.node.args)
                if isinstance(given, cst.Arg) and any(c is DRAWN for c in values.of(given.value, chain + (site.node,)) or ()):
                    found.append(site)
                    without.add(target)  # type: ignore[arg-type]
                    break
        # a call that hands a project helper the drawn seed is reported before the helper's own
        # seeding call that receives it: the seed comes from the caller
        found += direct
        if found and "if" in self.file.source and any(site.body not in (MODULE_BODY, MAIN_BODY) for site in found):
            # a seed drawn in a function that only calls under an ``if`` the default path skips
            # reach (``if args.is_tune: run_tune()``) is not drawn on the default path
            on_default_path = self._reached_on_default_path(summary, values)
            found = [site for site in found if site.body in (MODULE_BODY, MAIN_BODY) or site.body in on_default_path]
        if not found:
            return None
        key = os.path.abspath(path)
        held = frozenset(((key, body), generator) for body, drawn in own.items() if all(drawn))
        rest = project.entry_summary_without(path, frozenset(without), self.file.source, held=held, console=self.console)
        if rest.seeds(generator):
            return None
        # a draw from a generator that the rest of the path seeds is the same on every run,
        # unless that generator's own seed is drawn at random too (``seed = random.randint(...)``,
        # then ``random.seed(seed)`` and ``torch.manual_seed(seed)``)
        active = _active | {generator}

        def fixed(drawn_from: str) -> bool:
            return rest.seeds(drawn_from) and drawn_from not in active and self.seeded_at_random(summary, drawn_from, active) is None

        found = [site for site in found if not any(fixed(g) for g in draws_from.get(id(site), ()))]
        return found[0] if found else None

    def seeded_off_default(self, summary: Summary, generator: str) -> Optional[Tuple[CallSite, cst.If]]:
        """A call on the entry point's path in this file that seeds ``generator`` (a direct
        seeding call, a library seeding helper, a project function that seeds) under an ``if``
        that does not take that branch on the default path (``if args.seed is not None:`` with
        ``--seed`` defaulting to None), when without such calls nothing would seed
        ``generator`` and the path still uses it: a run with the default arguments is not
        seeded. The call and its ``if``. (A helper that seeds before its own draws, called only
        under such an ``if``, takes its draws off the default path with it.)"""
        found, rest = self._off_default_path(summary, frozenset({generator}), lambda s: s.seeds(generator))
        if found is None or rest is None or rest.seeds(generator) or not rest.uses_generator(generator):
            return None
        return found if isinstance(found[0], CallSite) else None

    def switched_off_default(self, summary: Summary) -> Optional[Tuple[cst.CSTNode, cst.If]]:
        """The same for deterministic mode: a switch on the entry point's path in this file
        (``torch.use_deterministic_algorithms(True)``, ``cudnn.deterministic = True``, a helper
        that turns it on) only under an ``if`` not taken on the default path, when nothing else
        turns it on. The call or assignment, and its ``if``."""
        chosen = self._chosen_by_option
        found = self._off_default(summary, DETERMINISM, lambda s: s.deterministic, chosen)
        return None if found is None else (found[0].node if isinstance(found[0], CallSite) else found[0], found[1])

    def _chosen_by_option(self, branch: cst.If) -> bool:
        """Does the test name an option made for determinism (``if args.deterministic:``)? Then
        the switch is the user's choice, as ``deterministic=args.deterministic`` is: it counts."""
        test = self.file.code_for(branch.test).lower()
        if not any(word in test for word in catalog.DETERMINISM_OPTION_WORDS):
            return False
        # ``deterministic = False`` bound once in the code, then ``if deterministic:``: a
        # constant, which no run chooses
        name = branch.test.expression if isinstance(branch.test, cst.UnaryOperation) and isinstance(branch.test.operator, cst.Not) else branch.test
        return not (isinstance(name, cst.Name) and _literal_constant(self.file.module, name.value))

    def devices_on_default(self, summary: Summary, devices: FrozenSet[str]) -> List[str]:
        """The ``devices`` the entry point still runs on when this file's calls that use them
        only under an ``if`` the default path skips are left out (``device = "cpu"``, then
        ``if device.startswith("npu"): torch.npu.set_device(device)``)."""
        elsewhere, cut = self._held_elsewhere(summary, devices)
        if "if" not in self.file.source and not elsewhere and not cut:
            return sorted(devices)
        _, rest = self._off_default_path(
            summary, frozenset(devices), lambda s: bool(devices & s.uses), uses=True, also_held=elsewhere, also_cut=cut
        )
        return sorted(devices if rest is None else devices & rest.uses)

    def _held_elsewhere(self, summary: Summary, devices: FrozenSet[str]) -> Tuple[FrozenSet[Tuple[Tuple[str, str], str]], FrozenSet[Tuple[Tuple[str, str], Tuple[str, str]]]]:
        """The uses of ``devices`` by functions of other modules on the path that happen only
        under an ``if`` the default path skips there, as that module's values decide it with the
        project's calls of the function (``if len(gpus) > 1: DataParallel(...)`` after ``if gpus
        is None: gpus = []``, no call passing ``gpus``; ``if args.launcher != "none":
        torch.cuda.set_device(...)`` with ``--launcher`` defaulting to ``none``): ((module,
        function), device) for each function all of whose evidence of the device is such calls;
        and the calls of such functions made only under such an ``if`` (``else:
        init_dist(args.launcher)`` in basicsr's ``parse_options``): ((module, function), its
        callee) for each function all of whose calls of that callee are."""
        project = self.file.project
        me = os.path.abspath(self.file.path)
        # the functions (and methods of module-level classes) of other modules on the path
        bodies: Dict[Tuple[str, str], BodyFacts] = {}
        for path, name in summary.reached:
            name = name.partition(VARIANT)[0]
            facts = project.facts(path) if path != me and name not in (MODULE_BODY, MAIN_BODY) and name.count(".") <= 1 else None
            body = facts.body(name) if facts is not None else None
            if body is not None:
                bodies[(path, name)] = body
        using = {node: {d: n for d, n in body.device_events.items() if d in devices} for node, body in bodies.items() if not devices.isdisjoint(body.device_events)}
        if not using:
            return frozenset(), frozenset()
        # and those that lead to them (``parse_options`` calls ``init_dist``, which calls
        # ``_init_dist_pytorch``, which sets the device)
        called = {node: _resolved_calls(project, *node) for node in bodies}
        leading = set(using)
        for _ in range(4):
            more = {node for node, targets in called.items() if node not in leading and not leading.isdisjoint(targets)}
            if not more:
                break
            leading |= more
        questions: Dict[Tuple[str, str], Tuple[FrozenSet[str], FrozenSet[Tuple[str, str]]]] = {}
        for node in leading:
            asked = _may_be_off(bodies[node], called[node], devices, leading)
            if asked:  # else every use of the device, and every call leading to one, is outside any ``if``
                questions[node] = asked
        if not questions:
            return frozenset(), frozenset()
        # reading those modules is worth it only if the answers could take the finding away:
        # with every one of them off, and this file's own uses of the devices too (they may be
        # off its default path as well: a helper's ``if args.cuda: x = x.cuda()``), are all the
        # devices gone?
        mine = project.facts(me, self.file.source)
        own = [(MODULE_BODY, mine.module_body), (MAIN_BODY, mine.main_body), *mine.functions.items()] if mine is not None else []
        best = project.entry_summary_without(
            me, frozenset(), self.file.source,
            held_uses=frozenset((node, d) for node, (used, _) in questions.items() for d in used)
            | frozenset(((me, name), d) for name, body in own if body is not None for d in devices & set(body.device_events)),
            cut=frozenset((node, t) for node, (_, called) in questions.items() for t in called),
            console=self.console,
        )
        if devices & best.uses:
            return frozenset(), frozenset()
        modules = self.file.analysis(ValueScan).modules
        held: Set[Tuple[Tuple[str, str], str]] = set()
        cut: Set[Tuple[Tuple[str, str], Tuple[str, str]]] = set()
        for (path, name), asked in questions.items():
            off, calls_off = project.remembered(
                ("off the default path", path, name, *asked), lambda p=path, n=name, a=asked: _off_default_in(project, modules, p, n, *a)
            )
            events = using.get((path, name), {})
            held.update(((path, name), device) for device in off if events.get(device))
            cut.update(((path, name), target) for target in calls_off)
        return frozenset(held), frozenset(cut)

    def _off_default(
        self,
        summary: Summary,
        wanted: FrozenSet[str],
        holds: Callable[[Summary], bool],
        chosen: Optional[Callable[[cst.If], bool]] = None,
    ) -> Optional[Tuple["CallSite | cst.CSTNode", cst.If]]:
        """The first call (or switch) in this file on the entry point's path that does what
        ``wanted`` names under an ``if`` the default path skips, and that ``if``, when without
        such calls ``holds`` no longer holds for the path."""
        first, rest = self._off_default_path(summary, wanted, holds, chosen)
        return None if first is None or rest is None or holds(rest) else first

    def _off_default_path(
        self,
        summary: Summary,
        wanted: FrozenSet[str],
        holds: Callable[[Summary], bool],
        chosen: Optional[Callable[[cst.If], bool]] = None,
        uses: bool = False,
        also_held: FrozenSet[Tuple[Tuple[str, str], str]] = frozenset(),
        also_cut: FrozenSet[Tuple[Tuple[str, str], Tuple[str, str]]] = frozenset(),
    ) -> Tuple[Optional[Tuple["CallSite | cst.CSTNode", cst.If]], Optional[Summary]]:
        """The first call (or switch) in this file on the entry point's path that does what
        ``wanted`` names (its effects; with ``uses``, what it uses) under an ``if`` the default
        path skips, with that ``if``; and the path without the calls that do so only there
        (None, None: no such call)."""
        project, path = self.file.project, self.file.path
        key = os.path.abspath(path)
        reached = {body.partition(VARIANT)[0] for body in summary.reached_in(path)}
        facts = project.facts(path, self.file.source)
        # the default path is the run with no options: a device used only under ``if args.gpu >= 0:``
        # with ``--gpu`` defaulting to -1 is not where it runs, as a seed set only there does not seed it
        values = self.file.analysis(ValueScan).values
        #: per body: for each call (or switch assignment) that has the effect itself, whether it is off the default path
        own: Dict[str, List[bool]] = {}
        #: per (body, project function that has the effect): the same for its calls
        calls: Dict[Tuple[str, Tuple[str, str]], List[bool]] = {}
        #: with ``uses``: per (body, device), for each call that uses it itself, the same
        used: Dict[Tuple[str, str], List[bool]] = {}
        first: Optional[Tuple["CallSite | cst.CSTNode", cst.If]] = None
        sites: List[Tuple["CallSite | cst.CSTNode", str]] = [(site, site.body) for site in self.calls]
        if not uses:
            sites += [(node, body) for node, body, effects in self.switches if effects & wanted]
        # ``mp.spawn(main_worker, ...)``: its children run ``main_worker``, as a call of it would
        spawned = {id(call): function for function, _, call in spawn_targets(self.file)}
        for site, body in sites:
            if body not in reached:
                continue
            target: Optional[Tuple[str, str]] = None
            targets: List[Tuple[str, str]] = []
            if isinstance(site, CallSite) and id(site.node) in spawned:
                node = site.node
                targets = [(facts.path if facts is not None else key, spawned[id(site.node)])]
                if not holds(project.closure(targets)):
                    continue
                target = targets[0]
            elif not isinstance(site, CallSite):
                node: cst.CSTNode = site
            elif uses and site.effect.uses & wanted:
                node = site.node  # the call itself uses the device (``x.cuda()``)
            elif site.effect.known:
                if uses or not site.effect.effects & wanted:
                    continue
                node = site.node
            elif site.name is None:
                continue
            else:
                node = site.node
                resolved = project.resolve_call(facts, site.body, site.name, site.imported)
                # a method of an object (``trainer.train()``, ``Sampler().sample()``)
                built = [] if resolved else project.instance_methods(facts, site.body, site.name)
                if isinstance(resolved, tuple) or built:
                    targets = [resolved] if isinstance(resolved, tuple) else built  # type: ignore[list-item]
                    if not holds(project.closure(targets)):
                        continue
                    target = targets[0]
                elif uses or not resolved or not resolved & wanted:
                    continue
            branch = values.skipped_branch(self.chains.get(id(node), ()) + (node,))
            if branch is not None and chosen is not None and chosen(branch):
                branch = None  # the user's own choice: it counts
            if uses and target is None:
                for device in site.effect.uses & wanted:  # type: ignore[union-attr]
                    # ``torch.device("cuda" if args.cuda else "cpu")`` with ``--cuda`` off by default
                    off = branch is not None or self._device_not_chosen(site, device)  # type: ignore[arg-type]
                    used.setdefault((body, device), []).append(off)
                    if off and branch is None and first is None:
                        first = (site, None)  # type: ignore[assignment]
            elif target is None:
                own.setdefault(body, []).append(branch is not None)
            else:
                for each in targets:
                    calls.setdefault((body, each), []).append(branch is not None)
            if branch is not None and first is None:
                first = (site, branch)
        if uses:
            first = self._device_settings_off(reached, wanted, values, used, first)
        if first is None:
            # ``also_held``: the uses other modules make only off the default path
            if not also_held and not also_cut:
                return None, None
            return None, project.entry_summary_without(path, frozenset(), self.file.source, held_uses=also_held, cut=also_cut, console=self.console)
        cut = also_cut | frozenset(((key, body), target) for (body, target), off in calls.items() if all(off))
        if uses:
            # a body's use of a device is left out when every piece of evidence of it there (by
            # its facts: calls, device strings, imports) is one of these calls
            held = also_held | frozenset(
                ((key, body), device)
                for (body, device), off in used.items()
                if all(off) and facts is not None and (found := facts.body(body)) is not None
                and found.device_events.get(device) == len(off)
            )
            return first, project.entry_summary_without(path, frozenset(), self.file.source, held_uses=held, cut=cut, console=self.console)
        held = frozenset(((key, body), effect) for body, off in own.items() if all(off) for effect in wanted)
        if MODULE_BODY in own and all(own[MODULE_BODY]) and facts is not None:
            # the module's functions count what its top level seeds as seeded before them (the
            # project context): held there too, where a function does not seed it itself
            held |= frozenset(
                ((key, name), effect)
                for name, body in facts.functions.items()
                for effect in wanted
                if effect not in body.effects and not any(effect in guarded for guarded in body.guarded.values())
            )
        return first, project.entry_summary_without(path, frozenset(), self.file.source, held=held, cut=cut, console=self.console)

    def where(self, summary: Summary, wanted: FrozenSet[str]) -> cst.CSTNode:
        """Where to report something the execution path does: the first call on the path in
        this file that does it directly, else the ``__main__`` guard, else the first call of the
        top level or of a function a console script calls that leads to it, else the first
        statement."""
        reached = summary.reached_in(self.file.path)
        values = self.file.analysis(ValueScan).values if "if" in self.file.source else None
        always_off = _parameters_always_off(summary, self.file.path)
        on_default_path: Optional[FrozenSet[str]] = None
        #: the first use in a body that only calls under skipped ``if``s reach: the place when
        #: the path has no other
        off_path: Optional[cst.CSTNode] = None
        # a draw given a generator of its own (``torch.randperm(n, generator=g)``) is the place
        # only when the file has no other use: it draws from ``g``, not the global generator
        for own_generators in (False, True):
            for site in self.calls:
                if not own_generators and _draws_from_own_generator(site):
                    continue
                uses = site.effect.uses & wanted
                if not uses and not site.effect.known and "torch" in wanted and site.name is not None:
                    uses = self._project_loader_uses(site, values) & wanted  # ``MyLoader(ds, shuffle=True)``
                    # ``MyLinear(4, 4)`` of ``class MyLinear(nn.Linear)``: the library layer's initialisation
                    uses = uses or self._library_base_uses(site) & wanted
                if uses and not site.effect.known and uses.issubset(DEVICES) and _given_device(site.node):
                    uses = frozenset()  # a project function given ``device=`` only receives the device
                if SHUFFLES in site.effect.uses and uses and values is not None and self._shuffle_off(site, values):
                    uses = uses - {SHUFFLES, "torch"}  # ``shuffle=(sampler is None)`` with a sampler always built
                if uses == {INIT} and ((TRAIN not in summary.uses and LOAD in site.effect.uses) or self._weights_loaded(site)):
                    # pretrained weights replace the drawn ones in a program that does not train
                    # (``resnet18(pretrained=True)``), and so do the weights the same function then
                    # loads (``net = Net(); net.load_state_dict(...)``)
                    uses = frozenset()
                if site.body in reached and not _declares_option(site) and (uses or self._places_on(site, wanted)):
                    chain = self.chains.get(id(site.node))
                    if values is not None and chain is not None and values.skipped_branch(chain + (site.node,)) is not None:
                        continue  # under an ``if`` the default path skips (``if args.launcher != "none":``)
                    if chain is not None and _under_parameter_off(chain + (site.node,), always_off.get(site.body, frozenset())):
                        continue  # under ``if conditional:`` in a body every call on the path reaches with it off
                    if values is not None and chain is not None and not wanted.isdisjoint(DEVICES) and self._follows_data(chain + (site.node,)):
                        continue  # ``if y.is_cuda: y = y.cuda()`` keeps the data where it is: no evidence
                    if values is not None and site.body not in (MODULE_BODY, MAIN_BODY):
                        if on_default_path is None:
                            on_default_path = self._reached_on_default_path(summary, values)
                        if site.body not in on_default_path:
                            # in a body only such an ``if`` calls (``if head == "mlp": MLPHead(d)``)
                            off_path = off_path or site.node
                            continue
                    return site.node
        if off_path is not None:
            return off_path
        if self.main_guard is not None and self.console in (None, MAIN_BODY):
            return self.main_guard
        key = os.path.abspath(self.file.path)
        starts = {name for path, name in self.file.project.entry_starts(key, self.console) if path == key}
        leading: Optional[cst.CSTNode] = None
        skipped_leading: Optional[cst.CSTNode] = None
        for site in self.calls:
            # a loader handed its dataset runs it when it is iterated: the loop is the use; a
            # model whose weights the same body then loads is not (its drawn weights are replaced)
            led = self.call_summary(site).uses & wanted if site.body in starts else frozenset()
            if led == {INIT} and self._weights_loaded(site):
                continue
            if site.body in starts and (led or (site.name not in catalog.DATALOADERS and self._hands_on(site, wanted))):
                if values is not None and values.skipped_branch(self.chains.get(id(site.node), ()) + (site.node,)) is not None:
                    # under an ``if`` the default path skips (``if args.inference_only:``): the
                    # place only when no call the default path makes leads to the use
                    skipped_leading = skipped_leading or site.node
                    continue
                leading = site.node
                break
        leading = leading or skipped_leading
        loop = self._iterated_loader(wanted)
        if loop is not None and (leading is None or _comes_first(self.file.module, loop, leading)):
            return loop
        if leading is not None:
            return leading
        if not wanted.isdisjoint(DEVICES):
            # a device known only as an option's or a module's default, which counts because
            # the path places something on a device named elsewhere: the first call that does
            for site in self.calls:
                if site.body in starts and PLACES in self.call_summary(site).uses:
                    return site.node
        module = self.file.module
        return module.body[0] if module.body else module

    def _project_loader_uses(self, site: CallSite, values: Any) -> FrozenSet[str]:
        """A project DataLoader subclass built at ``site`` (``MyLoader(ds, shuffle=True)``, or
        through a local name bound to it, ``loader_fn = MyLoader``): what the DataLoader it
        derives from uses with the call's arguments, as the call graph counts them for the body
        (torch, when it shuffles with no generator); the arguments' values on the default path,
        where they are known. Empty for anything else."""
        project = self.file.project
        facts = project.facts(self.file.path, self.file.source)
        if facts is None:
            return frozenset()
        func = site.node.func

        def loader_class(name: cst.BaseExpression) -> Any:
            if isinstance(name, cst.Name) and name.value in facts.loaders:
                return project.loader_class(f"{facts.module_name}.{name.value}")
            qualified = self.file.qualify(name)
            return project.loader_class(qualified) if qualified is not None and not catalog.DATALOADERS.get(qualified) else None

        names = [func]
        if values is not None and isinstance(func, cst.Name) and func.value not in facts.loaders:
            # the evaluator is asked only when something the name may stand for is a loader class
            maybe = any(loader_class(n) is not None for n in (func, *values.may_name(func.value)))
            names = (values.names(func, self.chains.get(id(site.node), ()) + (site.node,)) or []) if maybe else []
        spec = next((found for found in map(loader_class, names) if found is not None), None)
        if spec is None or any(a.star for a in site.node.args):
            return frozenset()
        chain = self.chains.get(id(site.node), ()) + (site.node,)

        def value(expr: cst.BaseExpression) -> Any:
            literal = cst_literal(expr)
            if literal is not UNKNOWN or values is None:
                return literal
            found = values.of(expr, chain)
            return found[0].value if found is not None and len(found) == 1 and isinstance(found[0], Const) else UNKNOWN

        positional = [value(a.value) for a in site.node.args if a.keyword is None]
        keywords = {a.keyword.value: value(a.value) for a in site.node.args if a.keyword is not None}
        return built_loader_uses(spec, positional, keywords)

    def _shuffle_off(self, site: CallSite, values: Any) -> bool:
        """Does the DataLoader call's ``shuffle`` argument, not a literal, hold a value that
        turns shuffling off on every path the values see (``shuffle=(sampler is None)`` where
        ``sampler`` is always a sampler)?"""
        params = catalog.DATALOADERS.get(site.name or "")
        if params is None:
            return False
        given = CstArgs(site.node).node("shuffle", catalog.loader_position(params, "shuffle"))
        if not isinstance(given, cst.BaseExpression):
            return False
        found = values.of(given, self.chains.get(id(site.node), ()) + (site.node,))
        return bool(found) and all(isinstance(c, Const) and not catalog.is_on(c.value) for c in found)

    def _follows_data(self, chain: Tuple[cst.CSTNode, ...]) -> bool:
        """Is the end of ``chain`` in the body of an ``if`` that asks where a tensor already is
        (``if y.is_cuda:``, as the facts read it: :func:`~repro_lint.facts.follows_data_device`)?"""
        for parent, child in zip(chain, chain[1:]):
            if isinstance(parent, cst.If) and child is parent.body and follows_data_device(self.file.code_for(parent.test)):
                return True
        return False

    def _weights_loaded(self, site: CallSite) -> bool:
        """Is the model built by ``site`` bound to a name (``resizer = ResNetV2(...).to(d)``)
        whose weights the same body then loads (``resizer.load_state_dict(...)``), after the
        assignment and before the name is bound again (``model = Net(8)``, loaded, then
        ``model = Net(4)`` is another model)?"""
        chain = self.chains.get(id(site.node), ())
        at = next((i for i in range(len(chain) - 1, -1, -1) if isinstance(chain[i], (cst.Assign, cst.FunctionDef))), None)
        if at is None or not isinstance(chain[at], cst.Assign):
            return False
        assignment = chain[at]
        names = {dotted_name(t.target) for t in assignment.targets} - {None}
        body = next((n for n in reversed(chain[:at]) if isinstance(n, (cst.FunctionDef, cst.Module))), self.file.module)
        stack: List[cst.CSTNode] = [body]
        after = False  # the walk goes in the order of the text
        while stack:
            node = stack.pop()
            if node is assignment:
                after = True
                continue
            if after and isinstance(node, cst.Assign) and names & {dotted_name(t.target) for t in node.targets}:
                return False  # bound again before any load
            if (
                after and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value in catalog.WEIGHT_LOADERS and dotted_name(node.func.value) in names
            ):
                return True
            children = [c for c in syntax_children(node) if not isinstance(c, (cst.ClassDef, cst.Lambda)) and not (isinstance(c, cst.FunctionDef) and c is not body)]
            stack.extend(reversed(children))
        return False

    def _reached_on_default_path(self, summary: Summary, values: Any) -> FrozenSet[str]:
        """The bodies of this file that the entry point's path reaches without the calls of
        this file made only under an ``if`` the default path skips."""
        project, path = self.file.project, self.file.path
        reached = summary.reached_in(path)
        facts = project.facts(path, self.file.source)
        key = os.path.abspath(path)
        calls: Dict[Tuple[str, Tuple[str, str]], List[bool]] = {}
        for site in self.calls:
            if site.body not in reached or site.effect.known or site.name is None:
                continue
            resolved = project.resolve_call(facts, site.body, site.name, site.imported)
            targets = [resolved] if isinstance(resolved, tuple) else [] if resolved else project.instance_methods(facts, site.body, site.name)
            # the calls of this file's own functions and classes (the bodies asked about)
            targets = [t for t in targets if t[0] == key]
            if not targets:
                continue
            off = values.skipped_branch(self.chains.get(id(site.node), ()) + (site.node,)) is not None
            for target in targets:
                calls.setdefault((site.body, target), []).append(off)
        cut = frozenset(((key, body), target) for (body, target), off in calls.items() if all(off))
        if not cut:
            return frozenset(reached)
        return frozenset(project.entry_summary_without(path, frozenset(), self.file.source, cut=cut, console=self.console).reached_in(path))

    def _iterated_loader(self, wanted: FrozenSet[str]) -> Optional[cst.For]:
        """The first loop of the module's top level (outside any function) over a DataLoader
        built here from a project dataset whose items lead to what ``wanted`` names
        (``for i, data in enumerate(dataloader, 0):`` runs ``PartDataset.__getitem__``)."""
        values = self.file.analysis(ValueScan).values
        stack: List[Tuple[cst.CSTNode, Tuple[cst.CSTNode, ...]]] = [(s, (self.file.module,)) for s in reversed(self.file.module.body)]
        while stack:
            node, chain = stack.pop()
            if isinstance(node, cst.For):
                for name in _mentioned_names(node.iter):
                    if "." in name:
                        continue
                    for candidate in values.of(cst.Name(name), chain + (node,)) or ():
                        if isinstance(candidate, cst.Call) and self.file.qualify(candidate.func) in catalog.DATALOADERS and self._loads(candidate, wanted):
                            return node
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)) or not isinstance(node, cst.BaseCompoundStatement):
                continue
            inner = [c for c in syntax_children(node) if isinstance(c, (cst.BaseSuite, cst.BaseCompoundStatement, cst.Else))]
            for child in reversed(inner):
                statements = child.body if isinstance(child, cst.BaseSuite) and isinstance(child.body, (list, tuple)) else [child]
                stack.extend((s, chain + (node,)) for s in reversed(statements))
        return None

    def _loads(self, loader: cst.Call, wanted: FrozenSet[str]) -> bool:
        """Does the loader's dataset (its first argument: a project object) draw what ``wanted``
        names in the methods a loader calls (``__getitem__``, ``__iter__``)?"""
        dataset = CstArgs(loader).node("dataset", 0)
        dotted = dotted_name(dataset) if isinstance(dataset, (cst.Name, cst.Attribute)) else None
        if dotted is None:
            return False
        project = self.file.project
        facts = project.facts(self.file.path, self.file.source)
        methods = [f"{dotted}.{m}" for m in catalog.DRAWING_METHODS]
        if any(project.call_summary_in(facts, MODULE_BODY, m, False).uses & wanted for m in methods):
            return True
        # the objects built into the dataset (``Items(Crop())``, ``transform=Compose([Crop()])``),
        # which its ``__getitem__`` runs
        refs: List[str] = []
        values = self.file.analysis(ValueScan).values
        held = values.of(cst.Name(dotted), (self.file.module,)) if "." not in dotted else None
        for built in held or ():
            stack: List[cst.CSTNode] = [arg.value for arg in built.args] if isinstance(built, cst.Call) else []
            while stack:
                part = stack.pop()
                if isinstance(part, cst.Call):
                    name = self.file.qualify(part.func) or dotted_name(part.func)  # as the facts name a ref
                    if name is not None:
                        refs.append(name)
                    stack.extend(arg.value for arg in part.args)
                elif isinstance(part, (cst.List, cst.Tuple)):
                    stack.extend(e.value for e in part.elements)
        return bool(refs) and bool(project.handed_on_summary(facts, MODULE_BODY, refs).uses & wanted)

    def _hands_on(self, site: CallSite, wanted: FrozenSet[str]) -> bool:
        """Does the call hand on a project function or class that leads to what ``wanted`` names
        (``fire.Fire(train)``, ``fire.Fire({"train": train})``)? (An object handed on, as to
        ``len(dataset)``, is not where its methods run; nor is a function only looked at,
        ``inspect.getfullargspec(train)``.)"""
        if only_inspects(site.name, site.name if site.imported else None):
            return False
        refs: List[Tuple[str, bool]] = []
        stack: List[cst.BaseExpression] = [arg.value for arg in site.node.args]
        while stack:
            value = stack.pop()
            if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
                stack.extend(e.value for e in value.elements)
            elif isinstance(value, cst.Dict):
                stack.extend(e.value for e in value.elements)
            elif isinstance(value, (cst.Name, cst.Attribute)):
                dotted = dotted_name(value)
                if dotted is not None:
                    qualified = self.file.qualify(value)
                    refs.append((qualified or dotted, qualified is not None))
        project = self.file.project
        facts = project.facts(self.file.path, self.file.source)
        if site.name == "getattr" and not site.imported and site.node.args:
            # ``getattr(models, args.model)``: a name looked up on a project module
            looked_on = dotted_name(site.node.args[0].value)
            return looked_on is not None and bool(project.looked_up_summary(facts, site.body, looked_on).uses & wanted)
        if site.name in ("globals", "locals") and not site.imported and not site.node.args:
            # ``globals()[args.model](...)``: a name of this module looked up by a string
            return bool(project.looked_up_summary(facts, site.body, None).uses & wanted)
        named = [ref for ref, imported in refs if isinstance(project.resolve_call(facts, site.body, ref, imported), tuple)]
        return bool(named) and bool(project.handed_on_summary(facts, site.body, named).uses & wanted)

    def _library_base_uses(self, site: CallSite) -> FrozenSet[str]:
        """What building a class of this module does through the library classes it derives
        from (``class SAGEConvLink(SAGEConv)``: the layer's random initial weights, drawn by no
        line of the file but the construction). A class of another module is used there, as
        its ``__init__`` would be."""
        if site.imported:
            return frozenset()
        bases = self.file.project.called_class_library_bases(self.file.path, self.file.source, None, site.name)
        found: Set[str] = set()
        for base in bases:
            found |= classify_call(base, base.rsplit(".", 1)[-1], NoArgs()).uses
        return frozenset(found)

    def _device_settings_off(
        self, reached: Set[str], wanted: FrozenSet[str], values: Any, used: Dict[Tuple[str, str], List[bool]], first: Any
    ) -> Any:
        """For :meth:`_off_default_path`: the device strings stored under a device name that
        the default path skips (``if args.cuda: device = "cuda"``, ``device = "cuda" if
        args.cuda else "cpu"`` with ``--cuda`` off by default), and the calls that place
        something through such a name (``model.to(device)``: off where no value the name holds
        on the default path names the device), entered in ``used`` as the calls are; returns
        ``first`` or the first of them that is off."""
        settings: Set[Tuple[str, str]] = set()
        for node, body, value in self.device_settings:
            device = catalog.device_named(cst_strings(value))
            if body not in reached or device not in wanted:
                continue
            chain = self.chains.get(id(node), ()) + (node,)
            branch = values.skipped_branch(chain)
            off = branch is not None or (isinstance(value, cst.IfExp) and _branch_not_naming(values, value, chain, device))
            used.setdefault((body, device), []).append(off)
            settings.add((body, device))
            if off and first is None:
                first = (node, branch)
        for body, device in settings:
            for site in self.calls:
                # as the facts count them: ``x.to(device)`` or ``device=device``, with the local
                # name's last assignment in the text naming the device
                if site.body != body or site.effect.uses & wanted or self.named_device_calls.get(id(site.node)) != device:
                    continue
                # ``model.to(device)``: off where the name holds no string naming the device there
                off = not self._places_on(site, frozenset({device}))
                used.setdefault((body, device), []).append(off)
        return first

    def _device_not_chosen(self, site: CallSite, device: str) -> bool:
        """Is ``device`` named in the call only in the branch of a conditional expression that
        the default path does not take (``"cuda" if args.cuda else "cpu"``, ``--cuda`` off by
        default)?"""
        node = site.node
        choices = [e for e in _device_arguments(site.node, site.name) if isinstance(e, cst.IfExp)]
        if not choices:
            return False
        values = self.file.analysis(ValueScan).values
        chain = self.chains.get(id(node), ()) + (node,)
        return all(_branch_not_naming(values, choice, chain, device) for choice in choices)

    def _places_on(self, site: CallSite, wanted: FrozenSet[str]) -> bool:
        """Does the call place something on one of the devices ``wanted`` through a value that
        names it on the default path (``device = "cuda"``, then ``model.to(device)``)? A
        project function or class given ``device=`` only receives the device: the placement
        is where it uses it."""
        if wanted.isdisjoint(DEVICES):
            return False
        node = site.node
        method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
        if method != "to" and not site.effect.known:
            return False
        expressions = [e for e in _device_arguments(site.node, site.name) if not isinstance(e, cst.SimpleString)]
        if not expressions:
            return False
        values = self.file.analysis(ValueScan).values
        chain = self.chains.get(id(node), ()) + (node,)
        for expression in expressions:
            # ``from utils import device`` (or ``utils.device``), a project module's ``device =
            # torch.device("cuda" ...)``
            qualified = self.file.qualify(expression) if isinstance(expression, (cst.Name, cst.Attribute)) else None
            if qualified is not None and self.file.project.imported_variable_device(qualified) in wanted:
                return True
            if self._device_function_call(site, expression, wanted):
                return True  # ``x.to(get_device())``
            for candidate in values.of(expression, chain) or ():
                if self._device_function_call(site, candidate, wanted):
                    return True  # ``dev = get_device()``, then ``x.to(dev)``
                # Lightning's names too (``accelerator = "gpu"``): a device string is no such name
                if isinstance(candidate, Const) and isinstance(candidate.value, str) and catalog.device_named((candidate.value,), _DEVICE_WORDS) in wanted:
                    return True
                # ``cudaid = "cuda:" + str(args.dev)``: an expression built from a device string
                if isinstance(candidate, (cst.BinaryOperation, cst.FormattedString)) and catalog.device_named(cst_strings(candidate)) in wanted:
                    return True
                # ``loc = "npu:{}".format(rank)``
                if (
                    isinstance(candidate, cst.Call) and isinstance(candidate.func, cst.Attribute) and candidate.func.attr.value == "format"
                    and catalog.device_named(cst_strings(candidate.func.value)) in wanted
                ):
                    return True
                # ``device = torch.device("cuda" if ... else "cpu")`` bound elsewhere
                if isinstance(candidate, cst.Call) and self.file.qualify(candidate.func) in catalog.DEVICE_CONSTRUCTORS:
                    given = CstArgs(candidate).node(*catalog.DEVICE_CONSTRUCTORS[self.file.qualify(candidate.func)])
                    if isinstance(given, cst.BaseExpression) and catalog.device_named(cst_strings(given)) in wanted:
                        return True
                    # ``device = torch.device(args.device)`` with ``--device`` defaulting to ``cuda:1``;
                    # a local of the function that builds it (``torch.device(device_str)`` in the
                    # caller, ``device_str = "cuda" if ... else "cpu"``) where it is built
                    built_at = self.chains.get(id(candidate))
                    if isinstance(given, (cst.Name, cst.Attribute)) and any(
                        isinstance(c, Const) and isinstance(c.value, str) and catalog.device_named((c.value,)) in wanted
                        for where in ((chain,) if built_at is None else (chain, built_at + (candidate,)))
                        for c in values.of(given, where) or ()  # the options' values where the device is used
                    ):
                        return True
        return False

    def _device_function_call(self, site: CallSite, value: Any, wanted: FrozenSet[str]) -> bool:
        """Is ``value`` a call of a project function named for a device (``get_device()``, of
        this module or another) whose path uses one of the devices ``wanted`` (``return
        torch.device("cuda:0")``)?"""
        if not isinstance(value, cst.Call):
            return False
        written = dotted_name(value.func)
        if written is None or not is_device_name(written.rsplit(".", 1)[-1]):
            return False
        qualified = self.file.qualify(value.func)
        summary = self.file.project.call_summary(self.file.path, site.body, qualified or written, qualified is not None)
        return not summary.uses.isdisjoint(wanted)


#: every name a device keyword accepts (``device="cuda"``, ``accelerator="gpu"``)
_DEVICE_WORDS = tuple(dict.fromkeys(name for _, names in catalog.DEVICE_KEYWORDS for name in names))


def _draws_from_own_generator(site: CallSite) -> bool:
    """Is the call a torch draw given a generator (``torch.randperm(n, generator=g)``)?"""
    if site.name not in catalog.TORCH_DRAWS:
        return False
    given = CstArgs(site.node).node("generator", None)
    return isinstance(given, cst.BaseExpression) and not (isinstance(given, cst.Name) and given.value == "None")


def _given_device(call: cst.Call) -> bool:
    """Is ``call`` a call of a project function handed a device (``report(model,
    device=torch.device("cuda:0"))``), rather than a device method (``x.npu()``, ``x.to(...)``)?"""
    method = call.func.attr.value if isinstance(call.func, cst.Attribute) else None
    return method not in catalog.DEVICE_METHODS and method != "to" and any(
        arg.keyword is not None and arg.keyword.value == "device" for arg in call.args
    )


def _may_be_off(
    body: BodyFacts, called: Tuple[Optional[Tuple[str, str]], ...], devices: FrozenSet[str], leading: Set[Tuple[str, str]]
) -> Optional[Tuple[FrozenSet[str], FrozenSet[Tuple[str, str]]]]:
    """The ``devices`` all of whose uses in ``body`` are inside an ``if`` of its own, and the
    functions ``leading`` to them all of whose calls there (``called``: each call's project
    function, by index) are (by the facts); None when there are none: nothing in the body can
    be off the default path for them."""
    if not body.branches:
        return None
    used = frozenset(d for d in devices if body.device_events.get(d) and body.conditional_devices.get(d) == body.device_events.get(d))
    by_target: Dict[Tuple[str, str], bool] = {}
    for index, target in enumerate(called):
        if target is not None and target in leading:
            by_target[target] = by_target.get(target, True) and index in body.conditional_calls
    conditional = frozenset(t for t, inside in by_target.items() if inside)
    return (used, conditional) if used or conditional else None


def _resolved_calls(project: ProjectContext, path: str, name: str) -> Tuple[Optional[Tuple[str, str]], ...]:
    """The project function (call-graph node) each call of the function ``name`` of module
    ``path`` runs, in the order of its calls (None: not one of the project's); once per run."""

    def resolve() -> Tuple[Optional[Tuple[str, str]], ...]:
        facts = project.facts(path)
        body = facts.body(name) if facts is not None else None
        if body is None:
            return ()
        resolved = (project.resolve_call(facts, name, call, call in body.imported) for call in body.calls)
        return tuple(t if isinstance(t, tuple) else None for t in resolved)

    return project.remembered(("resolved calls", path, name), resolve)  # type: ignore[no-any-return]


def _parameters_always_off(summary: Summary, path: str) -> Dict[str, FrozenSet[str]]:
    """Per body of module ``path`` on the path: the parameters that every call reaching it
    turns off (``Norm(4)`` leaves ``conditional=False``: the path reaches ``Norm.__init__``
    only as ``Norm.__init__|conditional``), whatever other calls in the project pass."""
    key = os.path.abspath(path)
    found: Dict[str, FrozenSet[str]] = {}
    for module, name in summary.reached:
        if module != key:
            continue
        body, _, off = name.partition(VARIANT)
        params = frozenset(off.split(",")) - {""}
        found[body] = found[body] & params if body in found else params
    return found


def _under_parameter_off(chain: Tuple[cst.CSTNode, ...], off: FrozenSet[str]) -> bool:
    """Is the end of ``chain`` in the body of an ``if`` that tests one of the parameters ``off``
    for truth (``if conditional:``, ``if conditional == True:``, ``is True``)?"""
    if not off:
        return False
    for parent, child in zip(chain, chain[1:]):
        if not (isinstance(parent, cst.If) and child is parent.body):
            continue
        test = parent.test
        if (
            isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.Equal, cst.Is))
            and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "True"
        ):
            test = test.left
        if isinstance(test, cst.Name) and test.value in off:
            return True
    return False


def _off_default_in(
    project: ProjectContext, modules: Any, path: str, name: str, devices: FrozenSet[str], targets: FrozenSet[Tuple[str, str]]
) -> Tuple[FrozenSet[str], FrozenSet[Tuple[str, str]]]:
    """In the function ``name`` of module ``path``, as that module's values decide its tests
    with the project's calls of it: the ``devices`` every use of which by its own calls, and
    the project functions ``targets`` every call of which, is under an ``if`` the default path
    skips (the facts count the evidence the calls must make up)."""
    facts = project.facts(path)
    body = facts.body(name) if facts is not None else None
    values = modules.evaluator(facts) if facts is not None else None
    located = _function_at(values.module, name) if values is not None else None
    if body is None or located is None:
        return frozenset(), frozenset()
    qualify = values.qualify  # type: ignore[union-attr]
    devices_off: Dict[str, List[bool]] = {}
    targets_off: Dict[Tuple[str, str], bool] = {}
    for call, chain in _calls_under(*located):
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else None
        qualified = qualify(call.func) if qualify is not None else None
        effect = classify_call(qualified, method, CstArgs(call))
        written = qualified or dotted_name(call.func)
        target = project.resolve_call(facts, name, written, qualified is not None) if not effect.known and written is not None else None
        used = [d for d in effect.uses & devices if all(devices_off.get(d, [True]))]
        callee = target if isinstance(target, tuple) and target in targets and targets_off.get(target, True) else None
        if not used and callee is None:
            continue  # not asked about, or already known to run on the default path
        skipped = values.skipped_branch(chain + (call,)) is not None  # type: ignore[union-attr]
        # (``torch.device("cuda" if args.cuda else "cpu")``: named in a branch the path does not take)
        choices = [e for e in _device_arguments(call, qualified) if isinstance(e, cst.IfExp)] if used and not skipped else []
        for device in used:
            off = skipped or bool(choices) and all(_branch_not_naming(values, choice, chain + (call,), device) for choice in choices)
            devices_off.setdefault(device, []).append(off)
        if callee is not None:
            targets_off[callee] = skipped
    held = frozenset(d for d, flags in devices_off.items() if all(flags) and len(flags) == body.device_events.get(d))
    return held, frozenset(t for t, off in targets_off.items() if off)


def _function_at(module: cst.Module, name: str) -> Optional[Tuple[cst.FunctionDef, Tuple[cst.CSTNode, ...]]]:
    """The module-level function ``f``, or the method ``C.m`` of a module-level class, that the
    facts name ``name``, with its enclosing nodes; None when there is none such."""
    owner, _, method = name.rpartition(".")
    for statement in module.body:
        if not owner and isinstance(statement, cst.FunctionDef) and statement.name.value == name:
            return statement, (module,)
        if owner and isinstance(statement, cst.ClassDef) and statement.name.value == owner and isinstance(statement.body, cst.IndentedBlock):
            for part in statement.body.body:
                if isinstance(part, cst.FunctionDef) and part.name.value == method:
                    return part, (module, statement, statement.body)
    return None


def _calls_under(function: cst.FunctionDef, chain: Tuple[cst.CSTNode, ...]) -> List[Tuple[cst.Call, Tuple[cst.CSTNode, ...]]]:
    """The calls in ``function``'s own body (not in a nested function, class or lambda), each
    with its enclosing nodes."""
    found: List[Tuple[cst.Call, Tuple[cst.CSTNode, ...]]] = []
    stack: List[Tuple[cst.CSTNode, Tuple[cst.CSTNode, ...]]] = [(function.body, chain + (function,))]
    while stack:
        node, above = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(node, cst.Call):
            found.append((node, above))
        stack.extend((child, above + (node,)) for child in reversed(syntax_children(node)))
    return found


def _comes_first(module: cst.Module, first: cst.CSTNode, second: cst.CSTNode) -> bool:
    """Does ``first`` come before ``second`` in the text (the first of the two a walk of the
    module's nodes in order meets)?"""
    stack: List[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if node is first:
            return True
        if node is second:
            return False
        stack.extend(reversed(syntax_children(node)))
    return False


def _device_arguments(node: cst.Call, name: Optional[str]) -> List[cst.BaseExpression]:
    """The expressions a call (of qualified ``name``) names its device with: ``.to(x)``'s first
    argument or ``device=``, and the device constructor's argument (``torch.device(x)``)."""
    method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
    args = CstArgs(node)
    found = [args.node("device", 0 if method == "to" else None)]
    # the other device keywords by keyword only: Lightning's ``Trainer(accelerator=accelerator)``
    found += [args.node(keyword, None) for keyword, _ in catalog.DEVICE_KEYWORDS if keyword != "device"]
    if name in catalog.DEVICE_CONSTRUCTORS:
        found.append(args.node(*catalog.DEVICE_CONSTRUCTORS[name]))
    return [e for e in found if isinstance(e, cst.BaseExpression)]


def _branch_not_naming(values: Any, choice: cst.IfExp, chain: Tuple[cst.CSTNode, ...], device: str) -> bool:
    """Does the default path take the branch of ``"cuda" if args.cuda else "cpu"`` that does
    not name ``device``?"""
    holds = values.truth(choice.test, chain + (choice,))
    if holds is None:
        return False
    return catalog.device_named(cst_strings(choice.body if holds else choice.orelse)) != device


def _declares_option(site: CallSite) -> bool:
    """``parser.add_argument("--device", default="cuda")`` (or ``parser.set_defaults(gpus=1)``):
    where an option's device is declared, not where the program uses it."""
    func = site.node.func
    return isinstance(func, cst.Attribute) and func.attr.value in (catalog.OPTION_DECLARATION[0], catalog.OPTION_DEFAULTS)


def _seeds(qualified: Optional[str], call: cst.Call, generator: str) -> Optional[cst.BaseExpression]:
    """The seed a call gives ``generator`` when it is a seeding call of it
    (``torch.manual_seed(seed)``), else None."""
    if qualified is None or generator not in catalog.SEED_CALLS.get(qualified, ()):
        return None
    return _seed_argument(call)


def _seed_argument(call: cst.Call) -> Optional[cst.BaseExpression]:
    """The seed a seeding call is given: its first positional argument, or a keyword that
    names a seed (``seed=``, ``random.seed(a=...)``)."""
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            return arg.value
        if is_seed_parameter(arg.keyword.value) or arg.keyword.value == "a":
            return arg.value
    return None


#: the effects of the calls whose place :class:`SeedingScan` keeps
_KEPT_EFFECTS = ALL_GENERATORS | DETERMINISM | {catalog.DEVICE_SEEDS}


def _drawn(values, expr: cst.BaseExpression, chain: Tuple[cst.CSTNode, ...]) -> Optional[FrozenSet[str]]:  # type: ignore[no-untyped-def]
    """Is ``expr`` a seed drawn at random on the default path: a project function's drawn
    value or a seed from entropy (``torch.seed()``): an empty set; a draw from global
    generators (``np.random.randint(2**31)``): those generators; else None."""
    for candidate in values.of(expr, chain) or ():
        if candidate is DRAWN:
            return frozenset()
        if isinstance(candidate, (cst.Call, cst.Subscript)) and values.draws(candidate):
            qualified = values.qualify(drawing_call(candidate).func)
            if qualified in catalog.ENTROPY_RESULTS:
                return frozenset()
            return classify_call(qualified, None, NoArgs()).draws
    return None


def _none_on_default(values, expr: cst.BaseExpression, chain: Tuple[cst.CSTNode, ...]) -> bool:  # type: ignore[no-untyped-def]
    """Does ``expr`` hold None on the default path, and nothing else (``args.seed`` with
    ``--seed`` defaulting to None)?"""
    found = values.of(expr, chain)
    return bool(found) and all(isinstance(c, Const) and c.value is None for c in found)


def _has_seed_parameter(project: ProjectContext, target: Tuple[str, str]) -> bool:
    """May the project function ``target`` (a node of the call graph) have a seed parameter,
    by its facts? (Cheap: the function's module is parsed only when it may.)"""
    facts = project.facts(target[0])
    name = f"{target[1][len(CLASS_PREFIX) :]}.__init__" if target[1].startswith(CLASS_PREFIX) else target[1]
    body = facts.body(name) if facts is not None else None
    return body is None or any(is_seed_parameter(param) for param in body.params)


class _EntryPointRule(Rule):
    """A finding about an entry point's whole execution path, reported once per file.

    Triggers: every entry point contains ``__main__`` or a training call (see
    :data:`repro_lint.context.ENTRY_WORDS`), unless it is one only because it matches the
    ``entry-points`` globs: then it needs ``import`` to reach any generator or device."""

    triggers = ENTRY_WORDS
    entry_points_only = True
    needs_project = True
    uses = (KwargsDicts, SeedingScan)
    fix = SAFE  # the file's setup block, titled by what it holds (:meth:`report`)

    @property
    def scan(self) -> Optional[SeedingScan]:
        """The file's seeding scan when the file is an entry point, else None."""
        return self.file.analysis(SeedingScan) if self.file.is_entry_point else None

    @classmethod
    def trigger_words(cls, settings) -> Tuple[str, ...]:  # type: ignore[no-untyped-def]
        return cls.triggers + (("import",) if settings.entry_points else ())

    def report(self, node: cst.CSTNode, message: Optional[str] = None, *, edits: Sequence[NodeEdit] = (), **kwargs: Any) -> None:
        """Every fix of these rules inserts the file's setup block: its title says what the
        block holds once all the file's findings have widened it (:func:`block_title`)."""
        state = self.file.analysis(SetupBlockState)
        super().report(node, message, edits=edits, fix_message=lambda: block_title(state.block), **kwargs)

    def setup_edits(self, scan: SeedingScan, needs: Set[str]) -> List[Any]:
        """The setup block's edits for a finding of ``scan``'s program: the file's one block,
        which goes into the first console script's function (or the ``__main__`` block), so a
        finding of another program of the module (:meth:`SeedingScan.programs`) has none."""
        if scan.console is not None and scan.console != self.file.project.console_functions(self.file.path)[0]:
            return []
        if needs & set(GENERATORS) and self._reuses_drawn_seed(scan):
            return []  # (a block for the switches alone still mends RPL202)
        summary = scan.entry_summary()
        return setup_block_edits(self.file, needs, covered(self.file), summary is not None and scan.determinism_on(summary))

    def _reuses_drawn_seed(self, scan: SeedingScan) -> bool:
        """Would the block go right after the program's own seeding call and take its seed,
        where that seed is drawn at random on the default path (``opt.seed =
        random.randint(1, 10000)``, then ``torch.manual_seed(opt.seed)``: pytorch-vdsr)? Seeding
        with it fixes nothing (RPL101 reports that call, with no fix): no fix either."""
        basis = self.file.analysis(SetupBlockState).basis()
        summary = scan.entry_summary()
        anchor = basis[0].anchor if basis is not None and basis[0].seed is not None else None
        if anchor is None or summary is None:
            return False
        # (the device generators' seeding too: CSRNet's ``args.seed = time.time()``, then
        # ``torch.cuda.manual_seed(args.seed)``)
        for generator in (*GENERATORS, catalog.DEVICE_SEEDS):
            drawn = scan.seeded_at_random(summary, generator) if summary.seeds(generator) else None
            if drawn is not None and holds_node(anchor, drawn.node):
                return True
        return False

    def spawned_without(self, scan: SeedingScan, summary: Summary, needs: str, lacks: Callable[[Summary], bool]) -> None:
        """Report where the entry point's path starts processes with
        ``torch.multiprocessing.spawn(fn, ...)`` whose own path (the module's top level and
        ``fn``, as a spawned child runs them) ``lacks`` what the parent set: the children inherit
        none of its generators or switches. ``needs``: the setup block's kind that mends it
        (the block goes into ``fn`` only where every run runs it, spawned or called: elsewhere,
        no fix)."""
        reached = summary.reached_in(self.file.path)
        for function, conditional, call in spawn_targets(self.file):
            if function not in reached or not lacks(self.file.project.spawned_summary(self.file.path, function)):
                continue
            what = "deterministic algorithms" if needs == "deterministic" else f"the seed of {RNG_NAMES[needs]}"
            self.report(
                call, message=SPAWNED_MESSAGE.format(call=short(self.file.code_for(call.func)), function=function, what=what),
                edits=[] if conditional and function not in spawned_functions(self.file) else self.setup_edits(scan, {needs}),
            )
            return


SPAWNED_MESSAGE = (
    "the processes that {call}(...) starts import this module afresh and run {function}() without "
    "{what} that this program sets (spawned children inherit no RNG state and no switches): "
    "set it at the top of {function}, e.g. repro_lint.runtime.seed_everything(seed)"
)


class _UnseededGenerator(_EntryPointRule):
    generator = ""

    @classmethod
    def may_report_on(cls, summary: Summary) -> bool:
        return summary.uses_generator(cls.generator)

    def leave_Module(self, node: cst.Module) -> None:
        for scan in self.scan.programs() if self.scan is not None else ():
            self._check(scan)

    def _check(self, scan: SeedingScan) -> None:
        summary = scan.entry_summary()
        if summary is None or not self.may_report_on(summary):
            return
        if summary.seeds(self.generator):
            # (not only where the file says ``seed``: ``Pairs(10)`` builds a class of another
            # module whose ``__init__`` seeds from the clock when given no seed)
            drawn = scan.seeded_at_random(summary, self.generator)
            if drawn is not None:
                call = f"{short(self.file.code_for(drawn.node.func))}(...)"
                message = NONE_SEED_MESSAGE if id(drawn.node) in scan.given_none else DRAWN_MESSAGE
                self.report(drawn.node, message=message.format(call=call, generator=RNG_NAMES[self.generator]))
                return
            guarded = scan.seeded_off_default(summary, self.generator) if "if" in self.file.source else None
            if guarded is not None:
                site, branch = guarded
                self.report(
                    site.node,
                    message=OFF_DEFAULT_MESSAGE.format(
                        call=f"{short(self.file.code_for(site.node.func))}(...)",
                        generator=RNG_NAMES[self.generator],
                        test=short(self.file.code_for(branch.test)),
                        holds="holds" if _in_body(site, branch, scan) else "does not hold",
                    ),
                )
                return
            generator = self.generator
            self.spawned_without(scan, summary, generator, lambda child: child.uses_generator(generator) and not child.seeds(generator))
            return
        reseeding = self._reseeded_as_built(scan) if ENTROPY + self.generator in summary.effects else None
        if reseeding is not None:
            # (the setup block before it would be reseeded again: no fix)
            call = f"{short(self.file.code_for(reseeding.node.func))}(...)"
            self.report(reseeding.node, message=BUILT_ENTROPY_MESSAGE.format(call=call, generator=RNG_NAMES[self.generator]))
            return
        where = scan.where(summary, summary.generator_uses(self.generator))
        # (a reseed from entropy on the path undoes any seed the block would add: no fix; the
        # message names the reseed, which is what to change)
        edits = None if ENTROPY + self.generator in summary.effects else self.setup_edits(scan, {self.generator})
        self.report(where, message=self.message_for(summary), edits=edits)

    def _reseeded_as_built(self, scan: SeedingScan) -> Optional[CallSite]:
        """The call of this file, on the path, that reseeds the generator from entropy as it
        builds something else (MMEngine's ``Runner(...)`` without ``randomness=dict(seed=...)``)."""
        reached = scan.entry_summary().reached_in(self.file.path)  # type: ignore[union-attr]
        for site in scan.calls:
            helper = catalog.SEED_HELPERS.get(site.name or "")
            if helper is not None and helper.implicit and ENTROPY + self.generator in site.effect.effects and site.body in reached:
                return site
        return None

    def message_for(self, summary: Summary) -> str:
        if ENTROPY + self.generator in summary.effects:
            return ENTROPY_MESSAGE.format(call=RESEEDING_CALLS[self.generator], generator=RNG_NAMES[self.generator])
        return self.message


#: how each generator is reseeded from entropy, as the finding names it
RESEEDING_CALLS = {"torch": "torch.seed()", "numpy": "np.random.seed()", "random": "random.seed()"}
ENTROPY_MESSAGE = (
    "{call} reseeds {generator} from OS entropy, so it is used but never seeded and every run "
    "draws different numbers: pass a seed (or call repro_lint.runtime.seed_everything(seed)) instead"
)


#: RPL101-103 at a call that seeds as it builds something else, from entropy when given no seed
BUILT_ENTROPY_MESSAGE = (
    "{call} reseeds {generator} from OS entropy as it is built (it is given no seed), so every run "
    "draws different numbers after it: give it a seed (MMEngine's Runner: randomness=dict(seed=...))"
)


SWITCH_OFF_DEFAULT_MESSAGE = (
    "this entry point runs on {device} but turns deterministic algorithms on only when `{test}` "
    "holds, which is not the case with the default arguments: turn them on unconditionally at startup "
    "(torch.use_deterministic_algorithms(True), or repro_lint.runtime.seed_everything(seed))"
)

OFF_DEFAULT_MESSAGE = (
    "{call} seeds {generator} only when `{test}` {holds}, which is not the case with the "
    "default arguments (no seed given), so a default run draws different numbers every time: give "
    "the seed an integer default (e.g. `default=0`) or seed unconditionally"
)


def _in_body(site: CallSite, branch: cst.If, scan: SeedingScan) -> bool:
    """Is the call in the ``if`` branch's body (else in its ``else``)?"""
    return any(node is branch.body for node in scan.chains.get(id(site.node), ()))


NONE_SEED_MESSAGE = (
    "{call} is given None on the default path (no seed given), which reseeds {generator} from OS "
    "entropy, so every run draws different numbers: give the seed a fixed default (or call "
    "repro_lint.runtime.seed_everything(seed) with one)"
)

DRAWN_MESSAGE = (
    "{call} seeds {generator} with a seed drawn at random on the default path (no seed "
    "given), so every run draws different numbers: give the seed a fixed default (or call "
    "repro_lint.runtime.seed_everything(seed) with one)"
)


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
        return self.cuda_only if "cuda" in summary.effects else super().message_for(summary)


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


def covered(file) -> FrozenSet[str]:  # type: ignore[no-untyped-def]
    """What the setup block may cover in this run: the generators whose rule is selected, and
    the switches when RPL202 is (``--ignore RPL1`` leaves the seeds out of the block)."""
    kinds = {rule.generator: rule.code for rule in (UnseededTorch, UnseededNumpy, UnseededRandom)}
    kinds["deterministic"] = DeterministicAlgorithmsOff.code
    return frozenset(kind for kind, code in kinds.items() if code in file.codes)


def _literal_constant(module: cst.Module, name: str) -> bool:
    """Does ``module`` bind ``name`` exactly once, by an assignment of a literal (``deterministic
    = False``), and never as a parameter, a loop or ``with`` target, or through ``global``?"""
    bindings = 0
    literal = False
    stack: List[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Param) and node.name.value == name:
            return False
        if isinstance(node, (cst.Global, cst.Nonlocal)) and any(item.name.value == name for item in node.names):
            return False
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.AsName, cst.NamedExpr)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [getattr(node, "target", None) or getattr(node, "name", None)]
            for target in targets:
                if any(n.value == name for n in cst_names(target)):
                    bindings += 1
                    value = cst_literal(node.value) if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(target, cst.Name) else UNKNOWN
                    literal = value is not UNKNOWN and (value is None or isinstance(value, (bool, int)))
        stack.extend(syntax_children(node))
    return bindings == 1 and literal


class DeterministicAlgorithmsOff(_EntryPointRule):
    code = "RPL202"
    name = "deterministic-algorithms-off"
    message = (
        "this entry point runs on {device} but never turns deterministic algorithms on: call "
        "torch.use_deterministic_algorithms(True) (or repro_lint.runtime.seed_everything(seed)) at startup"
    )
    message_trainer = (
        "this entry point runs on {device} but never turns deterministic algorithms on: pass "
        "deterministic=True to the Lightning Trainer, which sets the switch itself as it is built "
        "(a switch turned on before it is turned off again by Lightning 1.x)"
    )

    @classmethod
    def may_report_on(cls, summary: Summary) -> bool:
        return any(d in summary.uses for d in DEVICES)

    def leave_Module(self, node: cst.Module) -> None:
        for scan in self.scan.programs() if self.scan is not None else ():
            self._check(scan)

    def _check(self, scan: SeedingScan) -> None:
        summary = scan.entry_summary()
        if summary is None or not self.may_report_on(summary):
            return
        devices = [d for d in DEVICES if d in summary.uses]
        if devices:
            on_default = scan.devices_on_default(summary, frozenset(devices))  # asked once, not per device
            devices = [d for d in devices if d in on_default]
        if not devices or not self.file.project.runs_torch(self.file.path, summary):
            return
        # the devices named for what they are, one of them per run; "an accelerator" (Fabric,
        # accelerate, DataParallel, a GPU count) only when no evidence names one (CUDA is an accelerator)
        device = " or ".join(DEVICE_NAMES[d] for d in ([d for d in devices if d != "accelerator"] or devices))
        if scan.determinism_on(summary):
            # turned on only under an ``if`` that a run with the default arguments skips
            guarded = scan.switched_off_default(summary) if "if" in self.file.source else None
            if guarded is not None:
                switch, branch = guarded
                self.report(switch, message=SWITCH_OFF_DEFAULT_MESSAGE.format(device=device, test=short(self.file.code_for(branch.test))))
                return
            self.spawned_without(scan, summary, "deterministic", lambda child: bool(set(DEVICES) & child.uses) and not child.deterministic)
            return
        # "an accelerator" is placed at a use of CUDA or an NPU too, where the file names one
        # that the summary could not (``torch.device("cuda" ...)`` with ``torch`` bound by a
        # star import, before ``nn.DataParallel(model)``)
        wanted = frozenset(devices) | (frozenset(catalog.ACCELERATOR_PREFIXES) if "accelerator" in devices else frozenset())
        where = scan.where(summary, wanted)
        reached = summary.reached_in(self.file.path)
        if any(site.name in catalog.LIGHTNING_TRAINERS and site.body in reached for site in scan.calls):
            # the Trainer sets the switch itself as it is built: a block before it would be undone
            # (Lightning 1.x, or ``deterministic=False``); the Trainer's own argument is the fix
            self.report(where, message=self.message_trainer.format(device=device))
            return
        self.report(where, device=device, edits=self.setup_edits(scan, {"deterministic"}))


# -- RPL105 -----------------------------------------------------------------------------------------


def _seed_call_words() -> Tuple[str, ...]:
    """Every seeding call is named with ``seed`` or one of these words."""
    words = {"seed"}
    # (a Trainer that seeds as it is built, given the model, is one: ``Trainer``, ``SFTTrainer``)
    names = list(catalog.SEED_CALLS) + [n for n, h in catalog.SEED_HELPERS.items() if not h.implicit or h.given_model]
    for name in names:
        last = name.rsplit(".", 1)[-1]
        if "seed" not in last:
            words.add(last)
    return tuple(sorted(words))


def seeded_by(file, site: CallSite, star_imports: bool, restores: Callable[[CallSite], bool] = lambda site: False) -> FrozenSet[str]:  # type: ignore[no-untyped-def]
    """The generators a call seeds, as RPL105 orders them: a library seeding call (not one that
    ``restores`` a state a getter gave before), a helper that seeds as it builds something
    else only where it is given a model built before it (a Trainer), and a project function
    named as a seeding one (or configured in ``seed-functions``) by what its body seeds.
    ``star_imports``: does the module star-import (a seeding name may come from one)?"""
    direct = site.effect.effects & frozenset(GENERATORS)
    if direct and restores(site):
        return frozenset()
    if direct:
        # (one that seeds as it builds something else is a seeding call here only where it is
        # given a model built before it: a Trainer)
        helper = catalog.SEED_HELPERS.get(site.name or "")
        return frozenset() if helper is not None and helper.implicit and not helper.given_model else direct
    if site.name is None or site.effect.known:
        return frozenset()
    configured = site.name in file.settings.seed_functions
    if not (configured or is_seed_named(site.name, site.imported, star_imports)):
        return frozenset()
    return file.project.call_summary(file.path, site.body, site.name, site.imported).effects & frozenset(GENERATORS)


def star_imports(file) -> bool:  # type: ignore[no-untyped-def]
    """Does the module star-import (a seeding name may come from one)? The facts are asked
    only where its text can."""
    return may_star_import(file.source) and bool(getattr(file.project.facts(file.path, file.source), "star_imports", ()))


def seed_order(rule: Rule, node: cst.Call, generator: str) -> Optional[bool]:
    """True where ``generator`` is seeded in the body that runs ``node`` (the call ``rule`` is
    visiting: a function's body, or the module's top level with its ``__main__`` block) only
    after ``node``, and never before it; False where it is seeded before (there, or by a caller
    before it calls the body); None where neither is known. The order is RPL105's: arguments
    before their call, and the calls of code only defined there (a nested function, a lambda)
    left out. Where the body seeds nowhere, and it is a top-level function of the module, its
    calls in the module are asked the same (``loader = build_loader()``, then
    ``set_seed(seed)``), each of them one level up; a body without calls of it (its caller may
    have seeded first) is not known."""
    return _seed_order(rule.file, tuple(rule.file.ancestors), node, generator, star_imports(rule.file))


def _seed_order(file, chain: Tuple[cst.CSTNode, ...], node: cst.CSTNode, generator: str, stars: bool, depth: int = 0) -> Optional[bool]:  # type: ignore[no-untyped-def]
    """True: the body holding ``node`` (``chain``: its enclosing nodes) seeds ``generator``
    only after it; False: before it (or its callers do); None: neither is known."""
    inner = _innermost_function(chain)
    statements = _body_statements(file, chain, inner)
    if statements is None:
        return None
    reached = False
    for body, stmt in statements:
        for call in _calls_in_order(stmt):
            if call is node:
                reached = True
            elif generator in _seeds_of(file, call, body, stars):
                return reached
    if inner != 1 or depth >= 2:
        return None
    # a top-level function seeding nowhere: where the module calls it
    function = chain[1].name.value  # type: ignore[attr-defined]
    orders = [
        _seed_order(file, enclosing, call, generator, stars, depth + 1)
        for call, enclosing in _calls_of(file.module, function)
    ]
    if not orders:
        return None
    if False in orders:
        return False  # one of them seeds first
    return True if None not in orders else None


def _body_statements(file, chain: Tuple[cst.CSTNode, ...], inner: Optional[int]) -> Optional[List[Tuple[str, cst.CSTNode]]]:  # type: ignore[no-untyped-def]
    """The statements of the body that runs the node ``chain`` leads to (``inner``: the index
    of its innermost function in ``chain``), each with the body's name in the facts; None in a
    lambda or a class body inside that body (it runs at another time)."""
    if any(type(n) in DEFINITIONS for n in chain[(inner or 0) + 1:]):
        return None
    if inner is not None:
        name = _body_name(chain, inner)
        return [(name, stmt) for stmt in chain[inner].body.body]  # type: ignore[attr-defined]
    return [(MAIN_BODY if is_main_guard(stmt) else MODULE_BODY, stmt) for stmt in file.module.body]


def seeded_after_through_calls(rule: Rule, node: cst.Call, generator: str) -> bool:
    """Does a call after ``node`` (the call ``rule`` is visiting) in the body that runs it, in
    :func:`seed_order`'s order, seed ``generator``, by itself or through what it runs
    (``net = Net()``, whose constructor calls ``torch.manual_seed(42)``)? Such a seed is not
    there yet when ``node`` runs."""
    file = rule.file
    chain = tuple(file.ancestors)
    statements = _body_statements(file, chain, _innermost_function(chain))
    facts = file.project.facts(file.path, file.source)
    if statements and facts is not None:
        # (a project module that seeds as it is imported did so before: SimCLR's ``simclr.py``,
        # whose top level calls ``torch.manual_seed(0)``, which every function of it carries)
        imported = {target.rpartition(".")[0] or target for target in facts.aliases.values()} | set(facts.aliases.values())
        if file.project.import_summary(file.path, sorted(imported)).seeds(generator):
            return False
    reached = False
    for body, stmt in statements or ():
        for call in _calls_in_order(stmt):
            if call is node:
                reached = True
                continue
            site = call_site(file, call, body) if reached else None
            if site is None:
                continue
            if generator in site.effect.effects:
                return True
            if site.name is not None and not site.effect.known and generator in file.project.call_summary(file.path, site.body, site.name, site.imported).effects:
                return True
    return False


def seed_given_after(rule: Rule, node: cst.Call, generator: str) -> Optional[cst.BaseExpression]:
    """The seed given to the first call that seeds ``generator`` after the statement that holds
    ``node`` (the call ``rule`` is visiting), in the same block of statements and not under a
    statement of its own (an ``if``, a loop), where every name that seed reads is bound before
    that statement: a parameter of the function, a name an earlier statement of a block around
    it binds, a module's name (in a function) or a builtin; else None. ``loader =
    DataLoader(...)``, then ``set_seed(seed)`` gives ``seed``."""
    file = rule.file
    chain = tuple(file.ancestors)
    level = max(i for i, n in enumerate(chain) if type(n) in (cst.IndentedBlock, cst.Module))
    block, statement = chain[level], chain[level + 1]
    inner = _innermost_function(chain)
    body = _body_name(chain, inner) if inner is not None else MAIN_BODY if any(is_main_guard(n) for n in chain) else MODULE_BODY
    stars = star_imports(file)
    siblings = list(block.body)  # type: ignore[attr-defined]
    seed: Optional[cst.BaseExpression] = None
    for sibling in siblings[siblings.index(statement) + 1:]:
        seeding = [call for call in _calls_in_order(sibling) if generator in _seeds_of(file, call, body, stars)]
        if seeding:
            if not isinstance(sibling, _SIMPLE_STATEMENTS):
                return None  # seeded under a condition or in a loop
            seed = _seed_argument(seeding[0])
            break
    if seed is None:
        return None
    bound: Set[str] = set(dir(builtins))
    if inner is not None:
        function = chain[inner]
        params = function.params  # type: ignore[attr-defined]
        for param in (*params.posonly_params, *params.params, *params.kwonly_params, params.star_arg, params.star_kwarg):
            if isinstance(param, cst.Param):
                bound.add(param.name.value)
        for stmt in file.module.body:
            bound |= bound_names(stmt)
    for index, holder in enumerate(chain):
        if type(holder) in (cst.IndentedBlock, cst.Module) and index + 1 < len(chain):
            statements = list(holder.body)  # type: ignore[attr-defined]
            if chain[index + 1] in statements:
                for earlier in statements[: statements.index(chain[index + 1])]:
                    bound |= bound_names(earlier)
    return seed if cst_names_read(seed) <= bound else None


def _innermost_function(chain: Tuple[cst.CSTNode, ...]) -> Optional[int]:
    return max((i for i, n in enumerate(chain) if type(n) is cst.FunctionDef), default=None)


def _body_name(chain: Tuple[cst.CSTNode, ...], inner: int) -> str:
    """The facts' name of the body of function ``chain[inner]`` (``f``, ``C.m``)."""
    return ".".join(n.name.value for n in chain[: inner + 1] if type(n) in (cst.FunctionDef, cst.ClassDef))  # type: ignore[attr-defined]


def _calls_in_order(statement: cst.CSTNode) -> Iterator[cst.Call]:
    """The calls of a statement in evaluation order (arguments before their call), leaving out
    code only defined there (a nested function, a lambda, a class)."""
    stack: List[Tuple[cst.CSTNode, bool]] = [(statement, False)]
    while stack:
        current, leaving = stack.pop()
        if leaving:
            if type(current) is cst.Call:
                yield current  # type: ignore[misc]
        elif type(current) not in DEFINITIONS:
            stack.append((current, True))
            stack.extend((child, False) for child in reversed(syntax_children(current)))


def _seeds_of(file, call: cst.Call, body: str, stars: bool) -> FrozenSet[str]:  # type: ignore[no-untyped-def]
    site = call_site(file, call, body)
    return seeded_by(file, site, stars) if site is not None else frozenset()


def _calls_of(module: cst.Module, function: str) -> List[Tuple[cst.Call, Tuple[cst.CSTNode, ...]]]:
    """The calls ``function(...)`` of a module, each with its enclosing nodes."""
    found: List[Tuple[cst.Call, Tuple[cst.CSTNode, ...]]] = []
    stack: List[Tuple[cst.CSTNode, Tuple[cst.CSTNode, ...]]] = [(module, ())]
    while stack:
        current, chain = stack.pop()
        if type(current) is cst.Call and type(current.func) is cst.Name and current.func.value == function:  # type: ignore[attr-defined]
            found.append((current, chain))  # type: ignore[arg-type]
        inner = chain + (current,)
        stack.extend((child, inner) for child in syntax_children(current))
    return found


#: a draw: the call, and the names its statement assigns (``seed = random.randint(...)``)
Draw = Tuple[cst.Call, FrozenSet[str]]


class _Flow:
    __slots__ = ("seeded", "unseeded", "loaders")

    def __init__(
        self, seeded: Optional[Set[str]] = None, unseeded: Optional[Dict[str, List[Draw]]] = None, loaders: Optional[Dict[str, cst.Call]] = None
    ) -> None:
        self.seeded: Set[str] = set(seeded or ())
        #: generator -> the draws from it made before it was seeded
        self.unseeded: Dict[str, List[Draw]] = {g: list(d) for g, d in (unseeded or {}).items()}
        #: local name -> the DataLoader it holds, shuffling from the global torch generator (it
        #: draws from it when it is iterated)
        self.loaders: Dict[str, cst.Call] = dict(loaders or {})

    def copy(self) -> "_Flow":
        return _Flow(self.seeded, self.unseeded, self.loaders)

    def merge(self, *others: "_Flow") -> None:
        for other in others:
            self.seeded |= other.seeded
            for generator, draws in other.unseeded.items():
                mine = self.unseeded.setdefault(generator, [])
                mine.extend(d for d in draws if d not in mine)
            self.loaders.update(other.loaders)
        for generator in self.seeded:
            self.unseeded.pop(generator, None)


def _feeds(names: FrozenSet[str], feeding: Set[str]) -> bool:
    """Does a draw stored under ``names`` feed a seeding call that reads ``feeding`` (``self``:
    the object's own seeding method, which reads what is stored on the object)?"""
    return bool(names & feeding) or ("self" in feeding and any(n == "self" or n.startswith("self.") for n in names))


#: a line of small statements, or the small statements after a compound statement's colon
_SIMPLE_STATEMENTS = (cst.SimpleStatementLine, cst.SimpleStatementSuite)


def _assigned_names(stmt: cst.CSTNode) -> FrozenSet[str]:
    """The names (``seed``, ``opt.manualSeed``) a simple statement assigns; for an item
    (``cfg["seed"] = ...``, ``args.__dict__["seed"] = ...``, ``vars(args)["seed"] = ...``), the
    object that holds it and its root name (``cfg``; ``args.__dict__`` and ``args``; ``args``)."""
    names: Set[str] = set()
    if isinstance(stmt, _SIMPLE_STATEMENTS):
        for small in stmt.body:
            for target in assigned_targets(small):
                elements = target.elements if isinstance(target, (cst.Tuple, cst.List)) else [target]
                for element in elements:
                    node = element.value if isinstance(element, cst.Element) else element
                    if isinstance(node, cst.Subscript):
                        held = node.value
                        while isinstance(held, cst.Subscript):
                            held = held.value  # ``self.config[cmd]["seed_everything"]``: in ``self.config``
                        if isinstance(held, cst.Call) and dotted_name(held.func) == "vars" and len(held.args) == 1:
                            held = held.args[0].value  # ``vars(args)["seed"]``: an attribute of args
                        holder = dotted_name(held)
                        if holder:
                            names.update((holder, holder.partition(".")[0]))
                        continue
                    name = dotted_name(node)
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
        stack.extend(syntax_children(current))
    return names


#: RPL105 at a Trainer that seeds as it is built (transformers' ``Trainer.__init__`` calls
#: ``set_seed(args.seed)``), given a model whose weights were drawn before it
BUILT_BEFORE_TRAINER_MESSAGE = (
    "{seed}() seeds {generator} only as it is built, after `{use}` already drew from it, so that draw "
    "differs between runs: seed first (e.g. transformers.set_seed(seed) before building the model), "
    "or pass model_init= so that the Trainer builds the model after seeding"
)


class SeedAfterRngUse(Rule):
    code = "RPL105"
    name = "seed-after-rng-use"
    message = (
        "{seed}() comes after `{use}` already drew from {generator}, so that draw differs "
        "between runs: seed first, before building the model or drawing random numbers"
    )
    triggers = _seed_call_words()
    called_words = True
    needs_project = True
    uses = (KwargsDicts, SeedingScan)

    @classmethod
    def trigger_words(cls, settings) -> Tuple[str, ...]:  # type: ignore[no-untyped-def]
        return cls.triggers + tuple(name.rsplit(".", 1)[-1] for name in settings.seed_functions)

    def leave_Module(self, node: cst.Module) -> None:
        scan = self.file.analysis(SeedingScan)
        #: does the module star-import (the facts are asked only where its text can)?
        self._star_imports = star_imports(self.file)
        #: what each call seeds, asked once here and read again where the walk meets the call
        self._seeded_by = {id(site): self._seeds(site) for site in scan.calls}
        seeding = [site for site in scan.calls if self._seeded_by[id(site)]]
        if not seeding:
            return
        # each function's body is walked with a flow of its own, and only a seeding call
        # reports: a function that holds none (nor do the functions and classes inside it)
        # is not walked
        chains = [scan.chains.get(id(site.node)) for site in seeding]
        self._holding: Optional[Set[int]] = (
            None if any(chain is None for chain in chains)
            else {id(n) for chain in chains for n in chain if type(n) is cst.FunctionDef}  # type: ignore[union-attr]
        )
        # the bodies whose own flow meets a seeding call: the innermost function around each
        # (None: the module's top level); only there can a draw be one before a seed, so an
        # import's summary (what importing project modules draws) is asked of no other body
        self._seeding_bodies: Optional[Set[Optional[int]]] = (
            None if self._holding is None
            else {next((id(n) for n in reversed(chain) if type(n) is cst.FunctionDef), None) for chain in chains}  # type: ignore[arg-type]
        )
        self._body: Optional[int] = None
        pending: List[Tuple[int, cst.BaseSuite]] = []
        self._run(node.body, _Flow(), pending)
        while pending:
            self._body, body = pending.pop()
            self._run(body.body if isinstance(body, cst.IndentedBlock) else body.body, _Flow(), pending)

    # -- what a call does -------------------------------------------------------------------
    def _seeds(self, site: CallSite) -> FrozenSet[str]:
        return seeded_by(self.file, site, self._star_imports, self._restores)

    def _restores(self, site: CallSite) -> bool:
        """Is the call a generator's state set back to what a getter gave before
        (``random.setstate(state)`` after ``state = random.getstate()``, openpifpaf's paired
        augmentations)?"""
        getters = catalog.STATE_GETTERS.get(self.qualify(site.node.func) or "")
        if getters is None or not site.node.args:
            return False
        chain = self.file.analysis(SeedingScan).chains.get(id(site.node))
        if chain is None:
            return False
        found = self.file.analysis(ValueScan).values.of(site.node.args[0].value, chain + (site.node,))
        return bool(found) and all(isinstance(c, cst.Call) and self.qualify(c.func) in getters for c in found)

    def _draws(self, site: CallSite) -> FrozenSet[str]:
        draws = site.effect.draws
        if not site.effect.known and site.name is not None:
            draws = draws | self.file.analysis(SeedingScan).call_summary(site, construct=True).draws
        return draws & frozenset(GENERATORS)

    # -- walking a body in execution order ----------------------------------------------------
    def _run(self, statements, flow: _Flow, pending: List[Tuple[int, cst.BaseSuite]]) -> None:  # type: ignore[no-untyped-def]
        for stmt in statements:
            self._statement(stmt, flow, pending)

    def _block(self, suite: Optional[cst.CSTNode], flow: _Flow, pending: List[Tuple[int, cst.BaseSuite]]) -> None:
        if suite is None:
            return
        if isinstance(suite, (cst.Else, cst.Finally)):
            suite = suite.body
        if isinstance(suite, cst.IndentedBlock):
            self._run(suite.body, flow, pending)
        elif isinstance(suite, cst.SimpleStatementSuite):
            # ``if args.seed == 0: args.seed = ...``: its small statements, as one line holds them
            self._run([suite], flow, pending)

    def _statement(self, stmt: cst.CSTNode, flow: _Flow, pending: List[Tuple[int, cst.BaseSuite]]) -> None:
        if isinstance(stmt, cst.FunctionDef):
            if self._holding is None or id(stmt) in self._holding:
                pending.append((id(stmt), stmt.body))
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
            if isinstance(stmt, cst.For):
                self._iterated(stmt.iter, flow)
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
            if isinstance(stmt, _SIMPLE_STATEMENTS):
                for small in stmt.body:
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        self._import(small, flow)
            assigned = _assigned_names(stmt)
            self._calls(stmt, flow, assigned)
            for name in assigned:
                flow.loaders.pop(name, None)
            if len(assigned) == 1 and isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign):
                value = stmt.body[0].value
                if isinstance(value, cst.Call) and self._shuffled_loader(value):
                    flow.loaders[next(iter(assigned))] = value  # ``loader = DataLoader(ds, shuffle=True)``
            if assigned and flow.unseeded and isinstance(stmt, _SIMPLE_STATEMENTS):
                # a drawn value passed on (``config_seed = ...randint()``, then
                # ``self.config["seed"] = config_seed``): the draw is stored there too
                used: Set[str] = set()
                for small in stmt.body:
                    value = getattr(small, "value", None) if isinstance(small, (cst.Assign, cst.AnnAssign)) else None
                    name = dotted_name(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
                    if name:
                        used.add(name)  # the value itself, not what a call makes of it
                for generator, draws in flow.unseeded.items():
                    flow.unseeded[generator] = [(call, names | assigned if names & used else names) for call, names in draws]

    def _shuffled_loader(self, call: cst.Call) -> bool:
        """A DataLoader (or sampler) that draws its order from the global torch generator."""
        site = self.file.analysis(SeedingScan).by_node.get(id(call))
        return site is not None and SHUFFLES in site.effect.uses and "torch" in site.effect.uses

    def _iterated(self, expr: cst.BaseExpression, flow: _Flow) -> None:
        """A loop over a shuffled DataLoader (``for batch in loader:``, ``for i, b in
        enumerate(loader):``) draws the epoch's order from torch's generator."""
        while isinstance(expr, cst.Call) and dotted_name(expr.func) in ("enumerate", "iter", "tqdm", "tqdm.tqdm") and expr.args:
            expr = expr.args[0].value
        loader = expr if isinstance(expr, cst.Call) and self._shuffled_loader(expr) else flow.loaders.get(dotted_name(expr) or "")
        if loader is not None and "torch" not in flow.seeded:
            flow.unseeded.setdefault("torch", []).append((loader, frozenset()))

    def _import(self, node: "cst.Import | cst.ImportFrom", flow: _Flow) -> None:
        """An import of project modules runs their top levels: what they draw from a generator
        they do not seed themselves (``fixed_noise = torch.randn(64, 784)`` in ``utils.py``) is
        drawn there, at the import."""
        if self._seeding_bodies is not None and self._body not in self._seeding_bodies:
            return  # no seeding call in this body: what it draws is never drawn before a seed here
        modules = self.file.names.imported_modules(node)
        if not modules:
            return
        summary = self.file.project.import_summary(self.file.path, modules)
        for generator in summary.draws & frozenset(GENERATORS):
            if generator not in flow.seeded and generator not in summary.effects:
                flow.unseeded.setdefault(generator, []).append((node, frozenset()))  # type: ignore[arg-type]

    def _calls(self, node: cst.CSTNode, flow: _Flow, assigned: FrozenSet[str] = frozenset()) -> None:
        """The calls inside ``node`` in evaluation order (:func:`_calls_in_order`), each an
        event of the flow."""
        by_node = self.file.analysis(SeedingScan).by_node
        for call in _calls_in_order(node):
            site = by_node.get(id(call))
            if site is not None:
                self._event(site, flow, assigned)

    def _event(self, site: CallSite, flow: _Flow, assigned: FrozenSet[str]) -> None:
        seeds = self._seeded_by[id(site)]
        helper = catalog.SEED_HELPERS.get(site.name or "") if seeds else None
        if helper is not None and helper.given_model:
            # a Trainer that seeds as it is built: its arguments (the model) are no seed, and
            # what they draw (``Trainer(model=Net())``) is drawn before it seeds
            late = [(g, draws[0][0]) for g in GENERATORS if g in seeds and g not in flow.seeded and (draws := flow.unseeded.get(g))]
            if late:
                generator, use = late[0]
                self.report(
                    site.node,
                    message=BUILT_BEFORE_TRAINER_MESSAGE.format(
                        seed=dotted_name(site.node.func) or short(self.file.code_for(site.node.func)),
                        use=short(self.file.code_for(use)), generator=RNG_NAMES[generator],
                    ),
                )
            flow.seeded |= seeds
            for generator in seeds:
                flow.unseeded.pop(generator, None)
            return
        if seeds:
            # a draw that only picks the seed (``seed = random.randint(...)``, then
            # ``random.seed(seed)``) is what the user meant: not reported
            feeding = _mentioned_names(site.node.args[0]) if site.node.args else set()
            for arg in site.node.args[1:]:
                feeding |= _mentioned_names(arg)
            # an attribute of the object read (``seed_everything(self.env)``) is not all it holds:
            # ``self.net`` built before is drawn, not picking the seed
            feeding.discard("self")
            func = site.node.func
            if isinstance(func, cst.Attribute) and (
                (isinstance(func.value, cst.Name) and func.value.value == "self")
                or (isinstance(func.value, cst.Call) and isinstance(func.value.func, cst.Name) and func.value.func.value == "super")
            ):
                # the object's own seeding method (``super()._set_seed()``) reads the object's
                # state: a seed stored on it (``self.config["seed"] = random.randint(...)``) feeds it
                feeding.add("self")
            # and so is a draw written in the seeding call's own arguments
            # (``torch.manual_seed(torch.randint(0, 5000, (1,)) * pid)``)
            inside: Set[int] = set()
            stack: List[cst.CSTNode] = [arg.value for arg in site.node.args]
            while stack:
                part = stack.pop()
                inside.add(id(part))
                stack.extend(syntax_children(part))
            late: List[Tuple[str, cst.Call]] = []
            for generator in GENERATORS:
                if generator not in seeds or generator in flow.seeded:
                    continue
                draws = [call for call, names in flow.unseeded.get(generator, ()) if not _feeds(names, feeding) and id(call) not in inside]
                if draws:
                    late.append((generator, draws[0]))
            if late:
                generator, use = late[0]
                name = dotted_name(site.node.func) or short(self.file.code_for(site.node.func))
                self.report(
                    site.node, seed=name, use=short(self.file.code_for(use)), generator=RNG_NAMES[generator]
                )
            flow.seeded |= seeds
            for generator in seeds:
                flow.unseeded.pop(generator, None)
            return
        # a project function that seeds a generator itself draws from it seeded (``def
        # pick(n, seed): np.random.seed(seed); return np.random.permutation(n)``)
        inside = (
            self.file.analysis(SeedingScan).call_summary(site).effects
            if not site.effect.known and site.name is not None else frozenset()
        )
        for generator in self._draws(site):
            if generator not in flow.seeded and generator not in inside:
                flow.unseeded.setdefault(generator, []).append((site.node, assigned))
